package workrun_test

import (
	"context"
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// exitedRun runs start → a → b on e until a runs, then exits the engine:
// the run is interrupted by exit with a to run again.
func exitedRun(t *testing.T, e *workrun.Engine, fk fakeKind) string {
	t.Helper()
	started := make(chan struct{}, 1)
	fk["a"].run = func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		if nc.Resumed() {
			return nil, nil
		}
		started <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	}
	wf := workrun.Workflow{Nodes: []workrun.NodeSpec{node("start", "start", ""), node("a", "fake", ""), node("b", "fake", "")},
		Edges: edges("start>a", "a>b")}
	id, err := e.Start(t.Context(), "", wf, nil)
	if err != nil {
		t.Fatal(err)
	}
	<-started
	if err := e.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestConcurrentResumesOneWins: 8 engines (as 8 processes would) resume
// one run interrupted by exit at once: exactly one goes on, the others get
// ErrRunClaimed, and each node runs once more at most.
func TestConcurrentResumesOneWins(t *testing.T) {
	for range 20 {
		fk := fakeKind{"a": {}, "b": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			time.Sleep(50 * time.Millisecond) // the winner is still going on while others try
			return nil, nil
		}}}
		st := workruntest.NewMemStore()
		id := exitedRun(t, workrun.NewEngine(st, nil, allKinds(fk)...), fk)

		const n = 8
		meet := barrier(t, n)
		errs := make([]error, n)
		engines := make([]*workrun.Engine, n)
		var wg sync.WaitGroup
		for i := range n {
			engines[i] = workrun.NewEngine(st, nil, allKinds(fk)...)
			wg.Go(func() {
				if err := meet(); err != nil {
					errs[i] = err
					return
				}
				errs[i] = engines[i].Resume(t.Context(), id)
			})
		}
		wg.Wait()
		won := 0
		for i, err := range errs {
			switch {
			case err == nil:
				won++
				if r, err := engines[i].Wait(t.Context(), id); err != nil || r.Status != workrun.RunSucceeded {
					t.Fatalf("the winner's run: %s %v", r.Status, err)
				}
			case errors.Is(err, workrun.ErrRunClaimed), errors.Is(err, workrun.ErrNotResumable):
			default:
				t.Fatalf("a resume failed with %v", err)
			}
		}
		if won != 1 {
			t.Fatalf("%d resumes won, want 1", won)
		}
		if a, b := fk["a"].starts.Load(), fk["b"].starts.Load(); a != 2 || b != 1 {
			t.Fatalf("a ran %d times (want 2), b %d times (want 1)", a, b)
		}
	}
}

// TestConcurrentStopsOfAnInterruptedRunOneWins: 8 engines stop one run
// waiting for a person at once: one stops it, the others get
// ErrRunClaimed; the rearmed hook runs once.
func TestConcurrentStopsOfAnInterruptedRunOneWins(t *testing.T) {
	var calls atomic.Int32
	rs := &rearmStep{hook: func(context.Context) {
		calls.Add(1)
		time.Sleep(200 * time.Millisecond) // the stop is still going on while others try
	}}
	rs.run = func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		nc.OnAbort(rs.hook)
		return nil, nil
	}
	st := workruntest.NewMemStore()
	kinds := append(allKinds(fakeKind{}), rearmKind{rs})
	wf := reviewFlow()
	wf.Nodes = append(wf.Nodes[:1], append([]workrun.NodeSpec{node("made", "rearm", "")}, wf.Nodes[1:]...)...)
	wf.Edges = edges("start>made", "made>review", "review>ask", "ask>out")
	r := run(t, workrun.NewEngine(st, nil, kinds...), wf, nil)
	if r.Status != workrun.RunInterrupted {
		t.Fatalf("status %s (%s)", r.Status, r.Reason)
	}
	const n = 8
	meet := barrier(t, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		e := workrun.NewEngine(st, nil, kinds...)
		wg.Go(func() {
			if err := meet(); err != nil {
				errs[i] = err
				return
			}
			errs[i] = e.Stop(t.Context(), r.ID)
		})
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case errors.Is(err, workrun.ErrRunClaimed):
			var ce *workrun.ClaimError
			if !errors.As(err, &ce) || ce.RunID != r.ID {
				t.Errorf("claim error %v", err)
			}
		default:
			t.Errorf("a stop failed with %v", err)
		}
	}
	if won != 1 {
		t.Errorf("%d stops won, want 1", won)
	}
	if got := calls.Load(); got != 1 {
		t.Errorf("the hook ran %d times, want 1", got)
	}
	if r, _ := st.GetRun(t.Context(), r.ID); r.Status != workrun.RunStopped {
		t.Errorf("status %s, want stopped", r.Status)
	}
	if got := nodeStatuses(t, st, r.ID)["review"]; got != workrun.NodeStopped {
		t.Errorf("the waiting node is %s after the stop, want stopped", got)
	}
}

// TestConcurrentDecisionsOneIsTaken: two engines answer the same waiting
// node at once: one answer is taken and is the one the run keeps; the
// other is refused and not saved.
func TestConcurrentDecisionsOneIsTaken(t *testing.T) {
	for range 20 {
		st := workruntest.NewMemStore()
		wf := reviewFlow()
		wf.Nodes, wf.Edges = []workrun.NodeSpec{wf.Nodes[0], wf.Nodes[2], wf.Nodes[3]}, edges("start>ask", "ask>out")
		r := run(t, workrun.NewEngine(st, nil, allKinds(fakeKind{})...), wf, nil)
		answers := []string{"first", "second"}
		meet := barrier(t, 2)
		errs := make([]error, 2)
		engines := make([]*workrun.Engine, 2)
		var wg sync.WaitGroup
		for i := range 2 {
			engines[i] = workrun.NewEngine(st, nil, allKinds(fakeKind{})...)
			wg.Go(func() {
				if err := meet(); err != nil {
					errs[i] = err
					return
				}
				errs[i] = engines[i].Decide(t.Context(), workrun.Decision{RunID: r.ID, NodeID: "ask", Approved: true, Text: answers[i]})
			})
		}
		wg.Wait()
		winner := -1
		for i, err := range errs {
			switch {
			case err == nil:
				if winner >= 0 {
					t.Fatal("both answers were taken")
				}
				winner = i
			case errors.Is(err, workrun.ErrRunClaimed), errors.Is(err, workrun.ErrNoDecisionPending):
			default:
				t.Fatalf("decide: %v", err)
			}
		}
		if winner < 0 {
			t.Fatal("no answer was taken")
		}
		got, err := engines[winner].Wait(t.Context(), r.ID)
		if err != nil || got.Status != workrun.RunSucceeded {
			t.Fatalf("run %s %v", got.Status, err)
		}
		if got.State["reply"] != answers[winner] {
			t.Fatalf("the run kept %q, but the answer taken was %q", got.State["reply"], answers[winner])
		}
	}
}

// TestRunInterruptedByAgentCannotBeAnsweredOrResumed: a node interrupted
// by its remote agent takes no decision and the run no Resume
// (ErrRemoteInput); Stop stops it and calls its hook once.
func TestRunInterruptedByAgentCannotBeAnsweredOrResumed(t *testing.T) {
	var hooks, runs atomic.Int32
	fk := fakeKind{"ra": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		runs.Add(1)
		nc.OnAbort(func(context.Context) { hooks.Add(1) })
		return nil, &workrun.InterruptError{Cause: workrun.InterruptedByRemote, Reason: "the agent needs input"}
	}}}
	e, st := newEngine(t, fk)
	wf := workrun.Workflow{Nodes: []workrun.NodeSpec{node("start", "start", ""), node("ra", "fake", "")}, Edges: edges("start>ra")}
	r := run(t, e, wf, nil)
	if r.Status != workrun.RunInterrupted || r.Interruption != workrun.InterruptedByRemote {
		t.Fatalf("got %s (%s)", r.Status, r.Interruption)
	}
	e2 := workrun.NewEngine(st, nil, allKinds(fk)...)
	for _, eng := range []*workrun.Engine{e, e2} {
		if err := eng.Decide(t.Context(), workrun.Decision{RunID: r.ID, NodeID: "ra", Approved: true, Text: "x"}); !errors.Is(err, workrun.ErrRemoteInput) {
			t.Errorf("Decide: %v, want ErrRemoteInput", err)
		}
		if err := eng.Resume(t.Context(), r.ID); !errors.Is(err, workrun.ErrRemoteInput) {
			t.Errorf("Resume: %v, want ErrRemoteInput", err)
		}
	}
	if _, err := st.GetDecision(t.Context(), r.ID, "ra"); !errors.Is(err, workrun.ErrNotFound) {
		t.Errorf("a refused decision was saved: %v", err)
	}
	if runs.Load() != 1 {
		t.Errorf("the node ran %d times, want 1", runs.Load())
	}
	if err := e.Stop(t.Context(), r.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.GetRun(t.Context(), r.ID); got.Status != workrun.RunStopped {
		t.Errorf("status %s, want stopped", got.Status)
	}
	if hooks.Load() != 1 {
		t.Errorf("hook called %d times, want 1", hooks.Load())
	}
}

// otherOwnerStore reports, once told, that another process saved the run
// last (as a store shared by several processes would).
type otherOwnerStore struct {
	*workruntest.MemStore
	other atomic.Bool
}

func (s *otherOwnerStore) ClaimRun(ctx context.Context, r workrun.Run, from ...workrun.RunStatus) (workrun.RunClaim, error) {
	c, err := s.MemStore.ClaimRun(ctx, r, from...)
	if s.other.Load() {
		c.OwnerPID = os.Getpid() + 1
	}
	return c, err
}

// TestStaleParkedHooksAreNotUsed: an engine keeps the hooks of a run it
// interrupted; once another process has taken the run over (it may have
// run more nodes), Stop here asks the saved nodes for their hooks again
// instead of calling the kept ones.
func TestStaleParkedHooksAreNotUsed(t *testing.T) {
	var calls atomic.Int32
	rs := &rearmStep{hook: func(context.Context) { calls.Add(1) }}
	rs.run = func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		nc.OnAbort(rs.hook)
		return nil, nil
	}
	st := &otherOwnerStore{MemStore: workruntest.NewMemStore()}
	e := workrun.NewEngine(st, nil, append(allKinds(fakeKind{}), rearmKind{rs})...)
	wf := reviewFlow()
	wf.Nodes = append(wf.Nodes[:1], append([]workrun.NodeSpec{node("made", "rearm", "")}, wf.Nodes[1:]...)...)
	wf.Edges = edges("start>made", "made>review", "review>ask", "ask>out")
	r := run(t, e, wf, nil)
	if r.Status != workrun.RunInterrupted {
		t.Fatalf("status %s", r.Status)
	}
	st.other.Store(true)
	if err := e.Stop(t.Context(), r.ID); err != nil {
		t.Fatal(err)
	}
	if n := rs.rearmed.Load(); n != 1 {
		t.Errorf("rearmed %d times, want 1 (the kept hooks are stale)", n)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("hook called %d times, want 1", n)
	}
}
