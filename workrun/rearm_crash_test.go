package workrun_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// A process killed mid-node leaves the node's record "running"; after the
// restart the run is interrupted by exit. Stop must still give that node's
// abort hook its one call (docs/remote-agent.md R9: a remote task may still be working), without a
// Resume first.
func TestStopAfterCrashRearmsNodesLeftRunning(t *testing.T) {
	var calls atomic.Int32
	rs := &rearmStep{hook: func(context.Context) { calls.Add(1) }}
	st := workruntest.NewMemStore()
	e := workrun.NewEngine(st, nil, append(allKinds(fakeKind{}), rearmKind{rs})...)

	wf := workrun.Workflow{
		Nodes: []workrun.NodeSpec{node("start", "start", ""), node("made", "rearm", "")},
		Edges: edges("start>made"),
	}
	now := time.Now().UTC()
	r := workrun.Run{ID: "crashed", WorkflowName: "w", Workflow: wf, Status: workrun.RunInterrupted,
		Interruption: workrun.InterruptedByExit, CreatedAt: now}
	if err := st.CreateRun(t.Context(), r); err != nil {
		t.Fatal(err)
	}
	for _, n := range []workrun.NodeRun{
		{RunID: r.ID, NodeID: "start", Type: "start", Status: workrun.NodeSucceeded, StartedAt: now, EndedAt: now},
		{RunID: r.ID, NodeID: "made", Type: "rearm", Status: workrun.NodeRunning, StartedAt: now},
	} {
		if err := st.SaveNodeRun(t.Context(), n); err != nil {
			t.Fatal(err)
		}
	}

	if err := e.Stop(t.Context(), r.ID); err != nil {
		t.Fatal(err)
	}
	if n := rs.rearmed.Load(); n != 1 {
		t.Errorf("node left running was rearmed %d times, want 1", n)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("abort hook called %d times, want 1", n)
	}
	got, _ := st.GetRun(t.Context(), r.ID)
	if got.Status != workrun.RunStopped {
		t.Errorf("status %s, want stopped", got.Status)
	}
}
