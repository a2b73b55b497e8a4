package ui

import (
	"encoding/json"
	"fmt"
	"image/color"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// RecordsView lists past runs in columns — workflow, status, started,
// duration, reason — filterable by workflow and status, searchable (workflow
// name, run id, status, failure reason; the store searches, so older runs
// are found too) and sorted by any column (click its heading; again to
// reverse). Each row opens its run's workflow in the editor. A finished run opens
// read-only with its timeline; one that can still change opens in the main
// run panel (docs/product.md W5). The view reads nothing itself: it asks
// for a list (OnReload) and for a run to be opened (OnOpen), and the app
// layer hands it the runs (SetRuns).
type RecordsView struct {
	// callers names who started runs through `workrun serve` (SetCallers).
	callers map[string]string
	// OnReload asks for the runs that match f; the answer comes to SetRuns.
	OnReload func(f workrun.RunFilter)
	// OnOpen reports that the person picked run r.
	OnOpen func(r workrun.Run)
	// OnEdit asks to open run r's workflow in the editor (nil: no button).
	OnEdit func(r workrun.Run)
	// loaded, when set, is called after SetRuns showed a list (tests wait
	// on it).
	loaded func()

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

// NewRecordsView makes the run records view; it lists nothing until SetRuns.
func NewRecordsView() *RecordsView {
	v := &RecordsView{msg: widget.NewLabel(""), col: colStarted, desc: true}
	v.wfSel = newSelect(processWords(), nil, func(string) { v.applyFilter() })
	v.wfSel.PlaceHolder = lang.X("rec.any_workflow", "any workflow")
	opts := []string{lang.X("rec.any_status", "any status")}
	for _, s := range runStatuses {
		opts = append(opts, StatusLabel(string(s)))
	}
	v.stSel = newSelect(processWords(), opts, func(string) { v.applyFilter() })
	v.stSel.PlaceHolder = opts[0]
	v.search = widget.NewEntry()
	v.search.SetPlaceHolder(lang.X("rec.search", "Search: workflow, run id, status, reason"))
	v.search.OnChanged = func(string) { v.applyFilter() }
	editLabel := lang.X("rec.open_editor", "Open in editor")
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
			cells := v.row(i)
			for c, obj := range row.Objects[0].(*fyne.Container).Objects {
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
		if i < len(v.runs) && v.OnOpen != nil {
			v.OnOpen(v.runs[i])
		}
		v.list.UnselectAll()
	}
	names := [numCols]string{lang.X("rec.col_workflow", "Workflow"), lang.X("rec.col_status", "Status"),
		lang.X("rec.col_started", "Started"), lang.X("rec.col_duration", "Duration"), lang.X("rec.col_reason", "Reason")}
	var heads []fyne.CanvasObject
	for c := range numCols {
		b := widget.NewButton(names[c], func() { v.sortBy(c) })
		b.Alignment = widget.ButtonAlignLeading
		b.Importance = widget.LowImportance
		v.heads = append(v.heads, b)
		heads = append(heads, b)
	}
	v.markSort()
	refresh := widget.NewButton(lang.X("rec.refresh", "Refresh"), v.Reload)
	bar := container.NewBorder(nil, nil, container.NewHBox(widget.NewLabel(lang.X("rec.filter", "Filter:")), v.wfSel, v.stSel),
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
func (v *RecordsView) Object() fyne.CanvasObject { return v.root }

// row returns the cells of row i as shown: workflow, status, started,
// duration, reason.
func (v *RecordsView) row(i int) [numCols]string {
	r := v.runs[i]
	name := r.WorkflowName
	if name == "" {
		name = r.Workflow.Name
	}
	d := ""
	if dur := runDuration(r); dur > 0 {
		d = formatDuration(dur)
	}
	if c := v.callers[r.ID]; c != "" {
		name += " · " + c
	}
	return [numCols]string{name, StatusLabel(string(r.Status)), r.CreatedAt.Local().Format("2006-01-02 15:04:05"), d, HumanError(processWords(), r.Reason)}
}

func runDuration(r workrun.Run) time.Duration {
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
func (v *RecordsView) sortBy(c int) {
	if c == v.col {
		v.desc = !v.desc
	} else {
		v.col, v.desc = c, c == colStarted || c == colDuration
	}
	v.sort()
	v.markSort()
	v.list.Refresh()
}

func (v *RecordsView) markSort() {
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

func (v *RecordsView) sort() {
	key := func(r workrun.Run) string {
		switch v.col {
		case colWorkflow:
			return strings.ToLower(r.WorkflowName)
		case colStatus:
			return StatusLabel(string(r.Status))
		case colReason:
			return HumanError(processWords(), r.Reason)
		}
		return ""
	}
	slices.SortStableFunc(v.runs, func(a, b workrun.Run) int {
		var c int
		switch v.col {
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

func (v *RecordsView) applyFilter() {
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
func (v *RecordsView) searchFilter(f workrun.RunFilter) workrun.RunFilter {
	q := strings.TrimSpace(v.search.Text)
	f.Text, f.TextStatuses = q, nil
	if q == "" {
		return f
	}
	for _, s := range runStatuses {
		if strings.Contains(strings.ToLower(StatusLabel(string(s))), strings.ToLower(q)) {
			f.TextStatuses = append(f.TextStatuses, s)
		}
	}
	return f
}

// Reload asks for the run list again (one page of 200; the store pages by
// id).
func (v *RecordsView) Reload() {
	if v.OnReload == nil {
		v.msg.SetText(lang.X("rec.none", "no run records in this window"))
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
func (v *RecordsView) SetCallers(c map[string]string) { v.callers = c }

// SetRuns lists runs, or says why they could not be read.
func (v *RecordsView) SetRuns(rs []workrun.Run, err error) {
	if err != nil {
		v.msg.SetText(err.Error())
	} else {
		v.runs = rs
		v.sort()
		v.msg.SetText(countText(processWords(), len(rs), "rec.count", "%d run", "%d runs"))
		v.list.Refresh()
	}
	if v.loaded != nil {
		v.loaded()
	}
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
	// caller says who started the run through `workrun serve` ("" a person).
	caller string
}

// recordWindow shows a past run read-only in its own window of a: its
// canvas with node statuses, its run panel, its timeline and tasks (a
// remote task panel already filled).
//
// files (may be nil) lets its panel open and save file values.
func recordWindow(a fyne.App, size fyne.Size, rec runRecord, tasks *RemotePanel, openInEditor func(), files func(*RunPanel, fyne.Window)) fyne.Window {
	r := rec.run
	title := fmt.Sprintf("%s — %s (%s)", r.WorkflowName, shortID(r.ID), lang.X("rec.readonly", "read-only"))
	if rec.caller != "" {
		title += " · " + rec.caller
	}
	win := a.NewWindow(title)
	panel := NewRunPanel(processWords(), true)
	cv := NewCanvasView(NewDocument(r.Workflow), true)
	panel.OnStatus = cv.SetStatus
	if files != nil {
		files(panel, win)
	}
	panel.Load(r, rec.nodes, rec.msgs)
	panel.SetCaller(r.ID, rec.caller)
	for _, n := range rec.nodes {
		cv.SetStatus(n.NodeID, shownStatus(n))
	}
	tl := widget.NewLabel(timeline(r, rec.nodes))
	tl.Wrapping = fyne.TextWrapWord
	tabs := container.NewAppTabs(
		container.NewTabItem(lang.X("tab.run", "Run"), panel.Object()),
		container.NewTabItem(lang.X("rec.timeline", "Timeline"), container.NewVScroll(tl)),
		container.NewTabItem(lang.X("tab.remote", "Remote tasks"), tasks.Object()),
	)
	split := container.NewVSplit(cv, tabs)
	// Closable without a window manager's frame: a Close button, Esc and
	// Ctrl+W.
	closeB := widget.NewButton(lang.X("close", "Close")+"  (Esc)", win.Close)
	bar := container.NewHBox(layout.NewSpacer(), closeB)
	if openInEditor != nil {
		bar.Objects = append([]fyne.CanvasObject{widget.NewButton(lang.X("rec.open_editor", "Open in editor"), func() {
			openInEditor()
			win.Close()
		})}, bar.Objects...)
	}
	win.SetContent(container.NewBorder(nil, bar, nil, nil, split))
	closeKeys(win)
	win.Resize(size)
	win.Show()
	cv.Fit()
	return win
}

// timeline lists a run's nodes in the order they started, with durations,
// inputs and outputs.
func timeline(r workrun.Run, nrs []workrun.NodeRun) string {
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
	titles := map[string]string{}
	for _, n := range r.Workflow.Nodes {
		if n.Title != "" {
			titles[n.ID] = n.Title
		}
	}
	for i, n := range ns {
		name := n.NodeID
		if t := titles[n.NodeID]; t != "" {
			name = t
		}
		line := fmt.Sprintf("%d. %s (%s) · %s", i+1, name, KindLabel(processWords(), n.Type), StatusLabel(string(n.Status)))
		if !n.StartedAt.IsZero() {
			line += " · " + n.StartedAt.Local().Format("15:04:05.000")
		}
		if !n.StartedAt.IsZero() && !n.EndedAt.IsZero() {
			line += " · " + formatDuration(n.EndedAt.Sub(n.StartedAt))
		}
		fmt.Fprintf(&b, "\n%s\n", line)
		// Values as "name: value" lines, text as it is: not one JSON object.
		for _, part := range []struct {
			head string
			vals workrun.Values
		}{{lang.X("rec.inputs", "inputs"), n.Inputs}, {lang.X("rec.outputs", "outputs"), n.Outputs}} {
			if len(part.vals) == 0 {
				continue
			}
			fmt.Fprintf(&b, "   %s:\n", part.head)
			for _, k := range slices.Sorted(maps.Keys(part.vals)) {
				fmt.Fprintf(&b, "      %s: %s\n", k, timelineValue(part.vals[k]))
			}
		}
		if n.Error != "" {
			fmt.Fprintf(&b, "   %s: %s\n", lang.X("rec.error", "error"), n.Error)
		}
	}
	return b.String()
}

// timelineValue is one value on one line: text as it is (its line breaks
// shown as ⏎), a number or boolean plainly, anything else as compact JSON;
// capped at 400 bytes.
func timelineValue(v any) string {
	s, ok := v.(string)
	if !ok {
		return compactJSON(v)
	}
	s = strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", " ⏎ ")
	if len(s) > 400 {
		cut := 400
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
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

// closeKeys makes Esc and Ctrl+W close a secondary window.
func closeKeys(win fyne.Window) {
	win.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if ev.Name == fyne.KeyEscape {
			win.Close()
		}
	})
	win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyW, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { win.Close() })
}
