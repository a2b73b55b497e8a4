package workrun_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// ownedStore is a MemStore shared by several processes: function fields say
// which runs are orphaned and whether a check-and-write still finds them so.
type ownedStore struct {
	*workruntest.MemStore
	OrphanedRunsFunc      func(ctx context.Context, s workrun.RunStatus) ([]workrun.Run, error)
	UpdateOrphanedRunFunc func(ctx context.Context, r workrun.Run, from workrun.RunStatus) (bool, error)
}

func (s *ownedStore) OrphanedRuns(ctx context.Context, st workrun.RunStatus) ([]workrun.Run, error) {
	return s.OrphanedRunsFunc(ctx, st)
}

func (s *ownedStore) UpdateOrphanedRun(ctx context.Context, r workrun.Run, from workrun.RunStatus) (bool, error) {
	return s.UpdateOrphanedRunFunc(ctx, r, from)
}

// TestRecoverInterruptedWithOwnersTouchesOnlyOrphans (docs/remote-agent.md R13): with an
// OwnedRunStore the engine recovers only the runs the store reports
// orphaned, saves them by check-and-write, and reports (and publishes) only
// those actually saved; a run of a live process is never rewritten.
func TestRecoverInterruptedWithOwnersTouchesOnlyOrphans(t *testing.T) {
	ctx := t.Context()
	mem := workruntest.NewMemStore()
	for _, r := range []workrun.Run{
		{ID: "live", Status: workrun.RunRunning},
		{ID: "dead", Status: workrun.RunRunning},
		{ID: "taken-meanwhile", Status: workrun.RunRunning},
		{ID: "dead-stopping", Status: workrun.RunStopping, FailedNode: "x"},
	} {
		if err := mem.CreateRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	var saved []string
	st := &ownedStore{MemStore: mem,
		OrphanedRunsFunc: func(ctx context.Context, s workrun.RunStatus) ([]workrun.Run, error) {
			var out []workrun.Run
			for _, id := range map[workrun.RunStatus][]string{
				workrun.RunRunning:  {"dead", "taken-meanwhile"},
				workrun.RunStopping: {"dead-stopping"},
			}[s] {
				r, err := mem.GetRun(ctx, id)
				if err != nil {
					return nil, err
				}
				out = append(out, r)
			}
			return out, nil
		},
		UpdateOrphanedRunFunc: func(ctx context.Context, r workrun.Run, from workrun.RunStatus) (bool, error) {
			if r.ID == "taken-meanwhile" {
				return false, nil // another process resumed it between the read and the write
			}
			saved = append(saved, r.ID+":"+string(from)+">"+string(r.Status))
			return true, mem.UpdateRun(ctx, r)
		},
	}
	e := workrun.NewEngine(st, nil)
	events, cancel := e.Subscribe()
	defer cancel()
	changed, err := e.RecoverInterrupted(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range changed {
		ids = append(ids, r.ID)
	}
	if d := cmp.Diff([]string{"dead", "dead-stopping"}, ids); d != "" {
		t.Errorf("changed (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"dead:running>interrupted", "dead-stopping:stopping>failed"}, saved); d != "" {
		t.Errorf("saved (-want +got):\n%s", d)
	}
	for _, id := range []string{"live", "taken-meanwhile"} {
		if r, _ := mem.GetRun(ctx, id); r.Status != workrun.RunRunning {
			t.Errorf("%s became %s", id, r.Status)
		}
	}
	for range 2 {
		ev := <-events
		if ev.RunID != "dead" && ev.RunID != "dead-stopping" {
			t.Errorf("published %s", ev.RunID)
		}
	}

	// MarkExited of a run a live process runs is refused.
	if _, err := e.MarkExited(ctx, "taken-meanwhile"); !errors.Is(err, workrun.ErrRunActive) {
		t.Errorf("MarkExited = %v, want ErrRunActive", err)
	}
	if r, err := e.MarkExited(ctx, "dead"); err != nil || r.Status != workrun.RunInterrupted {
		t.Errorf("MarkExited of an already recovered run = %s, %v", r.Status, err)
	}
}
