package store

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"workrun/workrun"
)

// TestConcurrentWriters_NoLockErrors runs 50 goroutines writing runs,
// messages, progress lines and remote calls at once, as parallel branches
// do: no "database is locked", nothing lost, seqs unique per run.
func TestConcurrentWriters_NoLockErrors(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	if err := s.CreateRun(ctx, sampleRun("shared", t0)); err != nil {
		t.Fatal(err)
	}
	const workers, perWorker = 50, 20
	var wg sync.WaitGroup
	errs := make(chan error, workers*perWorker*4)
	for w := range workers {
		wg.Go(func() {
			runID := fmt.Sprintf("w%d", w)
			if err := s.CreateRun(ctx, sampleRun(runID, t0.Add(time.Duration(w)*time.Millisecond))); err != nil {
				errs <- err
				return
			}
			for i := range perWorker {
				if _, err := s.AppendMessage(ctx, workrun.Message{RunID: runID, NodeID: "n", Text: fmt.Sprint(i)}); err != nil {
					errs <- err
				}
				if _, err := s.AppendMessage(ctx, workrun.Message{RunID: "shared", NodeID: runID, Text: fmt.Sprint(i)}); err != nil {
					errs <- err
				}
				if err := s.AppendProgress(ctx, workrun.Message{RunID: "shared", NodeID: runID, Text: fmt.Sprint("p", i)}); err != nil {
					errs <- err
				}
				c := workrun.RemoteCall{RunID: "shared", NodeID: runID, CallKey: fmt.Sprint(i), TaskID: "t"}
				if err := s.SaveRemoteCall(ctx, c); err != nil {
					errs <- err
				}
				// Reads interleave with the writes.
				if _, err := s.GetRemoteCall(ctx, "shared", runID, fmt.Sprint(i)); err != nil {
					errs <- err
				}
			}
			r, err := s.GetRun(ctx, runID)
			if err != nil {
				errs <- err
				return
			}
			r.Status = workrun.RunSucceeded
			if err := s.UpdateRun(ctx, r); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}

	shared, err := s.Messages(ctx, "shared")
	if err != nil {
		t.Fatal(err)
	}
	if len(shared) != workers*perWorker*2 {
		t.Errorf("shared run has %d lines, want %d", len(shared), workers*perWorker*2)
	}
	for i, m := range shared {
		if m.Seq != int64(i+1) {
			t.Fatalf("shared line %d has seq %d: seqs not dense and unique", i, m.Seq)
		}
	}
	calls, err := s.RemoteCallsForRun(ctx, "shared")
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != workers*perWorker {
		t.Errorf("%d remote calls, want %d", len(calls), workers*perWorker)
	}
	done, err := s.RunsWithStatus(ctx, workrun.RunSucceeded)
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != workers {
		t.Errorf("%d succeeded runs, want %d", len(done), workers)
	}
	for w := range workers {
		ms, err := s.Messages(ctx, fmt.Sprintf("w%d", w))
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != perWorker {
			t.Errorf("run w%d has %d lines, want %d", w, len(ms), perWorker)
		}
	}
}

// TestTwoStoresOneFile_NoLockErrors opens the same data dir twice, as the
// CLI does next to the running GUI: BEGIN IMMEDIATE and busy_timeout make
// the second writer wait instead of failing.
func TestTwoStoresOneFile_NoLockErrors(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	var stores [2]*Store
	for i := range stores {
		s, err := Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores[i] = s
	}
	if err := stores[0].CreateRun(ctx, sampleRun("r", t0)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 400)
	for i, s := range stores {
		for g := range 4 {
			wg.Go(func() {
				for j := range 25 {
					c := workrun.RemoteCall{RunID: "r", NodeID: fmt.Sprintf("s%d-g%d", i, g), CallKey: fmt.Sprint(j)}
					if err := s.SaveRemoteCall(ctx, c); err != nil {
						errs <- err
					}
					if _, err := s.SaveWorkflow(ctx, fmt.Sprintf("wf-%d-%d", i, g), workrun.Workflow{Name: "x"}); err != nil {
						errs <- err
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	calls, err := stores[1].RemoteCallsForRun(ctx, "r")
	if err != nil || len(calls) != 2*4*25 {
		t.Errorf("%d calls, %v; want %d", len(calls), err, 2*4*25)
	}
	wf, err := stores[0].GetWorkflow(ctx, "wf-1-3")
	if err != nil || wf.Revision != 25 {
		t.Errorf("workflow revision = %d, %v; want 25", wf.Revision, err)
	}
}
