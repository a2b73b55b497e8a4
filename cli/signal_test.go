package cli

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"workrun/nodes/remoteagent"
	"workrun/workrun"
)

// TestExitSignalsInterruptNotStop: SIGTERM and SIGHUP to a real `workrun
// run` process whose Remote Agent task is working are an exit, not a Stop:
// exit 3, the run interrupted by exit, zero CancelTask at the agent; then
// `workrun resume` finishes it with the one submission (issue 25, "Exit is
// exit"; docs/remote-agent.md R13).
func TestExitSignalsInterruptNotStop(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			agent, url := startDemoAgent(t)
			dir := t.TempDir()
			// 12 steps of 0.5 s: the task is still working when the signal
			// comes, however slowly a loaded machine gets there.
			flow := writeFlow(t, fmt.Sprintf(`{"name":"exit","state":{"prompt":"text","answer":"text"},
				"nodes":[{"id":"start","type":"start"},
				  {"id":"ra","type":"remote_agent","config":{"url":%q,"inputs":["prompt"],"output":"answer","timeout_seconds":120}}],
				"edges":[{"from":"start","to":"ra"}]}`, url))
			cmd, runID := startRunnerArgs(t, "--data-dir", dir, "run", "--json", flow, "--input", "prompt=slow 12 500")
			msgID := remoteagent.MessageID(runID, "ra", "send")
			// The signal comes once the task's id is saved: an exit before
			// that leaves an unknown outcome, which resume rightly never
			// sends again — not what this test is about.
			waitTaskSaved(t, dir, runID, "ra", cmd)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != ExitInterrupted {
				t.Fatalf("exit %d (%v), want %d; stderr: %s", code, err, ExitInterrupted, cmd.Stderr)
			}
			if st, why := listedStatus(t, dir, runID); st != workrun.RunInterrupted || why != workrun.InterruptedByExit {
				t.Errorf("after %v the run is %s (%s), want interrupted by exit", sig, st, why)
			}
			if n := agent.Stats().Methods["CancelTask"]; n != 0 {
				t.Errorf("%v sent %d CancelTask, want 0", sig, n)
			}
			res := runMain(t, []string{"--data-dir", dir, "resume", runID}, nil, realDeps())
			if res.Code != ExitOK || !strings.Contains(res.Stdout, "done after 12 steps") {
				t.Fatalf("resume: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
			}
			if n := agent.SubmissionsFor(msgID); n != 1 {
				t.Errorf("the message was submitted %d times, want 1", n)
			}
			if n := agent.Stats().Methods["CancelTask"]; n != 0 {
				t.Errorf("%d CancelTask in all, want 0", n)
			}
		})
	}
}

// waitTaskSaved waits until `workrun show` lists node's remote call with its
// task id (not a side record's) — the call is then committed as a task the agent works on. It
// fails, with the runner's stderr, if that does not happen within a minute.
func waitTaskSaved(t *testing.T, dir, runID, node string, runner *exec.Cmd) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	var last string
	for {
		res := runMain(t, []string{"--data-dir", dir, "show", "--json", runID}, nil, realDeps())
		last = res.Stdout + res.Stderr
		var sr shownRun
		if res.Code == ExitOK && json.Unmarshal([]byte(res.Stdout), &sr) == nil {
			for _, c := range sr.RemoteCalls {
				if c.NodeID == node && !strings.Contains(c.CallKey, "/") && c.TaskID != "" {
					return
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("node %s's task id was never saved; last show: %s\nrunner stderr: %s", node, last, runner.Stderr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
