package ui

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// historyRuns is a run store holding runs of saved workflows, newest
// first, each with one node record.
type historyRuns struct {
	mu   sync.Mutex
	runs []workrun.Run
}

func (h *historyRuns) fake() *fakeRuns {
	return &fakeRuns{
		ListRunsFunc: func(_ context.Context, f workrun.RunFilter) ([]workrun.Run, error) {
			h.mu.Lock()
			defer h.mu.Unlock()
			var out []workrun.Run
			for _, r := range h.runs {
				if (f.WorkflowID == "" || r.WorkflowID == f.WorkflowID) && (f.Status == "" || r.Status == f.Status) && f.Matches(r) {
					out = append(out, r)
				}
			}
			if f.Limit > 0 && len(out) > f.Limit {
				out = out[:f.Limit]
			}
			return out, nil
		},
		GetRunFunc: func(_ context.Context, id string) (workrun.Run, error) {
			h.mu.Lock()
			defer h.mu.Unlock()
			for _, r := range h.runs {
				if r.ID == id {
					return r, nil
				}
			}
			return workrun.Run{}, workrun.ErrNotFound
		},
		NodeRunsFunc: func(_ context.Context, id string) ([]workrun.NodeRun, error) {
			h.mu.Lock()
			defer h.mu.Unlock()
			for _, r := range h.runs {
				if r.ID == id {
					st := workrun.NodeSucceeded
					if r.Status == workrun.RunFailed {
						st = workrun.NodeFailed
					}
					return []workrun.NodeRun{{RunID: id, NodeID: "start", Type: "start", Status: st}}, nil
				}
			}
			return nil, nil
		},
	}
}

// TestRunPanel_SwitchesBetweenTheWorkflowsRecentRuns: a workflow with
// three runs opens on its newest; the run panel's header lists the three
// (newest first, the one shown picked) and picking the oldest shows it —
// a run of an older version, which the panel says — while the workflow
// open stays as it is. A workflow with one run lists nothing to switch to.
func TestRunPanel_SwitchesBetweenTheWorkflowsRecentRuns(t *testing.T) {
	wfs := newMemWorkflows()
	beta, _ := wfs.SaveWorkflow(t.Context(), "", helloFlow("Beta"))
	solo, _ := wfs.SaveWorkflow(t.Context(), "", helloFlow("Solo"))
	older := helloFlow("Beta")
	older.State["extra"] = workrun.FieldText // a version since changed
	now := time.Now()
	h := &historyRuns{runs: []workrun.Run{
		{ID: "beta-3-newest", WorkflowID: beta.ID, WorkflowName: "Beta", Workflow: beta.Workflow, Status: workrun.RunSucceeded, CreatedAt: now.Add(-time.Minute), EndedAt: now},
		{ID: "solo-1", WorkflowID: solo.ID, WorkflowName: "Solo", Workflow: solo.Workflow, Status: workrun.RunSucceeded, CreatedAt: now.Add(-2 * time.Minute), EndedAt: now},
		{ID: "beta-2-middle", WorkflowID: beta.ID, WorkflowName: "Beta", Workflow: beta.Workflow, Status: workrun.RunStopped, CreatedAt: now.Add(-time.Hour), EndedAt: now},
		{ID: "beta-1-oldest", WorkflowID: beta.ID, WorkflowName: "Beta", Workflow: older, Status: workrun.RunFailed, Reason: "boom", FailedNode: "start", CreatedAt: now.Add(-2 * time.Hour), EndedAt: now},
	}}
	w := newTestWindow(t, Deps{Engine: &fakeEngine{}, Workflows: wfs, Runs: h.fake()})
	lists := make(chan []workrun.Run, 16)
	onUI(w, func() {
		w.rs.recentRead = func(rs []workrun.Run) { lists <- rs }
		w.reloadList("")
		w.list.Select(slices.IndexFunc(w.recs, func(r workrun.WorkflowRecord) bool { return r.ID == beta.ID }))
	})
	waitList := func(what string, n int) {
		t.Helper()
		deadline := time.After(20 * time.Second)
		for {
			select {
			case rs := <-lists:
				if len(rs) == n {
					return
				}
			case <-deadline:
				t.Fatalf("never listed %d recent runs: %s", n, what)
			}
		}
	}
	waitList("opening Beta", 3)
	var opts []string
	onUI(w, func() {
		var picked string
		picked, opts = w.panel.RecentTexts()
		if len(opts) != 3 || !strings.Contains(opts[0], "beta-3-n") || !strings.Contains(opts[1], "beta-2-m") || !strings.Contains(opts[2], "beta-1-o") {
			t.Fatalf("recent runs listed %q, want Beta's three runs newest first", opts)
		}
		if picked != opts[0] {
			t.Errorf("picked %q, want the run shown, %q", picked, opts[0])
		}
		if !strings.Contains(opts[2], "failed") || !strings.Contains(opts[1], "stopped") {
			t.Errorf("the list does not say each run's status: %q", opts)
		}
		if w.panel.Note() != "" {
			t.Errorf("the newest run is of the version open, yet the panel says %q", w.panel.Note())
		}
		w.panel.PickRecent(2)
	})
	waitFor(t, "picking the oldest run shows it", func() bool {
		var id string
		onUI(w, func() { id = w.panel.RunID() })
		return id == "beta-1-oldest"
	})
	onUI(w, func() {
		if status, reason := w.panel.HeaderTexts(); !strings.Contains(status, "beta-1-o") || !strings.Contains(reason, "boom") {
			t.Errorf("after picking the oldest run the header says %q / %q", status, reason)
		}
		if w.panel.Note() == "" || !strings.Contains(w.panel.Note(), "older version") {
			t.Errorf("a run of an older version shows the note %q (visible %v)", w.panel.Note(), w.panel.Note() != "")
		}
		if w.wfID != beta.ID || w.doc.Dirty() || !sameWorkflow(w.doc.Workflow(), beta.Workflow) {
			t.Errorf("picking a run changed the workflow open: %q dirty %v", w.wfID, w.doc.Dirty())
		}
		if got := w.cv.NodeStatus("start"); got != workrun.NodeFailed {
			t.Errorf("canvas status of start %q, want the picked run's failed", got)
		}
	})
	waitList("after the pick", 3)
	onUI(w, func() {
		if picked, _ := w.panel.RecentTexts(); picked != opts[2] {
			t.Errorf("after the pick the header picks %q, want %q", picked, opts[2])
		}
		w.list.Select(slices.IndexFunc(w.recs, func(r workrun.WorkflowRecord) bool { return r.ID == solo.ID }))
	})
	waitList("opening Solo", 1)
	onUI(w, func() {
		if id := w.panel.RunID(); id != "solo-1" {
			t.Errorf("Solo shows run %q", id)
		}
		if picked, opts := w.panel.RecentTexts(); picked != "" || opts != nil {
			t.Errorf("a workflow with one run lists %q / %q to switch to", picked, opts)
		}
	})
}

// TestRecords_SearchAndOpenInEditor: the run records' search box asks the
// store for the runs matching its text — by workflow name, run id, status
// (also by its Chinese name in a Chinese window) or failure reason — and
// each row's Open in editor opens that run's workflow as it is now.
func TestRecords_SearchAndOpenInEditor(t *testing.T) {
	wfs := newMemWorkflows()
	alpha, _ := wfs.SaveWorkflow(t.Context(), "", helloFlow("Alpha"))
	beta, _ := wfs.SaveWorkflow(t.Context(), "", helloFlow("Beta"))
	now := time.Now()
	h := &historyRuns{runs: []workrun.Run{
		{ID: "run-a1", WorkflowID: alpha.ID, WorkflowName: "Alpha", Workflow: alpha.Workflow, Status: workrun.RunSucceeded, CreatedAt: now.Add(-time.Minute), EndedAt: now},
		{ID: "run-b2", WorkflowID: beta.ID, WorkflowName: "Beta", Workflow: helloFlow("Beta (old)"), Status: workrun.RunFailed, Reason: "check: exit status 3", FailedNode: "check", CreatedAt: now.Add(-time.Hour), EndedAt: now},
		{ID: "run-b1", WorkflowID: beta.ID, WorkflowName: "Beta", Workflow: beta.Workflow, Status: workrun.RunStopped, CreatedAt: now.Add(-2 * time.Hour), EndedAt: now},
	}}
	w := newTestWindow(t, Deps{Engine: &fakeEngine{}, Workflows: wfs, Runs: h.fake()})
	v := w.records
	onUI(w, func() { w.reloadList("") })
	var search *widget.Entry
	onUI(w, func() { search = recordsSearch(v) })
	ids := func() []string {
		var out []string
		onUI(w, func() {
			for _, r := range v.Runs() {
				out = append(out, r.ID)
			}
		})
		return out
	}
	for _, c := range []struct {
		text, lang string
		want       []string
	}{
		{"", "en", []string{"run-a1", "run-b2", "run-b1"}},
		{"beta", "en", []string{"run-b2", "run-b1"}},
		{"A1", "en", []string{"run-a1"}},
		{"exit status", "en", []string{"run-b2"}},
		{"stopped", "en", []string{"run-b1"}},
		{"失败", "zh-Hans", []string{"run-b2"}},
		{"停止", "zh-Hans", []string{"run-b1"}},
	} {
		if c.lang != w.loc.Language() { // the switch rebuilds the records view
			onUI(w, func() { w.SetLanguage(c.lang); v = w.records; search = recordsSearch(v) })
		}
		waitRecords(t, w, func() {
			if search.Text == c.text {
				v.Reload() // SetText of the same text changes nothing
			} else {
				search.SetText(c.text)
			}
		})
		if got := ids(); !slices.Equal(got, c.want) {
			t.Errorf("search %q (%s) lists %v, want %v", c.text, c.lang, got, c.want)
		}
	}
	onUI(w, func() { w.SetLanguage("en"); v = w.records; search = recordsSearch(v) })
	waitRecords(t, w, func() { search.SetText("exit status") })
	onUI(w, func() {
		w.tabs.SelectIndex(3) // Run records
		var edit *widget.Button
		for _, o := range test.LaidOutObjects(v.Object()) {
			if b, ok := o.(*widget.Button); ok && b.Text == "Open in editor" && b.Visible() {
				edit = b
			}
		}
		if edit == nil {
			t.Fatal("the run records row has no Open in editor")
		}
		test.Tap(edit)
		if w.wfID != beta.ID || !sameWorkflow(w.doc.Workflow(), beta.Workflow) {
			t.Errorf("Open in editor opened %q %q, want Beta as saved", w.wfID, w.doc.Workflow().Name)
		}
		if w.tabs.SelectedIndex() != 0 {
			t.Errorf("Open in editor left tab %d shown, want the Run tab", w.tabs.SelectedIndex())
		}
	})
}

// TestOpenRecord_RunOfAnOlderVersionKeepsTheSavedWorkflow: an interrupted
// run (it opens live, for Resume or Stop) of an older version of a saved
// workflow shows in the run panel beside that workflow as saved now — its
// older copy never replaces it in the editor, where a save would undo the
// changes made since — and the panel says the run is of an older version.
func TestOpenRecord_RunOfAnOlderVersionKeepsTheSavedWorkflow(t *testing.T) {
	wfs := newMemWorkflows()
	now := helloFlow("Beta")
	now.State["added_since"] = workrun.FieldText
	beta, _ := wfs.SaveWorkflow(t.Context(), "", now)
	alpha, _ := wfs.SaveWorkflow(t.Context(), "", helloFlow("Alpha"))
	h := &historyRuns{runs: []workrun.Run{{ID: "beta-old", WorkflowID: beta.ID, WorkflowName: "Beta", Workflow: helloFlow("Beta"),
		Status: workrun.RunInterrupted, Interruption: workrun.InterruptedByExit, CreatedAt: time.Now().Add(-time.Hour)}}}
	w := newTestWindow(t, Deps{Engine: &fakeEngine{}, Workflows: wfs, Runs: h.fake()})
	onUI(w, func() {
		w.reloadList(alpha.ID)
		w.openRecord(h.runs[0])
	})
	waitFor(t, "the interrupted run shows in the run panel", func() bool {
		var id string
		onUI(w, func() { id = w.panel.RunID() })
		return id == "beta-old"
	})
	onUI(w, func() {
		if w.wfID != beta.ID || !sameWorkflow(w.doc.Workflow(), beta.Workflow) || w.doc.Dirty() {
			t.Errorf("the editor holds %q %v (dirty %v), want Beta as saved now", w.wfID, w.doc.Workflow().State, w.doc.Dirty())
		}
		if w.panel.Note() == "" || !strings.Contains(w.panel.Note(), "older version") {
			t.Errorf("the note is %q (visible %v), want it to say the run is of an older version", w.panel.Note(), w.panel.Note() != "")
		}
		if got := w.panel.ActionLabels(); !slices.Contains(got, "Resume") {
			t.Errorf("actions %q, want Resume for a run interrupted by an exit", got)
		}
	})
}
