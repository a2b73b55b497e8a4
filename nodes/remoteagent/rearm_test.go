package remoteagent

import (
	"context"
	"strings"
	"testing"

	"workrun/a2a"
	"workrun/remotecall"
	"workrun/workrun"
)

// TestRearm_AppliesR9FromTheSavedRecord: after a restart the engine asks the
// node to register its abort hook again (workrun.RearmableStep). The hook
// reads the saved call when the abort begins and applies the R9 table to it;
// a call that already holds a cancel outcome from before the restart gets
// nothing, neither continued nor retried (docs/remote-agent.md R2, R9, R13).
func TestRearm_AppliesR9FromTheSavedRecord(t *testing.T) {
	tests := []struct {
		name        string
		rec         *workrun.RemoteCall // nil: the node never saved a call
		wantCancels int
		wantMsgs    []string
		wantOutcome string
	}{
		{"input-required", &workrun.RemoteCall{TaskID: "t1", RemoteState: string(a2a.TaskStateInputRequired)}, 1, []string{enRequesting, enCanceled}, remotecall.CancelCanceled},
		{"auth-required", &workrun.RemoteCall{TaskID: "t1", RemoteState: string(a2a.TaskStateAuthRequired)}, 1, []string{enRequesting, enCanceled}, remotecall.CancelCanceled},
		{"working when the application exited", &workrun.RemoteCall{TaskID: "t1", RemoteState: string(a2a.TaskStateWorking)}, 1, []string{enRequesting, enCanceled}, remotecall.CancelCanceled},
		{"cancel requested before the restart, never answered", &workrun.RemoteCall{TaskID: "t1", RemoteState: string(a2a.TaskStateWorking), CancelOutcome: remotecall.CancelRequested, CancelText: enRequesting}, 0, nil, remotecall.CancelRequested},
		{"cancel answered before the restart", &workrun.RemoteCall{TaskID: "t1", RemoteState: string(a2a.TaskStateWorking), CancelOutcome: remotecall.CancelUnconfirmed}, 0, nil, remotecall.CancelUnconfirmed},
		{"completed", &workrun.RemoteCall{TaskID: "t1", RemoteState: string(a2a.TaskStateCompleted), Ended: true}, 0, nil, ""},
		{"no taskId saved", &workrun.RemoteCall{}, 0, []string{enUnknown}, remotecall.CancelSubmissionUnknown},
		{"no call saved", nil, 0, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			agent := &fakeAgent{streaming: true, CancelTaskFunc: func(_ context.Context, id string) (*a2a.Task, error) {
				return task(id, a2a.TaskStateCanceled, ""), nil
			}}
			var connects int
			calls := newMemCalls()
			if tt.rec != nil {
				rec := *tt.rec
				rec.RunID, rec.NodeID, rec.CallKey, rec.MessageID = "r", "ra", callKey, "m"
				if err := calls.SaveRemoteCall(t.Context(), rec); err != nil {
					t.Fatal(err)
				}
			}
			d := Deps{Calls: calls, Connect: func(context.Context, string, Clients) (AgentClient, error) {
				connects++
				return agent, nil
			}}
			st := compile(t, d, strings.Replace(baseCfg, `"timeout_seconds":5`, `"timeout_seconds":1`, 1))
			rs, ok := st.(workrun.RearmableStep)
			if !ok {
				t.Fatal("the Remote Agent step is not a workrun.RearmableStep")
			}
			nc := newNC("r", "ra", nil)
			rs.Rearm(nc, workrun.NodeRun{RunID: "r", NodeID: "ra", Status: workrun.NodeInterrupted})
			if got := len(nc.Hooks()); got != 1 {
				t.Fatalf("Rearm registered %d hooks, want 1", got)
			}
			if agent.Calls("CancelTask")+connects != 0 {
				t.Fatal("Rearm itself must send nothing")
			}
			abortNC(t.Context(), nc)
			checkAborted(t, agent, nc, calls, tt.wantCancels, tt.wantMsgs, tt.wantOutcome)
			// A second Stop after another restart: the saved outcome means no
			// further cancel for any row (docs/remote-agent.md R13).
			nc2 := newNC("r", "ra", nil)
			rs.Rearm(nc2, workrun.NodeRun{RunID: "r", NodeID: "ra", Status: workrun.NodeInterrupted})
			abortNC(t.Context(), nc2)
			if got := agent.Calls("CancelTask"); got != tt.wantCancels {
				t.Errorf("after a second restart and Stop: %d cancels, want %d", got, tt.wantCancels)
			}
			if msgs := msgsOf(nc2); len(msgs) != 0 {
				t.Errorf("second restart showed %q", msgs)
			}
		})
	}
}
