//go:build unix

package store

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"workrun/workrun"
)

// Write-behind across a real crash (docs/engine.md "Write-behind"): a child
// process runs a workflow on the real store and engine and is killed with
// SIGKILL; the parent opens the same data directory, resumes the run and
// checks the record.

const (
	wbDirEnv  = "WORKRUN_WB_CRASH_DIR"
	wbModeEnv = "WORKRUN_WB_CRASH_MODE"
)

// wbStep is a test node; pure ones implement workrun.PureStep.
type wbStep struct {
	reads, writes []string
	run           func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error)
}

func (s *wbStep) Reads() []string  { return s.reads }
func (s *wbStep) Writes() []string { return s.writes }
func (s *wbStep) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	return s.run(ctx, nc)
}

type wbPure struct{ *wbStep }

func (wbPure) Pure() {}

type wbEntry struct{ wbPure }

func (wbEntry) Entry() {}

type wbRemote struct{ *wbStep }

func (wbRemote) RemoteCalls() {}

type wbKind struct{ steps map[string]workrun.Step }

func (wbKind) Type() string { return "wb" }
func (k wbKind) Compile(spec workrun.NodeSpec, _ workrun.Workflow) (workrun.Step, error) {
	return k.steps[spec.ID], nil
}

// wbWorkflow: start → p1 → mid → out, where mid is pure (a copy of p1's
// field with "y" added) or remote (a call that saves its record, then
// "sends").
func wbWorkflow(s *Store, remote bool, child bool, sends *atomic.Int32) (workrun.Workflow, workrun.Kind) {
	// The run's id goes first, from the node itself: the child's own
	// "RUN" line after Start can come after the node's (the run starts
	// before Start returns), and the parent kills on the node's line.
	block := func(ctx context.Context, nc workrun.NodeContext, what string) {
		fmt.Fprintln(os.Stdout, "RUN", nc.RunID())
		fmt.Fprintln(os.Stdout, what) // the parent kills the child now
		<-ctx.Done()
	}
	p1 := &wbStep{writes: []string{"a"}, run: func(_ context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		nc.Log(workrun.Plain("p1 computed a"))
		return workrun.Values{"a": "x"}, nil
	}}
	mid := &wbStep{reads: []string{"a"}, writes: []string{"b"}}
	if remote {
		mid.run = func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			c, err := s.GetRemoteCall(ctx, nc.RunID(), nc.NodeID(), "call")
			if err == nil && c.Result != nil {
				return workrun.Values{"b": string(c.Result)}, nil
			}
			if err == nil {
				// Submitted before the crash: never sent again; the
				// agent's answer is looked up instead.
				return workrun.Values{"b": nc.Inputs()["a"].(string) + "y"}, nil
			}
			if err := s.SaveRemoteCall(ctx, workrun.RemoteCall{RunID: nc.RunID(), NodeID: nc.NodeID(), CallKey: "call",
				AgentURL: "http://127.0.0.1:1/", Origin: "http://127.0.0.1:1", MessageID: nc.RunID() + "-m1"}); err != nil {
				return nil, err
			}
			sends.Add(1)
			if child {
				block(ctx, nc, "SENT")
			}
			return workrun.Values{"b": nc.Inputs()["a"].(string) + "y"}, nil
		}
	} else {
		mid.run = func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			if child {
				block(ctx, nc, "IN mid")
			}
			nc.Log(workrun.Plain("mid computed b"))
			return workrun.Values{"b": nc.Inputs()["a"].(string) + "y"}, nil
		}
	}
	out := &wbStep{reads: []string{"b"}, run: func(_ context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		nc.Log(workrun.Plain("b: " + nc.Inputs()["b"].(string)))
		return nil, nil
	}}
	steps := map[string]workrun.Step{
		"start": wbEntry{wbPure{&wbStep{run: func(context.Context, workrun.NodeContext) (workrun.Values, error) { return nil, nil }}}},
		"p1":    wbPure{p1},
		"out":   wbPure{out},
	}
	if remote {
		steps["mid"] = wbRemote{mid}
	} else {
		steps["mid"] = wbPure{mid}
	}
	wf := workrun.Workflow{Name: "wb", State: map[string]workrun.FieldType{"a": workrun.FieldText, "b": workrun.FieldText}}
	for _, id := range []string{"start", "p1", "mid", "out"} {
		wf.Nodes = append(wf.Nodes, workrun.NodeSpec{ID: id, Type: "wb"})
	}
	for _, e := range [][2]string{{"start", "p1"}, {"p1", "mid"}, {"mid", "out"}} {
		wf.Edges = append(wf.Edges, workrun.Edge{From: e[0], To: e[1]})
	}
	return wf, wbKind{steps}
}

func wbChild(dir string, remote bool) {
	ctx := context.Background()
	s, err := Open(ctx, dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	var sends atomic.Int32
	wf, k := wbWorkflow(s, remote, true, &sends)
	e := workrun.NewEngine(s, nil, k)
	id, err := e.Start(ctx, "", wf, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(4)
	}
	fmt.Fprintln(os.Stdout, "RUN", id)
	select {}
}

// wbCrash runs the child in mode and kills it when it prints want; it
// returns the run id.
func wbCrash(t *testing.T, test, dir, mode, want string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), wbDirEnv+"="+dir, wbModeEnv+"="+mode)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	runID := ""
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if id, ok := strings.CutPrefix(sc.Text(), "RUN "); ok {
			runID = id
		}
		if sc.Text() == want {
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
		}
	}
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("child did not die by SIGKILL: %v\n%s", err, stderr.String())
	}
	if runID == "" {
		t.Fatalf("child printed no run\n%s", stderr.String())
	}
	return runID
}

// wbResume opens dir, resumes the run and waits for it; it returns the
// store (closed at the end of the test) and the final run.
func wbResume(t *testing.T, dir, runID string, remote bool, sends *atomic.Int32) (*Store, workrun.Run) {
	t.Helper()
	ctx := t.Context()
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	_, k := wbWorkflow(s, remote, false, sends)
	e := workrun.NewEngine(s, nil, k)
	if _, err := e.RecoverInterrupted(ctx); err != nil {
		t.Fatal(err)
	}
	if err := e.Resume(ctx, runID); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	r, err := e.Wait(wctx, runID)
	if err != nil {
		t.Fatal(err)
	}
	return s, r
}

// checkWhole checks the resumed run's record: succeeded, the right state,
// one succeeded record per node, each node's line exactly once.
func checkWhole(t *testing.T, s *Store, r workrun.Run, lines []string) {
	t.Helper()
	ctx := t.Context()
	if r.Status != workrun.RunSucceeded || r.State["a"] != "x" || r.State["b"] != "xy" {
		t.Fatalf("resumed run = %s %v (%s)", r.Status, r.State, r.Reason)
	}
	ns, err := s.NodeRuns(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]workrun.NodeStatus{}
	for _, n := range ns {
		got[n.NodeID] = n.Status
	}
	for _, id := range []string{"start", "p1", "mid", "out"} {
		if got[id] != workrun.NodeSucceeded {
			t.Errorf("node %s = %q, want succeeded (records %v)", id, got[id], got)
		}
	}
	if len(ns) != 4 {
		t.Errorf("%d node records, want 4", len(ns))
	}
	ms, err := s.Messages(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	var seqs []int64
	for _, m := range ms {
		count[m.Text]++
		seqs = append(seqs, m.Seq)
	}
	for _, l := range lines {
		if count[l] != 1 {
			t.Errorf("line %q stored %d times, want once: %v", l, count[l], count)
		}
	}
	for i := 1; i < len(seqs); i++ {
		if seqs[i] != seqs[i-1]+1 {
			t.Errorf("seqs %v are not consecutive", seqs)
		}
	}
}

// TestWriteBehind_CrashBetweenPureNodes kills the process while a pure
// node runs after another pure one: what was written behind and not yet
// carried by a durable commit is lost, never half of it, and resume re-does
// exactly the lost nodes: one run, succeeded, each node and line once.
func TestWriteBehind_CrashBetweenPureNodes(t *testing.T) {
	if dir := os.Getenv(wbDirEnv); dir != "" {
		wbChild(dir, os.Getenv(wbModeEnv) == "remote")
		return
	}
	dir := t.TempDir()
	runID := wbCrash(t, "TestWriteBehind_CrashBetweenPureNodes", dir, "pure", "IN mid")

	// What the crash left: the run (created durably) and a consistent
	// prefix of what was written behind.
	s, err := Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.GetRun(t.Context(), runID)
	if err != nil || r.Status != workrun.RunRunning {
		t.Fatalf("run after the crash = %+v, %v", r, err)
	}
	ns, _ := s.NodeRuns(t.Context(), runID)
	ms, _ := s.Messages(t.Context(), runID)
	p1Done := false
	for _, n := range ns {
		p1Done = p1Done || n.NodeID == "p1" && n.Status == workrun.NodeSucceeded
	}
	if p1Done != (len(ms) == 1) {
		t.Errorf("not a prefix: p1 succeeded %v, lines %+v", p1Done, ms)
	}
	t.Logf("left by the crash: %d node records, %d lines (queued writes a durable commit had not carried are lost)", len(ns), len(ms))
	s.Close()

	var sends atomic.Int32
	s, r = wbResume(t, dir, runID, false, &sends)
	checkWhole(t, s, r, []string{"p1 computed a", "mid computed b", "b: xy"})
}

// TestWriteBehind_RemoteRecordDurableBeforeCall kills the process right
// after a node that is not pure saved its call record and "sent" its call:
// the pure nodes before it and its own running record were committed
// before it started, its call record before the call went out; resume
// finds the record and does not send again.
func TestWriteBehind_RemoteRecordDurableBeforeCall(t *testing.T) {
	if dir := os.Getenv(wbDirEnv); dir != "" {
		wbChild(dir, os.Getenv(wbModeEnv) == "remote")
		return
	}
	dir := t.TempDir()
	runID := wbCrash(t, "TestWriteBehind_RemoteRecordDurableBeforeCall", dir, "remote", "SENT")

	s, err := Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.GetRemoteCall(t.Context(), runID, "mid", "call")
	if err != nil || c.MessageID != runID+"-m1" {
		t.Fatalf("call record after the crash = %+v, %v", c, err)
	}
	ns, err := s.NodeRuns(t.Context(), runID)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]workrun.NodeStatus{}
	for _, n := range ns {
		got[n.NodeID] = n.Status
	}
	want := map[string]workrun.NodeStatus{"start": workrun.NodeSucceeded, "p1": workrun.NodeSucceeded, "mid": workrun.NodeRunning}
	for id, st := range want {
		if got[id] != st {
			t.Errorf("after the crash node %s = %q, want %q (all: %v)", id, got[id], st, got)
		}
	}
	ms, err := s.Messages(t.Context(), runID)
	if err != nil || len(ms) != 1 || ms[0].Text != "p1 computed a" {
		t.Errorf("lines after the crash = %+v, %v; want p1's line, committed before mid started", ms, err)
	}
	s.Close()

	var sends atomic.Int32
	s, r := wbResume(t, dir, runID, true, &sends)
	if n := sends.Load(); n != 0 {
		t.Errorf("resume sent the call %d times, want 0 (it was submitted before the crash)", n)
	}
	checkWhole(t, s, r, []string{"p1 computed a", "b: xy"})
}
