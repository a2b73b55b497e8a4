package store

import (
	"errors"
	"os"
	"sync"
	"testing"

	"workrun/workrun"
)

// TestClaimRun_ExactlyOneOfManyStoresWins: 8 stores on one data directory
// (as 8 processes) claim one interrupted run at once: exactly one is saved,
// and every other learns that the run is running and which process has it.
// A running run whose owner lives cannot be claimed; once it has ended, it
// can.
func TestClaimRun_ExactlyOneOfManyStoresWins(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	const n = 8
	stores := make([]*Store, n)
	for i := range stores {
		s, err := Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores[i] = s
	}
	r := sampleRun("r1", t0)
	r.Status, r.Interruption = workrun.RunInterrupted, workrun.InterruptedByExit
	if err := stores[0].CreateRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	claims := make([]workrun.RunClaim, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, s := range stores {
		wg.Go(func() {
			<-start
			mine := r
			mine.Status, mine.Interruption = workrun.RunRunning, ""
			c, err := s.ClaimRun(ctx, mine, workrun.RunInterrupted, workrun.RunRunning)
			if err != nil {
				t.Error(err)
			}
			claims[i] = c
		})
	}
	close(start)
	wg.Wait()
	winner := -1
	for i, c := range claims {
		if c.OK {
			if winner >= 0 {
				t.Fatalf("stores %d and %d both claimed the run", winner, i)
			}
			winner = i
		}
	}
	if winner < 0 {
		t.Fatal("no claim won")
	}
	for i, c := range claims {
		if i == winner {
			continue
		}
		if c.Status != workrun.RunRunning || !c.OwnerAlive || c.OwnerPID != os.Getpid() {
			t.Errorf("a losing claim found %+v; want running, owned by live process %d", c, os.Getpid())
		}
	}
	if h, err := stores[0].RunHolder(ctx, "r1"); err != nil || h.Status != workrun.RunRunning || h.OwnerPID != os.Getpid() {
		t.Errorf("RunHolder = %+v, %v", h, err)
	}

	// The winner ends (closes): its running run becomes claimable.
	other := (winner + 1) % n
	stop := r
	stop.Status = workrun.RunStopping
	if c, _ := stores[other].ClaimRun(ctx, stop, workrun.RunRunning); c.OK {
		t.Fatal("claimed a running run whose owner lives")
	}
	if err := stores[winner].Close(); err != nil {
		t.Fatal(err)
	}
	if c, err := stores[other].ClaimRun(ctx, stop, workrun.RunRunning); err != nil || !c.OK || c.OwnerAlive {
		t.Fatalf("claim after the owner ended = %+v, %v", c, err)
	}
	if got, _ := stores[other].GetRun(ctx, "r1"); got.Status != workrun.RunStopping {
		t.Errorf("saved status %s", got.Status)
	}
	if _, err := stores[other].ClaimRun(ctx, workrun.Run{ID: "nope"}, workrun.RunRunning); !errors.Is(err, workrun.ErrNotFound) {
		t.Errorf("claim of a missing run: %v", err)
	}
}
