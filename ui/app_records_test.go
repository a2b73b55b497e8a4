package ui

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/records"
	"workrun/workrun"
)

// waitRecords runs op on the UI thread and waits until the run records it
// asked for are listed (they are read off the UI thread).
func waitRecords(t *testing.T, w *Window, op func()) {
	t.Helper()
	var once sync.Once
	listed := make(chan struct{})
	onUI(w, func() {
		w.records.OnListed = func() { once.Do(func() { close(listed) }) }
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

// TestRecords_AppListsTheStoresRunsInWords: the window's run records are
// the store's runs, read off the UI thread, filtered by the status asked
// for, their saved reasons read as sentences (HumanError).
func TestRecords_AppListsTheStoresRunsInWords(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)
	all := []workrun.Run{
		{ID: "a", WorkflowName: "beta", Status: workrun.RunSucceeded, CreatedAt: t0, EndedAt: t0.Add(5 * time.Second)},
		{ID: "b", WorkflowName: "alpha", Status: workrun.RunFailed, Reason: "x: context canceled", CreatedAt: t0.Add(time.Minute), EndedAt: t0.Add(time.Minute + 2*time.Second)},
	}
	var mu sync.Mutex
	var filters []workrun.RunFilter
	runs := &fakeRuns{ListRunsFunc: func(_ context.Context, f workrun.RunFilter) ([]workrun.Run, error) {
		mu.Lock()
		filters = append(filters, f)
		mu.Unlock()
		var out []workrun.Run
		for _, r := range all {
			if f.Status == "" || r.Status == f.Status {
				out = append(out, r)
			}
		}
		return out, nil
	}}
	w := newTestWindow(t, Deps{Runs: runs})
	waitRecords(t, w, func() { w.records.SetFilter("", workrun.RunFailed) })
	var shown []workrun.Run
	var cells [5]string
	onUI(w, func() {
		shown = w.records.Runs()
		if len(shown) > 0 {
			cells = w.records.Cells(0)
		}
	})
	mu.Lock()
	last := filters[len(filters)-1]
	mu.Unlock()
	if last.Status != workrun.RunFailed {
		t.Errorf("the store was asked for status %q, want failed", last.Status)
	}
	if len(shown) != 1 || shown[0].ID != "b" {
		t.Fatalf("listed %v, want run b", shown)
	}
	if want := [5]string{"alpha", "failed", t0.Add(time.Minute).Format("2006-01-02 15:04:05"), "2s", "x: stopped before it finished"}; cells != want {
		t.Errorf("row cells %q, want %q", cells, want)
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
	waitRecords(t, w, func() { w.records.SetFilter("", workrun.RunFailed) })
	shown := make(chan struct{})
	onUI(w, func() { w.rs.recordsRead = func() { close(shown) } })
	close(release)
	<-shown // the slow read's answer reached the UI thread
	var ids []string
	onUI(w, func() {
		for _, r := range w.records.Runs() {
			ids = append(ids, r.ID)
		}
	})
	if !slices.Equal(ids, []string{"new"}) {
		t.Errorf("records show %v after the slow read ended, want the newer filter's [new]", ids)
	}
}

// recordsSearch is the run records' search box, found as a person finds
// it: the view's one text entry.
func recordsSearch(v *records.View) *widget.Entry {
	for _, o := range test.LaidOutObjects(v.Object()) {
		if e, ok := o.(*widget.Entry); ok {
			return e
		}
	}
	return nil
}
