package ui

import (
	"fmt"
	"slices"

	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// The run panel's header lists the recent runs of the workflow whose run it
// shows, to switch between them: a run's history belongs to its workflow.
// The panel only shows the list; the app layer reads it (SetRecent) and
// loads the run picked (OnPickRun).

// recentLimit is how many of a workflow's newest runs the panel lists.
const recentLimit = 15

// newRecentSelect makes the header's run picker, hidden until SetRecent
// lists more than one run.
func (p *RunPanel) newRecentSelect() *widget.Select {
	s := widget.NewSelect(nil, nil)
	s.PlaceHolder = lang.X("run.recent", "Recent runs")
	s.OnChanged = func(string) {
		i := s.SelectedIndex()
		if i < 0 || i >= len(p.recentRuns) || p.recentRuns[i].ID == p.runID {
			return
		}
		if p.OnPickRun != nil {
			p.OnPickRun(p.recentRuns[i].ID)
		}
	}
	s.Hide()
	return s
}

// SetRecent lists a workflow's recent runs, newest first, with the run
// shown picked. A run shown that is not among them is listed too; with
// fewer than two runs there is nothing to switch to and the picker hides.
func (p *RunPanel) SetRecent(rs []workrun.Run) {
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
		o := recentLine(r)
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
	s.Hidden = len(opts) < 2
	s.Refresh()
}

// recentLine is how the picker names a run: its start, id and status.
func recentLine(r workrun.Run) string {
	when := ""
	if !r.CreatedAt.IsZero() {
		when = r.CreatedAt.Local().Format("01-02 15:04:05") + " · "
	}
	return fmt.Sprintf("%s%s · %s", when, shortID(r.ID), StatusLabel(string(r.Status)))
}
