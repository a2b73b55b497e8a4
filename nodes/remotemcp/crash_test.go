package remotemcp_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"workrun/artifacts"
	"workrun/mcp/demoserver"
	"workrun/nodes/output"
	"workrun/nodes/process"
	"workrun/nodes/remotemcp"
	"workrun/nodes/start"
	"workrun/store"
	"workrun/workrun"
)

// TestMain lets the test binary act as the runner process of the crash
// tests: with WORKRUN_MCP_CHILD_DIR set it starts a run in that data
// directory and waits to be killed.
func TestMain(m *testing.M) {
	if dir := os.Getenv("WORKRUN_MCP_CHILD_DIR"); dir != "" {
		os.Exit(crashChild(dir, os.Getenv("WORKRUN_MCP_CHILD_URL")))
	}
	os.Exit(m.Run())
}

func crashWorkflow(url string) workrun.Workflow {
	return flow(state, []workrun.NodeSpec{mcpNode("m", url, "research", `,"arguments":{"topic":"{{q}}","stages":12},"output":"answer"`)})
}

func crashChild(dir, url string) int {
	ctx := context.Background()
	st, err := store.Open(ctx, dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	arts, err := artifacts.New(dir, st)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	eng := workrun.NewEngine(st, arts, start.Kind{}, process.Kind{}, output.Kind{}, remotemcp.New(remotemcp.Deps{Calls: st}))
	id, err := eng.Start(ctx, "", crashWorkflow(url), workrun.Values{"q": "tides"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("run", id)
	select {} // killed by the parent
}

// startKilledRun runs the workflow in a child process and SIGKILLs it right
// after the task id is committed. It returns the data directory, the run id
// and the saved task id.
func startKilledRun(t *testing.T, url string) (string, string, string) {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "WORKRUN_MCP_CHILD_DIR="+dir, "WORKRUN_MCP_CHILD_URL="+url)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() }) //nolint:errcheck // already dead in the normal case
	sc := bufio.NewScanner(out)
	if !sc.Scan() || !strings.HasPrefix(sc.Text(), "run ") {
		t.Fatalf("child said %q", sc.Text())
	}
	runID := strings.TrimPrefix(sc.Text(), "run ")
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
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait() //nolint:errcheck // killed
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
