package ui

import (
	"strings"
	"testing"
	"time"

	"workrun/ui/records"
	"workrun/workrun"
)

// TestDuration_ClosedTimeNotCounted: a run started ten hours ago, whose
// node worked 2 s before Workrun was closed and was resumed 3 s ago, reads
// about 5 s — not ten hours — while it runs and once it ended; an
// interrupted run says when it was interrupted instead of counting up; a
// node a crash left "running" does not count the hours since.
func TestDuration_ClosedTimeNotCounted(t *testing.T) {
	SetupLanguage("en")
	now := time.Now()
	created := now.Add(-10 * time.Hour)
	wf := workrun.Workflow{Name: "wf", Nodes: []workrun.NodeSpec{{ID: "a", Type: "process"}, {ID: "b", Type: "process"}}}
	run := workrun.Run{ID: "r", Workflow: wf, WorkflowName: "wf", CreatedAt: created}
	hours := func(s string) bool {
		return strings.Contains(s, "h0") || strings.Contains(s, "10h") || strings.Contains(s, "m0")
	}

	// Resumed 3 s ago: a finished 2 s of work before the exit, b runs again.
	run.Status = workrun.RunRunning
	p := NewRunPanel(false)
	p.Load(run, []workrun.NodeRun{
		{RunID: "r", NodeID: "a", Type: "process", Status: workrun.NodeSucceeded, StartedAt: created, EndedAt: created.Add(2 * time.Second)},
		{RunID: "r", NodeID: "b", Type: "process", Status: workrun.NodeRunning, StartedAt: now.Add(-3 * time.Second)},
	}, nil)
	p.Tick()
	h := p.header.Text
	if hours(h) || !strings.Contains(h, "(5") {
		t.Errorf("running, resumed: header %q, want about 5s", h)
	}

	// Ended: the same 5 s and a bit, never the ten hours in between.
	run.Status, run.EndedAt = workrun.RunSucceeded, now
	p.Load(run, []workrun.NodeRun{
		{RunID: "r", NodeID: "a", Type: "process", Status: workrun.NodeSucceeded, StartedAt: created, EndedAt: created.Add(2 * time.Second)},
		{RunID: "r", NodeID: "b", Type: "process", Status: workrun.NodeSucceeded, StartedAt: now.Add(-3 * time.Second), EndedAt: now},
	}, nil)
	if h := p.header.Text; hours(h) || !strings.Contains(h, "(5s)") {
		t.Errorf("ended: header %q, want (5s)", h)
	}

	// Interrupted by a crash ten hours ago: b was left "running".
	crashed := workrun.Run{ID: "r2", Workflow: wf, WorkflowName: "wf", CreatedAt: created, Status: workrun.RunInterrupted, Interruption: workrun.InterruptedByExit}
	p2 := NewRunPanel(false)
	p2.Load(crashed, []workrun.NodeRun{
		{RunID: "r2", NodeID: "a", Type: "process", Status: workrun.NodeSucceeded, StartedAt: created, EndedAt: created.Add(2 * time.Second)},
		{RunID: "r2", NodeID: "b", Type: "process", Status: workrun.NodeRunning, StartedAt: created.Add(2 * time.Second)},
	}, nil)
	p2.Tick()
	h = p2.header.Text
	at := created.Add(2 * time.Second).Local().Format("15:04:05")
	if hours(h) || !strings.Contains(h, "interrupted at "+at) {
		t.Errorf("interrupted: header %q, want 'interrupted at %s' and no hours", h, at)
	}
	if l := p2.nodeLine("b"); hours(l) {
		t.Errorf("node left running by a crash: %q counts the closed time", l)
	}
	if d := records.RunDuration(crashed); d != 0 {
		t.Errorf("run records: an interrupted run's duration %v counts the time it sat", d)
	}
}
