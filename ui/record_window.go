package ui

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/canvas"
	"workrun/ui/document"
	"workrun/ui/remotetasks"
	"workrun/ui/runpanel"
	"workrun/workrun"
)

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
func recordWindow(loc workrun.Localizer, a fyne.App, size fyne.Size, rec runRecord, tasks *remotetasks.Panel, openInEditor func(), files func(*runpanel.Panel, fyne.Window)) fyne.Window {
	r := rec.run
	title := recordTitle(loc, r)
	if rec.caller != "" {
		title += " · " + rec.caller
	}
	win := a.NewWindow(title)
	panel := newRunPanel(loc, true)
	cv := canvas.New(document.NewDocument(r.Workflow), true, loc, canvasWording(loc))
	panel.OnStatus = cv.SetStatus
	if files != nil {
		files(panel, win)
	}
	panel.Load(r, rec.nodes, rec.msgs)
	panel.SetCaller(r.ID, rec.caller)
	for _, n := range rec.nodes {
		cv.SetStatus(n.NodeID, runpanel.ShownStatus(n))
	}
	tl := widget.NewLabel(timeline(loc, r, rec.nodes))
	tl.Wrapping = fyne.TextWrapWord
	tabs := container.NewAppTabs(
		container.NewTabItem(loc.X("tab.run", "Run"), panel.Object()),
		container.NewTabItem(loc.X("rec.timeline", "Timeline"), container.NewVScroll(tl)),
		container.NewTabItem(loc.X("tab.remote", "Remote tasks"), tasks.Object()),
	)
	split := container.NewVSplit(cv, tabs)
	// Closable without a window manager's frame: a Close button, Esc and
	// Ctrl+W.
	closeB := widget.NewButton(loc.X("close", "Close")+"  (Esc)", win.Close)
	bar := container.NewHBox(layout.NewSpacer(), closeB)
	if openInEditor != nil {
		bar.Objects = append([]fyne.CanvasObject{widget.NewButton(loc.X("rec.open_editor", "Open in editor"), func() {
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
func timeline(loc workrun.Localizer, r workrun.Run, nrs []workrun.NodeRun) string {
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
	fmt.Fprintf(&b, "%s · %s · %s\n", r.WorkflowName, statusLabel(loc, string(r.Status)), r.CreatedAt.Local().Format("2006-01-02 15:04:05"))
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
		line := fmt.Sprintf("%d. %s (%s) · %s", i+1, name, KindLabel(loc, n.Type), statusLabel(loc, string(n.Status)))
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
		}{{loc.X("rec.inputs", "inputs"), n.Inputs}, {loc.X("rec.outputs", "outputs"), n.Outputs}} {
			if len(part.vals) == 0 {
				continue
			}
			fmt.Fprintf(&b, "   %s:\n", part.head)
			for _, k := range slices.Sorted(maps.Keys(part.vals)) {
				fmt.Fprintf(&b, "      %s: %s\n", k, timelineValue(loc, part.vals[k]))
			}
		}
		if n.Error != "" {
			fmt.Fprintf(&b, "   %s: %s\n", loc.X("rec.error", "error"), n.Error)
		}
	}
	return b.String()
}

// timelineValue is one value on one line: text as it is (its line breaks
// shown as ⏎), a number or boolean plainly, a list or object in words as
// the run panel reads JSON message arguments (readableJSON), an empty one
// as "none"; capped at 400 bytes.
func timelineValue(loc workrun.Localizer, v any) string {
	s, ok := v.(string)
	if !ok {
		b, err := json.Marshal(v)
		if err != nil {
			return capLine(fmt.Sprint(v))
		}
		switch t := string(b); t {
		case "null", "[]", "{}":
			return loc.X("rec.none_value", "none")
		default:
			r, _ := readableJSON(loc, t) // readable.go; a number or boolean stays as JSON writes it
			return capLine(r)
		}
	}
	return capLine(strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", " ⏎ "))
}

// capLine cuts s to at most 400 bytes on a character boundary.
func capLine(s string) string {
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

// recordTitle names a run's record window: its workflow, its short id and
// that it is read-only (Chinese takes the full-width brackets).
func recordTitle(loc workrun.Localizer, r workrun.Run) string {
	return fmt.Sprintf(loc.X("rec.title", "%s — %s (read-only)"), r.WorkflowName, shortID(r.ID))
}
