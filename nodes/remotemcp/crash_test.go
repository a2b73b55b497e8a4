package remotemcp_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"workrun/mcp/demoserver"
	"workrun/workrun"
)

// TestCrashAfterTaskIDThenResume: the runner is SIGKILLed right after the
// task id is committed; after a restart the run resumes, follows the
// original task in the saved session and finishes it. The server saw
// exactly one tools/call and no cancel.
func TestCrashAfterTaskIDThenResume(t *testing.T) {
	for _, coreOnly := range []bool{true, false} {
		t.Run(fmt.Sprintf("coreOnly=%v", coreOnly), func(t *testing.T) {
			d, url := demo(t, demoserver.Options{CoreOnly: coreOnly, StageDuration: 250 * time.Millisecond})
			dir, runID, taskID := startKilledRun(t, url)
			e, r := resumeKilled(t, dir, runID)
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
	e, r := resumeRun(t, dir, runID)
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
	e, r := resumeKilled(t, dir, runID)
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
