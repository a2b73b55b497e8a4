package toolapp_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"workrun/mcp"
	"workrun/store/storetest"
	"workrun/workrun"
)

// TestMain hosts the stdio guard, pins the language and lets the test binary act as the runner
// process of the crash tests: with WORKRUN_TOOLAPP_CHILD_DIR set it starts
// a run of WORKRUN_TOOLAPP_CHILD_FLOW in that data directory and waits to be
// killed.
func TestMain(m *testing.M) {
	mcp.RunStdioGuard()         // the tests' programs run under this binary as their guard
	os.Setenv("LANGUAGE", "en") //nolint:errcheck // the tests assert English; a failure shows in their output
	workrun.SetLanguage("en")
	storetest.ChildMain(m, "WORKRUN_TOOLAPP_CHILD_DIR", func(dir string) int {
		var wf workrun.Workflow
		if err := json.Unmarshal([]byte(os.Getenv("WORKRUN_TOOLAPP_CHILD_FLOW")), &wf); err != nil {
			return 1
		}
		return storetest.StartRun(dir, wf, workrun.Values{"q": "tides"}, kinds)
	})
}

// killedDuringCall runs wf in a child process (the runner, as `workrun run`
// is) and SIGKILLs it once the Tool App node "app" has committed its call
// and its program is running. It returns the data directory, the run id and
// the program's pid.
func killedDuringCall(t *testing.T, wf workrun.Workflow) (string, string, int) {
	t.Helper()
	dir := t.TempDir()
	b, _ := json.Marshal(wf)
	cmd, runID := storetest.StartChild(t, "WORKRUN_TOOLAPP_CHILD_DIR="+dir, "WORKRUN_TOOLAPP_CHILD_FLOW="+string(b))
	e := newEnv(t, dir)
	var msgs []string
	deadline := time.Now().Add(60 * time.Second)
	for {
		msgs = e.messages(t, runID, "app")
		if has(msgs, "Calling tool ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the call did not start: %q", msgs)
		}
		time.Sleep(50 * time.Millisecond)
	}
	pid := programPID(t, msgs)
	storetest.Kill(t, cmd)
	return dir, runID, pid
}

// killThenResume kills the runner during the call, checks that the tool
// program went with it, and resumes the run in a new engine.
func killThenResume(t *testing.T, wf workrun.Workflow) (workrun.Run, []string) {
	t.Helper()
	dir, runID, pid := killedDuringCall(t, wf)
	waitGone(t, pid)
	e := newEnv(t, dir)
	if _, err := e.eng.RecoverInterrupted(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := e.eng.Resume(t.Context(), runID); err != nil {
		t.Fatal(err)
	}
	return storetest.Wait(t, e.eng, runID, time.Minute), e.messages(t, runID, "app")
}

// TestKilledWithWorkrun (docs/tool-app.md T3, T5): SIGKILL of the runner
// during the call leaves no tool program behind (checked by pid); resumed,
// a tool that is not annotated idempotentHint is not called again and the
// node says the result is unknown; an idempotent one is called again.
func TestKilledWithWorkrun(t *testing.T) {
	state := map[string]workrun.FieldType{"q": "text", "answer": "text"}
	t.Run("not idempotent", func(t *testing.T) {
		// simulate-research-query: a task, idempotentHint false.
		wf := line(state, appNode("app", map[string]any{"command": everything(t), "tool": "simulate-research-query",
			"arguments": map[string]any{"topic": "{{q}}"}, "output": "answer"}), "answer")
		r, msgs := killThenResume(t, wf)
		want := "the tool program was stopped with Workrun; result unknown"
		if r.Status != workrun.RunFailed || !strings.Contains(r.Reason, want) {
			t.Fatalf("resumed run = %s %q, want %q\n%q", r.Status, r.Reason, want, msgs)
		}
		if n := count(msgs, "Calling tool "); n != 1 {
			t.Errorf("the tool was called %d times, want once: %q", n, msgs)
		}
	})
	t.Run("idempotent", func(t *testing.T) {
		// trigger-long-running-operation: annotated idempotentHint true.
		wf := line(state, appNode("app", map[string]any{"command": everything(t), "tool": "trigger-long-running-operation",
			"arguments": map[string]any{"duration": 2, "steps": 4}, "output": "answer"}), "answer")
		r, msgs := killThenResume(t, wf)
		if r.Status != workrun.RunSucceeded || !has(msgs, "is annotated idempotentHint: true, so it is called again") {
			t.Fatalf("resumed run = %s %q\n%q", r.Status, r.Reason, msgs)
		}
		if n := count(msgs, "Calling tool "); n != 2 {
			t.Errorf("the tool was called %d times, want twice: %q", n, msgs)
		}
	})
}
