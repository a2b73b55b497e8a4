package runpanel

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// TestQuestionForm_NamesNodeAndNaturalLabels: an MCP server's form names
// the node that asks (its title) with the server second, in the form's
// header and the run's reason line, and the form's label column is as
// wide as its labels' text, not a third of a 1440 px panel.
func TestQuestionForm_NamesNodeAndNaturalLabels(t *testing.T) {
	for _, tt := range []struct{ lng, asks string }{
		{"en", "Survey (127.0.0.1:36297) asks"},
		{"zh-Hans", "Survey（127.0.0.1:36297） 提问"},
	} {
		t.Run(tt.lng, func(t *testing.T) {
			test.NewTempApp(t)
			setLanguage(tt.lng)
			t.Cleanup(func() { setLanguage("en") })
			q := workrun.Question{Round: 1, Kind: workrun.QuestionForm, From: "127.0.0.1:36297", Message: "Which region?",
				Schema: []byte(`{"type":"object","properties":{"region":{"type":"string","description":"A region"}},"required":["region"]}`)}
			p := newPanel(langNow(), false)
			p.OnDecide = func(workrun.Decision) {}
			wf := workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "survey", Type: "remote_mcp", Title: "Survey"}}}
			p.Load(workrun.Run{ID: "r1", Workflow: wf, Status: workrun.RunInterrupted, Interruption: workrun.InterruptedByHuman},
				[]workrun.NodeRun{{RunID: "r1", NodeID: "survey", Type: "remote_mcp", Status: workrun.NodeInterrupted, Question: &q}}, nil)
			test.NewWindow(p.Object()).Resize(fyne.NewSize(1440, 900))
			labels := visibleLabels(p.Object())
			if !strings.Contains(labels, tt.asks) {
				t.Errorf("the question does not say %q:\n%s", tt.asks, labels)
			}
			if !strings.Contains(p.reasonFull, tt.asks) {
				t.Errorf("the run's reason line says %q, want %q", p.reasonFull, tt.asks)
			}
			var name *widget.Label
			for _, l := range objectsOf[*widget.Label](p.Object()) {
				if strings.HasPrefix(l.Text, "region *") {
					name = l
				}
			}
			if name == nil {
				t.Fatal("no label for the field region")
			}
			natural := max(fyne.MeasureText("region *", theme.TextSize(), fyne.TextStyle{}).Width,
				fyne.MeasureText("A region", theme.TextSize(), fyne.TextStyle{}).Width) + 2*theme.InnerPadding()
			if w := name.Size().Width; w > natural+1 {
				t.Errorf("the label column is %.0f px wide, want its text's %.0f px", w, natural)
			}
		})
	}
}
