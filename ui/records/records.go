package records

import (
	"cmp"
	"fmt"
	"image/color"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// View lists past runs in columns — workflow, status, started,
// duration, reason — filterable by workflow and status, searchable (workflow
// name, run id, status, failure reason; the store searches, so older runs
// are found too) and sorted by any column (click its heading; again to
// reverse). Each row opens its run's workflow in the editor. A finished run opens
// read-only with its timeline; one that can still change opens in the main
// run panel (docs/product.md W5). The view reads nothing itself: it asks
// for a list (OnReload) and for a run to be opened (OnOpen), and the app
// layer hands it the runs (SetRuns).
type View struct {
	l    Localizer
	text Wording
	// callers names who started runs through `workrun serve` (SetCallers).
	callers map[string]string
	// OnReload asks for the runs that match f; the answer comes to SetRuns.
	OnReload func(f workrun.RunFilter)
	// OnOpen reports that the person picked run r.
	OnOpen func(r workrun.Run)
	// OnEdit asks to open run r's workflow in the editor (nil: no button).
	OnEdit func(r workrun.Run)
	// OnListed, when set, is called after SetRuns showed a list (or why
	// there is none).
	OnListed func()

	runs   []workrun.Run
	wfIDs  []string
	wfSel  *widget.Select
	stSel  *widget.Select
	search *widget.Entry
	list   *widget.List
	msg    *widget.Label
	heads  []*widget.Button
	root   fyne.CanvasObject
	filter workrun.RunFilter
	col    int  // the column sorted by
	desc   bool // newest / largest first
}

var runStatuses = []workrun.RunStatus{workrun.RunRunning, workrun.RunStopping, workrun.RunSucceeded, workrun.RunFailed, workrun.RunStopped, workrun.RunInterrupted}

// The columns, in the order shown (Cells).
const (
	ColWorkflow = iota
	ColStatus
	ColStarted
	ColDuration
	ColReason
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

// Localizer words the view's labels in the window's language: key's
// translation, or fallback (English) where the catalogue has none.
type Localizer interface {
	X(key, fallback string) string
}

// Wording turns what the store saved into what the person reads; the app
// layer supplies it, so the view keeps no error translation of its own.
type Wording struct {
	// Reason is a saved failure reason as a sentence.
	Reason func(saved string) string
	// Duration is a run's duration as shown.
	Duration func(time.Duration) string
}

// New makes the run records view; it lists nothing until SetRuns. l words
// its labels, text what the store saved (both fields must be set).
func New(l Localizer, text Wording) *View {
	v := &View{l: l, text: text, msg: widget.NewLabel(""), col: ColStarted, desc: true}
	v.wfSel = widget.NewSelect(nil, func(string) { v.applyFilter() })
	v.wfSel.PlaceHolder = v.l.X("rec.any_workflow", "any workflow")
	opts := []string{v.l.X("rec.any_status", "any status")}
	for _, s := range runStatuses {
		opts = append(opts, v.status(s))
	}
	v.stSel = widget.NewSelect(opts, func(string) { v.applyFilter() })
	v.stSel.PlaceHolder = opts[0]
	v.search = widget.NewEntry()
	v.search.SetPlaceHolder(v.l.X("rec.search", "Search: workflow, run id, status, reason"))
	v.search.OnChanged = func(string) { v.applyFilter() }
	editLabel := v.l.X("rec.open_editor", "Open in editor")
	v.list = widget.NewList(func() int { return len(v.runs) },
		func() fyne.CanvasObject {
			cells := make([]fyne.CanvasObject, numCols)
			for i := range cells {
				l := widget.NewLabel("cell")
				l.Truncation = fyne.TextTruncateEllipsis
				cells[i] = l
			}
			edit := widget.NewButton(editLabel, nil)
			edit.Importance = widget.LowImportance
			return container.NewBorder(nil, nil, nil, edit, container.New(columns{}, cells...))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(v.runs) {
				return
			}
			row := o.(*fyne.Container)
			edit := row.Objects[1].(*widget.Button)
			r := v.runs[i]
			edit.OnTapped = func() {
				if v.OnEdit != nil {
					v.OnEdit(r)
				}
			}
			edit.Hidden = v.OnEdit == nil
			cells := v.Cells(i)
			for c, obj := range row.Objects[0].(*fyne.Container).Objects {
				l := obj.(*widget.Label)
				l.SetText(cells[c])
				l.Importance = widget.MediumImportance
				if c == ColStatus {
					l.Importance = statusImportance(v.runs[i].Status)
				}
				l.Refresh()
			}
		})
	v.list.OnSelected = func(i widget.ListItemID) {
		if i < len(v.runs) && v.OnOpen != nil {
			v.OnOpen(v.runs[i])
		}
		v.list.UnselectAll()
	}
	names := [numCols]string{v.l.X("rec.col_workflow", "Workflow"), v.l.X("rec.col_status", "Status"),
		v.l.X("rec.col_started", "Started"), v.l.X("rec.col_duration", "Duration"), v.l.X("rec.col_reason", "Reason")}
	var heads []fyne.CanvasObject
	for c := range numCols {
		b := widget.NewButton(names[c], func() { v.sortBy(c) })
		b.Alignment = widget.ButtonAlignLeading
		b.Importance = widget.LowImportance
		v.heads = append(v.heads, b)
		heads = append(heads, b)
	}
	v.markSort()
	refresh := widget.NewButton(v.l.X("rec.refresh", "Refresh"), v.Reload)
	bar := container.NewBorder(nil, nil, container.NewHBox(widget.NewLabel(v.l.X("rec.filter", "Filter:")), v.wfSel, v.stSel),
		container.NewHBox(refresh, v.msg), v.search)
	// The headings stay over their columns: as wide a gap on the right as
	// a row's Open in editor.
	gap := canvas.NewRectangle(color.Transparent)
	gap.SetMinSize(fyne.NewSize(widget.NewButton(editLabel, nil).MinSize().Width, 1))
	v.root = container.NewBorder(container.NewVBox(bar, container.NewBorder(nil, nil, nil, gap, container.New(columns{}, heads...))), nil, nil, nil, v.list)
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
func (v *View) Object() fyne.CanvasObject { return v.root }

// status names a run status in the window's language (the catalogue's
// status.* keys).
func (v *View) status(s workrun.RunStatus) string {
	return v.l.X("status."+string(s), string(s))
}

// Runs returns the runs listed, in the order shown.
func (v *View) Runs() []workrun.Run { return slices.Clone(v.runs) }

// Cells returns the cells of row i as shown, indexed by column (ColWorkflow
// … ColReason).
func (v *View) Cells(i int) [numCols]string {
	r := v.runs[i]
	name := r.WorkflowName
	if name == "" {
		name = r.Workflow.Name
	}
	d := ""
	if dur := RunDuration(r); dur > 0 {
		d = v.text.Duration(dur)
	}
	if c := v.callers[r.ID]; c != "" {
		name += " · " + c
	}
	return [numCols]string{name, v.status(r.Status), r.CreatedAt.Local().Format("2006-01-02 15:04:05"), d, v.text.Reason(r.Reason)}
}

// RunDuration is how long run r took, or has taken so far while it runs;
// 0 for an interrupted run, whose time sitting (Workrun may be closed) does
// not count.
func RunDuration(r workrun.Run) time.Duration {
	if r.CreatedAt.IsZero() {
		return 0
	}
	end := r.EndedAt
	if end.IsZero() {
		if r.Status != workrun.RunRunning && r.Status != workrun.RunStopping {
			return 0 // an interrupted run does not count the time it sits (Workrun may be closed)
		}
		end = time.Now()
	}
	return end.Sub(r.CreatedAt)
}

// sortBy sorts the list by column c; the same column again reverses it.
func (v *View) sortBy(c int) {
	if c == v.col {
		v.desc = !v.desc
	} else {
		v.col, v.desc = c, c == ColStarted || c == ColDuration
	}
	v.sort()
	v.markSort()
	v.list.Refresh()
}

func (v *View) markSort() {
	for c, b := range v.heads {
		b.Icon = nil
		if c == v.col {
			b.Icon = theme.MenuDropUpIcon()
			if v.desc {
				b.Icon = theme.MenuDropDownIcon()
			}
		}
		b.Refresh()
	}
}

func (v *View) sort() {
	key := func(r workrun.Run) string {
		switch v.col {
		case ColWorkflow:
			return strings.ToLower(r.WorkflowName)
		case ColStatus:
			return v.status(r.Status)
		case ColReason:
			return v.text.Reason(r.Reason)
		}
		return ""
	}
	slices.SortStableFunc(v.runs, func(a, b workrun.Run) int {
		var c int
		switch v.col {
		case ColStarted:
			c = a.CreatedAt.Compare(b.CreatedAt)
		case ColDuration:
			c = cmp.Compare(RunDuration(a), RunDuration(b))
		default:
			c = strings.Compare(key(a), key(b))
		}
		if v.desc {
			c = -c
		}
		return c
	})
}

// SetWorkflows offers the workflows of recs in the workflow filter.
func (v *View) SetWorkflows(recs []workrun.WorkflowRecord) {
	opts := []string{v.l.X("rec.any_workflow", "any workflow")}
	v.wfIDs = []string{""}
	for _, r := range recs {
		opts = append(opts, r.Workflow.Name)
		v.wfIDs = append(v.wfIDs, r.ID)
	}
	v.wfSel.Options = opts
	v.wfSel.Refresh()
}

// SetFilter lists the runs of one workflow id and status ("" for any).
func (v *View) SetFilter(workflowID string, s workrun.RunStatus) {
	v.filter = v.searchFilter(workrun.RunFilter{WorkflowID: workflowID, Status: s, Limit: 200})
	// Show the status in the picker without its callback (which would
	// filter again).
	v.stSel.Selected = ""
	if i := slices.Index(runStatuses, s); i >= 0 {
		v.stSel.Selected = v.stSel.Options[i+1]
	}
	v.stSel.Refresh()
	v.Reload()
}

func (v *View) applyFilter() {
	f := v.searchFilter(workrun.RunFilter{Limit: 200, WorkflowID: v.filter.WorkflowID})
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

// searchFilter adds what the search box holds to f: the text, and the
// statuses whose name in the window's language contains it (the store
// knows statuses only by their English words).
func (v *View) searchFilter(f workrun.RunFilter) workrun.RunFilter {
	q := strings.TrimSpace(v.search.Text)
	f.Text, f.TextStatuses = q, nil
	if q == "" {
		return f
	}
	for _, s := range runStatuses {
		if strings.Contains(strings.ToLower(v.status(s)), strings.ToLower(q)) {
			f.TextStatuses = append(f.TextStatuses, s)
		}
	}
	return f
}

// Reload asks for the run list again (one page of 200; the store pages by
// id).
func (v *View) Reload() {
	if v.OnReload == nil {
		v.msg.SetText(v.l.X("rec.none", "no run records in this window"))
		return
	}
	f := v.filter
	if f.Limit == 0 {
		f.Limit = 200
	}
	v.OnReload(f)
}

// SetCallers names who started the runs a caller of a served workflow
// started (run id → calledByText); the next SetRuns shows them.
func (v *View) SetCallers(c map[string]string) { v.callers = c }

// SetRuns lists runs, or says why they could not be read.
func (v *View) SetRuns(rs []workrun.Run, err error) {
	if err != nil {
		v.msg.SetText(err.Error())
	} else {
		v.runs = rs
		v.sort()
		if len(rs) == 1 {
			v.msg.SetText(fmt.Sprintf(v.l.X("rec.count_one", "%d run"), len(rs)))
		} else {
			v.msg.SetText(fmt.Sprintf(v.l.X("rec.count", "%d runs"), len(rs)))
		}
		v.list.Refresh()
	}
	if v.OnListed != nil {
		v.OnListed()
	}
}

// SetMessage says text beside the list (a read that partly failed).
func (v *View) SetMessage(text string) { v.msg.SetText(text) }

// Message returns what the view says beside the list.
func (v *View) Message() string { return v.msg.Text }
