package store

import (
	"testing"

	"workrun/workrun"
)

// A run's starter is saved with the run, read back by GetRun, ListRuns and
// RunsWithStatus, and kept by UpdateRun; a run saved without one reads zero.
func TestRun_StartedByRoundTrip(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	by := workrun.StartedBy{Kind: workrun.StartedByA2A, Label: "ci-bot"}
	r := sampleRun("r1", t0)
	r.StartedBy = by
	if err := s.CreateRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	plain := sampleRun("r2", t0.Add(1))
	if err := s.CreateRun(ctx, plain); err != nil {
		t.Fatal(err)
	}
	r.Status = workrun.RunSucceeded
	r.StartedBy = workrun.StartedBy{Kind: workrun.StartedByWebhook, Label: "changed"} // ignored by UpdateRun
	if err := s.UpdateRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetRun(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if got.StartedBy != by {
		t.Errorf("GetRun(r1).StartedBy = %+v, want %+v", got.StartedBy, by)
	}
	list, err := s.ListRuns(ctx, workrun.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]workrun.StartedBy{"r1": by, "r2": {}}
	if len(list) != 2 {
		t.Fatalf("ListRuns = %d runs, want 2", len(list))
	}
	for _, x := range list {
		if x.StartedBy != want[x.ID] {
			t.Errorf("ListRuns %s StartedBy = %+v, want %+v", x.ID, x.StartedBy, want[x.ID])
		}
	}
	running, err := s.RunsWithStatus(ctx, workrun.RunRunning)
	if err != nil {
		t.Fatal(err)
	}
	if len(running) != 1 || running[0].ID != "r2" || !running[0].StartedBy.IsZero() {
		t.Errorf("RunsWithStatus(running) = %+v, want r2 with no starter", running)
	}
}
