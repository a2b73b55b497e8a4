//go:build unix

package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"workrun/workrun"
)

// Runs of pure nodes saved whole (docs/engine.md "One commit for a run of
// pure nodes").

func wholeCtx(ctx context.Context, id, key string) context.Context {
	return workrun.WithServedTask(ctx, workrun.ServedTask{ID: id, Caller: "c", Key: key, Publication: "wb"})
}

func countRows(t *testing.T, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.r.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestRunPure_OneCommit: the task, the run as it ended, every node record
// and line in one commit; every event comes after it.
func TestRunPure_OneCommit(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	var sends atomic.Int32
	wf, k := wbWorkflow(s, false, false, &sends)
	e := workrun.NewEngine(s, nil, k)
	if !e.Pure(wf) {
		t.Fatal("a workflow of pure nodes is not Pure")
	}
	events, cancel := e.Subscribe()
	defer cancel()
	c0 := s.commits.Load()
	r, err := e.RunPure(wholeCtx(ctx, "t1", "k1"), "", wf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := s.commits.Load() - c0; n != 1 {
		t.Errorf("%d commits, want 1", n)
	}
	st, err := s.ServedTaskByKey(ctx, "c", "k1")
	if err != nil || st.RunID != r.ID {
		t.Fatalf("task = %+v, %v", st, err)
	}
	got, err := s.GetRun(ctx, r.ID)
	if err != nil || got.Status != workrun.RunSucceeded || got.State["b"] != "xy" || got.EndedAt.IsZero() {
		t.Fatalf("saved run = %+v, %v", got, err)
	}
	checkWhole(t, s, r, []string{"p1 computed a", "mid computed b", "b: xy"})
	// Every event was published after the commit: the run was there at the first.
	n := 0
	for ev := range events {
		if ev.RunID != r.ID {
			continue
		}
		n++
		if ev.Type == workrun.EventRun {
			if ev.Run.Status != workrun.RunSucceeded {
				t.Errorf("run shown %s before its end", ev.Run.Status)
			}
			break
		}
	}
	if n != 4+3+1 {
		t.Errorf("%d events, want 4 node records, 3 lines, the run", n)
	}

	// A workflow with a node that is not pure is refused before anything.
	rwf, rk := wbWorkflow(s, true, false, &sends)
	re := workrun.NewEngine(s, nil, rk)
	if re.Pure(rwf) {
		t.Error("a workflow with a remote node is Pure")
	}
	if _, err := re.RunPure(wholeCtx(ctx, "t2", "k2"), "", rwf, nil); !errors.Is(err, workrun.ErrNotPure) {
		t.Errorf("RunPure of a remote node: %v", err)
	}
	if n := countRows(t, s, "runs"); n != 1 {
		t.Errorf("%d runs, want 1", n)
	}
}

// TestRunPure_KeyTakenSavesNothing: runs racing on one key in one store
// share group commits with runs of other keys; exactly one of the key's
// is saved, the others get ErrServedTaskExists and leave no row, and the
// other keys' runs are all saved (a refused write fails alone).
func TestRunPure_KeyTakenSavesNothing(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	var sends atomic.Int32
	wf, k := wbWorkflow(s, false, false, &sends)
	e := workrun.NewEngine(s, nil, k)
	var wg sync.WaitGroup
	var won, refused, others atomic.Int32
	for i := range 16 {
		wg.Go(func() {
			_, err := e.RunPure(wholeCtx(ctx, fmt.Sprint("same-", i), "same"), "", wf, nil)
			switch {
			case err == nil:
				won.Add(1)
			case errors.Is(err, workrun.ErrServedTaskExists):
				refused.Add(1)
			default:
				t.Error(err)
			}
		})
		wg.Go(func() {
			if _, err := e.RunPure(wholeCtx(ctx, fmt.Sprint("other-", i), fmt.Sprint("k", i)), "", wf, nil); err != nil {
				t.Error(err)
				return
			}
			others.Add(1)
		})
	}
	wg.Wait()
	if won.Load() != 1 || refused.Load() != 15 || others.Load() != 16 {
		t.Fatalf("won %d, refused %d, others %d", won.Load(), refused.Load(), others.Load())
	}
	for table, want := range map[string]int{"runs": 17, "served_tasks": 17, "node_runs": 17 * 4, "messages": 17 * 3} {
		if n := countRows(t, s, table); n != want {
			t.Errorf("%s: %d rows, want %d", table, n, want)
		}
	}
	st, err := s.ServedTaskByKey(ctx, "c", "same")
	if err != nil {
		t.Fatal(err)
	}
	if r, err := s.GetRun(ctx, st.RunID); err != nil || r.Status != workrun.RunSucceeded {
		t.Fatalf("the key's run = %+v, %v", r, err)
	}
}

// TestRunPure_CrashLeavesNothing kills the process (SIGKILL) while a run
// of RunPure is between its start and its one commit: nothing of it is
// on disk — no task, no run, no record, no line — so the caller's resend
// starts it afresh, and it runs once.
func TestRunPure_CrashLeavesNothing(t *testing.T) {
	if dir := os.Getenv(wbDirEnv); dir != "" {
		ctx := context.Background()
		s, err := Open(ctx, dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		var sends atomic.Int32
		wf, k := wbWorkflow(s, false, true, &sends)
		_, err = workrun.NewEngine(s, nil, k).RunPure(wholeCtx(ctx, "t1", "resent"), "", wf, nil)
		fmt.Fprintln(os.Stderr, "RunPure returned:", err) // never: killed in mid
		os.Exit(4)
	}
	dir := t.TempDir()
	s, err := Open(t.Context(), dir) // the schema first
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	killAt(t, "TestRunPure_CrashLeavesNothing", dir, "IN mid")

	s, err = Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	for _, table := range []string{"runs", "served_tasks", "node_runs", "messages"} {
		if n := countRows(t, s, table); n != 0 {
			t.Errorf("%s: %d rows after the crash, want none", table, n)
		}
	}
	// The resend: one run, whole.
	var sends atomic.Int32
	wf, k := wbWorkflow(s, false, false, &sends)
	e := workrun.NewEngine(s, nil, k)
	if _, err := e.RecoverInterrupted(t.Context()); err != nil {
		t.Fatal(err)
	}
	r, err := e.RunPure(wholeCtx(t.Context(), "t2", "resent"), "", wf, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkWhole(t, s, r, []string{"p1 computed a", "mid computed b", "b: xy"})
	if n := countRows(t, s, "runs"); n != 1 {
		t.Errorf("%d runs, want 1", n)
	}
}

// killAt runs test as a child on dir and kills it with SIGKILL when it
// prints want.
func killAt(t *testing.T, test, dir, want string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), wbDirEnv+"="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
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
}

// TestRunPure_EndsAsItEnds: the one commit carries the run however it
// ended — a failed node fails it; the engine closing meanwhile saves it
// interrupted by exit, and Resume finishes it, running only what was not
// done.
func TestRunPure_EndsAsItEnds(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	entered := make(chan struct{})
	ran := map[string]*atomic.Int32{"p1": {}, "mid": {}}
	mk := func(fail, block bool) (workrun.Workflow, workrun.Kind) {
		start := &wbStep{run: func(context.Context, workrun.NodeContext) (workrun.Values, error) { return nil, nil }}
		p1 := &wbStep{writes: []string{"a"}, run: func(context.Context, workrun.NodeContext) (workrun.Values, error) {
			ran["p1"].Add(1)
			return workrun.Values{"a": "x"}, nil
		}}
		mid := &wbStep{reads: []string{"a"}, writes: []string{"b"}, run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			ran["mid"].Add(1)
			if block {
				close(entered)
				<-ctx.Done()
				return nil, ctx.Err()
			}
			if fail {
				return nil, errors.New("mid failed")
			}
			return workrun.Values{"b": "xy"}, nil
		}}
		steps := map[string]workrun.Step{"start": wbEntry{wbPure{start}}, "p1": wbPure{p1}, "mid": wbPure{mid}}
		wf := workrun.Workflow{Name: "ends", State: map[string]workrun.FieldType{"a": workrun.FieldText, "b": workrun.FieldText}}
		for _, id := range []string{"start", "p1", "mid"} {
			wf.Nodes = append(wf.Nodes, workrun.NodeSpec{ID: id, Type: "wb"})
		}
		wf.Edges = []workrun.Edge{{From: "start", To: "p1"}, {From: "p1", To: "mid"}}
		return wf, wbKind{steps}
	}

	wf, k := mk(true, false)
	r, err := workrun.NewEngine(s, nil, k).RunPure(wholeCtx(ctx, "f", "fails"), "", wf, nil)
	if err != nil || r.Status != workrun.RunFailed || r.FailedNode != "mid" {
		t.Fatalf("failing run = %s %q, %v", r.Status, r.FailedNode, err)
	}
	if got, err := s.GetRun(ctx, r.ID); err != nil || got.Status != workrun.RunFailed {
		t.Fatalf("saved failing run = %+v, %v", got, err)
	}

	wf, k = mk(false, true)
	e := workrun.NewEngine(s, nil, k)
	type result struct {
		r   workrun.Run
		err error
	}
	res := make(chan result, 1)
	go func() {
		r, err := e.RunPure(wholeCtx(ctx, "c", "closed"), "", wf, nil)
		res <- result{r, err}
	}()
	<-entered
	if n := countRows(t, s, "runs"); n != 1 {
		t.Fatalf("%d runs while the run goes on, want only the failed one", n)
	}
	if err := e.Close(ctx); err != nil {
		t.Fatal(err)
	}
	got := <-res
	if got.err != nil || got.r.Status != workrun.RunInterrupted || got.r.Interruption != workrun.InterruptedByExit {
		t.Fatalf("closed run = %s %s, %v", got.r.Status, got.r.Interruption, got.err)
	}
	if st, err := s.ServedTaskByKey(ctx, "c", "closed"); err != nil || st.RunID != got.r.ID {
		t.Fatalf("task of the closed run = %+v, %v", st, err)
	}
	wf, k = mk(false, false)
	e = workrun.NewEngine(s, nil, k)
	if err := e.Resume(ctx, got.r.ID); err != nil {
		t.Fatal(err)
	}
	end, err := e.Wait(ctx, got.r.ID)
	if err != nil || end.Status != workrun.RunSucceeded || end.State["b"] != "xy" {
		t.Fatalf("resumed run = %+v, %v", end, err)
	}
	if ran["p1"].Load() != 2 || ran["mid"].Load() != 3 {
		t.Errorf("p1 ran %d times (want 2: once per run), mid %d (want 3: failing, closed, resumed)", ran["p1"].Load(), ran["mid"].Load())
	}
}
