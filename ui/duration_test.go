package ui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"workrun/ui/records"
	"workrun/workrun"
)

// TestDuration_ClosedTimeNotCounted: a run started ten hours ago, whose
// node worked 2 s before Workrun was closed and was resumed 3 s ago, says
// the ten hours Run records says and that about 5 s of them were work —
// never the ten hours as work — while it runs and once it ended; an
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
	p := newRunPanel(langNow(), false)
	p.Load(run, []workrun.NodeRun{
		{RunID: "r", NodeID: "a", Type: "process", Status: workrun.NodeSucceeded, StartedAt: created, EndedAt: created.Add(2 * time.Second)},
		{RunID: "r", NodeID: "b", Type: "process", Status: workrun.NodeRunning, StartedAt: now.Add(-3 * time.Second)},
	}, nil)
	p.Tick()
	h, _ := p.HeaderTexts()
	if !strings.Contains(h, "(10h0m") || !atWork5.MatchString(h) {
		t.Errorf("running, resumed: header %q, want 10h0m… and about 5s of it at work", h)
	}

	// Ended: the same 5 s and a bit, never the ten hours in between.
	run.Status, run.EndedAt = workrun.RunSucceeded, now
	p.Load(run, []workrun.NodeRun{
		{RunID: "r", NodeID: "a", Type: "process", Status: workrun.NodeSucceeded, StartedAt: created, EndedAt: created.Add(2 * time.Second)},
		{RunID: "r", NodeID: "b", Type: "process", Status: workrun.NodeSucceeded, StartedAt: now.Add(-3 * time.Second), EndedAt: now},
	}, nil)
	if h, _ := p.HeaderTexts(); !strings.Contains(h, "(10h0m0s, 5s of it at work)") {
		t.Errorf("ended: header %q, want (10h0m0s, 5s of it at work)", h)
	}

	// Interrupted by a crash ten hours ago: b was left "running".
	crashed := workrun.Run{ID: "r2", Workflow: wf, WorkflowName: "wf", CreatedAt: created, Status: workrun.RunInterrupted, Interruption: workrun.InterruptedByExit}
	p2 := newRunPanel(langNow(), false)
	p2.Load(crashed, []workrun.NodeRun{
		{RunID: "r2", NodeID: "a", Type: "process", Status: workrun.NodeSucceeded, StartedAt: created, EndedAt: created.Add(2 * time.Second)},
		{RunID: "r2", NodeID: "b", Type: "process", Status: workrun.NodeRunning, StartedAt: created.Add(2 * time.Second)},
	}, nil)
	p2.Tick()
	h, _ = p2.HeaderTexts()
	at := created.Add(2 * time.Second).Local().Format("15:04:05")
	if hours(h) || !strings.Contains(h, "interrupted at "+at) {
		t.Errorf("interrupted: header %q, want 'interrupted at %s' and no hours", h, at)
	}
	if l := p2.NodeLine("b"); hours(l) {
		t.Errorf("node left running by a crash: %q counts the closed time", l)
	}
	if d := records.RunDuration(crashed); d != 0 {
		t.Errorf("run records: an interrupted run's duration %v counts the time it sat", d)
	}
}

var atWork5 = regexp.MustCompile(`, 5(\.\d)?s of it at work\)`)

// TestFormatDuration_UnderAMillisecond: a node that took microseconds says
// so ("<1ms"), not "0s", which read as if it never ran (the Start node's
// "succeeded (0s at work)").
func TestFormatDuration_UnderAMillisecond(t *testing.T) {
	for d, want := range map[time.Duration]string{300 * time.Microsecond: "<1ms", 0: "0s", 700 * time.Microsecond: "<1ms", 1500 * time.Microsecond: "2ms", 44 * time.Millisecond: "44ms", 5700 * time.Millisecond: "5.7s"} {
		if got := formatDuration(d); got != want {
			t.Errorf("formatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}
