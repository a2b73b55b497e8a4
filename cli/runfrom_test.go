package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"workrun/workrun"
)

// markCount counts the lines a process node appended to marks/name.
func markCount(marks, name string) int {
	b, _ := os.ReadFile(filepath.Join(marks, name))
	return strings.Count(string(b), "\n")
}

func showRun(t *testing.T, dir, runID string) shownRun {
	t.Helper()
	res := runMain(t, []string{"--data-dir", dir, "show", "--json", runID}, nil, realDeps())
	var shown shownRun
	if err := json.Unmarshal([]byte(res.Stdout), &shown); err != nil {
		t.Fatalf("show: %v\n%s\n%s", err, res.Stdout, res.Stderr)
	}
	return shown
}

func shownNodeRecord(t *testing.T, s shownRun, id string) shownNode {
	t.Helper()
	for _, n := range s.Nodes {
		if n.NodeID == id {
			return n
		}
	}
	t.Fatalf("no node %s in %+v", id, s.Nodes)
	return shownNode{}
}

// `workrun run FLOW --from NODE --pin-from RUN`, `--only NODE` and `--pin`:
// the nodes before NODE are not run again (their outputs come from RUN or
// are typed), NODE and what follows run in a new run.
func TestRunFromAndOnly(t *testing.T) {
	dir, marks := t.TempDir(), t.TempDir()
	flow := writeFlow(t, fmt.Sprintf(`{"name":"from","state":{"out":"text","echo":"text"},
		"nodes":[{"id":"start","type":"start"},
		  {"id":"a","type":"process","config":{"command":["sh","-c","echo a >> %[1]s/a; echo A"],"stdout":"out"}},
		  {"id":"b","type":"process","config":{"command":["sh","-c","echo b >> %[1]s/b; echo \"b saw $OUT\""],"env":{"OUT":"{{out}}"},"stdout":"echo"}},
		  {"id":"c","type":"output","config":{"fields":["echo"]}}],
		"edges":[{"from":"start","to":"a"},{"from":"a","to":"b"},{"from":"b","to":"c"}]}`, marks))
	first := runMain(t, []string{"--data-dir", dir, "run", flow}, nil, realDeps())
	if first.Code != ExitOK {
		t.Fatalf("first run: %d\n%s\n%s", first.Code, first.Stdout, first.Stderr)
	}
	res := runMain(t, []string{"--data-dir", dir, "runs", "--json"}, nil, realDeps())
	var listed []workrun.Run
	if err := json.Unmarshal([]byte(res.Stdout), &listed); err != nil || len(listed) != 1 {
		t.Fatalf("runs: %v %s", err, res.Stdout)
	}
	firstID := listed[0].ID

	res = runMain(t, []string{"--data-dir", dir, "run", flow, "--from", "b", "--pin-from", firstID}, nil, realDeps())
	if res.Code != ExitOK {
		t.Fatalf("--from: %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	for _, want := range []string{"[a] Not run: outputs pinned from run " + firstID, "[c] echo: b saw A"} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, res.Stdout)
		}
	}
	if a, b := markCount(marks, "a"), markCount(marks, "b"); a != 1 || b != 2 {
		t.Errorf("a ran %d times (want 1), b %d (want 2)", a, b)
	}

	res = runMain(t, []string{"--data-dir", dir, "run", flow, "--only", "b", "--pin", "a.out=typed", "--lang", "en"}, nil, realDeps())
	if res.Code != ExitOK {
		t.Fatalf("--only: %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	for _, want := range []string{"[a] Not run: outputs typed by hand", "[c] skipped"} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, res.Stdout)
		}
	}
	if strings.Contains(res.Stdout, "echo: b saw") {
		t.Errorf("c ran under --only b:\n%s", res.Stdout)
	}
	if a, b := markCount(marks, "a"), markCount(marks, "b"); a != 1 || b != 3 {
		t.Errorf("a ran %d times (want 1), b %d (want 3)", a, b)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--from", "b", "--only", "b"}, "use --from or --only, not both"},
		{[]string{"--pin-from", firstID}, "need --from NODE or --only NODE"},
		{[]string{"--from", "b", "--pin", "a=1"}, "want NODE.FIELD=JSON"},
		{[]string{"--from", "nope", "--pin-from", firstID}, `the workflow has no node "nope"`},
		{[]string{"--from", "b"}, `node "a" did not finish in run -`},
		{[]string{"--from", "b", "--pin-from", "no-such-run"}, "not found"},
	} {
		res := runMain(t, append([]string{"--data-dir", dir, "run", flow}, c.args...), nil, realDeps())
		if res.Code != ExitUsage || !strings.Contains(res.Stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.args, res.Code, res.Stderr, c.want)
		}
	}
}

// A runner killed during attempt 2 of a node with a retry policy: the
// next process resumes attempt 2 and the run succeeds; attempt 3 never
// starts, and the record says attempt 2.
func TestKillDuringAnAttemptResumesThatAttempt(t *testing.T) {
	dir, marks := t.TempDir(), t.TempDir()
	// Run 1 fails, run 2 sleeps (the kill comes), run 3 succeeds.
	flow := writeFlow(t, fmt.Sprintf(`{"name":"attempts","state":{},
		"nodes":[{"id":"start","type":"start"},
		  {"id":"flaky","type":"process","retry":{"max_attempts":3},
		   "config":{"command":["sh","-c","echo x >> %[1]s/f; n=$(wc -l < %[1]s/f); if [ $n -eq 1 ]; then echo first >&2; exit 1; fi; if [ $n -eq 2 ]; then touch %[1]s/slept; sleep 60; fi"]}}],
		"edges":[{"from":"start","to":"flaky"}]}`, marks))
	cmd, runID := startRunner(t, dir, flow)
	deadline := time.Now().Add(30 * time.Second)
	for _, err := os.Stat(filepath.Join(marks, "slept")); err != nil; _, err = os.Stat(filepath.Join(marks, "slept")) {
		if time.Now().After(deadline) {
			t.Fatalf("attempt 2 never started; stderr: %s", cmd.Stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if rec := shownNodeRecord(t, showRun(t, dir, runID), "flaky"); rec.Attempt != 2 || !strings.Contains(rec.LastError, "first") {
		t.Fatalf("after the kill: attempt %d, last error %q", rec.Attempt, rec.LastError)
	}

	res := runMain(t, []string{"--data-dir", dir, "resume", runID}, nil, realDeps())
	if res.Code != ExitOK {
		t.Fatalf("resume: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	shown := showRun(t, dir, runID)
	rec := shownNodeRecord(t, shown, "flaky")
	if shown.Run.Status != workrun.RunSucceeded || rec.Attempt != 2 {
		t.Errorf("run %s, node attempt %d: want succeeded in attempt 2", shown.Run.Status, rec.Attempt)
	}
	if n := markCount(marks, "f"); n != 3 {
		t.Errorf("the command ran %d times, want 3 (attempt 1, attempt 2, attempt 2 resumed)", n)
	}
	var failedLines int
	for _, m := range rec.Messages {
		if strings.Contains(m.In("en"), "of 3 failed") {
			failedLines++
		}
	}
	if failedLines != 1 {
		t.Errorf("%d attempt failure lines, want 1: %+v", failedLines, rec.Messages)
	}
}
