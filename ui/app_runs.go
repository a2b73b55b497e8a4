package ui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"workrun/ui/document"
	"workrun/ui/runpanel"
	"workrun/workrun"
)

// A run's history belongs to its workflow: opening a workflow shows its
// latest run; Run again runs the workflow as it is now (the record of the
// run shown keeps the version it ran); and the panel says when the run it
// shows is of an older version than the one open.

// showLatestRun shows the newest run of the open workflow in the run panel,
// read off the UI thread, unless a run was shown or another workflow opened
// meanwhile. The open document stays as it is.
func (w *Window) showLatestRun() {
	if w.deps.Runs == nil || w.wfID == "" {
		return
	}
	doc, wfID := w.doc, w.wfID
	stale := func() bool { return w.doc != doc || w.panel.RunID() != "" }
	var rs []workrun.Run
	var err error
	w.background(func() {
		rs, err = w.deps.Runs.ListRuns(w.ctx, workrun.RunFilter{WorkflowID: wfID, Limit: 1})
	}, func() {
		if stale() {
			return
		}
		if err != nil {
			w.setStatus(fmt.Sprintf("%s: %s", w.loc.X("run.latest_failed", "Could not read this workflow's latest run"), HumanError(w.loc, err.Error())))
			return
		}
		if len(rs) == 0 {
			return
		}
		w.readRun(rs[0].ID, func(r workrun.Run, nrs []workrun.NodeRun, ms []workrun.Message, err error) {
			if stale() {
				return
			}
			if err != nil {
				w.showError(err)
				return
			}
			w.showOpenRun(r, nrs, ms)
			if w.rs.latestShown != nil {
				w.rs.latestShown(r.ID)
			}
		})
	})
}

// recentOf is the workflow whose recent runs the panel lists: that of the
// run shown, or the open one for a run just started ("" for no run).
func (w *Window) recentOf() string {
	if w.panel.RunID() == "" {
		return ""
	}
	if id := w.panel.Run().WorkflowID; id != "" {
		return id
	}
	return w.wfID
}

// showOpenRun shows a run of the open workflow in the run panel, its node
// statuses on the canvas; the open document stays as it is (the panel
// notes when the run is of an older version).
func (w *Window) showOpenRun(r workrun.Run, nrs []workrun.NodeRun, ms []workrun.Message) {
	w.panel.Load(r, nrs, ms)
	w.showCaller(r.ID)
	w.cv.ClearStatus()
	for id, n := range w.panel.NodeRuns() {
		if _, ok := w.doc.Node(id); ok {
			w.cv.SetStatus(id, runpanel.ShownStatus(n))
		}
	}
	w.refreshTasks(r.ID)
	w.updateRunButtons()
	w.updateTitle()
	w.runStatusChanged()
}

// showSavedRun shows a run of a saved workflow beside that workflow as it
// is now — never its own older copy in the editor, where a save would
// quietly undo the changes made since. It reports false when the run's
// workflow is not saved (any more); the caller then opens the run's copy.
func (w *Window) showSavedRun(r workrun.Run, nrs []workrun.NodeRun, ms []workrun.Message) bool {
	i := slices.IndexFunc(w.recs, func(x workrun.WorkflowRecord) bool { return x.ID == r.WorkflowID })
	if r.WorkflowID == "" || i < 0 {
		return false
	}
	if r.WorkflowID != w.wfID {
		if w.doc.Dirty() {
			w.saveNow()
		}
		w.wfID = r.WorkflowID
		w.setDocument(document.NewDocument(w.recs[i].Workflow))
		w.selectListed(r.WorkflowID)
	}
	w.showOpenRun(r, nrs, ms)
	w.tabs.SelectIndex(0)
	return true
}

// pickRun shows another recent run of the workflow, picked in the run
// panel's header; the open document stays (it is that run's workflow as it
// is now).
func (w *Window) pickRun(runID string) {
	if w.deps.Runs == nil {
		return
	}
	doc := w.doc
	w.readRun(runID, func(r workrun.Run, nrs []workrun.NodeRun, ms []workrun.Message, err error) {
		if w.doc != doc {
			return // another workflow was opened meanwhile
		}
		if err != nil {
			w.showError(err)
			return
		}
		if r.WorkflowID != w.wfID {
			w.showLoadedRun(r, nrs, ms)
			return
		}
		w.showOpenRun(r, nrs, ms)
	})
}

// refreshRecent reads the recent runs of the workflow whose run the panel
// shows (the open one while a run just started) off the UI thread and
// lists them in the panel's header; one read at a time, the last request
// read again when it ends.
func (w *Window) refreshRecent() {
	if w.deps.Runs == nil {
		return
	}
	wfID := w.recentOf()
	if wfID == "" {
		w.panel.SetRecent(nil)
		return
	}
	if w.rs.recentBusy {
		w.rs.recentAgain = true
		return
	}
	w.rs.recentBusy = true
	var rs []workrun.Run
	var err error
	w.background(func() {
		rs, err = w.deps.Runs.ListRuns(w.ctx, workrun.RunFilter{WorkflowID: wfID, Limit: runpanel.RecentLimit})
	}, func() {
		w.rs.recentBusy = false
		if w.rs.recentAgain {
			w.rs.recentAgain = false
			w.refreshRecent()
			return
		}
		if w.recentOf() != wfID {
			return // the panel shows another workflow's run by now
		}
		if err != nil {
			w.setStatus(fmt.Sprintf("%s: %s", w.loc.X("run.recent_failed", "Could not read this workflow's recent runs"), HumanError(w.loc, err.Error())))
			return
		}
		w.panel.SetRecent(rs)
		if w.rs.recentRead != nil {
			w.rs.recentRead(rs)
		}
	})
}

// runAgainWorkflow is what Run again runs: the open workflow as it is now
// when the run shown is of it (saved first), else the run's own workflow.
// ok is false when it cannot run now; the reason is shown.
func (w *Window) runAgainWorkflow(r workrun.Run) (wf workrun.Workflow, ok bool) {
	if r.WorkflowID == "" || r.WorkflowID != w.wfID {
		if len(r.Workflow.Nodes) == 0 {
			return w.doc.Workflow(), true
		}
		return r.Workflow, true
	}
	if p := w.insp.Pending(); p != "" {
		w.fixFirst(p)
		return wf, false
	}
	if w.doc.Dirty() && !w.saveNow() {
		return wf, false
	}
	if len(w.probs) > 0 {
		w.setStatus(w.loc.X("run.fix_problems", "Fix the problems of this workflow first (Problems tab)."))
		w.tabs.SelectIndex(1)
		return wf, false
	}
	wf = w.doc.Workflow()
	if missing := w.missingCredentials(wf); len(missing) > 0 {
		w.showError(fmt.Errorf(w.loc.X("run.missing_credentials", "Cannot run: these credentials are not in the keyring: %s. Add them under Settings → Credentials…"), strings.Join(missing, ", ")))
		return wf, false
	}
	return wf, true
}

// noteVersion says under the run's header when the run shown ran another
// version of the open workflow than the one open now.
func (w *Window) noteVersion() {
	r := w.panel.Run()
	if r.ID == "" || r.WorkflowID == "" || r.WorkflowID != w.wfID || len(r.Workflow.Nodes) == 0 || sameWorkflow(r.Workflow, w.doc.Workflow()) {
		w.panel.SetNote("")
		return
	}
	w.panel.SetNote(w.loc.X("run.older_version", "This run ran an older version of the workflow; Run again runs it as it is now."))
}

// sameWorkflow reports whether a and b are the same workflow, node
// positions aside (moving a node changes nothing a run does).
func sameWorkflow(a, b workrun.Workflow) bool {
	strip := func(wf workrun.Workflow) []byte {
		wf = document.CloneWorkflow(wf)
		for i := range wf.Nodes {
			wf.Nodes[i].Position = nil
		}
		out, _ := json.Marshal(wf) // a Workflow always marshals
		return out
	}
	return string(strip(a)) == string(strip(b))
}
