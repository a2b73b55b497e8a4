package ui

import (
	"context"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// newRecordsView makes the run records view, reading its lists off the UI
// thread.
func (w *Window) newRecordsView() *RecordsView {
	v := NewRecordsView()
	if w.deps.Runs != nil {
		v.OnReload = func(f workrun.RunFilter) { w.reloadRecords(v, f) }
	}
	v.OnOpen = w.openRecord
	return v
}

// reloadRecords reads the runs matching f off the UI thread and lists them
// in v; only the newest request is shown, so a slow read never replaces
// the answer to a later filter.
func (w *Window) reloadRecords(v *RecordsView, f workrun.RunFilter) {
	w.rs.recordsSeq++
	seq := w.rs.recordsSeq
	var rs []workrun.Run
	var err error
	w.background(func() {
		rs, err = w.deps.Runs.ListRuns(w.ctx, f)
	}, func() {
		if seq == w.rs.recordsSeq {
			v.SetRuns(rs, err)
		}
	})
}

// openRecord opens a run picked in the run records. A finished run opens
// read-only in its own window; one that can still change (interrupted:
// Resume, Stop, a decision) opens in the main run panel, live.
func (w *Window) openRecord(r workrun.Run) {
	if !r.Status.Terminal() {
		w.showRun(r.ID)
		return
	}
	var rec runRecord
	var err error
	w.background(func() {
		ctx, cancel := context.WithTimeout(w.ctx, 10*time.Second)
		defer cancel()
		rec, err = w.readRecord(ctx, r.ID)
	}, func() {
		if err != nil {
			w.showError(err)
			return
		}
		w.showRecord(rec)
	})
}

// runRecord is everything the read-only window of a past run shows.
type runRecord struct {
	run   workrun.Run
	nodes []workrun.NodeRun
	msgs  []workrun.Message
	tasks []workrun.RemoteCall
	files map[string][]workrun.ArtifactInfo
	// tasksErr is why the remote tasks could not be read (the rest shows).
	tasksErr error
}

// readRecord reads a past run for showRecord; it runs off the UI thread.
func (w *Window) readRecord(ctx context.Context, runID string) (runRecord, error) {
	var rec runRecord
	var err error
	rec.run, rec.nodes, rec.msgs, err = ReadRun(ctx, w.deps.Runs, runID)
	if err != nil {
		return rec, err
	}
	rec.tasks, rec.files, rec.tasksErr = w.readTasks(ctx, runID)
	return rec, nil
}

// showRecord shows a past run read-only in its own window: its canvas with
// node statuses, its run panel and its timeline.
func (w *Window) showRecord(rec runRecord) fyne.Window {
	r := rec.run
	panel := NewRunPanel(w.deps.Runs, true)
	cv := NewCanvasView(NewDocument(r.Workflow), true)
	panel.OnStatus = cv.SetStatus
	panel.Load(r, rec.nodes, rec.msgs)
	for _, n := range rec.nodes {
		cv.SetStatus(n.NodeID, n.Status)
	}
	tl := widget.NewLabel(timeline(r, rec.nodes))
	tl.Wrapping = fyne.TextWrapWord
	tasks := w.newRemotePanel()
	tasks.ShowResult(rec.tasks, rec.files, rec.tasksErr)
	tabs := container.NewAppTabs(
		container.NewTabItem(lang.X("tab.run", "Run"), panel.Object()),
		container.NewTabItem(lang.X("rec.timeline", "Timeline"), container.NewVScroll(tl)),
		container.NewTabItem(lang.X("tab.remote", "Remote tasks"), tasks.Object()),
	)
	win := w.app.NewWindow(fmt.Sprintf("%s — %s (%s)", r.WorkflowName, shortID(r.ID), lang.X("rec.readonly", "read-only")))
	split := container.NewVSplit(cv, tabs)
	win.SetContent(split)
	win.Resize(fyne.NewSize(1000, 720))
	win.Show()
	cv.Fit()
	return win
}
