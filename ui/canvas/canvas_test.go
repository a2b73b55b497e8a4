package canvas

import (
	"encoding/json"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"workrun/ui/document"
	"workrun/workrun"
)

// testWords is a Localizer giving every label's fallback (English).
type testWords struct{}

func (testWords) X(_, fallback string) string { return fallback }

// testWording words kinds by their type, in two palette groups.
func testWording() Wording {
	return Wording{
		KindLabel: func(kind string) string { return kind },
		KindIcon:  func(string) fyne.Resource { return theme.FileApplicationIcon() },
		KindGroups: func() []PaletteGroup {
			return []PaletteGroup{
				{Name: "logic", Label: "Logic", Kinds: []string{"start", "set", "join", "output"}},
				{Name: "people", Label: "People", Kinds: []string{"human_review", "ask_human"}},
			}
		},
		Status:  func(s workrun.NodeStatus) string { return string(s) },
		Problem: func(p workrun.Problem) string { return p.Message },
	}
}

// newTestDocument edits wf; a new node is titled by its kind.
func newTestDocument(wf workrun.Workflow) *document.Document {
	d := document.NewDocument(wf)
	d.NewNode = func(kind string) (string, json.RawMessage) { return kind, json.RawMessage("{}") }
	return d
}

// newTestView shows wf in an editable view.
func newTestView(wf workrun.Workflow) *View {
	return New(newTestDocument(wf), false, testWords{}, testWording())
}

// bigWorkflow is a chain-and-fan workflow of n nodes and about 1.5·n edges
// (the benchmarks use 200/300 and 500/800).
func bigWorkflow(n, edges int) workrun.Workflow {
	wf := workrun.Workflow{Name: "big", State: map[string]workrun.FieldType{"x": workrun.FieldText}}
	for i := 0; i < n; i++ {
		kind := "join"
		if i == 0 {
			kind = "start"
		}
		wf.Nodes = append(wf.Nodes, workrun.NodeSpec{ID: fmt.Sprintf("n%d", i), Type: kind,
			Position: &workrun.Position{X: float32(i%20) * 200, Y: float32(i/20) * 100}})
	}
	for i := 1; i < n && len(wf.Edges) < edges; i++ {
		wf.Edges = append(wf.Edges, workrun.Edge{From: fmt.Sprintf("n%d", i-1), To: fmt.Sprintf("n%d", i)})
	}
	for i := 2; i < n && len(wf.Edges) < edges; i++ {
		wf.Edges = append(wf.Edges, workrun.Edge{From: fmt.Sprintf("n%d", i-2), To: fmt.Sprintf("n%d", i)})
	}
	return wf
}
