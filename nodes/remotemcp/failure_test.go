package remotemcp_test

import (
	"maps"
	"testing"

	"workrun/mcp/demoserver"
	"workrun/workrun"
)

// A tool that answers isError, with on_error: continue, against the demo
// MCP server: the workflow reads the tool's error text (in the node's
// output field and in its error field) and succeeds (docs/engine.md
// "Failure handling").
func TestOnError_ContinueReadsTheToolError(t *testing.T) {
	_, url := demo(t, demoserver.Options{})
	e := newEnv(t, "")
	m := mcpNode("m", url, "broken", `,"output":"answer"`)
	m.OnError, m.ErrorField = workrun.OnErrorContinue, "why"
	show := workrun.NodeSpec{ID: "show", Type: "output", Config: []byte(`{"fields":["answer","why"]}`)}
	st := maps.Clone(state)
	st["why"] = workrun.FieldText
	r := e.run(t, flow(st, []workrun.NodeSpec{m, show}, workrun.Edge{From: "m", To: "show"}), nil)
	if r.Status != workrun.RunSucceeded {
		t.Fatalf("run %s (%s)", r.Status, r.Reason)
	}
	msgs := e.messages(t, r.ID, "show")
	if !contains(msgs, "answer: the solver diverged at step 3") || !contains(msgs, "why: tool broken reported an error: the solver diverged at step 3") {
		t.Errorf("the next node read %q", msgs)
	}
}

// isError is a known failure: with max_attempts 2 the tool is called twice,
// each time with its own idempotency key.
func TestRetry_ToolErrorIsCalledAgainWithANewKey(t *testing.T) {
	d, url := demo(t, demoserver.Options{})
	e := newEnv(t, "")
	m := mcpNode("m", url, "broken", `,"output":"answer"`)
	m.Retry = &workrun.RetryPolicy{MaxAttempts: 2}
	r := e.run(t, flow(state, []workrun.NodeSpec{m}), nil)
	if r.Status != workrun.RunFailed {
		t.Fatalf("run %s", r.Status)
	}
	keys := map[string]int{}
	for _, q := range d.Requests() {
		if q.Method == "tools/call" {
			keys[q.Key]++
		}
	}
	if len(keys) != 2 {
		t.Errorf("tools/call idempotency keys %v: want two, once each", keys)
	}
	second, err := e.st.GetRemoteCall(t.Context(), r.ID, "m", "call#2")
	if err != nil || keys[second.MessageID] != 1 || second.MessageID == e.call(t, r.ID, "m").MessageID {
		t.Errorf("attempt 2's record %+v (%v), keys %v", second, err, keys)
	}
}
