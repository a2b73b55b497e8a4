package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// RecordsView lists past runs, filterable by workflow and status; a run
// opens read-only with its timeline (SPEC W5).
type RecordsView struct {
	w      *Window
	runs   []workrun.Run
	wfIDs  []string
	wfSel  *widget.Select
	stSel  *widget.Select
	list   *widget.List
	msg    *widget.Label
	root   fyne.CanvasObject
	filter workrun.RunFilter
}

var runStatuses = []workrun.RunStatus{workrun.RunRunning, workrun.RunStopping, workrun.RunSucceeded, workrun.RunFailed, workrun.RunStopped, workrun.RunInterrupted}

// NewRecordsView makes the run records view of w.
func NewRecordsView(w *Window) *RecordsView {
	v := &RecordsView{w: w, msg: widget.NewLabel("")}
	v.wfSel = widget.NewSelect(nil, func(string) { v.applyFilter() })
	v.wfSel.PlaceHolder = lang.X("rec.any_workflow", "any workflow")
	opts := []string{lang.X("rec.any_status", "any status")}
	for _, s := range runStatuses {
		opts = append(opts, StatusLabel(string(s)))
	}
	v.stSel = widget.NewSelect(opts, func(string) { v.applyFilter() })
	v.stSel.PlaceHolder = opts[0]
	v.list = widget.NewList(func() int { return len(v.runs) },
		func() fyne.CanvasObject { return widget.NewLabel("run") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			r := v.runs[i]
			text := fmt.Sprintf("%s  %s  %s  %s", r.CreatedAt.Local().Format("2006-01-02 15:04:05"), shortID(r.ID), r.WorkflowName, StatusLabel(string(r.Status)))
			if r.Reason != "" {
				text += " — " + HumanError(r.Reason)
			}
			o.(*widget.Label).SetText(text)
		})
	v.list.OnSelected = func(i widget.ListItemID) {
		if i < len(v.runs) {
			if r := v.runs[i]; r.Status.Terminal() {
				v.Open(r.ID)
			} else {
				// A run that can still change (interrupted: Resume, a
				// decision) opens in the main run panel, live.
				v.w.ShowRun(r.ID)
			}
		}
		v.list.UnselectAll()
	}
	refresh := widget.NewButton(lang.X("rec.refresh", "Refresh"), v.Reload)
	bar := container.NewHBox(widget.NewLabel(lang.X("rec.filter", "Filter:")), v.wfSel, v.stSel, refresh, v.msg)
	v.root = container.NewBorder(bar, nil, nil, nil, v.list)
	return v
}

// Object is the view's widget tree.
func (v *RecordsView) Object() fyne.CanvasObject { return v.root }

// Runs returns the runs listed.
func (v *RecordsView) Runs() []workrun.Run { return v.runs }

func (v *RecordsView) setWorkflows(recs []workrun.WorkflowRecord) {
	opts := []string{lang.X("rec.any_workflow", "any workflow")}
	v.wfIDs = []string{""}
	for _, r := range recs {
		opts = append(opts, r.Workflow.Name)
		v.wfIDs = append(v.wfIDs, r.ID)
	}
	v.wfSel.Options = opts
	v.wfSel.Refresh()
}

// SetFilter lists the runs of one workflow id and status ("" for any).
func (v *RecordsView) SetFilter(workflowID string, s workrun.RunStatus) {
	v.filter = workrun.RunFilter{WorkflowID: workflowID, Status: s, Limit: 200}
	v.Reload()
}

func (v *RecordsView) applyFilter() {
	f := workrun.RunFilter{Limit: 200}
	if i := v.wfSel.SelectedIndex(); i > 0 && i < len(v.wfIDs) {
		f.WorkflowID = v.wfIDs[i]
	}
	if i := v.stSel.SelectedIndex(); i > 0 {
		f.Status = runStatuses[i-1]
	}
	v.filter = f
	v.Reload()
}

// Reload reads the run list again (one page of 200; the store pages by id).
func (v *RecordsView) Reload() {
	if v.w.deps.Runs == nil {
		v.msg.SetText(lang.X("rec.none", "no run records in this window"))
		return
	}
	f := v.filter
	if f.Limit == 0 {
		f.Limit = 200
	}
	rs, err := v.w.deps.Runs.ListRuns(v.w.ctx, f)
	if err != nil {
		v.msg.SetText(err.Error())
		return
	}
	v.runs = rs
	v.msg.SetText(fmt.Sprintf(lang.X("rec.count", "%d runs"), len(rs)))
	v.list.Refresh()
}

// Open shows a past run read-only in its own window: its canvas with node
// statuses, its run panel and its timeline.
func (v *RecordsView) Open(runID string) fyne.Window {
	deps := v.w.deps
	if deps.Runs == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(v.w.ctx, 10*time.Second)
	defer cancel()
	panel := NewRunPanel(deps.Runs, true)
	if err := panel.Show(ctx, runID); err != nil {
		v.w.showError(err)
		return nil
	}
	r := panel.Run()
	cv := NewCanvasView(NewDocument(r.Workflow), true)
	panel.OnStatus = cv.SetStatus
	nrs, _ := deps.Runs.NodeRuns(ctx, runID)
	for _, n := range nrs {
		cv.SetStatus(n.NodeID, n.Status)
	}
	tl := widget.NewLabel(Timeline(r, nrs))
	tl.Wrapping = fyne.TextWrapWord
	tasks := NewRemotePanel(deps.RemoteCalls, deps.Runs, deps.Artifacts, v.w.win)
	tasks.Show(ctx, runID)
	tabs := container.NewAppTabs(
		container.NewTabItem(lang.X("tab.run", "Run"), panel.Object()),
		container.NewTabItem(lang.X("rec.timeline", "Timeline"), container.NewVScroll(tl)),
		container.NewTabItem(lang.X("tab.remote", "Remote tasks"), tasks.Object()),
	)
	win := v.w.app.NewWindow(fmt.Sprintf("%s — %s (%s)", r.WorkflowName, shortID(r.ID), lang.X("rec.readonly", "read-only")))
	split := container.NewVSplit(cv, tabs)
	win.SetContent(split)
	win.Resize(fyne.NewSize(1000, 720))
	win.Show()
	cv.Fit()
	return win
}

// Timeline lists a run's nodes in the order they started, with durations,
// inputs and outputs.
func Timeline(r workrun.Run, nrs []workrun.NodeRun) string {
	ns := slices.Clone(nrs)
	slices.SortStableFunc(ns, func(a, b workrun.NodeRun) int {
		switch {
		case a.StartedAt.IsZero() && !b.StartedAt.IsZero():
			return 1
		case !a.StartedAt.IsZero() && b.StartedAt.IsZero():
			return -1
		}
		return a.StartedAt.Compare(b.StartedAt)
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%s · %s · %s\n", r.WorkflowName, StatusLabel(string(r.Status)), r.CreatedAt.Local().Format("2006-01-02 15:04:05"))
	if r.Reason != "" {
		fmt.Fprintf(&b, "%s\n", r.Reason)
	}
	for i, n := range ns {
		d := ""
		if !n.StartedAt.IsZero() && !n.EndedAt.IsZero() {
			d = n.EndedAt.Sub(n.StartedAt).Round(time.Millisecond).String()
		}
		start := "—"
		if !n.StartedAt.IsZero() {
			start = n.StartedAt.Local().Format("15:04:05.000")
		}
		fmt.Fprintf(&b, "\n%d. %s (%s) %s  %s  %s\n", i+1, n.NodeID, n.Type, StatusLabel(string(n.Status)), start, d)
		if len(n.Inputs) > 0 {
			fmt.Fprintf(&b, "   %s: %s\n", lang.X("rec.inputs", "inputs"), compactJSON(n.Inputs))
		}
		if len(n.Outputs) > 0 {
			fmt.Fprintf(&b, "   %s: %s\n", lang.X("rec.outputs", "outputs"), compactJSON(n.Outputs))
		}
		if n.Error != "" {
			fmt.Fprintf(&b, "   %s: %s\n", lang.X("rec.error", "error"), n.Error)
		}
	}
	return b.String()
}

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 400 {
		return string(b[:400]) + "…"
	}
	return string(b)
}
