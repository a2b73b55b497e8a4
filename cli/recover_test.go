package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"workrun/workrun"
)

// startRunner starts `workrun run --json flow` in a child process (the test
// binary as a runner, see TestMain) and returns it with the run id.
func startRunner(t *testing.T, dir, flow string) (*exec.Cmd, string) {
	t.Helper()
	return startRunnerArgs(t, "--data-dir", dir, "run", "--json", flow)
}

// startRunnerArgs starts `workrun ARGS…` (a command printing JSON events)
// in a child process and returns it with the run id of its first event.
func startRunnerArgs(t *testing.T, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), runnerEnv+"=1", "WORKRUN_TEST_ARGS="+strings.Join(args, "\x1f"))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	lines := bufio.NewScanner(stdout)
	var runID string
	for runID == "" && lines.Scan() {
		var ev struct {
			RunID string `json:"run_id"`
		}
		if json.Unmarshal(lines.Bytes(), &ev) == nil {
			runID = ev.RunID
		}
	}
	if runID == "" {
		t.Fatalf("runner printed no run id; stderr: %s", stderr.String())
	}
	go func() { // keep the pipe drained
		for lines.Scan() {
		}
	}()
	return cmd, runID
}

// listedStatus runs `workrun runs --json` in this process, as a new start
// on the same data directory, and returns the run's status.
func listedStatus(t *testing.T, dir, runID string) (workrun.RunStatus, workrun.Interruption) {
	t.Helper()
	res := runMain(t, []string{"--data-dir", dir, "runs", "--json"}, nil, realDeps())
	if res.Code != ExitOK {
		t.Fatalf("runs: exit %d\n%s", res.Code, res.Stderr)
	}
	var rows []struct {
		ID           string               `json:"id"`
		Status       workrun.RunStatus    `json:"status"`
		Interruption workrun.Interruption `json:"interruption"`
	}
	if err := json.Unmarshal([]byte(res.Stdout), &rows); err != nil {
		t.Fatalf("runs --json %q: %v", res.Stdout, err)
	}
	for _, r := range rows {
		if r.ID == runID {
			return r.Status, r.Interruption
		}
	}
	t.Fatalf("run %s not listed: %s", runID, res.Stdout)
	return "", ""
}

// TestStartMarksRunsOfDeadProcessesInterrupted (docs/remote-agent.md R13; docs/engine.md, "Exit, restart and resume"): while
// a `workrun run` process executes a run, other starts on the data
// directory (`workrun runs`, `workrun resume`) leave it running; once that
// process is SIGKILLed, the next start shows it interrupted by exit.
func TestStartMarksRunsOfDeadProcessesInterrupted(t *testing.T) {
	dir := t.TempDir()
	marks := t.TempDir()
	flow := writeFlow(t, fmt.Sprintf(`{"name":"long","state":{},
		"nodes":[{"id":"start","type":"start"},
		  {"id":"slow","type":"process","config":{"command":["sh","-c","touch %s/started; sleep 20"]}}],
		"edges":[{"from":"start","to":"slow"}]}`, marks))
	cmd, runID := startRunner(t, dir, flow)
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(marks, "started")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("node slow never started")
		}
		time.Sleep(10 * time.Millisecond)
	}

	// The runner is alive: nothing marks its run interrupted.
	if st, _ := listedStatus(t, dir, runID); st != workrun.RunRunning {
		t.Errorf("while the runner lives, runs shows %s, want running", st)
	}
	res := runMain(t, []string{"--data-dir", dir, "resume", runID}, nil, realDeps())
	if res.Code != ExitUsage || !strings.Contains(res.Stderr, fmt.Sprintf("by process %d", cmd.Process.Pid)) {
		t.Errorf("resume of a live run: exit %d, stderr %q; want %d and a clear refusal", res.Code, res.Stderr, ExitUsage)
	}
	if st, _ := listedStatus(t, dir, runID); st != workrun.RunRunning {
		t.Errorf("after the refused resume, runs shows %s, want running", st)
	}

	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	st, intr := listedStatus(t, dir, runID)
	if st != workrun.RunInterrupted || intr != workrun.InterruptedByExit {
		t.Errorf("after SIGKILL, runs shows %s (%s), want interrupted (exit)", st, intr)
	}
	// And the text listing says so too.
	res = runMain(t, []string{"--data-dir", dir, "runs"}, nil, realDeps())
	if !strings.Contains(res.Stdout, runID) || !strings.Contains(res.Stdout, "interrupted (exit)") {
		t.Errorf("runs after SIGKILL:\n%s", res.Stdout)
	}
}
