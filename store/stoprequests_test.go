package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"workrun/workrun"
)

// Stop across processes (docs/engine.md "Stop across processes"): two
// stores on one data directory stand for two processes, as in owner_test.go.

// hangingFlow is branchFlow whose wait node works until its context ends
// (or release is closed) and registers an abort hook, counted in aborts.
func hangingFlow(release <-chan struct{}, aborts *atomic.Int32) (workrun.Workflow, workrun.Kind) {
	wf, _, kind := branchFlow(func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		nc.OnAbort(func(context.Context) { aborts.Add(1) })
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-release:
			return nil, nil
		}
	})
	return wf, kind
}

func openPair(t *testing.T) (a, b *Store) {
	t.Helper()
	dir := t.TempDir()
	var err error
	if a, err = Open(t.Context(), dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	if b, err = Open(t.Context(), dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return a, b
}

func requestsOf(t *testing.T, s *Store) []workrun.StopRequest {
	t.Helper()
	qs, err := s.StopRequests(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

// TestStopAcrossProcesses: Stop in process B of a run going on in process
// A is a request A notices; A stops the run as its own Stop does (its one
// abort hook runs, the run is saved stopped with "stopped by the user"),
// B's Stop returns once it ended, and no request is left.
func TestStopAcrossProcesses(t *testing.T) {
	ctx := t.Context()
	a, b := openPair(t)
	var aborts atomic.Int32
	wf, kind := hangingFlow(nil, &aborts)
	ea := workrun.NewEngine(a, nil, kind)
	id, err := ea.Start(ctx, "", wf, nil)
	if err != nil {
		t.Fatal(err)
	}
	waitForNode(t, a, id, "wait", workrun.NodeRunning)

	eb := workrun.NewEngine(b, nil, kind)
	began := time.Now()
	if err := eb.StopClaimed(ctx, id); err != nil {
		t.Fatalf("Stop from the other process: %v", err)
	}
	took := time.Since(began)
	r, err := b.GetRun(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != workrun.RunStopped || r.Reason != "stopped by the user" {
		t.Fatalf("run %s (%q), want stopped by the user", r.Status, r.Reason)
	}
	if n := aborts.Load(); n != 1 {
		t.Errorf("abort hook called %d times, want 1", n)
	}
	if qs := requestsOf(t, a); len(qs) != 0 {
		t.Errorf("requests left: %+v", qs)
	}
	t.Logf("stopped across processes in %v", took)
	// Stopping it again is a no-op; StopClaimed says it had ended.
	if err := eb.Stop(ctx, id); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	var ce *workrun.ClaimError
	if err := eb.StopClaimed(ctx, id); !errors.As(err, &ce) || ce.Status != workrun.RunStopped {
		t.Errorf("second StopClaimed = %v, want has already ended (stopped)", err)
	}
}

// TestRequestStopOnlyForARunAnotherLiveProcessRuns: the request is saved
// only when the check inside its transaction finds the run running under
// another live owner.
func TestRequestStopOnlyForARunAnotherLiveProcessRuns(t *testing.T) {
	ctx := t.Context()
	a, b := openPair(t)
	for _, c := range []struct {
		id     string
		status workrun.RunStatus
		by     *Store // the store that saves the run (its owner)
		ok     bool
	}{
		{"running-elsewhere", workrun.RunRunning, a, true},
		{"running-here", workrun.RunRunning, b, false},
		{"interrupted", workrun.RunInterrupted, a, false},
		{"stopping", workrun.RunStopping, a, false},
		{"succeeded", workrun.RunSucceeded, a, false},
	} {
		r := sampleRun(c.id, t0)
		r.Status = c.status
		if err := c.by.CreateRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		got, err := b.RequestStop(ctx, c.id)
		if err != nil {
			t.Fatal(err)
		}
		if got.OK != c.ok || got.Status != c.status {
			t.Errorf("%s: RequestStop = %+v, want OK %v, status %s", c.id, got, c.ok, c.status)
		}
	}
	if _, err := b.RequestStop(ctx, "nope"); !errors.Is(err, workrun.ErrNotFound) {
		t.Errorf("unknown run: %v", err)
	}
	qs := requestsOf(t, a)
	if len(qs) != 1 || qs[0].RunID != "running-elsewhere" || qs[0].ByPID == 0 {
		t.Fatalf("requests addressed to a: %+v", qs)
	}
	if qs := requestsOf(t, b); len(qs) != 0 {
		t.Errorf("requests addressed to b: %+v", qs)
	}
	// Its owner ended: nobody would notice a request, so none is saved.
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := b.RequestStop(ctx, "running-elsewhere")
	if err != nil || got.OK || got.OwnerAlive {
		t.Errorf("run of an ended owner: %+v, %v; want no request", got, err)
	}
}

// TestStopRaceWithTheRunEnding: Stop from another process and the run's
// own end, at once, many times. Each time exactly one of them decides:
// the run is stopped (its hook ran once, Stop returned nil) or it
// succeeded (no hook ran, StopClaimed says it had ended). Stop never
// waits out its bound, and no request is left behind.
func TestStopRaceWithTheRunEnding(t *testing.T) {
	ctx := t.Context()
	a, b := openPair(t)
	outcomes := map[workrun.RunStatus]int{}
	for i := range 20 {
		release := make(chan struct{})
		var aborts atomic.Int32
		wf, kind := hangingFlow(release, &aborts)
		ea := workrun.NewEngine(a, nil, kind)
		eb := workrun.NewEngine(b, nil, kind)
		eb.StopWait = 20 * time.Second
		id, err := ea.Start(ctx, "", wf, nil)
		if err != nil {
			t.Fatal(err)
		}
		waitForNode(t, a, id, "wait", workrun.NodeRunning)
		var wg sync.WaitGroup
		var stopErr error
		wg.Add(1)
		go func() {
			defer wg.Done()
			stopErr = eb.StopClaimed(ctx, id)
		}()
		// The stop takes about one poll interval to be noticed: ending
		// the run 0…475 ms after it was asked lets either come first.
		time.Sleep(time.Duration(i) * workrun.StopPollEvery / 10)
		close(release)
		wg.Wait()
		r, err := ea.Wait(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		outcomes[r.Status]++
		var ce *workrun.ClaimError
		switch r.Status {
		case workrun.RunStopped:
			if stopErr != nil || aborts.Load() != 1 {
				t.Errorf("round %d: stopped, Stop = %v, %d hooks; want nil and 1", i, stopErr, aborts.Load())
			}
		case workrun.RunSucceeded:
			if !errors.As(stopErr, &ce) || ce.Status != workrun.RunSucceeded || aborts.Load() != 0 {
				t.Errorf("round %d: succeeded, Stop = %v, %d hooks; want has already ended (succeeded) and 0", i, stopErr, aborts.Load())
			}
		default:
			t.Errorf("round %d: run %s (%s), Stop = %v", i, r.Status, r.Reason, stopErr)
		}
		if errors.Is(stopErr, workrun.ErrStopPending) {
			t.Errorf("round %d: Stop waited out its bound: %v", i, stopErr)
		}
		if qs := requestsOf(t, a); len(qs) != 0 {
			t.Errorf("round %d: requests left: %+v", i, qs)
		}
	}
	t.Logf("outcomes: %v", outcomes)
}

// TestStopAcrossProcessesInterruptedMeanwhile: the request is saved, but
// the run is interrupted (its process exits) before any engine there saw
// the request; the asker then takes the interrupted run over and stops it
// itself (a claim), and removes its request. Here process A is a store
// with no engine, so nothing in A notices the request.
func TestStopAcrossProcessesInterruptedMeanwhile(t *testing.T) {
	ctx := t.Context()
	a, b := openPair(t)
	var aborts atomic.Int32
	wf, kind := hangingFlow(nil, &aborts)
	r := workrun.Run{ID: "r1", Workflow: wf, WorkflowName: wf.Name, Status: workrun.RunRunning, CreatedAt: t0, State: workrun.Values{}}
	if err := a.CreateRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	eb := workrun.NewEngine(b, nil, kind)
	done := make(chan error, 1)
	go func() { done <- eb.StopClaimed(ctx, r.ID) }()
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("waited 10 s for %s", what)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitFor("the request", func() bool { return len(requestsOf(t, a)) == 1 })
	r.Status, r.Interruption, r.Reason = workrun.RunInterrupted, workrun.InterruptedByExit, "exited"
	if err := a.UpdateRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Stop: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Stop did not return")
	}
	got, err := b.GetRun(ctx, r.ID)
	if err != nil || got.Status != workrun.RunStopped {
		t.Fatalf("run %s, %v; want stopped", got.Status, err)
	}
	if qs := requestsOf(t, a); len(qs) != 0 {
		t.Errorf("requests left: %+v", qs)
	}
}

// TestStopAcrossProcessesPending: an owner that never takes the request
// (a store with no engine) makes Stop return ErrStopPending after its
// bound, naming the process; the request stands.
func TestStopAcrossProcessesPending(t *testing.T) {
	ctx := t.Context()
	a, b := openPair(t)
	var aborts atomic.Int32
	wf, kind := hangingFlow(nil, &aborts)
	r := workrun.Run{ID: "r1", Workflow: wf, WorkflowName: wf.Name, Status: workrun.RunRunning, CreatedAt: t0, State: workrun.Values{}}
	if err := a.CreateRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	eb := workrun.NewEngine(b, nil, kind)
	eb.StopWait = 300 * time.Millisecond
	err := eb.Stop(ctx, r.ID)
	var pe *workrun.StopPendingError
	if !errors.As(err, &pe) || !errors.Is(err, workrun.ErrStopPending) || !strings.Contains(err.Error(), fmt.Sprintf("process %d", pe.PID)) || pe.PID == 0 {
		t.Fatalf("Stop = %v, want a pending stop naming the process", err)
	}
	if qs := requestsOf(t, a); len(qs) != 1 || qs[0].RunID != r.ID {
		t.Errorf("requests: %+v, want the one standing", qs)
	}
}
