package runpanel

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
)

// TestRunPanel_Actions checks the run-level buttons per status (docs/remote-agent.md R12, R13, R8).
func TestRunPanel_Actions(t *testing.T) {
	tests := []struct {
		name string
		run  workrun.Run
		want []string
	}{
		{"running offers Stop", workrun.Run{Status: workrun.RunRunning}, []string{"Stop"}},
		{"stopping shows stopping… until the hooks end", workrun.Run{Status: workrun.RunStopping}, []string{"stopping…"}},
		{"stopped offers only Run again", workrun.Run{Status: workrun.RunStopped}, []string{"Run again"}},
		{"failed offers only Run again", workrun.Run{Status: workrun.RunFailed, Reason: "x"}, []string{"Run again"}},
		{"interrupted by exit offers Resume and Stop", workrun.Run{Status: workrun.RunInterrupted, Interruption: workrun.InterruptedByExit}, []string{"Resume", "Stop"}},
		{"remote input-required cannot be answered: Stop or Run again", workrun.Run{Status: workrun.RunInterrupted, Interruption: workrun.InterruptedByRemote}, []string{"Stop", "Run again"}},
	}
	setLanguage("en")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPanel(langNow(), false)
			p.OnStop, p.OnResume, p.OnRunAgain = func() {}, func() {}, func() {}
			tt.run.ID = "r"
			p.Start("r", workrun.Workflow{Name: "wf"})
			p.Apply(runEv(tt.run))
			if diff := cmp.Diff(tt.want, p.ActionLabels()); diff != "" {
				t.Errorf("actions (-want +got):\n%s", diff)
			}
			for _, a := range p.ActionLabels() {
				if strings.Contains(strings.ToLower(a), "continue") {
					t.Errorf("offers %q (docs/remote-agent.md R12)", a)
				}
			}
		})
	}
}

// TestRunPanel_HumanDecisions shows Approve/Reject and an answer box for
// nodes waiting for a person, and sends the decision to the engine.
func TestRunPanel_HumanDecisions(t *testing.T) {
	var got []workrun.Decision
	p := newPanel(langNow(), false)
	p.OnDecide = func(d workrun.Decision) { d.Time = time.Time{}; got = append(got, d) }
	p.Start("r", workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "rev", Type: "human_review"}, {ID: "ask", Type: "ask_human"}}})
	p.Apply(nodeEv("r", "rev", "human_review", workrun.NodeInterrupted, ""))
	p.Apply(nodeEv("r", "ask", "ask_human", workrun.NodeInterrupted, ""))
	p.Apply(runEv(workrun.Run{ID: "r", Status: workrun.RunInterrupted, Interruption: workrun.InterruptedByHuman}))
	var approve, reject, answer func()
	p.Pick("rev")
	for _, o := range p.decision.Objects {
		if b, ok := o.(interface{ Tapped(*fyne.PointEvent) }); ok {
			switch lbl := buttonText(o); lbl {
			case "Approve":
				approve = func() { b.Tapped(nil) }
			case "Reject":
				reject = func() { b.Tapped(nil) }
			}
		}
	}
	if approve == nil || reject == nil {
		t.Fatal("review buttons missing")
	}
	approve()
	reject()
	p.Pick("ask")
	for _, o := range p.decision.Objects {
		if buttonText(o) == "Answer" {
			answer = func() { o.(interface{ Tapped(*fyne.PointEvent) }).Tapped(nil) }
		}
	}
	if answer == nil {
		t.Fatal("answer button missing")
	}
	entry := findEntry(p.decision)
	entry.SetText("forty-two")
	answer()
	want := []workrun.Decision{
		{RunID: "r", NodeID: "rev", Approved: true},
		{RunID: "r", NodeID: "rev", Approved: false},
		{RunID: "r", NodeID: "ask", Approved: true, Text: "forty-two"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decisions (-want +got):\n%s", diff)
	}
}

func buttonText(o fyne.CanvasObject) string {
	if b, ok := o.(*widget.Button); ok {
		return b.Text
	}
	return ""
}

func findEntry(c *fyne.Container) *widget.Entry {
	for _, o := range test.LaidOutObjects(c) {
		if e, ok := o.(*widget.Entry); ok {
			return e
		}
	}
	return nil
}

// TestRunPanel_AutoSelectSkipsSkippedNodes: after a run whose last node in
// the workflow is a branch not taken, the panel shows the last node that ran,
// not the skipped one.
func TestRunPanel_AutoSelectSkipsSkippedNodes(t *testing.T) {
	test.NewTempApp(t)
	setLanguage("en")
	wf := workrun.Workflow{Name: "wf", Nodes: []workrun.NodeSpec{{ID: "ask", Type: "remote_agent"}, {ID: "end", Type: "output"}, {ID: "on-error", Type: "output"}}}
	p := newPanel(langNow(), false)
	p.Start("r", wf)
	now := time.Now()
	p.Apply(workrun.Event{Type: "node", RunID: "r", NodeID: "ask", Node: &workrun.NodeRun{RunID: "r", NodeID: "ask", Type: "remote_agent", Status: workrun.NodeSucceeded, StartedAt: now, EndedAt: now}})
	p.Apply(workrun.Event{Type: "node", RunID: "r", NodeID: "end", Node: &workrun.NodeRun{RunID: "r", NodeID: "end", Type: "output", Status: workrun.NodeSucceeded, StartedAt: now, EndedAt: now}})
	p.Apply(workrun.Event{Type: "node", RunID: "r", NodeID: "on-error", Node: &workrun.NodeRun{RunID: "r", NodeID: "on-error", Type: "output", Status: workrun.NodeSkipped, StartedAt: now, EndedAt: now}})
	p.Apply(runEv(workrun.Run{ID: "r", Status: workrun.RunSucceeded}))
	if got := p.Selected(); got != "end" {
		t.Fatalf("selected %q after the run, want end (the last node that ran, not the skipped branch)", got)
	}
}
