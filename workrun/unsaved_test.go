package workrun_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// keepingStore is a MemStore that keeps refused statuses (UnsavedKeeper).
type keepingStore struct {
	*workruntest.MemStore
	mu   sync.Mutex
	kept []workrun.Run
}

func (s *keepingStore) KeepUnsaved(r workrun.Run, cause error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kept = append(s.kept, r)
	return nil
}

func waitingKind() fakeKind {
	return fakeKind{"wait": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}}
}

// TestUnsavedStop_RefusedLoudlyThenTaken: a person's Stop whose "stopping"
// the store refuses, and that nothing can keep, is not half done: the run
// goes on (its node is not canceled), the refusal is reported, and a
// later Stop, once the store takes it, stops the run.
func TestUnsavedStop_RefusedLoudlyThenTaken(t *testing.T) {
	e, st := newEngine(t, waitingKind())
	var full atomic.Bool
	full.Store(true)
	st.UpdateRunFunc = func(ctx context.Context, r workrun.Run) error {
		if full.Load() && r.Status == workrun.RunStopping {
			return errors.New("database or disk is full (13)")
		}
		return nil
	}
	var errs syncBuffer
	e.Errors = &errs
	wf := workrun.Workflow{Nodes: []workrun.NodeSpec{node("start", "start", ""), node("wait", "fake", "")}, Edges: edges("start>wait")}
	id, err := e.Start(t.Context(), "", wf, nil)
	if err != nil {
		t.Fatal(err)
	}
	waitNodeStatus(t, st, id, "wait", workrun.NodeRunning)
	if err := e.Stop(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for !containsLine(messageTexts(t, st, id, ""), "Stop could not be saved, so the run goes on (press Stop again): database or disk is full (13)") {
		if time.Now().After(deadline) {
			t.Fatalf("no report of the refused Stop: %q", messageTexts(t, st, id, ""))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !e.Active(id) {
		t.Fatal("the run ended although its Stop could not be saved")
	}
	full.Store(false)
	if err := e.Stop(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	r, err := e.Wait(t.Context(), id)
	if err != nil || r.Status != workrun.RunStopped {
		t.Fatalf("after the second Stop: %v %s (%s)", err, r.Status, r.Reason)
	}
}

// TestUnsavedFinal_KeptAndReported: a final status the store refuses is
// tried again, then kept; subscribers see the run as interrupted because
// its final state could not be saved, with what it had ended as.
func TestUnsavedFinal_KeptAndReported(t *testing.T) {
	mem := workruntest.NewMemStore()
	st := &keepingStore{MemStore: mem}
	fk := fakeKind{"bad": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		return nil, errors.New("broken")
	}}}
	e := workrun.NewEngine(st, nil, allKinds(fk)...)
	e.SaveRetryFor = 300 * time.Millisecond
	var tries atomic.Int32
	mem.UpdateRunFunc = func(ctx context.Context, r workrun.Run) error {
		if r.Status == workrun.RunFailed || r.Status == workrun.RunStopping {
			tries.Add(1)
			return errors.New("write: no space left on device")
		}
		return nil
	}
	e.Errors = &syncBuffer{}
	events, cancel := e.Subscribe()
	defer cancel()
	wf := workrun.Workflow{Nodes: []workrun.NodeSpec{node("start", "start", ""), node("bad", "fake", "")}, Edges: edges("start>bad")}
	id, err := e.Start(t.Context(), "", wf, nil)
	if err != nil {
		t.Fatal(err)
	}
	var seen workrun.Run
	timeout := time.After(20 * time.Second)
	for seen.Interruption != workrun.InterruptedByUnsaved {
		select {
		case ev := <-events:
			if ev.Type == workrun.EventRun && ev.RunID == id {
				seen = *ev.Run
			}
		case <-timeout:
			t.Fatalf("never published as unsaved; last %+v", seen)
		}
	}
	if seen.Status != workrun.RunInterrupted || !strings.HasPrefix(seen.Reason, "the final state could not be saved (disk full); the run had ended failed at node bad: broken") {
		t.Errorf("published %s %q", seen.Status, seen.Reason)
	}
	if _, err := e.Wait(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	// "stopping", then "failed": each tried again, then kept.
	if len(st.kept) != 2 || st.kept[1].Status != workrun.RunFailed || tries.Load() < 6 {
		t.Errorf("kept %+v after %d tries", st.kept, tries.Load())
	}
}

func waitNodeStatus(t *testing.T, st *workruntest.MemStore, runID, nodeID string, want workrun.NodeStatus) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		recs, err := st.NodeRuns(t.Context(), runID)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r.NodeID == nodeID && r.Status == want {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("node %s never %s: %+v", nodeID, want, recs)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
