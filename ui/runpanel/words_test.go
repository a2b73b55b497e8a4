package runpanel

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"workrun/workrun"
)

// TestWords_NotReachedAfterTheRunEnds: once a run has ended, a node it
// never reached says "not reached", in the node list and in its outputs,
// not "pending" / "not yet" (it will never run in this run); in both
// languages.
func TestWords_NotReachedAfterTheRunEnds(t *testing.T) {
	for _, lng := range []string{"en", "zh-Hans"} {
		t.Run(lng, func(t *testing.T) {
			test.NewTempApp(t)
			setLanguage(lng)
			t.Cleanup(func() { setLanguage("en") })
			p := newPanel(langNow(), true)
			wf := workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "ask", Type: "remote_agent"}, {ID: "end", Type: "output"}}}
			p.Load(workrun.Run{ID: "r1", Workflow: wf, Status: workrun.RunFailed, FailedNode: "ask"},
				[]workrun.NodeRun{{RunID: "r1", NodeID: "start", Type: "start", Status: workrun.NodeSucceeded},
					{RunID: "r1", NodeID: "ask", Type: "remote_agent", Status: workrun.NodeFailed, Error: "boom"}}, nil)
			p.Select("end")
			p.Flush()
			pending := testWording(langNow()).Status(string(workrun.NodePending))
			if got := p.NodeStatus("end"); got == pending || got != notReached(langNow()) {
				t.Errorf("the never-reached node says %q, want %q", got, notReached(langNow()))
			}
			_, _, io := p.DetailTexts()
			if !strings.Contains(io, notReached(langNow())) {
				t.Errorf("its outputs say %q, want %q", io, notReached(langNow()))
			}
			// While the run goes on it is pending.
			p.Load(workrun.Run{ID: "r2", Workflow: wf, Status: workrun.RunRunning}, nil, nil)
			if got := p.NodeStatus("end"); got != pending {
				t.Errorf("during the run it says %q, want %q", got, pending)
			}
		})
	}
}

// TestWords_WaitingRunIsNotInterrupted: a run that waits for the person's
// answer says "waiting for you" in the run panel's header, not
// "interrupted at …" with the few milliseconds its nodes worked.
func TestWords_WaitingRunIsNotInterrupted(t *testing.T) {
	for _, lng := range []string{"en", "zh-Hans"} {
		t.Run(lng, func(t *testing.T) {
			test.NewTempApp(t)
			setLanguage(lng)
			t.Cleanup(func() { setLanguage("en") })
			p, _ := askedPanel(t, workrun.Question{Round: 1, Kind: workrun.QuestionText, Message: "Which city?"}, workrun.RunInterrupted)
			h := p.header.Text
			if !strings.Contains(h, testWording(langNow()).Waiting()) || strings.Contains(h, testWording(langNow()).Status(string(workrun.RunInterrupted))) {
				t.Errorf("the header of a run waiting for an answer says %q, want %q and not %q", h, testWording(langNow()).Waiting(), testWording(langNow()).Status(string(workrun.RunInterrupted)))
			}
		})
	}
}
