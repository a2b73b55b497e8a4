package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

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
			SetupLanguage(lng)
			t.Cleanup(func() { SetupLanguage("en") })
			p := NewRunPanel(langNow(), true)
			wf := workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "ask", Type: "remote_agent"}, {ID: "end", Type: "output"}}}
			p.Load(workrun.Run{ID: "r1", Workflow: wf, Status: workrun.RunFailed, FailedNode: "ask"},
				[]workrun.NodeRun{{RunID: "r1", NodeID: "start", Type: "start", Status: workrun.NodeSucceeded},
					{RunID: "r1", NodeID: "ask", Type: "remote_agent", Status: workrun.NodeFailed, Error: "boom"}}, nil)
			p.selectNode("end")
			p.Flush()
			pending := StatusLabel(string(workrun.NodePending))
			if got := p.nodeStatus("end"); got == pending || got != notReached(langNow()) {
				t.Errorf("the never-reached node says %q, want %q", got, notReached(langNow()))
			}
			_, _, io := p.detailTexts()
			if !strings.Contains(io, notReached(langNow())) {
				t.Errorf("its outputs say %q, want %q", io, notReached(langNow()))
			}
			// While the run goes on it is pending.
			p.Load(workrun.Run{ID: "r2", Workflow: wf, Status: workrun.RunRunning}, nil, nil)
			if got := p.nodeStatus("end"); got != pending {
				t.Errorf("during the run it says %q, want %q", got, pending)
			}
		})
	}
}

// TestWords_ProblemsTabSaysNone: the Problems tab says there are none
// instead of staying blank.
func TestWords_ProblemsTabSaysNone(t *testing.T) {
	w := newTestWindow(t, Deps{})
	w.OpenWorkflow("", SampleRemote("http://127.0.0.1:41241"))
	if len(w.probs) != 0 {
		t.Fatalf("the sample has problems: %v", w.probs)
	}
	if n := w.probBox.Length(); n != 1 {
		t.Fatalf("the Problems list has %d rows with no problem, want the one that says so", n)
	}
	if !strings.Contains(visibleLabels(w.probBox), noProblems(langNow())) {
		t.Errorf("the Problems tab shows %q, want %q", visibleLabels(w.probBox), noProblems(langNow()))
	}
}

// TestWords_CredentialsTitle: the credentials dialog is titled
// "Credentials", not "Credentials…" (an ellipsis belongs to the menu item
// that opens it).
func TestWords_CredentialsTitle(t *testing.T) {
	test.NewTempApp(t)
	for _, lng := range []string{"en", "zh-Hans"} {
		SetupLanguage(lng)
		if s := credentialsTitle(langNow()); strings.HasSuffix(s, "…") || s == "" {
			t.Errorf("%s: the credentials dialog is titled %q", lng, s)
		}
	}
	SetupLanguage("en")
}

// TestWords_WaitingRunIsNotInterrupted: a run that waits for the person's
// answer says "waiting for you" in the run panel's header, not
// "interrupted at …" with the few milliseconds its nodes worked.
func TestWords_WaitingRunIsNotInterrupted(t *testing.T) {
	for _, lng := range []string{"en", "zh-Hans"} {
		t.Run(lng, func(t *testing.T) {
			test.NewTempApp(t)
			SetupLanguage(lng)
			t.Cleanup(func() { SetupLanguage("en") })
			p, _ := askedPanel(t, workrun.Question{Round: 1, Kind: workrun.QuestionText, Message: "Which city?"}, workrun.RunInterrupted)
			h := p.header.Text
			if !strings.Contains(h, qText(langNow(), msgQStatus)) || strings.Contains(h, StatusLabel(string(workrun.RunInterrupted))) {
				t.Errorf("the header of a run waiting for an answer says %q, want %q and not %q", h, qText(langNow(), msgQStatus), StatusLabel(string(workrun.RunInterrupted)))
			}
		})
	}
}

// TestWords_OptionalFieldPickerSaysNone: an optional "into field" picker
// names its empty choice ("(none: not kept)") instead of a blank first
// entry, and picking it keeps no field.
func TestWords_OptionalFieldPickerSaysNone(t *testing.T) {
	w := newTestWindow(t, Deps{})
	for _, kind := range []string{"remote_agent", "remote_mcp", "process"} {
		w.newWorkflow()
		id := w.doc.AddNode(kind, workrun.Position{X: 100, Y: 100})
		w.doc.Select(id, false)
		for key, o := range w.insp.widgets {
			s, ok := o.(*widget.Select)
			if !ok {
				continue
			}
			for _, opt := range s.Options {
				if strings.TrimSpace(opt) == "" {
					t.Errorf("%s: the picker %s has a blank choice in %q", kind, key, s.Options)
				}
			}
		}
	}
}
