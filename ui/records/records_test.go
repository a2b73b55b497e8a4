package records

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
)

// english is the catalogue's fallback: every label in English.
type english struct{}

func (english) X(_, fallback string) string { return fallback }

// wording marks what the view took from the app layer's Wording, so the
// cells show it was used.
var wording = Wording{
	Reason: func(s string) string {
		return "reason: " + strings.ReplaceAll(s, "context canceled", "stopped before it finished")
	},
	Duration: func(d time.Duration) string { return d.String() },
}

// filterStatus lists only runs in status s ("" for any), as the status
// picker does.
func (v *View) filterStatus(s workrun.RunStatus) {
	if i := slices.Index(runStatuses, s); i >= 0 {
		v.stSel.SetSelectedIndex(i + 1)
	} else {
		v.stSel.SetSelectedIndex(0)
	}
}

// TestRecords_ColumnsSortFilter: run records list workflow, status, start,
// duration and reason in columns, sort by a column (again to reverse), and
// filter by status through the store (OnReload, answered by SetRuns as the
// app layer does).
func TestRecords_ColumnsSortFilter(t *testing.T) {
	test.NewTempApp(t)
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)
	all := []workrun.Run{
		{ID: "a", WorkflowName: "beta", Status: workrun.RunSucceeded, CreatedAt: t0, EndedAt: t0.Add(5 * time.Second)},
		{ID: "b", WorkflowName: "alpha", Status: workrun.RunFailed, Reason: "x: context canceled", CreatedAt: t0.Add(time.Minute), EndedAt: t0.Add(time.Minute + 2*time.Second)},
		{ID: "c", WorkflowName: "gamma", Status: workrun.RunStopped, CreatedAt: t0.Add(2 * time.Minute), EndedAt: t0.Add(2*time.Minute + 9*time.Second)},
	}
	var filters []workrun.RunFilter
	v := New(english{}, wording)
	v.OnReload = func(f workrun.RunFilter) {
		filters = append(filters, f)
		var out []workrun.Run
		for _, r := range all {
			if f.Status == "" || r.Status == f.Status {
				out = append(out, r)
			}
		}
		v.SetRuns(out, nil)
	}
	v.Reload()
	ids := func() []string {
		var out []string
		for _, r := range v.Runs() {
			out = append(out, r.ID)
		}
		return out
	}
	if diff := cmp.Diff([]string{"c", "b", "a"}, ids()); diff != "" {
		t.Errorf("default order, newest first (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([numCols]string{"alpha", "failed", t0.Add(time.Minute).Format("2006-01-02 15:04:05"), "2s", "reason: x: stopped before it finished"}, v.Cells(1)); diff != "" {
		t.Errorf("row cells (-want +got):\n%s", diff)
	}
	if got := v.Message(); got != "3 runs" {
		t.Errorf("message %q, want 3 runs", got)
	}
	v.sortBy(ColDuration)
	if diff := cmp.Diff([]string{"c", "a", "b"}, ids()); diff != "" {
		t.Errorf("by duration, longest first (-want +got):\n%s", diff)
	}
	v.sortBy(ColDuration)
	if diff := cmp.Diff([]string{"b", "a", "c"}, ids()); diff != "" {
		t.Errorf("by duration reversed (-want +got):\n%s", diff)
	}
	v.sortBy(ColWorkflow)
	if diff := cmp.Diff([]string{"b", "a", "c"}, ids()); diff != "" {
		t.Errorf("by workflow (-want +got):\n%s", diff)
	}
	v.filterStatus(workrun.RunFailed)
	if got := filters[len(filters)-1].Status; got != workrun.RunFailed {
		t.Errorf("status filter sent %q", got)
	}
	if diff := cmp.Diff([]string{"b"}, ids()); diff != "" {
		t.Errorf("failed runs (-want +got):\n%s", diff)
	}
	if got := v.Message(); got != "1 run" {
		t.Errorf("message %q, want 1 run", got)
	}
	v.filterStatus("")
	if !slices.Equal(ids(), []string{"b", "a", "c"}) {
		t.Errorf("any status: %v", ids())
	}
}

// TestRecords_SearchNamesStatusesInTheWindowsLanguage: the search box sends
// its text and the statuses whose translated name contains it (the store
// knows only the English words).
func TestRecords_SearchNamesStatusesInTheWindowsLanguage(t *testing.T) {
	test.NewTempApp(t)
	var got workrun.RunFilter
	v := New(chinese{}, wording)
	v.OnReload = func(f workrun.RunFilter) { got = f }
	v.search.SetText("失败")
	if got.Text != "失败" || !slices.Equal(got.TextStatuses, []workrun.RunStatus{workrun.RunFailed}) {
		t.Errorf("search sent text %q statuses %v, want 失败 and [failed]", got.Text, got.TextStatuses)
	}
}

// chinese translates the one status the search test types.
type chinese struct{}

func (chinese) X(key, fallback string) string {
	if key == "status.failed" {
		return "失败"
	}
	return fallback
}

// TestRunDuration_InterruptedCountsNoSittingTime: an interrupted run's
// duration does not count the time it sat (Workrun may have been closed);
// a running one counts up to now.
func TestRunDuration_InterruptedCountsNoSittingTime(t *testing.T) {
	created := time.Now().Add(-time.Hour)
	if d := RunDuration(workrun.Run{Status: workrun.RunInterrupted, CreatedAt: created}); d != 0 {
		t.Errorf("interrupted run: %v, want 0", d)
	}
	if d := RunDuration(workrun.Run{Status: workrun.RunRunning, CreatedAt: created}); d < time.Hour {
		t.Errorf("running run: %v, want at least an hour", d)
	}
}
