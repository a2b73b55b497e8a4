package remotemcp_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"workrun/mcp/demoserver"
	"workrun/nodes/output"
	"workrun/nodes/process"
	"workrun/nodes/remotemcp"
	"workrun/nodes/start"
	"workrun/store"
	"workrun/store/storetest"
	"workrun/workrun"
)

// TestMain lets the test binary act as the runner process of the crash
// tests: with WORKRUN_MCP_CHILD_DIR set it starts a run in that data
// directory and waits to be killed.
func TestMain(m *testing.M) {
	storetest.ChildMain(m, "WORKRUN_MCP_CHILD_DIR", func(dir string) int {
		if os.Getenv("WORKRUN_MCP_CHILD_DECIDE") != "" {
			return decideChild(dir) // input_test.go
		}
		wf := crashWorkflow(os.Getenv("WORKRUN_MCP_CHILD_URL"))
		if tool := os.Getenv("WORKRUN_MCP_CHILD_TOOL"); tool != "" {
			// WORKRUN_MCP_CHILD_CFG: more config keys, e.g. `,"arguments":{…}`.
			wf = flow(state, []workrun.NodeSpec{mcpNode("m", os.Getenv("WORKRUN_MCP_CHILD_URL"), tool, os.Getenv("WORKRUN_MCP_CHILD_CFG")+`,"output":"answer"`)})
		}
		return storetest.StartRun(dir, wf, workrun.Values{"q": "tides"},
			func(st *store.Store) []workrun.Kind {
				return []workrun.Kind{start.Kind{}, process.Kind{}, output.Kind{}, remotemcp.New(remotemcp.Deps{Calls: st})}
			})
	})
}

func crashWorkflow(url string) workrun.Workflow {
	return flow(state, []workrun.NodeSpec{mcpNode("m", url, "research", `,"arguments":{"topic":"{{q}}","stages":12},"output":"answer"`)})
}

// startKilledRun runs the workflow in a child process and SIGKILLs it right
// after the task id is committed. It returns the data directory, the run id
// and the saved task id.
func startKilledRun(t *testing.T, url string, env ...string) (string, string, string) {
	t.Helper()
	dir := t.TempDir()
	cmd, runID := storetest.StartChild(t, append([]string{"WORKRUN_MCP_CHILD_DIR=" + dir, "WORKRUN_MCP_CHILD_URL=" + url}, env...)...)
	st, err := store.Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var taskID string
	waitUntil(t, 30*time.Second, func() bool {
		c, err := st.GetRemoteCall(t.Context(), runID, "m", "call")
		taskID = c.TaskID
		return err == nil && c.TaskID != ""
	})
	st.Close()
	storetest.Kill(t, cmd)
	return dir, runID, taskID
}

// TestCrashAfterTaskIDThenResume: the runner is SIGKILLed right after the
// task id is committed; after a restart the run resumes, follows the
// original task in the saved session and finishes it. The server saw
// exactly one tools/call and no cancel.
func TestCrashAfterTaskIDThenResume(t *testing.T) {
	for _, coreOnly := range []bool{true, false} {
		t.Run(fmt.Sprintf("coreOnly=%v", coreOnly), func(t *testing.T) {
			d, url := demo(t, demoserver.Options{CoreOnly: coreOnly, StageDuration: 250 * time.Millisecond})
			dir, runID, taskID := startKilledRun(t, url)
			e := newEnv(t, dir)
			if c := e.call(t, runID, "m"); c.Ended {
				t.Fatalf("the task ended before the kill; the test proves nothing: %+v", c)
			}
			if _, err := e.eng.RecoverInterrupted(t.Context()); err != nil {
				t.Fatal(err)
			}
			if err := e.eng.Resume(t.Context(), runID); err != nil {
				t.Fatal(err)
			}
			r := e.wait(t, runID)
			msgs := e.messages(t, runID, "m")
			if r.Status != workrun.RunSucceeded {
				t.Fatalf("resumed run = %s: %s\n%q", r.Status, r.Reason, msgs)
			}
			if got := r.State["answer"]; got != "Research on tides: 12 stages done." {
				t.Errorf("answer = %q", got)
			}
			if n := count(d, "tools/call", "research"); n != 1 {
				t.Errorf("tools/call research = %d, want exactly 1", n)
			}
			if n := count(d, "tasks/cancel", ""); n != 0 {
				t.Errorf("exiting sent %d cancels", n)
			}
			if !contains(msgs, "Resuming remote task "+taskID) {
				t.Errorf("messages = %q", msgs)
			}
			if c := e.call(t, runID, "m"); c.TaskID != taskID || !c.Ended {
				t.Errorf("record after resume = %+v", c)
			}
		})
	}
}

// TestResumeAfterServerLostTheSession: the server restarted meanwhile and no
// longer knows the session: "remote task status unknown", nothing
// resubmitted.
func TestResumeAfterServerLostTheSession(t *testing.T) {
	d, url := demo(t, demoserver.Options{CoreOnly: true, StageDuration: 250 * time.Millisecond})
	dir, runID, _ := startKilledRun(t, url)
	d.DropSessions()
	e := newEnv(t, dir)
	if _, err := e.eng.RecoverInterrupted(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := e.eng.Resume(t.Context(), runID); err != nil {
		t.Fatal(err)
	}
	r := e.wait(t, runID)
	sess := strings.TrimSpace(strings.SplitN(e.call(t, runID, "m").ContextID, "session=", 2)[1])
	want := "remote task status unknown: the server no longer has session " + sess
	if r.Status != workrun.RunFailed || !strings.Contains(r.Reason, want) {
		t.Fatalf("run = %s: %q, want %q", r.Status, r.Reason, want)
	}
	if n := count(d, "tools/call", "research"); n != 1 {
		t.Errorf("tools/call research = %d, want exactly 1", n)
	}
}

// TestCrashAfterTaskIDThenResumeModern: the same on 2026-07-28 (no
// session): after SIGKILL and resume the task is read again, never called
// again, and the record says which revision was spoken.
func TestCrashAfterTaskIDThenResumeModern(t *testing.T) {
	f := &modernServer{workingReads: 4, pollMs: 300}
	url := f.start(t)
	dir, runID, taskID := startKilledRun(t, url, "WORKRUN_MCP_CHILD_TOOL=t")
	e := newEnv(t, dir)
	if c := e.call(t, runID, "m"); c.Ended {
		t.Fatalf("the task ended before the kill; the test proves nothing: %+v", c)
	}
	if _, err := e.eng.RecoverInterrupted(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := e.eng.Resume(t.Context(), runID); err != nil {
		t.Fatal(err)
	}
	r := e.wait(t, runID)
	if r.Status != workrun.RunSucceeded || r.State["answer"] != "finished" {
		t.Fatalf("resumed run = %s: %s\n%q", r.Status, r.Reason, e.messages(t, runID, "m"))
	}
	if n := f.count("tools/call"); n != 1 {
		t.Errorf("tools/call = %d, want exactly 1", n)
	}
	if n := f.count("tasks/cancel") + f.count("initialize"); n != 0 {
		t.Errorf("%d cancels or initializes", n)
	}
	if c := e.call(t, runID, "m"); c.TaskID != taskID || !c.Ended || !strings.Contains(c.ContextID, "protocol=2026-07-28") {
		t.Errorf("record after resume = %+v", c)
	}
}
