package document

import "workrun/workrun"

// NodePolicy is a node's failure handling keys (docs/workflow-format.md
// "Failure handling"), as the inspector edits them.
type NodePolicy struct {
	Retry           *workrun.RetryPolicy
	OnError         workrun.OnError
	ErrorField      string
	DeadlineSeconds int
}

// PolicyOf is node n's failure handling keys.
func PolicyOf(n workrun.NodeSpec) NodePolicy {
	p := NodePolicy{OnError: n.OnError, ErrorField: n.ErrorField, DeadlineSeconds: n.DeadlineSeconds}
	if n.Retry != nil {
		r := *n.Retry
		p.Retry = &r
	}
	return p
}

// SetPolicy replaces a node's failure handling keys, as one undo step.
func (d *Document) SetPolicy(id string, p NodePolicy) {
	i := d.index(id)
	if i < 0 {
		return
	}
	n := &d.wf.Nodes[i]
	if samePolicy(PolicyOf(*n), p) {
		return
	}
	d.checkpoint()
	n.Retry, n.OnError, n.ErrorField, n.DeadlineSeconds = p.Retry, p.OnError, p.ErrorField, p.DeadlineSeconds
	d.changed()
}

func samePolicy(a, b NodePolicy) bool {
	if (a.Retry == nil) != (b.Retry == nil) || a.Retry != nil && *a.Retry != *b.Retry {
		return false
	}
	return a.OnError == b.OnError && a.ErrorField == b.ErrorField && a.DeadlineSeconds == b.DeadlineSeconds
}

// SetEdgePort makes the edge leave its source's normal output (port "")
// or its error port (workrun.PortError).
func (d *Document) SetEdgePort(k EdgeKey, port string) {
	i := d.edgeIndex(k)
	if i < 0 || d.wf.Edges[i].Port == port {
		return
	}
	d.checkpoint()
	d.wf.Edges[i].Port = port
	if port != "" {
		d.wf.Edges[i].When = "" // an error edge takes no branch label
	}
	d.changed()
}
