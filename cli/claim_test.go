package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"workrun/a2a/demoagent"
	"workrun/nodes/remoteagent"
	"workrun/store"
	"workrun/workrun"
)

// cliProcess is one `workrun …` started as a child process (the test binary
// as a runner, see TestMain).
type cliProcess struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	code           int
}

func newCLIProcess(args ...string) *cliProcess {
	p := &cliProcess{cmd: exec.Command(os.Args[0], "-test.run=^$")}
	p.cmd.Env = append(os.Environ(), runnerEnv+"=1", "WORKRUN_TEST_ARGS="+strings.Join(args, "\x1f"))
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	return p
}

// runTogether runs n processes of `workrun args…` at once, racing for real,
// and returns them with their exit codes once all have ended.
func runTogether(n int, args ...string) []*cliProcess {
	procs := make([]*cliProcess, n)
	for i := range procs {
		procs[i] = newCLIProcess(args...)
	}
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Go(func() {
			if err := p.cmd.Run(); err != nil {
				p.code = p.cmd.ProcessState.ExitCode()
			}
		})
	}
	wg.Wait()
	return procs
}

// killedRun starts `workrun run --json [RUN_ARGS…] flow` in a child
// process, waits until the file "started" appears in marks, SIGKILLs the
// runner and returns the run id: a run left "running" by a process that died.
func killedRun(t *testing.T, dir, marks, flow string, runArgs ...string) string {
	t.Helper()
	args := append([]string{"--data-dir", dir, "run", "--json"}, runArgs...)
	cmd, runID := startRunnerArgs(t, append(args, flow)...)
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(marks, "started")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the slow node never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	return runID
}

func lineCount(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

// TestConcurrentResumesRunTheRunOnce: 8 `workrun resume RUN` processes
// started together on one run whose process was killed: exactly one
// resumes it; the 7 others exit 2 saying which process has it. The remote
// agent sees the node's messageId once and each process node runs once.
func TestConcurrentResumesRunTheRunOnce(t *testing.T) {
	agent, url := startDemoAgent(t)
	dir, marks := t.TempDir(), t.TempDir()
	// slow sleeps only the first time (so the runner is killed inside it);
	// after keeps the winner busy while the losers try.
	flow := writeFlow(t, fmt.Sprintf(`{"name":"race","state":{"prompt":"text","answer":"text"},
		"nodes":[{"id":"start","type":"start"},
		  {"id":"slow","type":"process","config":{"command":["sh","-c","echo x >> %[1]s/slow; if [ ! -e %[1]s/started ]; then touch %[1]s/started; sleep 60; fi"]}},
		  {"id":"ra","type":"remote_agent","config":{"url":%[2]q,"inputs":["prompt"],"output":"answer","timeout_seconds":10}},
		  {"id":"after","type":"process","config":{"command":["sh","-c","echo x >> %[1]s/after; sleep 2"]}}],
		"edges":[{"from":"start","to":"slow"},{"from":"slow","to":"ra"},{"from":"ra","to":"after"}]}`, marks, url))
	runID := killedRun(t, dir, marks, flow, "--input", "prompt=echo raced")

	const n = 8
	procs := runTogether(n, "--data-dir", dir, "resume", runID)

	var winners []*cliProcess
	for _, p := range procs {
		if p.code == ExitOK {
			winners = append(winners, p)
		}
	}
	if len(winners) != 1 {
		for _, p := range procs {
			t.Logf("exit %d\nstdout: %s\nstderr: %s", p.code, p.stdout.String(), p.stderr.String())
		}
		t.Fatalf("%d resumes succeeded, want exactly 1", len(winners))
	}
	claimed := fmt.Sprintf("run %s is already being resumed by process %d", runID, winners[0].cmd.Process.Pid)
	sawClaim := 0
	for _, p := range procs {
		if p == winners[0] {
			continue
		}
		if p.code != ExitUsage {
			t.Errorf("a losing resume exited %d, want %d\nstderr: %s", p.code, ExitUsage, p.stderr.String())
		}
		switch {
		case strings.Contains(p.stderr.String(), claimed):
			sawClaim++
		case strings.Contains(p.stderr.String(), "cannot be resumed"): // came after the run ended
		default:
			t.Errorf("a losing resume said %q; want %q", p.stderr.String(), claimed)
		}
	}
	if sawClaim == 0 {
		t.Error("no loser met the winner's claim: the processes did not race")
	}
	if got := agent.SubmissionsFor(remoteagent.MessageID(runID, "ra", "send")); got != 1 {
		t.Errorf("the agent saw the node's messageId %d times, want 1 (stats %+v)", got, agent.Stats())
	}
	if got := len(agent.Stats().Submissions); got != 1 {
		t.Errorf("the agent saw %d messageIds, want 1", got)
	}
	if got := lineCount(t, filepath.Join(marks, "slow")); got != 2 {
		t.Errorf("slow ran %d times in all, want 2 (the killed run, then one resume)", got)
	}
	if got := lineCount(t, filepath.Join(marks, "after")); got != 1 {
		t.Errorf("after ran %d times, want 1", got)
	}
	if st, _ := listedStatus(t, dir, runID); st != workrun.RunSucceeded {
		t.Errorf("run status %s, want succeeded", st)
	}
}

// remoteFlow is start → ra, a Remote Agent node at url reading prompt.
func remoteFlow(t *testing.T, url string) string {
	return writeFlow(t, fmt.Sprintf(`{"name":"remote","state":{"prompt":"text","answer":"text"},
		"nodes":[{"id":"start","type":"start"},
		  {"id":"ra","type":"remote_agent","config":{"url":%q,"inputs":["prompt"],"output":"answer","timeout_seconds":10}}],
		"edges":[{"from":"start","to":"ra"}]}`, url))
}

// remoteCall reads the ra node's call record from the data directory.
func remoteCall(t *testing.T, dir, runID string) workrun.RemoteCall {
	t.Helper()
	st, err := store.Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, err := st.GetRemoteCall(t.Context(), runID, "ra", "send")
	if err != nil && !errors.Is(err, workrun.ErrNotFound) {
		t.Fatal(err)
	}
	return c
}

// jsonRunID is the run id of the last JSON line of `run --json`.
func jsonRunID(t *testing.T, stdout string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var fin struct {
		RunID string `json:"run_id"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &fin); err != nil || fin.RunID == "" {
		t.Fatalf("no run id in %q: %v", stdout, err)
	}
	return fin.RunID
}

// TestRunAskedByAgentCanBeStopped: a run whose remote agent asked
// (INPUT_REQUIRED) waits for the person: the run's outcome says how to
// answer (docs/remote-agent.md R8; the answer itself:
// TestAnswerRemoteAgent_CLI); it is no review and no exit to resume
// (exit 2, nothing sent to the agent); `workrun stop` stops it, and its
// task gets exactly one cancel (R9).
func TestRunAskedByAgentCanBeStopped(t *testing.T) {
	agent, url := startDemoAgent(t)
	dir := t.TempDir()
	res := runMain(t, []string{"--data-dir", dir, "run", "--json", "--input", "prompt=input", remoteFlow(t, url)}, nil, realDeps())
	if res.Code != ExitInterrupted {
		t.Fatalf("run: exit %d, want %d\n%s\n%s", res.Code, ExitInterrupted, res.Stdout, res.Stderr)
	}
	runID := jsonRunID(t, res.Stdout)
	text := runMain(t, []string{"--data-dir", t.TempDir(), "run", "--input", "prompt=input", remoteFlow(t, url)}, nil, realDeps())
	if !strings.Contains(text.Stdout, "workrun answer ") {
		t.Errorf("run's outcome does not say how to go on:\n%s", text.Stdout)
	}
	if st, intr := listedStatus(t, dir, runID); st != workrun.RunInterrupted || intr != workrun.InterruptedByHuman {
		t.Fatalf("run is %s (%s), want interrupted (human)", st, intr)
	}
	taskID := remoteCall(t, dir, runID).TaskID
	if taskID == "" {
		t.Fatal("no task id saved")
	}
	before := agent.Stats()
	res = runMain(t, []string{"--data-dir", dir, "review", runID, "ra", "approve"}, nil, realDeps())
	if res.Code != ExitUsage {
		t.Errorf("review: exit %d, stderr %q; want %d", res.Code, res.Stderr, ExitUsage)
	}
	if after := agent.Stats(); fmt.Sprint(after.Methods) != fmt.Sprint(before.Methods) {
		t.Errorf("the refused review reached the agent: %v, before %v", after.Methods, before.Methods)
	}
	// Resume without an answer reads the task and asks again: nothing is sent.
	res = runMain(t, []string{"--data-dir", dir, "resume", runID}, nil, realDeps())
	if res.Code != ExitInterrupted || !strings.Contains(res.Stdout, "workrun answer ") {
		t.Errorf("resume: exit %d\n%s%s", res.Code, res.Stdout, res.Stderr)
	}
	if after := agent.Stats(); after.Methods["SendStreamingMessage"] != before.Methods["SendStreamingMessage"] || after.Methods["SendMessage"] != before.Methods["SendMessage"] {
		t.Errorf("resume sent a message: %v, before %v", after.Methods, before.Methods)
	}
	if st, _ := listedStatus(t, dir, runID); st != workrun.RunInterrupted {
		t.Errorf("after the refusals the run is %s, want still interrupted", st)
	}

	res = runMain(t, []string{"--data-dir", dir, "stop", runID}, nil, realDeps())
	if res.Code != ExitOK {
		t.Fatalf("stop: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	if st, _ := listedStatus(t, dir, runID); st != workrun.RunStopped {
		t.Errorf("after stop the run is %s, want stopped", st)
	}
	if got := agent.Cancels(taskID); got != 1 {
		t.Errorf("task %s got %d cancels, want 1", taskID, got)
	}
	res = runMain(t, []string{"--data-dir", dir, "stop", runID}, nil, realDeps())
	if res.Code != ExitUsage || !strings.Contains(res.Stderr, "has already ended (stopped)") {
		t.Errorf("second stop: exit %d, stderr %q; want %d, already ended", res.Code, res.Stderr, ExitUsage)
	}
	if got := agent.Cancels(taskID); got != 1 {
		t.Errorf("after a second stop, task %s got %d cancels, want 1", taskID, got)
	}
}

// TestConcurrentStopsOfAKilledRunCancelOnce: the runner of a run whose
// remote task is working is killed; 4 `workrun stop RUN` processes race:
// one stops it (exit 0), the others exit 2, and the task gets one cancel.
func TestConcurrentStopsOfAKilledRunCancelOnce(t *testing.T) {
	agent, url := startDemoAgent(t)
	dir := t.TempDir()
	cmd, runID := startRunnerArgs(t, "--data-dir", dir, "run", "--json", "--input", "prompt=hang", remoteFlow(t, url))
	var taskID string
	deadline := time.Now().Add(20 * time.Second)
	for taskID == "" {
		if time.Now().After(deadline) {
			t.Fatal("the remote task never got an id")
		}
		time.Sleep(20 * time.Millisecond)
		taskID = remoteCall(t, dir, runID).TaskID
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	procs := runTogether(4, "--data-dir", dir, "stop", runID)
	won := 0
	for _, p := range procs {
		switch {
		case p.code == ExitOK:
			won++
		case p.code == ExitUsage && (strings.Contains(p.stderr.String(), "is already being stopped by process") ||
			strings.Contains(p.stderr.String(), "has already ended (stopped)")):
		default:
			t.Errorf("a stop exited %d: %s", p.code, p.stderr.String())
		}
	}
	if won != 1 {
		t.Errorf("%d stops won, want 1", won)
	}
	if st, _ := listedStatus(t, dir, runID); st != workrun.RunStopped {
		t.Errorf("run is %s, want stopped", st)
	}
	if got := agent.Cancels(taskID); got != 1 {
		t.Errorf("task got %d cancels, want 1", got)
	}
}

// startDemoAgent serves the built-in demo agent on a free loopback port
// until the test ends.
func startDemoAgent(t *testing.T) (*demoagent.Server, string) {
	t.Helper()
	agent := demoagent.New(demoagent.Options{})
	url, stop, err := agent.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return agent, url
}
