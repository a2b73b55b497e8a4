package cli

import (
	"fmt"
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
			flow := writeFlow(t, fmt.Sprintf(`{"name":"exit","state":{"prompt":"text","answer":"text"},
				"nodes":[{"id":"start","type":"start"},
				  {"id":"ra","type":"remote_agent","config":{"url":%q,"inputs":["prompt"],"output":"answer","timeout_seconds":10}}],
				"edges":[{"from":"start","to":"ra"}]}`, url))
			cmd, runID := startRunnerArgs(t, "--data-dir", dir, "run", "--json", flow, "--input", "prompt=slow 6 500")
			msgID := remoteagent.MessageID(runID, "ra", "send")
			deadline := time.Now().Add(20 * time.Second)
			for agent.SubmissionsFor(msgID) == 0 || agent.Calls("SendStreamingMessage") == 0 {
				if time.Now().After(deadline) {
					t.Fatalf("the task never reached the agent; stderr: %s", cmd.Stderr)
				}
				time.Sleep(20 * time.Millisecond)
			}
			time.Sleep(300 * time.Millisecond) // the task id is committed, the task works
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
			if res.Code != ExitOK || !strings.Contains(res.Stdout, "done after 6 steps") {
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
