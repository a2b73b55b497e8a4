package document

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"workrun/workrun"
)

func edgesOf(d *Document) []workrun.Edge { return d.Workflow().Edges }

func nodeIDs(d *Document) []string {
	var ids []string
	for _, n := range d.Workflow().Nodes {
		ids = append(ids, n.ID)
	}
	return ids
}

// TestDocument_W1Editing drives the editing model through the commands the
// canvas uses (docs/product.md W1) and checks the workflow after each step.
func TestDocument_W1Editing(t *testing.T) {
	tests := []struct {
		name      string
		edit      func(d *Document) error
		wantNodes []string
		wantEdges []workrun.Edge
	}{
		{"add numbers ids per kind", func(d *Document) error {
			d.AddNode("set", workrun.Position{})
			d.AddNode("set", workrun.Position{})
			return nil
		}, []string{"start", "set", "set2"}, nil},
		{"connect", func(d *Document) error {
			s := d.AddNode("set", workrun.Position{})
			return d.Connect("start", s)
		}, []string{"start", "set"}, []workrun.Edge{{From: "start", To: "set"}}},
		{"condition edges get true then false", func(d *Document) error {
			c := d.AddNode("condition", workrun.Position{})
			a := d.AddNode("set", workrun.Position{})
			b := d.AddNode("output", workrun.Position{})
			return errors.Join(d.Connect("start", c), d.Connect(c, a), d.Connect(c, b))
		}, []string{"start", "condition", "set", "output"}, []workrun.Edge{
			{From: "start", To: "condition"}, {From: "condition", To: "set", When: "true"}, {From: "condition", To: "output", When: "false"}}},
		{"delete node removes its edges", func(d *Document) error {
			s := d.AddNode("set", workrun.Position{})
			o := d.AddNode("output", workrun.Position{})
			if err := errors.Join(d.Connect("start", s), d.Connect(s, o)); err != nil {
				return err
			}
			d.Select(s, false)
			d.DeleteSelection()
			return nil
		}, []string{"start", "output"}, nil},
		{"delete selected edge only", func(d *Document) error {
			s := d.AddNode("set", workrun.Position{})
			if err := d.Connect("start", s); err != nil {
				return err
			}
			d.SelectEdge(EdgeKey{"start", s}, false)
			d.DeleteSelection()
			return nil
		}, []string{"start", "set"}, nil},
		{"undo restores deleted node and edge", func(d *Document) error {
			s := d.AddNode("set", workrun.Position{})
			if err := d.Connect("start", s); err != nil {
				return err
			}
			d.Select(s, false)
			d.DeleteSelection()
			d.Undo()
			return nil
		}, []string{"start", "set"}, []workrun.Edge{{From: "start", To: "set"}}},
		{"undo then redo", func(d *Document) error {
			s := d.AddNode("set", workrun.Position{})
			_ = d.Connect("start", s)
			d.Undo()
			d.Undo()
			d.Redo()
			return nil
		}, []string{"start", "set"}, nil},
		{"copy paste keeps inner edges with fresh ids", func(d *Document) error {
			a := d.AddNode("set", workrun.Position{})
			b := d.AddNode("output", workrun.Position{})
			_ = d.Connect("start", a)
			_ = d.Connect(a, b)
			d.Select(a, false)
			d.Select(b, true)
			d.Copy()
			d.Paste()
			return nil
		}, []string{"start", "set", "output", "set2", "output2"}, []workrun.Edge{
			{From: "start", To: "set"}, {From: "set", To: "output"}, {From: "set2", To: "output2"}}},
		{"duplicate never copies start", func(d *Document) error {
			d.SelectAll()
			d.Duplicate()
			return nil
		}, []string{"start"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := NewDocument(workrun.Workflow{Name: "t"})
			d.AddNode("start", workrun.Position{})
			if err := tt.edit(d); err != nil {
				t.Fatalf("edit: %v", err)
			}
			if diff := cmp.Diff(tt.wantNodes, nodeIDs(d)); diff != "" {
				t.Errorf("nodes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantEdges, edgesOf(d), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("edges (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDocument_ConnectRefusals(t *testing.T) {
	d := NewDocument(workrun.Workflow{})
	st := d.AddNode("start", workrun.Position{})
	a := d.AddNode("set", workrun.Position{})
	b := d.AddNode("set", workrun.Position{})
	if err := errors.Join(d.Connect(st, a), d.Connect(a, b)); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		from, to string
		want     error
	}{
		{a, a, ErrSelfLink},
		{a, b, ErrDuplicate},
		{b, a, ErrCycle},
		{b, st, ErrIntoStart},
		{a, "nope", ErrUnknownNode},
	}
	for _, tt := range tests {
		if err := d.Connect(tt.from, tt.to); !errors.Is(err, tt.want) {
			t.Errorf("Connect(%s, %s) = %v, want %v", tt.from, tt.to, err, tt.want)
		}
	}
	if got := len(edgesOf(d)); got != 2 {
		t.Errorf("refused connects changed the edges: %d edges", got)
	}
}

func TestDocument_MoveIsOneUndoStep(t *testing.T) {
	d := NewDocument(workrun.Workflow{})
	a := d.AddNode("set", workrun.Position{X: 10, Y: 20})
	d.MoveNodes([]string{a}, 5, 7)
	if got, want := d.Position(a), (workrun.Position{X: 15, Y: 27}); got != want {
		t.Fatalf("after move %v, want %v", got, want)
	}
	d.Undo()
	if got, want := d.Position(a), (workrun.Position{X: 10, Y: 20}); got != want {
		t.Fatalf("after undo %v, want %v", got, want)
	}
	if !d.Dirty() {
		t.Error("document not dirty after edits")
	}
}

func TestDocument_WorkflowIsACopy(t *testing.T) {
	d := NewDocument(workrun.Workflow{})
	a := d.AddNode("set", workrun.Position{X: 1})
	wf := d.Workflow()
	wf.Nodes[0].Position.X = 99
	wf.Nodes[0].Config[0] = 'x'
	if d.Position(a).X != 1 {
		t.Error("changing the returned workflow changed the document")
	}
}
