package remotemcp_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"workrun/mcp"
	"workrun/mcp/mcptest"
	"workrun/nodes/process"
	"workrun/nodes/remotemcp"
	"workrun/nodes/start"
	"workrun/remotecall"
	"workrun/store/storetest"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// The Remote MCP Tool node against servers built on the official TypeScript
// SDK v2 (@modelcontextprotocol/server 2.4.0, mcp/testdata/tsserver; the
// Tasks extension on the SDK's hooks): docs/remote-mcp.md M2–M6 proven
// against a peer we did not write the protocol side of. The peer's own
// counters (mcptest.Stats) say what it saw.

// since is what the peer counted after before.
func since(before, after mcptest.Stats) mcptest.Stats {
	return mcptest.Stats{
		ToolsCall: after.ToolsCall - before.ToolsCall, TasksGet: after.TasksGet - before.TasksGet,
		TasksUpdate: after.TasksUpdate - before.TasksUpdate, TasksCancel: after.TasksCancel - before.TasksCancel,
		Listens: after.Listens - before.Listens, Notifications: after.Notifications - before.Notifications,
	}
}

// TestTSPeerModern: the node speaking 2026-07-28 to the 2026-07-28-only
// peer. The peer announces a poll interval of a minute, so a task that ends
// within seconds is noticed by its status notification, not by a poll.
func TestTSPeerModern(t *testing.T) {
	p := mcptest.StartTSServer(t, mcptest.ModernOnly, 60000)

	t.Run("sync", func(t *testing.T) {
		before := p.Stats(t)
		e := newEnv(t, "")
		r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", p.URL, "echo", `,"arguments":{"text":"{{q}}"},"output":"answer"`)}), workrun.Values{"q": "hello"})
		if r.Status != workrun.RunSucceeded || r.State["answer"] != "echo: hello" {
			t.Fatalf("run %s: %s; state %v; %q", r.Status, r.Reason, r.State, e.messages(t, r.ID, "m"))
		}
		if got := since(before, p.Stats(t)); got != (mcptest.Stats{ToolsCall: 1}) {
			t.Errorf("the peer saw %+v, want one tools/call and nothing else", got)
		}
		if c := e.call(t, r.ID, "m"); !strings.Contains(c.ContextID, "protocol=2026-07-28") || c.TaskID != "" {
			t.Errorf("record = %+v", c)
		}
	})

	t.Run("task", func(t *testing.T) {
		before := p.Stats(t)
		e := newEnv(t, "")
		begin := time.Now()
		r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", p.URL, "slow", `,"arguments":{"seconds":1},"output":"answer"`)}), nil)
		took := time.Since(begin)
		msgs := e.messages(t, r.ID, "m")
		if r.Status != workrun.RunSucceeded || r.State["answer"] != "slow done after 1s" {
			t.Fatalf("run %s: %s; state %v; %q", r.Status, r.Reason, r.State, msgs)
		}
		got := since(before, p.Stats(t))
		// One tools/call; one listen stream, whose terminal notification
		// carries the result. The node reads the task at most once (after
		// the first, still-working notification); a poll would come only
		// after 60 s.
		if got.ToolsCall != 1 || got.Listens != 1 || got.Notifications < 1 || got.TasksGet > 1 || got.TasksCancel != 0 {
			t.Errorf("the peer saw %+v", got)
		}
		if took > 30*time.Second {
			t.Errorf("took %v: the notification did not end the wait", took)
		}
		c := e.call(t, r.ID, "m")
		if !strings.HasPrefix(c.TaskID, "ts-task-") || !c.Ended || c.RemoteState != mcp.StatusCompleted ||
			!strings.Contains(c.ContextID, "protocol=2026-07-28; handle=task; form=extension") {
			t.Errorf("record = %+v", c)
		}
		if !contains(msgs, "Remote task "+c.TaskID+" accepted") {
			t.Errorf("messages = %q", msgs)
		}
	})

	t.Run("failing task", func(t *testing.T) {
		before := p.Stats(t)
		e := newEnv(t, "")
		r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", p.URL, "fail", "")}), nil)
		if r.Status != workrun.RunFailed || r.FailedNode != "m" || !strings.Contains(r.Reason, "failed on purpose") {
			t.Fatalf("run %s at %q: %s", r.Status, r.FailedNode, r.Reason)
		}
		if got := since(before, p.Stats(t)); got.ToolsCall != 1 || got.TasksCancel != 0 {
			t.Errorf("the peer saw %+v: a failed task is neither called again nor cancelled", got)
		}
		if c := e.call(t, r.ID, "m"); c.RemoteState != mcp.StatusFailed || !c.Ended {
			t.Errorf("record = %+v", c)
		}
	})

	t.Run("stop", func(t *testing.T) {
		before := p.Stats(t)
		e := newEnv(t, "")
		id := e.start(t, flow(state, []workrun.NodeSpec{mcpNode("h", p.URL, "hang", "")}), nil)
		waitUntil(t, 30*time.Second, func() bool { return taskSaved(t.Context(), e.st, id, "h") })
		if err := e.eng.Stop(t.Context(), id); err != nil {
			t.Fatal(err)
		}
		r := e.wait(t, id)
		if r.Status != workrun.RunStopped {
			t.Fatalf("run %s: %s", r.Status, r.Reason)
		}
		waitUntil(t, 30*time.Second, func() bool { return e.call(t, id, "h").CancelOutcome != "" })
		if got := since(before, p.Stats(t)); got.ToolsCall != 1 || got.TasksCancel != 1 {
			t.Errorf("the peer saw %+v, want one tools/call and exactly one tasks/cancel", got)
		}
		c := e.call(t, id, "h")
		if c.CancelOutcome != string(remotecall.CancelCanceled) {
			t.Errorf("cancel outcome %q (%s): the empty ack is read as canceled", c.CancelOutcome, c.CancelText)
		}
		if msgs := e.messages(t, id, "h"); !contains(msgs, enCanceled) || contains(msgs, "has no taskId") {
			t.Errorf("messages %q", msgs)
		}
	})

	t.Run("failing branch", func(t *testing.T) {
		before := p.Stats(t)
		e := newEnv(t, "")
		fail := workruntest.FailWhenRun(t, e.st, func(ctx context.Context, runID string) bool { return taskSaved(ctx, e.st, runID, "h") })
		r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("h", p.URL, "hang", ""), {ID: "fail", Type: "process", Config: fail}}), nil)
		if r.Status != workrun.RunFailed || r.FailedNode != "fail" {
			t.Fatalf("run %s at %q: %s", r.Status, r.FailedNode, r.Reason)
		}
		waitUntil(t, 30*time.Second, func() bool { return e.call(t, r.ID, "h").CancelOutcome != "" })
		if got := since(before, p.Stats(t)); got.ToolsCall != 1 || got.TasksCancel != 1 {
			t.Errorf("the peer saw %+v, want exactly one tasks/cancel", got)
		}
		if c := e.call(t, r.ID, "h"); c.CancelOutcome != string(remotecall.CancelCanceled) {
			t.Errorf("cancel outcome %q (%s)", c.CancelOutcome, c.CancelText)
		}
	})

	t.Run("sigkill and resume", func(t *testing.T) {
		before := p.Stats(t)
		// A real runner process (the test binary, same engine and kinds)
		// is SIGKILLed right after the task id is committed.
		dir, runID, taskID := startKilledRun(t, p.URL, "WORKRUN_MCP_CHILD_TOOL=slow", `WORKRUN_MCP_CHILD_CFG=,"arguments":{"seconds":10}`)
		e, r := resumeKilled(t, dir, runID)
		msgs := e.messages(t, runID, "m")
		if r.Status != workrun.RunSucceeded || r.State["answer"] != "slow done after 10s" {
			t.Fatalf("resumed run %s: %s\n%q", r.Status, r.Reason, msgs)
		}
		if got := since(before, p.Stats(t)); got.ToolsCall != 1 || got.TasksCancel != 0 {
			t.Errorf("the peer saw %+v, want exactly one tools/call and no cancel", got)
		}
		if !contains(msgs, "Resuming remote task "+taskID) {
			t.Errorf("messages = %q", msgs)
		}
		if c := e.call(t, runID, "m"); c.TaskID != taskID || !c.Ended || !strings.Contains(c.ContextID, "protocol=2026-07-28") {
			t.Errorf("record after resume = %+v", c)
		}
	})
}

// TestTSPeerDualEra: a dual-era peer (it also answers 2025-era requests,
// statelessly — the SDK's 'stateless' legacy) does not downgrade the node:
// it speaks 2026-07-28 with the Tasks extension. A client pinned to
// 2025-11-25 is still answered, without tasks (the extension needs
// 2026-07-28).
func TestTSPeerDualEra(t *testing.T) {
	p := mcptest.StartTSServer(t, mcptest.DualEra, 60000)

	t.Run("modern task", func(t *testing.T) {
		before := p.Stats(t)
		e := newEnv(t, "")
		r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", p.URL, "slow", `,"arguments":{"seconds":0.5},"output":"answer"`)}), nil)
		if r.Status != workrun.RunSucceeded || r.State["answer"] != "slow done after 0.5s" {
			t.Fatalf("run %s: %s; %q", r.Status, r.Reason, e.messages(t, r.ID, "m"))
		}
		if got := since(before, p.Stats(t)); got.ToolsCall != 1 || got.Listens != 1 || got.TasksGet > 1 {
			t.Errorf("the peer saw %+v", got)
		}
		if c := e.call(t, r.ID, "m"); !strings.Contains(c.ContextID, "protocol=2026-07-28; handle=task; form=extension") || c.TaskID == "" {
			t.Errorf("record = %+v: the dual-era server downgraded the node", c)
		}
	})

	t.Run("pinned 2025-11-25", func(t *testing.T) {
		before := p.Stats(t)
		_, st, arts := storetest.Open(t, "")
		kind := remotemcp.New(remotemcp.Deps{Calls: st, Dial: func(url string, hc *http.Client, o mcp.Options) (remotemcp.MCPClient, error) {
			o.HTTPClient, o.Version = hc, mcp.Version20251125
			return mcp.New(url, o)
		}})
		e := &env{st: st, arts: arts, eng: workrun.NewEngine(st, arts, start.Kind{}, process.Kind{}, kind)}
		r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", p.URL, "slow", `,"arguments":{"seconds":0.2},"output":"answer"`)}), nil)
		if r.Status != workrun.RunSucceeded || r.State["answer"] != "slow done after 0.2s" {
			t.Fatalf("run %s: %s; %q", r.Status, r.Reason, e.messages(t, r.ID, "m"))
		}
		if got := since(before, p.Stats(t)); got.ToolsCall != 1 || got.TasksGet != 0 || got.Listens != 0 {
			t.Errorf("the peer saw %+v", got)
		}
		if c := e.call(t, r.ID, "m"); !strings.Contains(c.ContextID, "protocol=2025-11-25") || c.TaskID != "" {
			t.Errorf("record = %+v", c)
		}
	})
}
