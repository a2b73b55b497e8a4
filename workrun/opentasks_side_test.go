package workrun_test

import (
	"context"
	"testing"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// TestOpenTasksSkipsSideRecords: a call's side record (a push wait, an
// answer in place) is bookkeeping beside the call, never a task of its
// own; the run's call is listed once, waiting by push.
func TestOpenTasksSkipsSideRecords(t *testing.T) {
	ctx := context.Background()
	st := workruntest.NewMemStore()
	run := workrun.Run{ID: "r1", WorkflowName: "wf", Status: workrun.RunInterrupted, Interruption: workrun.InterruptedByPush}
	if err := st.CreateRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	calls := []workrun.RemoteCall{
		{RunID: "r1", NodeID: "ask", CallKey: "send", TaskID: "t-1"},
		{RunID: "r1", NodeID: "ask", CallKey: "send/push", RemoteState: "waiting"},
	}
	open, err := workrun.OpenTasks(ctx, st, func(context.Context, string) ([]workrun.RemoteCall, error) { return calls, nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != 1 || open[0].Call.CallKey != "send" || open[0].State != workrun.OpenWaitingPush {
		t.Fatalf("open tasks = %+v, want only the call, waiting by push", open)
	}
}
