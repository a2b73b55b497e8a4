package remoteagent

import (
	"context"
	"errors"
	"iter"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/a2a"
	"workrun/remotecall"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

const (
	enRequesting  = "Remote task: requesting cancellation…"
	enCanceled    = "Remote task: canceled"
	enUnconfirmed = "Cancel result unconfirmed: the request failed or timed out; it will not be retried automatically."
	enUnknown     = "Remote task: submission result unknown (no taskId was received); no cancel sent, nothing resubmitted"
)

// checkAborted: the abort sent wantCancels CancelTasks and no status query
// before or after them, showed wantMsgs and saved wantOutcome.
func checkAborted(t *testing.T, agent *fakeAgent, nc *workruntest.NodeContext, calls *memCalls, wantCancels int, wantMsgs []string, wantOutcome string) {
	t.Helper()
	if got := agent.Calls("CancelTask"); got != wantCancels {
		t.Errorf("CancelTask sent %d times, want %d", got, wantCancels)
	}
	if agent.Calls("GetTask")+agent.Calls("SubscribeToTask") != 0 {
		t.Error("queried the task: the cancel needs no status query")
	}
	if diff := cmp.Diff(wantMsgs, msgsOf(nc)); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	got, _ := calls.get("r", "ra")
	if got.CancelOutcome != wantOutcome {
		t.Errorf("saved outcome %q, want %q", got.CancelOutcome, wantOutcome)
	}
}

// savedCall builds the in-memory call of a node execution as it stands after
// the given record was committed.
func savedCall(t *testing.T, d Deps, rec workrun.RemoteCall, agent AgentClient) (*call, *workruntest.NodeContext) {
	t.Helper()
	st := compile(t, d, strings.Replace(baseCfg, `"timeout_seconds":5`, `"timeout_seconds":1`, 1)).(*step)
	nc := newNC("r", "ra", nil)
	c := &call{s: st, nc: nc}
	c.Call = remotecall.NewSaved(d.Calls, rec, agent, c.redactRecord)
	nc.OnAbort(c.abort)
	return c, nc
}

// TestAbort_R9Table applies the R9 table row by row (docs/remote-agent.md R9–R11).
func TestAbort_R9Table(t *testing.T) {
	canceledTask := func(_ context.Context, id string) (*a2a.Task, error) { return task(id, a2a.TaskStateCanceled, ""), nil }
	tests := []struct {
		name        string
		state       a2a.TaskState
		taskID      string
		ended       bool
		cancel      func(context.Context, string) (*a2a.Task, error)
		wantCancels int
		wantMsgs    []string
		wantOutcome string
	}{
		{"submitted", a2a.TaskStateSubmitted, "t1", false, canceledTask, 1, []string{enRequesting, enCanceled}, remotecall.CancelCanceled},
		{"working", a2a.TaskStateWorking, "t1", false, canceledTask, 1, []string{enRequesting, enCanceled}, remotecall.CancelCanceled},
		{"input-required", a2a.TaskStateInputRequired, "t1", false, canceledTask, 1, []string{enRequesting, enCanceled}, remotecall.CancelCanceled},
		{"auth-required", a2a.TaskStateAuthRequired, "t1", false, canceledTask, 1, []string{enRequesting, enCanceled}, remotecall.CancelCanceled},
		{"result unknown (no state saved)", "", "t1", false, canceledTask, 1, []string{enRequesting, enCanceled}, remotecall.CancelCanceled},
		{"completed", a2a.TaskStateCompleted, "t1", true, canceledTask, 0, nil, ""},
		{"completed, result not yet saved", a2a.TaskStateCompleted, "t1", false, canceledTask, 0, nil, ""},
		{"failed", a2a.TaskStateFailed, "t1", true, canceledTask, 0, nil, ""},
		{"canceled", a2a.TaskStateCanceled, "t1", true, canceledTask, 0, nil, ""},
		{"rejected", a2a.TaskStateRejected, "t1", true, canceledTask, 0, nil, ""},
		{"no taskId received", "", "", false, canceledTask, 0, []string{enUnknown}, remotecall.CancelSubmissionUnknown},
		{"cancel request failed", a2a.TaskStateWorking, "t1", false,
			func(context.Context, string) (*a2a.Task, error) { return nil, &a2a.HTTPError{StatusCode: 502} },
			1, []string{enRequesting, enUnconfirmed, "Cancel request error: a2a: HTTP 502 (agent server error)"}, remotecall.CancelUnconfirmed},
		{"cancel request timed out", a2a.TaskStateWorking, "t1", false,
			func(ctx context.Context, _ string) (*a2a.Task, error) { <-ctx.Done(); return nil, ctx.Err() },
			1, []string{enRequesting, enUnconfirmed, "Cancel request error: context deadline exceeded"}, remotecall.CancelUnconfirmed},
		{"answer: still working", a2a.TaskStateWorking, "t1", false,
			func(_ context.Context, id string) (*a2a.Task, error) { return task(id, a2a.TaskStateWorking, ""), nil },
			1, []string{enRequesting, "Remote task: cancel requested; the agent reports it is still working (working)"}, remotecall.CancelStillWorking},
		{"answer: already completed", a2a.TaskStateWorking, "t1", false,
			func(_ context.Context, id string) (*a2a.Task, error) {
				return task(id, a2a.TaskStateCompleted, ""), nil
			},
			1, []string{enRequesting, "Remote task: already completed before the cancel arrived"}, remotecall.CancelAlreadyCompleted},
		{"answer: not cancelable", a2a.TaskStateWorking, "t1", false,
			func(context.Context, string) (*a2a.Task, error) {
				return nil, &a2a.RPCError{Code: -32002, Message: "done"}
			},
			1, []string{enRequesting, "Remote task: not cancelable (a2a: task not cancelable (-32002): done)"}, remotecall.CancelNotCancelable},
		{"answer: not found", a2a.TaskStateWorking, "t1", false,
			func(context.Context, string) (*a2a.Task, error) { return nil, &a2a.RPCError{Code: -32001} },
			1, []string{enRequesting, "Remote task: not found by the agent"}, remotecall.CancelNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var gets int
			agent := &fakeAgent{streaming: true, CancelTaskFunc: tt.cancel}
			agent.GetTaskFunc = func(context.Context, string) (*a2a.Task, error) { gets++; return nil, errors.New("no") }
			calls := newMemCalls()
			rec := workrun.RemoteCall{RunID: "r", NodeID: "ra", CallKey: callKey, MessageID: "m", TaskID: tt.taskID, RemoteState: string(tt.state), Ended: tt.ended}
			_, nc := savedCall(t, Deps{Calls: calls}, rec, agent)
			abortNC(t.Context(), nc)
			checkAborted(t, agent, nc, calls, tt.wantCancels, tt.wantMsgs, tt.wantOutcome)
			// The hook runs once; a second call changes nothing (no retry).
			abortNC(t.Context(), nc)
			if got := agent.Calls("CancelTask"); got != tt.wantCancels {
				t.Errorf("after a second abort: %d cancels", got)
			}
		})
	}
}

func TestAbort_Chinese(t *testing.T) {
	agent := &fakeAgent{CancelTaskFunc: func(_ context.Context, id string) (*a2a.Task, error) { return task(id, a2a.TaskStateCanceled, ""), nil }}
	rec := workrun.RemoteCall{RunID: "r", NodeID: "ra", CallKey: callKey, MessageID: "m", TaskID: "t1", RemoteState: string(a2a.TaskStateWorking)}
	_, nc := savedCall(t, Deps{Calls: newMemCalls()}, rec, agent)
	abortNC(t.Context(), nc)
	if diff := cmp.Diff([]string{"远程任务：正在请求取消…", "远程任务：已取消"}, msgsIn(nc, "zh")); diff != "" {
		t.Error(diff)
	}

	agent.CancelTaskFunc = func(context.Context, string) (*a2a.Task, error) { return nil, errors.New("connection refused") }
	_, nc = savedCall(t, Deps{Calls: newMemCalls()}, rec, agent)
	abortNC(t.Context(), nc)
	if !hasMsg(msgsIn(nc, "zh_CN.UTF-8"), "取消结果未确认：请求失败或超时，不会自动重试") {
		t.Errorf("messages = %q", msgsOf(nc))
	}
}

// TestAbort_ParallelBranches drives three nodes through Run like parallel
// branches: one in a hanging task, one already completed, one whose request
// got no taskId yet. The failure of another branch aborts the run: exactly one
// cancel, for the hanging task, and the R11 lines on the right nodes.
func TestAbort_ParallelBranches(t *testing.T) {
	calls := newMemCalls()
	var mu sync.Mutex
	canceled := map[string]int{}
	submitted := make(chan string, 3)
	agent := &fakeAgent{streaming: true}
	agent.CancelTaskFunc = func(_ context.Context, id string) (*a2a.Task, error) {
		mu.Lock()
		canceled[id]++
		mu.Unlock()
		return task(id, a2a.TaskStateCanceled, ""), nil
	}
	agent.SendStreamingMessageFunc = func(ctx context.Context, req a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
		what := req.Message.Parts[0].Text
		return func(yield func(a2a.StreamEvent, error) bool) {
			switch what {
			case "hang":
				if !yield(taskEv("t-hang", a2a.TaskStateWorking, ""), nil) {
					return
				}
			case "echo":
				yield(taskEv("t-echo", a2a.TaskStateCompleted, ""), nil)
				submitted <- what
				return
			}
			submitted <- what // "slow": the request is out, nothing came back yet
			<-ctx.Done()
			yield(a2a.StreamEvent{}, ctx.Err())
		}
	}
	kind := New(Deps{Calls: calls, Connect: connectTo(agent)})
	runCtx, fail := context.WithCancel(t.Context())
	type result struct {
		node string
		err  error
	}
	results := make(chan result, 3)
	ncs := map[string]*workruntest.NodeContext{}
	for _, node := range []string{"hang", "echo", "slow"} {
		st, err := kind.Compile(workrun.NodeSpec{ID: node, Config: []byte(baseCfg)}, testWorkflow)
		if err != nil {
			t.Fatal(err)
		}
		nc := newNC("run", node, workrun.Values{"prompt": node})
		ncs[node] = nc
		go func() {
			_, err := st.Run(runCtx, nc)
			results <- result{node, err}
		}()
	}
	for range 3 {
		<-submitted
	}
	if r := <-results; r.node != "echo" || r.err != nil {
		t.Fatalf("first result %+v, want echo to succeed", r)
	}
	// A process branch fails: the engine cancels the run context and calls
	// every hook once, concurrently, on a detached context.
	fail()
	var wg sync.WaitGroup
	for _, nc := range ncs {
		wg.Go(func() { abortNC(context.Background(), nc) })
	}
	wg.Wait()
	for range 2 {
		if r := <-results; r.err == nil {
			t.Errorf("%s succeeded after the run failed", r.node)
		}
	}
	if diff := cmp.Diff(map[string]int{"t-hang": 1}, canceled); diff != "" {
		t.Errorf("cancels (-want +got):\n%s", diff)
	}
	if got := msgsOf(ncs["hang"]); !hasMsg(got, enRequesting) || !hasMsg(got, enCanceled) {
		t.Errorf("hang messages = %q", got)
	}
	if got := msgsOf(ncs["slow"]); !hasMsg(got, enUnknown) || hasMsg(got, enRequesting) {
		t.Errorf("slow messages = %q", got)
	}
	if got := msgsOf(ncs["echo"]); hasMsg(got, enRequesting) || hasMsg(got, enUnknown) {
		t.Errorf("echo messages = %q", got)
	}
	if rec, _ := calls.get("run", "hang"); rec.CancelOutcome != remotecall.CancelCanceled || rec.RemoteState != string(a2a.TaskStateCanceled) {
		t.Errorf("hang record = %+v", rec)
	}
}

// TestAbort_SnapshotFreezesRecord: once the hook has its snapshot, the call
// handles no further event, so what was saved is what decided.
func TestAbort_SnapshotFreezesRecord(t *testing.T) {
	calls := newMemCalls()
	release := make(chan struct{})
	agent := &fakeAgent{streaming: true}
	agent.CancelTaskFunc = func(_ context.Context, id string) (*a2a.Task, error) { return task(id, a2a.TaskStateWorking, ""), nil }
	agent.SendStreamingMessageFunc = func(ctx context.Context, _ a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
		return func(yield func(a2a.StreamEvent, error) bool) {
			if !yield(taskEv("t1", a2a.TaskStateWorking, ""), nil) {
				return
			}
			<-release
			yield(statusEv("t1", a2a.TaskStateCompleted, ""), nil)
		}
	}
	nc := newNC("r", "ra", workrun.Values{"prompt": "x"})
	done := make(chan error, 1)
	go func() {
		_, err := compile(t, Deps{Calls: calls, Connect: connectTo(agent)}, baseCfg).Run(t.Context(), nc)
		done <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if rec, _ := calls.get("r", "ra"); rec.TaskID != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the task id was never saved")
		}
	}
	abortNC(t.Context(), nc)
	close(release)
	if err := <-done; err == nil {
		t.Fatal("the node succeeded after its abort")
	}
	rec, _ := calls.get("r", "ra")
	if rec.Ended || rec.CancelOutcome != remotecall.CancelStillWorking {
		t.Errorf("record = %+v", rec)
	}
}

// TestAbort_DuringSubmit runs the abort hook while the node is submitting:
// the hook starts as the messageId is committed and writes the record while
// the node goes on. Under -race this proves every read of the record is
// ordered against the hook's write; the node sends nothing once the hook
// has reported the call.
func TestAbort_DuringSubmit(t *testing.T) {
	for i := 0; i < 20; i++ {
		calls := newMemCalls()
		nc := newNC("r", "ra", workrun.Values{"prompt": "x"})
		var once sync.Once
		aborted := make(chan struct{})
		calls.SaveFunc = func(workrun.RemoteCall) error {
			once.Do(func() {
				go func() { defer close(aborted); abortNC(context.Background(), nc) }()
			})
			return nil
		}
		agent := &fakeAgent{streaming: true}
		agent.SendStreamingMessageFunc = func(context.Context, a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
			<-aborted // the taskId arrives only after the hook took its snapshot
			return events(nil, taskEv("t1", a2a.TaskStateWorking, ""), statusEv("t1", a2a.TaskStateCompleted, ""))
		}
		st := compile(t, Deps{Calls: calls, Connect: connectTo(agent)}, baseCfg)
		_, err := st.Run(t.Context(), nc)
		<-aborted
		rec, _ := calls.get("r", "ra")
		if rec.CancelOutcome != remotecall.CancelSubmissionUnknown || rec.TaskID != "" {
			t.Fatalf("record after the abort = %+v, want submission unknown, no taskId", rec)
		}
		if err == nil {
			t.Fatalf("the abort reported the submission unknown, yet the node succeeded")
		}
	}
}

// TestAbort_OutcomeOutlivesEngineBound: the engine's bound on the hooks is
// shorter than the node's timeout. The cancel still gets the node's bound,
// and its outcome — an answer, or "unconfirmed" — is saved, never lost to a
// "context deadline exceeded".
func TestAbort_OutcomeOutlivesEngineBound(t *testing.T) {
	tests := []struct {
		name    string
		cancel  func(context.Context, string) (*a2a.Task, error)
		outcome string
	}{
		{"late answer", func(ctx context.Context, id string) (*a2a.Task, error) {
			select {
			case <-time.After(500 * time.Millisecond):
				return task(id, a2a.TaskStateCanceled, ""), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}, remotecall.CancelCanceled},
		{"no answer", func(ctx context.Context, id string) (*a2a.Task, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}, remotecall.CancelUnconfirmed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := newMemCalls()
			agent := &fakeAgent{CancelTaskFunc: tt.cancel}
			rec := workrun.RemoteCall{RunID: "r", NodeID: "ra", CallKey: callKey, MessageID: "m", TaskID: "t1", RemoteState: string(a2a.TaskStateWorking)}
			c, nc := savedCall(t, Deps{Calls: calls}, rec, agent) // node timeout 1 s
			hookCtx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
			defer cancel()
			c.abort(hookCtx)
			got, _ := calls.get("r", "ra")
			if got.CancelOutcome != tt.outcome {
				t.Errorf("saved outcome = %q, want %q", got.CancelOutcome, tt.outcome)
			}
			for _, m := range msgsOf(nc) {
				if strings.Contains(m, "save remote call") {
					t.Errorf("message %q: the outcome was not saved", m)
				}
			}
		})
	}
}
