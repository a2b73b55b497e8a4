package runpanel

import (
	"fmt"
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// The run panel's header lists the recent runs of the workflow whose run it
// shows, to switch between them: a run's history belongs to its workflow.
// The panel only shows the list; the app layer reads it (SetRecent) and
// loads the run picked (OnPickRun).

// RecentLimit is how many of a workflow's newest runs the panel lists.
const RecentLimit = 15

// newRecent makes the header's run picker (in recentBox), hidden until
// SetRecent lists more than one run.
func (p *Panel) newRecent() {
	p.recent = p.newRecentSelect()
	p.recentBox = container.New(recentWidth{p.recent}, p.recent)
	p.recentBox.Hide()
}

func (p *Panel) newRecentSelect() *widget.Select {
	s := widget.NewSelect(nil, nil)
	s.PlaceHolder = p.loc.X("run.recent", "Recent runs")
	s.OnChanged = func(string) {
		i := s.SelectedIndex()
		if i < 0 || i >= len(p.recentRuns) || p.recentRuns[i].ID == p.runID {
			return
		}
		if p.OnPickRun != nil {
			p.OnPickRun(p.recentRuns[i].ID)
		}
	}
	return s
}

// recentWidth gives the run picker the width of its longest option, so a
// run's time, id and status show whole.
type recentWidth struct{ s *widget.Select }

func (l recentWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	m := l.s.MinSize()
	w := float32(0)
	for _, o := range l.s.Options {
		w = max(w, fyne.MeasureText(o, theme.TextSize(), fyne.TextStyle{}).Width)
	}
	// The text's padding on both sides and the drop-down icon.
	return fyne.NewSize(max(m.Width, w+4*theme.InnerPadding()+theme.IconInlineSize()), m.Height)
}

func (l recentWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.Position{})
		o.Resize(size)
	}
}

// SetRecent lists a workflow's recent runs, newest first, with the run
// shown picked. A run shown that is not among them is listed too; with
// fewer than two runs there is nothing to switch to and the picker hides.
func (p *Panel) SetRecent(rs []workrun.Run) {
	if p.runID != "" && !slices.ContainsFunc(rs, func(r workrun.Run) bool { return r.ID == p.runID }) {
		rs = append(slices.Clone(rs), p.run)
	}
	p.recentRuns = nil
	opts := make([]string, 0, len(rs))
	sel := ""
	for _, r := range rs {
		if r.ID == p.runID {
			r = p.run // the panel's copy is the newest (events)
		}
		o := p.recentLine(r)
		p.recentRuns = append(p.recentRuns, r)
		opts = append(opts, o)
		if r.ID == p.runID {
			sel = o
		}
	}
	s := p.recent
	s.Options = opts
	// Show the run shown as picked without the callback (which would load
	// it again).
	changed := s.OnChanged
	s.OnChanged = nil
	s.Selected = sel
	s.OnChanged = changed
	p.recentBox.Hidden = len(opts) < 2
	s.Refresh()
	p.recentBox.Refresh()
}

// recentLine is how the picker names a run: its start (the time of day
// for today's runs), id and status.
func (p *Panel) recentLine(r workrun.Run) string {
	when := ""
	if t := r.CreatedAt.Local(); !t.IsZero() {
		layout := "01-02 15:04:05"
		if y, m, d := t.Date(); y == time.Now().Year() && m == time.Now().Month() && d == time.Now().Day() {
			layout = "15:04:05"
		}
		when = t.Format(layout) + " · "
	}
	return fmt.Sprintf("%s%s · %s", when, p.words.ShortID(r.ID), p.words.Status(string(r.Status)))
}
