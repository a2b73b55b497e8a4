package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"workrun/workrun"
)

// TestStatus_WaitingRunIsNotInterrupted: while a run waits for the
// person's answer, the status bar and the window title say it waits for
// them (who asks what), never "interrupted".
func TestStatus_WaitingRunIsNotInterrupted(t *testing.T) {
	for _, lng := range []string{"en", "zh-Hans"} {
		t.Run(lng, func(t *testing.T) {
			w := newTestWindow(t, Deps{})
			wf := SampleRemote(langNow(), "http://127.0.0.1:41241")
			w.OpenWorkflow("", wf)
			q := workrun.Question{Round: 1, Kind: workrun.QuestionText, From: "Workrun demo agent", Message: "Which city?"}
			var agent string
			for _, n := range wf.Nodes {
				if n.Type == "remote_agent" {
					agent = n.ID
				}
			}
			var status, title, line string
			fyne.DoAndWait(func() {
				w.SetLanguage(lng)
				w.showOpenRun(workrun.Run{ID: "r1", WorkflowName: wf.Name, Workflow: wf, Status: workrun.RunInterrupted},
					[]workrun.NodeRun{{RunID: "r1", NodeID: agent, Type: "remote_agent", Status: workrun.NodeInterrupted, Question: &q}}, nil)
				status, title = w.status.Text, w.win.Title()
				line = questionLine(w.loc, *w.panel.OpenQuestion())
			})
			interrupted := map[string]string{"en": "interrupted", "zh-Hans": "已中断"}[lng]
			if strings.Contains(status, interrupted) || !strings.HasSuffix(status, " · "+line) || !strings.Contains(line, q.From) {
				t.Errorf("the status bar says %q, want %q (naming %q) and not %q", status, line, q.From, interrupted)
			}
			if strings.Contains(title, interrupted) || !strings.Contains(title, qText(workrun.NewLocalizer(lng), msgQStatus)) {
				t.Errorf("the window title says %q, want %q and not %q", title, qText(workrun.NewLocalizer(lng), msgQStatus), interrupted)
			}
		})
	}
}
