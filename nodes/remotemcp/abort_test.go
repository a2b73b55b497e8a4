package remotemcp_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"workrun/mcp/demoserver"
	"workrun/nodes/process"
	"workrun/nodes/remotemcp"
	"workrun/nodes/start"
	"workrun/remotecall"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

const (
	enRequesting  = "Remote task: requesting cancellation…"
	enCanceled    = "Remote task: canceled"
	enUnconfirmed = "Cancel result unconfirmed: the request failed or timed out; it will not be retried automatically."
	enUnknown     = "Remote task: submission result unknown"
)

// TestParallelFailureCancelsOnce: a process branch fails while a task runs;
// exactly one tasks/cancel goes out for it, with no tasks/get before it,
// and the run keeps the process node's failure.
func TestParallelFailureCancelsOnce(t *testing.T) {
	for _, coreOnly := range []bool{true, false} {
		t.Run(fmt.Sprintf("coreOnly=%v", coreOnly), func(t *testing.T) {
			// A long poll interval: in the extension form no regular read
			// falls inside the test, so any tasks/get would be the abort's.
			d, url := demo(t, demoserver.Options{CoreOnly: coreOnly, PollInterval: 20 * time.Second})
			e := newEnv(t, "")
			// Fail once the hanging task's id is saved and the echo call
			// has ended.
			fail := workruntest.FailWhenRun(t, e.st, func(ctx context.Context, runID string) bool {
				return taskSaved(ctx, e.st, runID, "hang") && callEnded(ctx, e.st, runID, "done")
			})
			wf := flow(state, []workrun.NodeSpec{
				mcpNode("hang", url, "hang", ""),
				mcpNode("done", url, "echo", `,"arguments":{"text":"ok"}`),
				{ID: "fail", Type: "process", Config: fail},
				mcpNode("later", url, "echo", `,"arguments":{"text":"never"}`),
			}, workrun.Edge{From: "fail", To: "later"})
			r := e.run(t, wf, nil)
			if r.Status != workrun.RunFailed || r.FailedNode != "fail" {
				t.Fatalf("run = %s at %q: %s", r.Status, r.FailedNode, r.Reason)
			}
			hang := e.call(t, r.ID, "hang")
			var cancels []demoserver.Request
			for _, q := range d.Requests() {
				if q.Method == "tasks/cancel" {
					cancels = append(cancels, q)
				}
			}
			if len(cancels) != 1 || cancels[0].TaskID != hang.TaskID {
				t.Errorf("cancels = %+v, want exactly one for %s", cancels, hang.TaskID)
			}
			if n := count(d, "tasks/get", ""); n != 0 {
				t.Errorf("tasks/get sent %d times: the cancel needs no status query", n)
			}
			msgs := e.messages(t, r.ID, "hang")
			if !contains(msgs, enRequesting) || !contains(msgs, enCanceled) {
				t.Errorf("hang messages = %q", msgs)
			}
			if hang.CancelOutcome != remotecall.CancelCanceled || hang.RemoteState != "cancelled" {
				t.Errorf("hang record = %+v", hang)
			}
			if got := e.messages(t, r.ID, "done"); contains(got, enRequesting) || contains(got, enUnknown) {
				t.Errorf("done messages = %q", got)
			}
			if count(d, "tools/call", "echo") != 1 {
				t.Errorf("echo called %d times (later must never run)", count(d, "tools/call", "echo"))
			}
		})
	}
}

// TestHangingCancelIsUnconfirmed: the cancel gets no answer within
// timeout_seconds: "unconfirmed", one cancel, and the abort ends in time.
func TestHangingCancelIsUnconfirmed(t *testing.T) {
	d, url := demo(t, demoserver.Options{CoreOnly: true, CancelDelay: time.Minute})
	e := newEnv(t, "")
	fail := workruntest.FailWhenRun(t, e.st, func(ctx context.Context, runID string) bool { return taskSaved(ctx, e.st, runID, "hang") })
	wf := flow(state, []workrun.NodeSpec{
		mcpNode("hang", url, "hang", `,"timeout_seconds":2`),
		{ID: "fail", Type: "process", Config: fail},
	})
	begin := time.Now()
	r := e.run(t, wf, nil)
	if took := time.Since(begin); took > 15*time.Second {
		t.Errorf("the run took %v; the cancel must be bounded by timeout_seconds", took)
	}
	if r.Status != workrun.RunFailed || r.FailedNode != "fail" {
		t.Fatalf("run = %s at %q: %s", r.Status, r.FailedNode, r.Reason)
	}
	if got := e.messages(t, r.ID, "hang"); !contains(got, enRequesting) || !contains(got, enUnconfirmed) {
		t.Errorf("messages = %q", got)
	}
	if n := count(d, "tasks/cancel", ""); n != 1 {
		t.Errorf("server saw %d cancels, want exactly 1", n)
	}
	if c := e.call(t, r.ID, "hang"); c.CancelOutcome != remotecall.CancelUnconfirmed {
		t.Errorf("outcome = %q", c.CancelOutcome)
	}
}

// TestStopCancelsOnce: Stop while a task runs sends one tasks/cancel.
func TestStopCancelsOnce(t *testing.T) {
	d, url := demo(t, demoserver.Options{CoreOnly: true})
	e := newEnv(t, "")
	id := e.start(t, flow(state, []workrun.NodeSpec{mcpNode("hang", url, "hang", "")}), nil)
	waitUntil(t, 10*time.Second, func() bool {
		c, err := e.st.GetRemoteCall(t.Context(), id, "hang", "call")
		return err == nil && c.TaskID != ""
	})
	if err := e.eng.Stop(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	r := e.wait(t, id)
	if r.Status != workrun.RunStopped {
		t.Fatalf("run = %s: %s", r.Status, r.Reason)
	}
	if n := count(d, "tasks/cancel", ""); n != 1 {
		t.Errorf("cancels = %d", n)
	}
	if c := e.call(t, r.ID, "hang"); c.CancelOutcome != remotecall.CancelCanceled {
		t.Errorf("record = %+v", c)
	}
}

// TestCutResultStreamReadsTheTaskAgain: the tasks/result stream breaks
// before the answer; the node reads the task again and finishes it; the
// tool was called once.
func TestCutResultStreamReadsTheTaskAgain(t *testing.T) {
	d, url := demo(t, demoserver.Options{CoreOnly: true, CutResultStreams: 2, NoResume: true})
	e := newEnv(t, "")
	r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "research", `,"arguments":{"topic":"x","stages":2},"output":"answer"`)}), nil)
	msgs := e.messages(t, r.ID, "m")
	if r.Status != workrun.RunSucceeded || r.State["answer"] != "Research on x: 2 stages done." {
		t.Fatalf("run %s: %s %v %q", r.Status, r.Reason, r.State, msgs)
	}
	if n := count(d, "tools/call", "research"); n != 1 {
		t.Errorf("research called %d times", n)
	}
	if count(d, "tasks/get", "") < 2 || count(d, "tasks/result", "") < 3 {
		t.Errorf("tasks/get %d, tasks/result %d", count(d, "tasks/get", ""), count(d, "tasks/result", ""))
	}
	if !contains(msgs, "reading the task again instead of calling the tool again") {
		t.Errorf("messages = %q", msgs)
	}
}

// TestAbortWithoutHandleSaysSubmissionUnknown: a plain call in flight when
// the run fails has no handle: nothing is cancelled, the line says so.
func TestAbortWithoutHandleSaysSubmissionUnknown(t *testing.T) {
	d, url := demo(t, demoserver.Options{CoreOnly: true, StageDuration: 3 * time.Second})
	e := newEnv(t, "")
	// Fail once the plain call has reached the server (it answers after
	// its 3 s stage).
	fail := workruntest.FailWhen(t, func(context.Context) bool { return count(d, "tools/call", "research") == 1 })
	wf := flow(state, []workrun.NodeSpec{
		mcpNode("slow", url, "research", `,"task":"never","arguments":{"topic":"x","stages":1}`),
		{ID: "fail", Type: "process", Config: fail},
	})
	r := e.run(t, wf, nil)
	if r.Status != workrun.RunFailed || r.FailedNode != "fail" {
		t.Fatalf("run = %s at %q: %s", r.Status, r.FailedNode, r.Reason)
	}
	if got := e.messages(t, r.ID, "slow"); !contains(got, enUnknown) || contains(got, enRequesting) {
		t.Errorf("messages = %q", got)
	}
	if count(d, "tasks/cancel", "") != 0 {
		t.Error("a cancel was sent without a handle")
	}
	if c := e.call(t, r.ID, "slow"); c.CancelOutcome != remotecall.CancelSubmissionUnknown {
		t.Errorf("record = %+v", c)
	}
}

// TestCancelLinesInChinese: the same table in Simplified Chinese.
func TestCancelLinesInChinese(t *testing.T) {
	_, url := demo(t, demoserver.Options{CoreOnly: true})
	e := newEnv(t, "")
	// In memory: messages keep their keys and arguments as given.
	runs, calls := workruntest.NewMemStore(), workruntest.NewMemCalls()
	e.eng = workrun.NewEngine(runs, e.arts, start.Kind{}, process.Kind{}, remotemcp.New(remotemcp.Deps{Calls: calls}))
	// Fail once the task's "working" line is stored.
	fail := workruntest.FailWhenRun(t, runs, func(ctx context.Context, runID string) bool {
		ms, err := runs.Messages(ctx, runID)
		return err == nil && slices.ContainsFunc(ms, func(m workrun.Message) bool { return m.Key == "remotemcp.status_working" })
	})
	wf := flow(state, []workrun.NodeSpec{
		mcpNode("hang", url, "hang", ""),
		{ID: "fail", Type: "process", Config: fail},
	})
	r := e.run(t, wf, nil)
	if r.Status != workrun.RunFailed || r.FailedNode != "fail" {
		t.Fatalf("run = %s at %q: %s", r.Status, r.FailedNode, r.Reason)
	}
	zh := workruntest.NodeMessages(t, runs, r.ID, "hang", "zh")
	if !contains(zh, "远程任务：正在请求取消…") || !contains(zh, "远程任务：已取消") || !contains(zh, "远程任务：执行中") {
		t.Errorf("zh = %q", zh)
	}
}
