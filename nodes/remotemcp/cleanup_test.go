package remotemcp_test

import (
	"context"
	"testing"

	"workrun/mcp/demoserver"
	"workrun/mcptool"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// TestCleanupToolOnceAfterParallelFailure (docs/remote-mcp.md M14): a node
// that finished gets its cleanup tool called once, on the same server, with
// arguments naming its output, when a parallel branch fails afterwards; a
// node that did not finish gets none.
func TestCleanupToolOnceAfterParallelFailure(t *testing.T) {
	d, url := demo(t, demoserver.Options{})
	e := newEnv(t, "")
	fail := workruntest.FailWhenRun(t, e.st, func(ctx context.Context, runID string) bool { return callEnded(ctx, e.st, runID, "done") })
	wf := flow(state, []workrun.NodeSpec{
		mcpNode("done", url, "echo", `,"arguments":{"text":"made {{q}}"},"output":"answer","cleanup_tool":"echo","cleanup_arguments":{"text":"undo {{answer}}"}`),
		{ID: "fail", Type: "process", Config: fail},
		mcpNode("later", url, "echo", `,"arguments":{"text":"never"},"cleanup_tool":"echo"`),
	}, workrun.Edge{From: "fail", To: "later"})
	r := e.run(t, wf, workrun.Values{"q": "x"})
	if r.Status != workrun.RunFailed || r.FailedNode != "fail" {
		t.Fatalf("run = %s at %q: %s", r.Status, r.FailedNode, r.Reason)
	}
	msgs := e.messages(t, r.ID, "done")
	if !contains(msgs, "Cleanup: calling tool echo…") || !contains(msgs, "Cleanup: tool echo finished: echo: undo echo: made x") {
		t.Errorf("messages = %q", msgs)
	}
	if n := count(d, "tools/call", "echo"); n != 2 {
		t.Errorf("echo called %d times, want the call and its one cleanup", n)
	}
	if rec := e.call(t, r.ID, "done"); rec.CancelOutcome != "" {
		t.Errorf("the finished call was sent a cancel: %+v", rec)
	}
	if c, err := e.st.GetRemoteCall(t.Context(), r.ID, "done", mcptool.CleanupKey); err != nil || c.CancelOutcome != mcptool.CleanupDone {
		t.Errorf("cleanup record = %+v, %v", c, err)
	}
}
