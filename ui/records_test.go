package ui

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
)

// TestRecords_ColumnsSortFilter: run records list workflow, status, start,
// duration and reason in columns, sort by a column (again to reverse), and
// filter by status through the store.
func TestRecords_ColumnsSortFilter(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)
	all := []workrun.Run{
		{ID: "a", WorkflowName: "beta", Status: workrun.RunSucceeded, CreatedAt: t0, EndedAt: t0.Add(5 * time.Second)},
		{ID: "b", WorkflowName: "alpha", Status: workrun.RunFailed, Reason: "x: context canceled", CreatedAt: t0.Add(time.Minute), EndedAt: t0.Add(time.Minute + 2*time.Second)},
		{ID: "c", WorkflowName: "gamma", Status: workrun.RunStopped, CreatedAt: t0.Add(2 * time.Minute), EndedAt: t0.Add(2*time.Minute + 9*time.Second)},
	}
	var filters []workrun.RunFilter
	runs := &fakeRuns{ListRunsFunc: func(_ context.Context, f workrun.RunFilter) ([]workrun.Run, error) {
		filters = append(filters, f)
		var out []workrun.Run
		for _, r := range all {
			if f.Status == "" || r.Status == f.Status {
				out = append(out, r)
			}
		}
		return out, nil
	}}
	w := newTestWindow(t, Deps{Runs: runs})
	v := w.records
	waitRecords(t, w, v.Reload)
	ids := func() []string {
		var out []string
		for _, r := range v.runs {
			out = append(out, r.ID)
		}
		return out
	}
	if diff := cmp.Diff([]string{"c", "b", "a"}, ids()); diff != "" {
		t.Errorf("default order, newest first (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([numCols]string{"alpha", "failed", t0.Add(time.Minute).Format("2006-01-02 15:04:05"), "2s", "x: stopped before it finished"}, v.row(1)); diff != "" {
		t.Errorf("row cells (-want +got):\n%s", diff)
	}
	v.sortBy(colDuration)
	if diff := cmp.Diff([]string{"c", "a", "b"}, ids()); diff != "" {
		t.Errorf("by duration, longest first (-want +got):\n%s", diff)
	}
	v.sortBy(colDuration)
	if diff := cmp.Diff([]string{"b", "a", "c"}, ids()); diff != "" {
		t.Errorf("by duration reversed (-want +got):\n%s", diff)
	}
	v.sortBy(colWorkflow)
	if diff := cmp.Diff([]string{"b", "a", "c"}, ids()); diff != "" {
		t.Errorf("by workflow (-want +got):\n%s", diff)
	}
	waitRecords(t, w, func() { v.filterStatus(workrun.RunFailed) })
	if got := filters[len(filters)-1].Status; got != workrun.RunFailed {
		t.Errorf("status filter sent %q", got)
	}
	if diff := cmp.Diff([]string{"b"}, ids()); diff != "" {
		t.Errorf("failed runs (-want +got):\n%s", diff)
	}
	waitRecords(t, w, func() { v.filterStatus("") })
	if !slices.Equal(ids(), []string{"b", "a", "c"}) {
		t.Errorf("any status: %v", ids())
	}
}

// waitRecords runs op on the UI thread and waits until the run records it
// asked for are listed (they are read off the UI thread).
func waitRecords(t *testing.T, w *Window, op func()) {
	t.Helper()
	var once sync.Once
	listed := make(chan struct{})
	onUI(w, func() {
		w.records.loaded = func() { once.Do(func() { close(listed) }) }
		op()
	})
	deadline := time.NewTimer(5 * time.Second)
	defer deadline.Stop()
	select {
	case <-listed:
	case <-deadline.C:
		t.Fatal("the run records were not listed")
	}
}

// TestRecords_SlowReadNeverOverwritesANewerOne: the run records are read off
// the UI thread; when the person changes the filter while an older read is
// still under way, the older answer (arriving last) is not shown.
func TestRecords_SlowReadNeverOverwritesANewerOne(t *testing.T) {
	release := make(chan struct{})
	runs := &fakeRuns{ListRunsFunc: func(_ context.Context, f workrun.RunFilter) ([]workrun.Run, error) {
		if f.Status == "" {
			<-release // the first, unfiltered read is slow
			return []workrun.Run{{ID: "old", Status: workrun.RunSucceeded}, {ID: "old2", Status: workrun.RunFailed}}, nil
		}
		return []workrun.Run{{ID: "new", Status: f.Status}}, nil
	}}
	w := newTestWindow(t, Deps{Runs: runs})
	onUI(w, w.records.Reload)
	waitRecords(t, w, func() { w.records.filterStatus(workrun.RunFailed) })
	shown := make(chan struct{})
	onUI(w, func() { w.rs.recordsRead = func() { close(shown) } })
	close(release)
	<-shown // the slow read's answer reached the UI thread
	var ids []string
	onUI(w, func() {
		for _, r := range w.records.runs {
			ids = append(ids, r.ID)
		}
	})
	if !slices.Equal(ids, []string{"new"}) {
		t.Errorf("records show %v after the slow read ended, want the newer filter's [new]", ids)
	}
}
