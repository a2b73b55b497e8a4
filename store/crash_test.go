package store

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"workrun/workrun"
)

const crashEnv = "WORKRUN_STORE_CRASH_CHILD_DIR"

// crashChild writes records as fast as it can and prints "kind key" on
// stdout after each write returned, until it is killed.
func crashChild(dir string) {
	ctx := context.Background()
	s, err := Open(ctx, dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	report := func(kind, key string) {
		// One write(2) per line: whatever the parent reads was printed
		// after the commit returned.
		fmt.Fprintf(os.Stdout, "%s %s\n", kind, key)
	}
	// Four writers at once, so the kill also lands in group commits.
	pid := os.Getpid()
	for g := range 4 {
		go crashWriter(ctx, s, fmt.Sprintf("p%d-g%d", pid, g), report)
	}
	// And a node streaming progress lines, so kills also land in batched,
	// coalesced and bound-forced progress commits.
	go crashProgress(ctx, s, fmt.Sprintf("p%d-progress", pid), report)
	select {}
}

func crashProgress(ctx context.Context, s *Store, runID string, report func(kind, key string)) {
	if err := s.CreateRun(ctx, sampleRun(runID, time.Now())); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(4)
	}
	report("run", runID)
	// Paced (a fast agent, not a busy loop), so the four writers keep
	// their pace and kills land while it streams.
	for i := 0; ; i++ {
		key := "remoteagent.status"
		if i%200 >= 195 {
			key = fmt.Sprint("k", i%3) // lines that cannot be coalesced
		}
		if err := s.AppendProgress(ctx, workrun.Message{RunID: runID, NodeID: "ra", Key: key, Args: []string{fmt.Sprint(i)}}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(8)
		}
		if i%200 == 199 {
			time.Sleep(2 * time.Millisecond)
		}
	}
}

func crashWriter(ctx context.Context, s *Store, prefix string, report func(kind, key string)) {
	for i := 0; ; i++ {
		runID := fmt.Sprintf("%s-r%d", prefix, i/10)
		if i%10 == 0 {
			if err := s.CreateRun(ctx, sampleRun(runID, time.Now())); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(4)
			}
			report("run", runID)
		}
		m, err := s.AppendMessage(ctx, workrun.Message{RunID: runID, NodeID: "n", Text: fmt.Sprint("line ", i)})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(5)
		}
		report("msg", fmt.Sprintf("%s/%d/line %d", runID, m.Seq, i))
		c := workrun.RemoteCall{RunID: runID, NodeID: "ra", CallKey: fmt.Sprint(i), MessageID: fmt.Sprint("m", i), TaskID: fmt.Sprint("t", i)}
		if err := s.SaveRemoteCall(ctx, c); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(6)
		}
		report("call", fmt.Sprintf("%s/%d", runID, i))
		if err := s.SaveNodeRun(ctx, workrun.NodeRun{RunID: runID, NodeID: fmt.Sprint("n", i), Status: workrun.NodeSucceeded}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(7)
		}
		report("node", fmt.Sprintf("%s/n%d", runID, i))
	}
}

// TestCrashSafety_SIGKILL kills a writing child process mid-burst 20 times
// over; after each kill the database opens and holds every record whose
// commit returned (docs/remote-agent.md R5, R13).
func TestCrashSafety_SIGKILL(t *testing.T) {
	if dir := os.Getenv(crashEnv); dir != "" {
		crashChild(dir)
		return
	}
	dir := t.TempDir()
	committed := map[string]bool{}
	total := 0
	for round := range 20 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashSafety_SIGKILL$")
		cmd.Env = append(os.Environ(), crashEnv+"="+dir)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		killAfter := 20 + rand.IntN(200)
		sc := bufio.NewScanner(stdout)
		lines := 0
		for sc.Scan() {
			committed[sc.Text()] = true
			lines++
			if lines == killAfter {
				if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
			}
		}
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("round %d: child did not die by SIGKILL: %v\n%s", round, err, stderr.String())
		}
		total += lines
		verifyCommitted(t, dir, committed, round)
	}
	t.Logf("20 kills, %d committed writes verified", total)
}

// checkedStreams holds the progress runs verifyCommitted has checked.
var checkedStreams = map[string]bool{}

func verifyCommitted(t *testing.T, dir string, committed map[string]bool, round int) {
	t.Helper()
	ctx := t.Context()
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatalf("round %d: reopen after SIGKILL: %v", round, err)
	}
	defer s.Close()
	msgs := map[string]bool{}
	for key := range committed {
		kind, rest, _ := strings.Cut(key, " ")
		parts := strings.Split(rest, "/")
		switch kind {
		case "run":
			if _, err := s.GetRun(ctx, rest); err != nil {
				t.Errorf("round %d: committed run %s: %v", round, rest, err)
			}
		case "msg":
			if !msgs[parts[0]+"/"] {
				ms, err := s.Messages(ctx, parts[0])
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range ms {
					msgs[fmt.Sprintf("%s/%d/%s", m.RunID, m.Seq, m.Text)] = true
				}
				msgs[parts[0]+"/"] = true
			}
			if !msgs[rest] {
				t.Errorf("round %d: committed message %s missing", round, rest)
			}
		case "call":
			c, err := s.GetRemoteCall(ctx, parts[0], "ra", parts[1])
			if err != nil || c.TaskID != "t"+parts[1] {
				t.Errorf("round %d: committed remote call %s: %+v %v", round, rest, c, err)
			}
		case "node":
			ns, err := s.NodeRuns(ctx, parts[0])
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, n := range ns {
				found = found || n.NodeID == parts[1] && n.Status == workrun.NodeSucceeded
			}
			if !found {
				t.Errorf("round %d: committed node run %s missing", round, rest)
			}
		default:
			t.Fatalf("round %d: child printed %q", round, key)
		}
	}
	// Progress lines may be lost with the last batch, but what was
	// committed is whole: seqs dense, updates counted in order. Each
	// child's stream is checked after its own kill.
	for key := range committed {
		runID, ok := strings.CutPrefix(key, "run ")
		if !ok || !strings.HasSuffix(runID, "-progress") || checkedStreams[runID] {
			continue
		}
		checkedStreams[runID] = true
		ms, err := s.Messages(ctx, runID)
		if err != nil {
			t.Fatal(err)
		}
		next := int64(0) // the update number the next row's first update must have
		for i, m := range ms {
			var last int64
			fmt.Sscan(m.Args[0], &last)
			if m.Seq != int64(i+1) || last-m.Repeat != next {
				t.Errorf("round %d: progress row %d of %s: seq %d, update %s counting %d earlier; want seq %d starting at update %d",
					round, i, runID, m.Seq, m.Args[0], m.Repeat, i+1, next)
				break
			}
			next = last + 1
		}
		t.Logf("round %d: %s kept %d rows, updates 0–%d", round, runID, len(ms), next-1)
	}
	var check string
	if err := s.r.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Errorf("round %d: integrity check: %q %v", round, check, err)
	}
}
