package document

import (
	"encoding/json"
	"slices"

	"workrun/workrun"
)

// Config helpers: a node's config read and written as its keys, every key
// the form does not describe kept as it is.

// ConfigMap reads a config as its keys; a config that is no JSON object
// reads as none.
func ConfigMap(raw json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil || m == nil {
		return map[string]json.RawMessage{}
	}
	return m
}

// ConfigString is the string value of key in a config ("" when absent or
// not a string).
func ConfigString(raw json.RawMessage, key string) string {
	var s string
	if v, ok := ConfigMap(raw)[key]; !ok || json.Unmarshal(v, &s) != nil {
		return ""
	}
	return s
}

// EncodeConfig writes config values as a workflow file holds them.
func EncodeConfig(vals map[string]any) json.RawMessage {
	b, err := json.Marshal(vals)
	if err != nil {
		return json.RawMessage("{}") // only values read from JSON or typed into a form reach here
	}
	return b
}

// MergeConfig writes the form's values over orig: each key info describes
// is set to its value in vals or, without one, left out; the keys info
// does not describe (a newer engine's) are kept as they are, so the
// inspector never drops them.
func MergeConfig(orig json.RawMessage, info workrun.KindInfo, vals map[string]any) json.RawMessage {
	m := ConfigMap(orig)
	for _, f := range info.Fields {
		delete(m, f.Key)
		v, ok := vals[f.Key]
		if !ok {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			continue // see EncodeConfig
		}
		m[f.Key] = b
	}
	b, err := json.Marshal(m)
	if err != nil {
		return orig
	}
	return b
}

// WithConfigKey returns raw with key set to v, every other key kept.
func WithConfigKey(raw json.RawMessage, key string, v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return raw // see EncodeConfig
	}
	m := ConfigMap(raw)
	m[key] = b
	out, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return out
}

// WorkflowInputs returns the State fields a run must be given: those no
// node writes before a node reads them, and those no node writes at all.
// They come in the order the workflow first reads them (nodes in list
// order), then the unread ones by name. fields are what each node reads
// and writes as its kind compiles it (Engine.Fields).
func WorkflowInputs(wf workrun.Workflow, fields map[string]workrun.NodeFields) []string {
	preds := map[string][]string{}
	for _, e := range wf.Edges {
		preds[e.To] = append(preds[e.To], e.From)
	}
	written := map[string]bool{}
	for _, nf := range fields {
		for _, f := range nf.Writes {
			written[f] = true
		}
	}
	// upstreamWrites: does a node before id (on some path) write f?
	upstreamWrites := func(id, f string) bool {
		seen := map[string]bool{}
		stack := slices.Clone(preds[id])
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[p] {
				continue
			}
			seen[p] = true
			if slices.Contains(fields[p].Writes, f) {
				return true
			}
			stack = append(stack, preds[p]...)
		}
		return false
	}
	var out []string
	for _, n := range wf.Nodes {
		for _, f := range fields[n.ID].Reads {
			if _, ok := wf.State[f]; !ok || slices.Contains(out, f) {
				continue
			}
			if !written[f] || !upstreamWrites(n.ID, f) {
				out = append(out, f)
			}
		}
	}
	for _, f := range FieldNames(wf.State) {
		if !written[f] && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// FieldNames lists the State fields of the given types (all when none),
// sorted.
func FieldNames(s map[string]workrun.FieldType, types ...workrun.FieldType) []string {
	var out []string
	for n, t := range s {
		if len(types) == 0 || slices.Contains(types, t) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}
