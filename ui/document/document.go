package document

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"

	"workrun/workrun"
)

// Errors the Document's commands return; the canvas shows them briefly.
var (
	ErrUnknownNode = errors.New("unknown node")
	ErrSelfLink    = errors.New("a node cannot connect to itself")
	ErrDuplicate   = errors.New("these nodes are already connected")
	ErrCycle       = errors.New("this edge would make a cycle")
	ErrIntoStart   = errors.New("nothing may lead into the start node")
)

// undoLimit bounds the undo stack; snapshots of 200-node workflows are small.
const undoLimit = 200

// Document is the editing model behind the canvas (docs/product.md W1): a workflow,
// the selection, a clipboard and an undo stack of snapshots. It is plain Go
// and safe to use only from the goroutine that owns it (the Fyne thread).
type Document struct {
	wf        workrun.Workflow
	undo      []workrun.Workflow
	redo      []workrun.Workflow
	selNodes  map[string]bool
	selEdges  map[EdgeKey]bool
	clipboard *clip
	dirty     bool
	// typing names the edit the last change belonged to ("cfg:ask:url"):
	// the next change with the same name joins it instead of adding an undo
	// step, so typing a URL is one step, not one per key.
	typing string
	// OnChange is called after every change of the workflow or selection.
	OnChange func()
	// NewNode is what a node of kind added by AddNode starts with: the name
	// its title is made from (numbered when a node already has it: "Human
	// review 2") and its config. The app layer words it in the window's
	// language from the kind's description; nil gives the kind's type and
	// "{}".
	NewNode func(kind string) (name string, config json.RawMessage)
}

// EdgeKey identifies an edge independently of its index.
type EdgeKey struct{ From, To string }

type clip struct {
	nodes []workrun.NodeSpec
	edges []workrun.Edge
	paste int // pastes so far, to offset each one
}

// NewDocument starts editing a copy of wf.
func NewDocument(wf workrun.Workflow) *Document {
	d := &Document{wf: CloneWorkflow(wf), selNodes: map[string]bool{}, selEdges: map[EdgeKey]bool{}}
	if d.wf.State == nil {
		d.wf.State = map[string]workrun.FieldType{}
	}
	return d
}

// Workflow returns a copy of the workflow being edited.
func (d *Document) Workflow() workrun.Workflow { return CloneWorkflow(d.wf) }

// Name is the workflow's name.
func (d *Document) Name() string { return d.wf.Name }

// State returns a copy of the workflow's State fields.
func (d *Document) State() map[string]workrun.FieldType { return maps.Clone(d.wf.State) }

// Edge returns the edge k names.
func (d *Document) Edge(k EdgeKey) (workrun.Edge, bool) {
	i := d.edgeIndex(k)
	if i < 0 {
		return workrun.Edge{}, false
	}
	return d.wf.Edges[i], true
}

// Dirty reports whether the workflow changed since MarkSaved.
func (d *Document) Dirty() bool { return d.dirty }

// MarkSaved records that the current workflow was saved.
func (d *Document) MarkSaved() { d.dirty = false }

// MarkUnsaved records that the workflow is not saved though no edit made
// it so (a new workflow opened from a template).
func (d *Document) MarkUnsaved() { d.dirty = true }

// Node returns the node with this id.
func (d *Document) Node(id string) (workrun.NodeSpec, bool) {
	i := d.index(id)
	if i < 0 {
		return workrun.NodeSpec{}, false
	}
	return d.wf.Nodes[i], true
}

func (d *Document) index(id string) int {
	return slices.IndexFunc(d.wf.Nodes, func(n workrun.NodeSpec) bool { return n.ID == id })
}

// CanUndo and CanRedo report whether there is something to undo or redo.
func (d *Document) CanUndo() bool { return len(d.undo) > 0 }
func (d *Document) CanRedo() bool { return len(d.redo) > 0 }

// checkpoint saves the current workflow before a change.
func (d *Document) checkpoint() { d.checkpointAs("") }

// checkpointAs is checkpoint for a change named as; a change with the same
// name as the one before joins its undo step.
func (d *Document) checkpointAs(as string) {
	joined := as != "" && as == d.typing
	d.typing = as
	d.redo = nil
	d.dirty = true
	if joined {
		return
	}
	d.undo = append(d.undo, CloneWorkflow(d.wf))
	if len(d.undo) > undoLimit {
		d.undo = d.undo[1:]
	}
}

func (d *Document) changed() {
	// Drop selected things that no longer exist.
	for id := range d.selNodes {
		if d.index(id) < 0 {
			delete(d.selNodes, id)
		}
	}
	for k := range d.selEdges {
		if d.edgeIndex(k) < 0 {
			delete(d.selEdges, k)
		}
	}
	if d.OnChange != nil {
		d.OnChange()
	}
}

// Undo restores the workflow before the last change.
func (d *Document) Undo() bool {
	if len(d.undo) == 0 {
		return false
	}
	d.typing = ""
	d.redo = append(d.redo, d.wf)
	d.wf = d.undo[len(d.undo)-1]
	d.undo = d.undo[:len(d.undo)-1]
	d.dirty = true
	d.changed()
	return true
}

// Redo applies again the last undone change.
func (d *Document) Redo() bool {
	if len(d.redo) == 0 {
		return false
	}
	d.typing = ""
	d.undo = append(d.undo, d.wf)
	d.wf = d.redo[len(d.redo)-1]
	d.redo = d.redo[:len(d.redo)-1]
	d.dirty = true
	d.changed()
	return true
}

// newID returns an unused node id made from the kind's name.
func (d *Document) newID(kind string) string {
	if d.index(kind) < 0 {
		return kind
	}
	for n := 2; ; n++ {
		id := kind + strconv.Itoa(n)
		if d.index(id) < 0 {
			return id
		}
	}
}

// AddNode adds a node of kind at pos with the kind's default config, selects
// it alone and returns its id.
func (d *Document) AddNode(kind string, pos workrun.Position) string {
	d.checkpoint()
	id := d.newID(kind)
	p := pos
	name, cfg := kind, json.RawMessage("{}")
	if d.NewNode != nil {
		name, cfg = d.NewNode(kind)
	}
	d.wf.Nodes = append(d.wf.Nodes, workrun.NodeSpec{ID: id, Type: kind, Title: d.freeTitle(name), Config: cfg, Position: &p})
	d.selectOnly([]string{id})
	d.changed()
	return id
}

// freeTitle is base, numbered when a node already has it ("Human review 2").
func (d *Document) freeTitle(base string) string {
	taken := func(t string) bool {
		return slices.ContainsFunc(d.wf.Nodes, func(n workrun.NodeSpec) bool { return n.Title == t })
	}
	if !taken(base) {
		return base
	}
	for i := 2; ; i++ {
		if t := base + " " + strconv.Itoa(i); !taken(t) {
			return t
		}
	}
}

// MoveNodes moves the nodes by (dx, dy) as one undoable step.
func (d *Document) MoveNodes(ids []string, dx, dy float32) {
	if len(ids) == 0 || (dx == 0 && dy == 0) {
		return
	}
	d.checkpoint()
	for _, id := range ids {
		if i := d.index(id); i >= 0 {
			p := d.position(i)
			d.wf.Nodes[i].Position = &workrun.Position{X: p.X + dx, Y: p.Y + dy}
		}
	}
	d.changed()
}

// Position returns where a node is drawn; nodes without a saved position
// are laid out in a row.
func (d *Document) Position(id string) workrun.Position {
	i := d.index(id)
	if i < 0 {
		return workrun.Position{}
	}
	return d.position(i)
}

// Len is the number of nodes; NodeAt and PositionAt read the i-th in
// workflow order without copying the workflow (the canvas lays out every
// node on each pan and zoom).
func (d *Document) Len() int { return len(d.wf.Nodes) }

// NodeAt is the i-th node (0 <= i < Len), as Node returns it.
func (d *Document) NodeAt(i int) workrun.NodeSpec { return d.wf.Nodes[i] }

// IndexOf is the place of node id in workflow order, -1 when there is none.
func (d *Document) IndexOf(id string) int { return d.index(id) }

// Edges returns a copy of the workflow's edges.
func (d *Document) Edges() []workrun.Edge { return slices.Clone(d.wf.Edges) }

// PositionAt is Position of the i-th node.
func (d *Document) PositionAt(i int) workrun.Position { return d.position(i) }

func (d *Document) position(i int) workrun.Position {
	if p := d.wf.Nodes[i].Position; p != nil {
		return *p
	}
	return workrun.Position{X: 40 + float32(i%8)*200, Y: 40 + float32(i/8)*120}
}

// Connect adds an edge from → to. Edges leaving a condition get When "true"
// for the first and "false" for the second.
func (d *Document) Connect(from, to string) error {
	fi, ti := d.index(from), d.index(to)
	switch {
	case fi < 0 || ti < 0:
		return fmt.Errorf("connect %s → %s: %w", from, to, ErrUnknownNode)
	case from == to:
		return ErrSelfLink
	case d.edgeIndex(EdgeKey{from, to}) >= 0:
		return ErrDuplicate
	case d.wf.Nodes[ti].Type == "start":
		return ErrIntoStart
	case d.reaches(to, from):
		return ErrCycle
	}
	e := workrun.Edge{From: from, To: to}
	if d.wf.Nodes[fi].Type == "condition" {
		e.When = "true"
		for _, x := range d.wf.Edges {
			if x.From == from && x.When == "true" {
				e.When = "false"
			}
		}
	}
	d.checkpoint()
	d.wf.Edges = append(d.wf.Edges, e)
	d.changed()
	return nil
}

// reaches reports whether a path leads from a to b.
func (d *Document) reaches(a, b string) bool {
	seen := map[string]bool{}
	stack := []string{a}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == b {
			return true
		}
		if seen[n] {
			continue
		}
		seen[n] = true
		for _, e := range d.wf.Edges {
			if e.From == n {
				stack = append(stack, e.To)
			}
		}
	}
	return false
}

func (d *Document) edgeIndex(k EdgeKey) int {
	return slices.IndexFunc(d.wf.Edges, func(e workrun.Edge) bool { return e.From == k.From && e.To == k.To })
}

// Select changes the selection: alone replaces it, otherwise id toggles.
func (d *Document) Select(id string, add bool) {
	d.typing = ""
	if !add {
		d.selectOnly([]string{id})
	} else if d.selNodes[id] {
		delete(d.selNodes, id)
	} else if d.index(id) >= 0 {
		d.selNodes[id] = true
	}
	d.changed()
}

// SelectEdge selects one edge (with add, toggles it into the selection).
func (d *Document) SelectEdge(k EdgeKey, add bool) {
	d.typing = ""
	if !add {
		clear(d.selNodes)
		clear(d.selEdges)
	}
	if d.edgeIndex(k) >= 0 {
		d.selEdges[k] = !d.selEdges[k]
		if !d.selEdges[k] {
			delete(d.selEdges, k)
		}
	}
	d.changed()
}

// SelectNodes selects ids (with add, in addition to the selection).
func (d *Document) SelectNodes(ids []string, add bool) {
	d.typing = ""
	if !add {
		clear(d.selNodes)
		clear(d.selEdges)
	}
	for _, id := range ids {
		if d.index(id) >= 0 {
			d.selNodes[id] = true
		}
	}
	d.changed()
}

// SelectAll selects every node; ClearSelection selects nothing.
func (d *Document) SelectAll() {
	for _, n := range d.wf.Nodes {
		d.selNodes[n.ID] = true
	}
	d.changed()
}

func (d *Document) ClearSelection() {
	d.typing = ""
	clear(d.selNodes)
	clear(d.selEdges)
	d.changed()
}

// SelectSilently selects ids alone without calling OnChange: a drag
// selects the node it starts on, and its drop (MoveNodes) reports both.
func (d *Document) SelectSilently(ids []string) { d.selectOnly(ids) }

func (d *Document) selectOnly(ids []string) {
	clear(d.selNodes)
	clear(d.selEdges)
	for _, id := range ids {
		d.selNodes[id] = true
	}
}

// Selected returns the selected node ids in workflow order.
func (d *Document) Selected() []string {
	var out []string
	for _, n := range d.wf.Nodes {
		if d.selNodes[n.ID] {
			out = append(out, n.ID)
		}
	}
	return out
}

// IsSelected and EdgeSelected report selection state.
func (d *Document) IsSelected(id string) bool   { return d.selNodes[id] }
func (d *Document) EdgeSelected(k EdgeKey) bool { return d.selEdges[k] }
func (d *Document) SelectedEdges() int          { return len(d.selEdges) }

// SelectedEdgeKeys returns the selected edges in workflow order.
func (d *Document) SelectedEdgeKeys() []EdgeKey {
	var out []EdgeKey
	for _, e := range d.wf.Edges {
		if k := (EdgeKey{e.From, e.To}); d.selEdges[k] {
			out = append(out, k)
		}
	}
	return out
}

// UndoSteps is the number of steps Undo can take back.
func (d *Document) UndoSteps() int { return len(d.undo) }

// DeleteSelection removes the selected nodes with their edges and the
// selected edges, as one undoable step.
func (d *Document) DeleteSelection() bool {
	if len(d.selNodes) == 0 && len(d.selEdges) == 0 {
		return false
	}
	d.checkpoint()
	d.wf.Nodes = slices.DeleteFunc(d.wf.Nodes, func(n workrun.NodeSpec) bool { return d.selNodes[n.ID] })
	d.wf.Edges = slices.DeleteFunc(d.wf.Edges, func(e workrun.Edge) bool {
		return d.selNodes[e.From] || d.selNodes[e.To] || d.selEdges[EdgeKey{e.From, e.To}]
	})
	d.changed()
	return true
}

// Copy puts the selected nodes and the edges among them on the clipboard.
func (d *Document) Copy() int {
	sel := d.Selected()
	if len(sel) == 0 {
		return 0
	}
	c := &clip{}
	for _, id := range sel {
		n := d.wf.Nodes[d.index(id)]
		n.Config = slices.Clone(n.Config)
		p := d.Position(id)
		n.Position = &p
		c.nodes = append(c.nodes, n)
	}
	for _, e := range d.wf.Edges {
		if d.selNodes[e.From] && d.selNodes[e.To] {
			c.edges = append(c.edges, e)
		}
	}
	d.clipboard = c
	return len(sel)
}

// Paste adds the clipboard's nodes under fresh ids, offset from the
// originals, and selects them. It returns the new ids.
func (d *Document) Paste() []string {
	if d.clipboard == nil || len(d.clipboard.nodes) == 0 {
		return nil
	}
	d.checkpoint()
	d.clipboard.paste++
	off := float32(30 * d.clipboard.paste)
	rename := map[string]string{}
	var ids []string
	for _, n := range d.clipboard.nodes {
		if n.Type == "start" && d.hasType("start") {
			continue // one start per workflow
		}
		id := d.newID(n.Type)
		rename[n.ID] = id
		n.ID = id
		n.Config = slices.Clone(n.Config)
		n.Position = &workrun.Position{X: n.Position.X + off, Y: n.Position.Y + off}
		d.wf.Nodes = append(d.wf.Nodes, n)
		ids = append(ids, id)
	}
	for _, e := range d.clipboard.edges {
		f, okf := rename[e.From]
		t, okt := rename[e.To]
		if okf && okt {
			d.wf.Edges = append(d.wf.Edges, workrun.Edge{From: f, To: t, When: e.When})
		}
	}
	d.selectOnly(ids)
	d.changed()
	return ids
}

// Duplicate copies and pastes the selection in one go, keeping the clipboard.
func (d *Document) Duplicate() []string {
	saved := d.clipboard
	defer func() { d.clipboard = saved }()
	if d.Copy() == 0 {
		return nil
	}
	return d.Paste()
}

func (d *Document) hasType(kind string) bool {
	return slices.ContainsFunc(d.wf.Nodes, func(n workrun.NodeSpec) bool { return n.Type == kind })
}

// SetTitle changes a node's title.
func (d *Document) SetTitle(id, title string) { d.EditTitle(id, title, "") }

// EditTitle is SetTitle as part of the named edit as (see checkpointAs).
func (d *Document) EditTitle(id, title, as string) {
	i := d.index(id)
	if i < 0 || d.wf.Nodes[i].Title == title {
		return
	}
	d.checkpointAs(as)
	d.wf.Nodes[i].Title = title
	d.changed()
}

// SetConfig replaces a node's config.
func (d *Document) SetConfig(id string, cfg json.RawMessage) { d.EditConfig(id, cfg, "") }

// EditConfig is SetConfig as part of the named edit as (see checkpointAs).
func (d *Document) EditConfig(id string, cfg json.RawMessage, as string) {
	i := d.index(id)
	if i < 0 || string(d.wf.Nodes[i].Config) == string(cfg) {
		return
	}
	d.checkpointAs(as)
	d.wf.Nodes[i].Config = slices.Clone(cfg)
	d.changed()
}

// SetEdgeWhen sets the branch label of an edge leaving a condition.
func (d *Document) SetEdgeWhen(k EdgeKey, when string) {
	i := d.edgeIndex(k)
	if i < 0 || d.wf.Edges[i].When == when {
		return
	}
	d.checkpoint()
	d.wf.Edges[i].When = when
	d.changed()
}

// SetName renames the workflow.
func (d *Document) SetName(name string) { d.EditName(name, "") }

// EditName is SetName as part of the named edit as (see checkpointAs).
func (d *Document) EditName(name, as string) {
	if d.wf.Name == name {
		return
	}
	d.checkpointAs(as)
	d.wf.Name = name
	d.changed()
}

// SetPublish sets the workflow's publish settings (nil: not published),
// one undo step (docs/serve.md, docs/workflow-format.md#publish).
func (d *Document) SetPublish(p *workrun.Publish) {
	if reflect.DeepEqual(d.wf.Publish, p) {
		return
	}
	d.checkpoint()
	d.wf.Publish = nil
	if p != nil {
		c := *p
		c.Inputs, c.Outputs = slices.Clone(p.Inputs), slices.Clone(p.Outputs)
		d.wf.Publish = &c
	}
	d.changed()
}

// SetField adds or changes a State field; an empty type removes it.
func (d *Document) SetField(name string, t workrun.FieldType) {
	if d.wf.State[name] == t {
		return
	}
	d.checkpoint()
	if t == "" {
		delete(d.wf.State, name)
	} else {
		d.wf.State[name] = t
	}
	d.changed()
}

// CreateField adds State field name of type t and sets node id's config
// to cfg, which uses it, as one undo step: a field made from a node's
// inspector is never left half made by an undo.
func (d *Document) CreateField(name string, t workrun.FieldType, id string, cfg json.RawMessage) {
	i := d.index(id)
	if _, ok := d.wf.State[name]; ok || t == "" || i < 0 {
		return
	}
	d.checkpoint()
	d.wf.State[name] = t
	d.wf.Nodes[i].Config = slices.Clone(cfg)
	d.changed()
}

// SetNameUnedited renames the workflow without an undo step and without
// making it dirty: for a name the window gave (a new, untouched
// workflow's), not one the person typed.
func (d *Document) SetNameUnedited(name string) { d.wf.Name = name }

// CloneWorkflow is a deep copy of wf: nothing of it shares memory with wf.
func CloneWorkflow(wf workrun.Workflow) workrun.Workflow {
	out := workrun.Workflow{Name: wf.Name, State: make(map[string]workrun.FieldType, len(wf.State))}
	for k, v := range wf.State {
		out.State[k] = v
	}
	out.Nodes = make([]workrun.NodeSpec, len(wf.Nodes))
	for i, n := range wf.Nodes {
		n.Config = slices.Clone(n.Config)
		if n.Position != nil {
			p := *n.Position
			n.Position = &p
		}
		out.Nodes[i] = n
	}
	out.Edges = slices.Clone(wf.Edges)
	if wf.Publish != nil {
		p := *wf.Publish
		p.Inputs, p.Outputs = slices.Clone(p.Inputs), slices.Clone(p.Outputs)
		out.Publish = &p
	}
	return out
}
