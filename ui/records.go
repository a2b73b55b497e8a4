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
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// RecordsView lists past runs in columns — workflow, status, started,
// duration, reason — filterable by workflow and status and sorted by any
// column (click its heading; again to reverse). A finished run opens
// read-only with its timeline; one that can still change opens in the main
// run panel (docs/product.md W5).
type RecordsView struct {
	w      *Window
	runs   []workrun.Run
	wfIDs  []string
	wfSel  *widget.Select
	stSel  *widget.Select
	list   *widget.List
	msg    *widget.Label
	heads  []*widget.Button
	root   fyne.CanvasObject
	filter workrun.RunFilter
	sortBy int  // column index
	desc   bool // newest / largest first
}

var runStatuses = []workrun.RunStatus{workrun.RunRunning, workrun.RunStopping, workrun.RunSucceeded, workrun.RunFailed, workrun.RunStopped, workrun.RunInterrupted}

// Record columns.
const (
	colWorkflow = iota
	colStatus
	colStarted
	colDuration
	colReason
	numCols
)

// recordWidths are the column widths; the reason takes the rest.
var recordWidths = [numCols]float32{220, 120, 160, 90, 0}

// columns lays out its objects side by side at recordWidths.
type columns struct{}

func (columns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	w, h := float32(0), float32(0)
	for i, o := range objs {
		m := o.MinSize()
		if i < len(recordWidths) && recordWidths[i] > 0 {
			w += recordWidths[i]
		} else {
			w += 80
		}
		h = max(h, m.Height)
	}
	return fyne.NewSize(w, h)
}

func (columns) Layout(objs []fyne.CanvasObject, s fyne.Size) {
	x := float32(0)
	for i, o := range objs {
		w := s.Width - x
		if i < len(recordWidths) && recordWidths[i] > 0 {
			w = recordWidths[i]
		}
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(max(w, 0), s.Height))
		x += w
	}
}

// NewRecordsView makes the run records view of w.
func NewRecordsView(w *Window) *RecordsView {
	v := &RecordsView{w: w, msg: widget.NewLabel(""), sortBy: colStarted, desc: true}
	v.wfSel = newSelect(nil, func(string) { v.applyFilter() })
	v.wfSel.PlaceHolder = lang.X("rec.any_workflow", "any workflow")
	opts := []string{lang.X("rec.any_status", "any status")}
	for _, s := range runStatuses {
		opts = append(opts, StatusLabel(string(s)))
	}
	v.stSel = newSelect(opts, func(string) { v.applyFilter() })
	v.stSel.PlaceHolder = opts[0]
	v.list = widget.NewList(func() int { return len(v.runs) },
		func() fyne.CanvasObject {
			cells := make([]fyne.CanvasObject, numCols)
			for i := range cells {
				l := widget.NewLabel("cell")
				l.Truncation = fyne.TextTruncateEllipsis
				cells[i] = l
			}
			return container.New(columns{}, cells...)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(v.runs) {
				return
			}
			cells := v.Row(i)
			for c, obj := range o.(*fyne.Container).Objects {
				l := obj.(*widget.Label)
				l.SetText(cells[c])
				l.Importance = widget.MediumImportance
				if c == colStatus {
					l.Importance = statusImportance(v.runs[i].Status)
				}
				l.Refresh()
			}
		})
	v.list.OnSelected = func(i widget.ListItemID) {
		if i < len(v.runs) {
			if r := v.runs[i]; r.Status.Terminal() {
				v.Open(r.ID)
			} else {
				// A run that can still change (interrupted: Resume, Stop,
				// a decision) opens in the main run panel, live.
				v.w.ShowRun(r.ID)
			}
		}
		v.list.UnselectAll()
	}
	names := [numCols]string{lang.X("rec.col_workflow", "Workflow"), lang.X("rec.col_status", "Status"),
		lang.X("rec.col_started", "Started"), lang.X("rec.col_duration", "Duration"), lang.X("rec.col_reason", "Reason")}
	var heads []fyne.CanvasObject
	for c := range numCols {
		b := widget.NewButton(names[c], func() { v.SortBy(c) })
		b.Alignment = widget.ButtonAlignLeading
		b.Importance = widget.LowImportance
		v.heads = append(v.heads, b)
		heads = append(heads, b)
	}
	v.markSort()
	refresh := widget.NewButton(lang.X("rec.refresh", "Refresh"), v.Reload)
	bar := container.NewHBox(widget.NewLabel(lang.X("rec.filter", "Filter:")), v.wfSel, v.stSel, refresh, v.msg)
	v.root = container.NewBorder(container.NewVBox(bar, container.New(columns{}, heads...)), nil, nil, nil, v.list)
	return v
}

func statusImportance(s workrun.RunStatus) widget.Importance {
	switch s {
	case workrun.RunSucceeded:
		return widget.SuccessImportance
	case workrun.RunFailed:
		return widget.DangerImportance
	case workrun.RunInterrupted, workrun.RunStopped, workrun.RunStopping:
		return widget.WarningImportance
	}
	return widget.MediumImportance
}

// Object is the view's widget tree.
func (v *RecordsView) Object() fyne.CanvasObject { return v.root }

// Runs returns the runs listed, in the order shown.
func (v *RecordsView) Runs() []workrun.Run { return v.runs }

// Row returns the cells of row i as shown: workflow, status, started,
// duration, reason.
func (v *RecordsView) Row(i int) [numCols]string {
	r := v.runs[i]
	name := r.WorkflowName
	if name == "" {
		name = r.Workflow.Name
	}
	d := ""
	if dur := runDuration(r); dur > 0 {
		d = formatDuration(dur)
	}
	return [numCols]string{name, StatusLabel(string(r.Status)), r.CreatedAt.Local().Format("2006-01-02 15:04:05"), d, HumanError(r.Reason)}
}

func runDuration(r workrun.Run) time.Duration {
	if r.CreatedAt.IsZero() {
		return 0
	}
	end := r.EndedAt
	if end.IsZero() {
		if r.Status.Terminal() {
			return 0
		}
		end = time.Now()
	}
	return end.Sub(r.CreatedAt)
}

// SortBy sorts the list by column c; the same column again reverses it.
func (v *RecordsView) SortBy(c int) {
	if c == v.sortBy {
		v.desc = !v.desc
	} else {
		v.sortBy, v.desc = c, c == colStarted || c == colDuration
	}
	v.sort()
	v.markSort()
	v.list.Refresh()
}

func (v *RecordsView) markSort() {
	for c, b := range v.heads {
		b.Icon = nil
		if c == v.sortBy {
			b.Icon = theme.MenuDropUpIcon()
			if v.desc {
				b.Icon = theme.MenuDropDownIcon()
			}
		}
		b.Refresh()
	}
}

func (v *RecordsView) sort() {
	key := func(r workrun.Run) string {
		switch v.sortBy {
		case colWorkflow:
			return strings.ToLower(r.WorkflowName)
		case colStatus:
			return StatusLabel(string(r.Status))
		case colReason:
			return HumanError(r.Reason)
		}
		return ""
	}
	slices.SortStableFunc(v.runs, func(a, b workrun.Run) int {
		var c int
		switch v.sortBy {
		case colStarted:
			c = a.CreatedAt.Compare(b.CreatedAt)
		case colDuration:
			c = cmpSeq(int64(runDuration(a)), int64(runDuration(b)))
		default:
			c = strings.Compare(key(a), key(b))
		}
		if v.desc {
			c = -c
		}
		return c
	})
}

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
	// Show the status in the picker without its callback (which would
	// filter again).
	v.stSel.Selected = ""
	if i := slices.Index(runStatuses, s); i >= 0 {
		v.stSel.Selected = v.stSel.Options[i+1]
	}
	v.stSel.Refresh()
	v.Reload()
}

// FilterStatus lists only runs in status s ("" for any), as the status
// picker does.
func (v *RecordsView) FilterStatus(s workrun.RunStatus) {
	if i := slices.Index(runStatuses, s); i >= 0 {
		v.stSel.SetSelectedIndex(i + 1)
	} else {
		v.stSel.SetSelectedIndex(0)
	}
}

func (v *RecordsView) applyFilter() {
	f := workrun.RunFilter{Limit: 200, WorkflowID: v.filter.WorkflowID}
	if i := v.wfSel.SelectedIndex(); i > 0 && i < len(v.wfIDs) {
		f.WorkflowID = v.wfIDs[i]
	} else if i == 0 {
		f.WorkflowID = ""
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
	v.sort()
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
