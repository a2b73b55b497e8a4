package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"fyne.io/fyne/v2"

	"workrun/ui/records"
	"workrun/ui/remotetasks"
	"workrun/workrun"
)

// This file is the app layer's side of runs already made: the run records
// list, a past run's read-only window, and a run's remote task records and
// file results. Every read runs off the UI thread on the window's context.

// newRecordsView makes the run records view, reading its lists off the UI
// thread.
func (w *Window) newRecordsView() *records.View {
	v := records.New(w.loc, w.recordsWording())
	if w.deps.Runs != nil {
		v.OnReload = func(f workrun.RunFilter) { w.reloadRecords(v, f) }
	}
	v.OnOpen = w.openRecord
	v.OnEdit = w.openInEditor
	return v
}

// reloadRecords reads the runs matching f off the UI thread and lists them
// in v; only the newest request is shown, so a slow read never replaces
// the answer to a later filter.
func (w *Window) reloadRecords(v *records.View, f workrun.RunFilter) {
	w.rs.recordsSeq++
	seq := w.rs.recordsSeq
	var rs []workrun.Run
	var callers map[string]string
	var err, cerr error
	w.background(func() {
		rs, err = w.deps.Runs.ListRuns(w.ctx, f)
		if err == nil {
			callers, cerr = w.readCallers(rs)
		}
	}, func() {
		if seq == w.rs.recordsSeq {
			v.SetCallers(callers)
			v.SetRuns(rs, err)
			if cerr != nil { // the runs show; who called them is unknown
				v.SetMessage(cerr.Error())
			}
		}
		if w.rs.recordsRead != nil {
			w.rs.recordsRead()
		}
	})
}

// readCallers says who started each run of rs that a caller of a served
// workflow started; it runs off the UI thread.
func (w *Window) readCallers(rs []workrun.Run) (map[string]string, error) {
	if w.deps.ServedCaller == nil {
		return nil, nil
	}
	out := map[string]string{}
	for _, r := range rs {
		if s := startedByText(w.loc, r); s != "" { // triggers.go
			out[r.ID] = s
			continue
		}
		c, err := w.readCaller(w.ctx, r.ID)
		if err != nil {
			return nil, fmt.Errorf("read callers: %w", err)
		}
		if c != "" {
			out[r.ID] = c
		}
	}
	return out, nil
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

// readRecord reads a past run for showRecord; it runs off the UI thread.
func (w *Window) readRecord(ctx context.Context, runID string) (runRecord, error) {
	var rec runRecord
	var err error
	rec.run, rec.nodes, rec.msgs, err = readRunRecords(ctx, w.deps.Runs, runID)
	if err != nil {
		return rec, err
	}
	rec.tasks, rec.files, rec.tasksErr = w.readTasks(ctx, runID)
	if rec.caller, err = w.readCaller(ctx, runID); err != nil {
		return rec, err
	}
	return rec, nil
}

// showRecord shows a past run read-only in its own window.
func (w *Window) showRecord(rec runRecord) fyne.Window {
	tasks := w.newRemotePanel()
	tasks.KindOf = kindIn(func() workrun.Workflow { return rec.run.Workflow })
	tasks.NameOf = nameIn(func() workrun.Workflow { return rec.run.Workflow })
	tasks.ShowResult(rec.tasks, rec.files, rec.tasksErr)
	return recordWindow(w.loc, w.app, w.fit(fyne.NewSize(1000, 720)), rec, tasks, func() { w.openInEditor(rec.run) }, w.wireFiles)
}

// newRemotePanel makes a remote task panel whose file results save through
// the artifact store (none when the window has no artifact store).
func (w *Window) newRemotePanel() *remotetasks.Panel {
	if w.deps.Artifacts == nil {
		return remotetasks.New(w.loc, remoteTasksWording(w.loc), nil)
	}
	return remotetasks.New(w.loc, remoteTasksWording(w.loc), w.saveArtifact)
}

// remoteTasksWording is how the Remote tasks tab words remote states, saved
// texts and ids in loc's language, as the rest of the window does.
func remoteTasksWording(loc workrun.Localizer) remotetasks.Wording {
	return remotetasks.Wording{
		State:      func(s string) string { return RemoteStateLabel(loc, s) },
		Saved:      func(text string) string { return HumanError(loc, LocalizeMessage(loc, text)) },
		ShortID:    shortField,
		CopyButton: copyFullButton,
		CallsMCP:   func(kind string) bool { return len(keysOf(kind, workrun.ValueURL, workrun.ProtocolMCP)) > 0 },
	}
}

// kindIn returns a function naming the kind of a node of the workflow wf()
// gives (the run shown): remotetasks.Panel.KindOf.
func kindIn(wf func() workrun.Workflow) func(string) string {
	return func(id string) string {
		for _, n := range wf().Nodes {
			if n.ID == id {
				return n.Type
			}
		}
		return ""
	}
}

// nameIn returns a function naming a node of the workflow wf() gives for
// people, "Title (id)" or its id: remotetasks.Panel.NameOf.
func nameIn(wf func() workrun.Workflow) func(string) string {
	return func(id string) string {
		for _, n := range wf().Nodes {
			if n.ID == id && n.Title != "" && n.Title != id {
				return n.Title + " (" + id + ")"
			}
		}
		return id
	}
}

// readTasks reads a run's remote task records and the file results found
// in its Remote Agent nodes' outputs; it runs off the UI thread.
func (w *Window) readTasks(ctx context.Context, runID string) ([]workrun.RemoteCall, map[string][]workrun.ArtifactInfo, error) {
	if w.deps.RemoteCalls == nil || runID == "" {
		return nil, nil, nil
	}
	all, err := w.deps.RemoteCalls(ctx, runID)
	if err != nil {
		return nil, nil, err
	}
	var ts []workrun.RemoteCall
	for _, c := range all {
		if !c.IsSide() { // a kind's bookkeeping (its questions), not a task
			ts = append(ts, c)
		}
	}
	files, err := w.fileResults(ctx, runID, ts)
	return ts, files, err
}

// fileResults finds the artifacts each remote node wrote into file fields.
// A result that cannot be read is left out and named in the error (wrapping
// remotetasks.ErrFileResults), which the panel shows under the task records it still
// shows.
func (w *Window) fileResults(ctx context.Context, runID string, ts []workrun.RemoteCall) (map[string][]workrun.ArtifactInfo, error) {
	runs, arts := w.deps.Runs, w.deps.Artifacts
	if runs == nil || arts == nil || len(ts) == 0 {
		return nil, nil
	}
	r, err := runs.GetRun(ctx, runID)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", remotetasks.ErrFileResults, err)
	}
	nrs, err := runs.NodeRuns(ctx, runID)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", remotetasks.ErrFileResults, err)
	}
	var errs []error
	out := map[string][]workrun.ArtifactInfo{}
	for _, n := range nrs {
		if !callsRemote(n.Type) {
			continue
		}
		for field, v := range n.Outputs {
			var ids []string
			switch r.Workflow.State[field] {
			case workrun.FieldFile:
				if s, ok := v.(string); ok {
					ids = append(ids, s)
				}
			case workrun.FieldFiles:
				if xs, ok := v.([]any); ok {
					for _, x := range xs {
						if s, ok := x.(string); ok {
							ids = append(ids, s)
						}
					}
				}
			}
			for _, id := range ids {
				a, err := arts.Stat(ctx, id)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", n.NodeID, err))
					continue
				}
				out[n.NodeID] = append(out[n.NodeID], a)
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return out, fmt.Errorf("%w: %w", remotetasks.ErrFileResults, err)
	}
	return out, nil
}

// openInEditor opens the workflow a run belongs to in the editor, as it is
// now; a run whose workflow was deleted opens its own copy, unsaved.
func (w *Window) openInEditor(r workrun.Run) {
	w.leave(func() {
		w.tabs.SelectIndex(0) // the editor's own run panel, not the records
		if i := slices.IndexFunc(w.recs, func(x workrun.WorkflowRecord) bool { return x.ID == r.WorkflowID }); i >= 0 && r.WorkflowID != "" {
			w.open(w.recs[i])
			w.selectListed(r.WorkflowID)
			return
		}
		w.OpenWorkflow("", r.Workflow)
		w.selectListed("")
	})
}
