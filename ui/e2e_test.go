package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"workrun/nodes/join"
	"workrun/nodes/process"
	"workrun/workrun"
)

// TestEndToEnd_ParallelSampleCancels wires the window as main.go does (real
// store, artifacts, engine, Remote Agent kind) and runs the parallel sample
// against the built-in demo agent on loopback: the local branch fails while
// the remote task works, and the Remote Agent node's messages in the run
// panel read "Remote task: requesting cancellation…" then "Remote task:
// canceled"; the run stays failed (docs/remote-agent.md R2, R9–R11).
func TestEndToEnd_ParallelSampleCancels(t *testing.T) {
	rig := newDemoRig(t, join.Kind{}, process.Kind{})
	w, agent := rig.w, rig.agent
	w.OpenWorkflow("", SampleParallel(langNow(), rig.url))
	if !w.RunEnabled() {
		t.Fatalf("Run disabled: %v", w.Problems())
	}

	ended := make(chan struct{}, 1)
	var seen runWatch
	w.applied = func(ev Event) {
		if seen.see(ev); seen.ended("ask", "check") && slices.ContainsFunc(w.panel.MessageLines("ask"), func(l string) bool {
			return strings.HasSuffix(l, "Remote task: canceled") || strings.Contains(l, "unconfirmed")
		}) {
			select {
			case ended <- struct{}{}:
			default:
			}
		}
	}
	launchGated(w, rig.gate, workrun.Values{"question": "hang"})
	waitEnded(t, w, ended, 30*time.Second, "the run did not end with the remote task's cancel shown")
	last := seen.last

	if last.Status != workrun.RunFailed || last.FailedNode != "check" {
		t.Errorf("run %s failed at %q, want failed at check", last.Status, last.FailedNode)
	}
	lines := w.panel.MessageLines("ask")
	iReq := slices.IndexFunc(lines, func(l string) bool { return strings.HasSuffix(l, "Remote task: requesting cancellation…") })
	iDone := slices.IndexFunc(lines, func(l string) bool { return strings.HasSuffix(l, "Remote task: canceled") })
	if iReq < 0 || iDone < iReq {
		t.Errorf("ask messages lack the cancel lines in order:\n%s", strings.Join(lines, "\n"))
	}
	if _, reason := w.panel.HeaderTexts(); !strings.Contains(reason, "(check)") {
		t.Errorf("reason on top %q", reason)
	}
	if got := w.panel.ActionLabels(); !slices.Equal(got, []string{"Run again"}) {
		t.Errorf("actions %q", got)
	}
	ts, _, err := w.readTasks(t.Context(), last.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 || ts[0].TaskID == "" || ts[0].NodeID != "ask" {
		t.Fatalf("remote tasks %+v", ts)
	}
	if n := agent.Cancels(ts[0].TaskID); n != 1 {
		t.Errorf("agent received %d cancels for %s, want exactly 1", n, ts[0].TaskID)
	}
}
