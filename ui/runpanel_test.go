package ui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
)

// countApplied returns a channel that receives once per event the window
// has shown; set it before publishing. Receiving orders the test after the
// widget changes (the test driver runs fyne.Do on the caller's goroutine).
func countApplied(w *Window) <-chan Event {
	ch := make(chan Event, 100)
	onUI(w, func() { w.applied = func(ev Event) { ch <- ev } })
	return ch
}

func waitApplied(t *testing.T, ch <-chan Event, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		select {
		case <-ch:
		case <-time.After(5 * time.Second):
			t.Fatalf("only %d of %d events shown", i, n)
		}
	}
}

func msg(run, node string, seq int64, text string) Event {
	return Event{Type: "message", RunID: run, NodeID: node, Message: &workrun.Message{RunID: run, NodeID: node, Seq: seq, Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local), Text: text}}
}

func nodeEv(run, node, kind string, s workrun.NodeStatus, errText string) Event {
	return Event{Type: "node", RunID: run, NodeID: node, Node: &workrun.NodeRun{RunID: run, NodeID: node, Type: kind, Status: s, Error: errText}}
}

func runEv(r workrun.Run) Event { return Event{Type: "run", RunID: r.ID, Run: &r} }

// TestRunPanel_R11CancelMessages runs the parallel sample on a fake engine:
// one branch fails while the Remote Agent works; the engine's events reach
// the panel through the subscription goroutine and fyne.Do, and the panel
// shows the cancel lines in order, the failure reason on top, and Run again
// (never Continue, docs/remote-agent.md R12).
func TestRunPanel_R11CancelMessages(t *testing.T) {
	var mu sync.Mutex
	var started []workrun.Values
	eng := &fakeEngine{StartFunc: func(_ context.Context, _ string, _ workrun.Workflow, in workrun.Values) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		started = append(started, in)
		return "run-1", nil
	}}
	w := newTestWindow(t, Deps{Engine: eng})
	w.OpenWorkflow("", SampleParallel(langNow(), "http://127.0.0.1:1"))
	if !w.RunEnabled() {
		t.Fatalf("Run disabled on a valid sample; problems: %v", w.Problems())
	}
	onUI(w, func() { w.launch(w.doc.Workflow(), workrun.Values{"question": "work slowly"}) })

	wf := w.doc.Workflow()
	applied := countApplied(w)
	failed := workrun.Run{ID: "run-1", WorkflowName: wf.Name, Workflow: wf, Status: workrun.RunFailed, Reason: "check failed: exit status 3", FailedNode: "check", Inputs: workrun.Values{"question": "work slowly"}}
	for _, ev := range []Event{
		nodeEv("run-1", "ask", "remote_agent", workrun.NodeRunning, ""),
		nodeEv("run-1", "check", "process", workrun.NodeRunning, ""),
		msg("run-1", "ask", 1, "Remote task: submitted; task t-1 working"),
		nodeEv("run-1", "check", "process", workrun.NodeFailed, "exit status 3"),
		runEv(failed),
		msg("run-1", "ask", 2, "Remote task: requesting cancellation…"),
		msg("run-1", "ask", 3, "Remote task: canceled"),
		nodeEv("run-1", "ask", "remote_agent", workrun.NodeStopped, ""),
		msg("run-1", "ask", 3, "Remote task: canceled"), // a duplicate delivery is shown once
	} {
		eng.Publish(ev)
	}
	waitApplied(t, applied, 9)

	var lines []string
	var status, reason string
	var actions []string
	var badge string
	onUI(w, func() {
		lines = w.panel.MessageLines("ask")
		status, reason = w.panel.HeaderTexts()
		actions = w.panel.ActionLabels()
		badge = w.cv.NodeBadge("check")
	})
	want := []string{
		"03:04:05  Remote task: submitted; task t-1 working",
		"03:04:05  Remote task: requesting cancellation…",
		"03:04:05  Remote task: canceled",
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("ask messages (-want +got):\n%s", diff)
	}
	if !strings.Contains(status, "failed") {
		t.Errorf("header %q does not say failed", status)
	}
	if !strings.Contains(reason, "check failed: exit status 3") || !strings.Contains(reason, "(check)") {
		t.Errorf("reason on top = %q, want the failing node and its reason", reason)
	}
	if diff := cmp.Diff([]string{"Run again"}, actions); diff != "" {
		t.Errorf("actions of a failed run (-want +got):\n%s", diff)
	}
	if badge != "failed" {
		t.Errorf("canvas badge of check = %q, want failed", badge)
	}

	// Run again starts a new execution with the same inputs (docs/remote-agent.md R12).
	onUI(w, func() { w.panel.TapAction("Run again") })
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]workrun.Values{{"question": "work slowly"}, {"question": "work slowly"}}, started); diff != "" {
		t.Errorf("inputs of the two runs (-want +got):\n%s", diff)
	}
}

// TestRunPanel_StopIsHonest: after Stop the panel shows "stopping…" until the
// engine reports the run stopped.
func TestRunPanel_StopIsHonest(t *testing.T) {
	stopped := make(chan string, 1)
	eng := &fakeEngine{
		StartFunc: func(context.Context, string, workrun.Workflow, workrun.Values) (string, error) { return "run-2", nil },
		StopFunc:  func(_ context.Context, id string) error { stopped <- id; return nil },
	}
	w := newTestWindow(t, Deps{Engine: eng})
	w.OpenWorkflow("", SampleRemote(langNow(), "http://127.0.0.1:1"))
	onUI(w, func() { w.launch(w.doc.Workflow(), workrun.Values{"question": "q"}) })
	if w.stopBtn.Disabled() {
		t.Fatal("Stop disabled while the run goes on")
	}
	header := func(want string) {
		t.Helper()
		var s string
		onUI(w, func() { s, _ = w.panel.HeaderTexts() })
		if !strings.Contains(s, want) {
			t.Fatalf("header %q, want %q", s, want)
		}
	}
	applied := countApplied(w)
	onUI(w, w.stopRun)
	if id := <-stopped; id != "run-2" {
		t.Fatalf("stopped %q", id)
	}
	header("stopping…")
	eng.Publish(msg("run-2", "ask", 1, "Cancel result unconfirmed: the request failed or timed out; it will not be retried automatically."))
	eng.Publish(runEv(workrun.Run{ID: "run-2", Status: workrun.RunStopped}))
	waitApplied(t, applied, 2)
	header("stopped")
	if !w.RunEnabled() {
		t.Error("Run not enabled again after the run stopped")
	}
}

// TestRunPanel_LiveProgressThenStoredLineShowsOnce: a progress line is shown
// live before its commit (Seq 0); when the run is then loaded from the store
// (as at its end) the stored copy takes its place instead of a second line.
func TestRunPanel_LiveProgressThenStoredLineShowsOnce(t *testing.T) {
	w := newTestWindow(t, Deps{})
	wf := SampleRemote(langNow(), "http://127.0.0.1:1")
	p := w.panel
	onUI(w, func() {
		p.Start("r1", wf)
		p.Pick("ask")
		p.Apply(Event{Type: "message", RunID: "r1", NodeID: "ask", Message: &workrun.Message{RunID: "r1", NodeID: "ask", Key: "remoteagent.artifact", Args: []string{"echo", "echo hi"}, Text: "Result echo: echo hi"}})
		p.Apply(Event{Type: "message", RunID: "r1", NodeID: "ask", Message: &workrun.Message{RunID: "r1", NodeID: "ask", Seq: 7, Text: "Remote task: completed"}})
		p.Load(workrun.Run{ID: "r1", Workflow: wf, Status: workrun.RunSucceeded}, nil, []workrun.Message{
			{RunID: "r1", NodeID: "ask", Seq: 6, Key: "remoteagent.artifact", Args: []string{"echo", "echo hi"}, Text: "Result echo: echo hi"},
			{RunID: "r1", NodeID: "ask", Seq: 7, Text: "Remote task: completed"},
		})
	})
	var lines []string
	onUI(w, func() { lines = p.MessageLines("ask") })
	n := 0
	for _, l := range lines {
		if strings.Contains(l, "echo hi") {
			n++
		}
	}
	if n != 1 || len(lines) != 2 {
		t.Errorf("lines %q: want the result line once and two lines in all", lines)
	}

	// The other order: the store read lands before the live event.
	at := time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)
	onUI(w, func() {
		p.Start("r2", wf)
		p.Pick("ask")
		p.Load(workrun.Run{ID: "r2", Workflow: wf, Status: workrun.RunSucceeded}, nil, []workrun.Message{
			{RunID: "r2", NodeID: "ask", Seq: 6, Time: at, Key: "remoteagent.artifact", Args: []string{"echo", "echo hi"}, Text: "Result echo: echo hi"},
			{RunID: "r2", NodeID: "ask", Seq: 7, Time: at, Text: "Remote task: completed"},
		})
		p.Apply(Event{Type: "message", RunID: "r2", NodeID: "ask", Message: &workrun.Message{RunID: "r2", NodeID: "ask", Time: at.Local(), Key: "remoteagent.artifact", Args: []string{"echo", "echo hi"}, Text: "Result echo: echo hi"}})
	})
	onUI(w, func() { lines = p.MessageLines("ask") })
	if len(lines) != 2 {
		t.Errorf("store read first: lines %q, want two", lines)
	}
}
