package ui

import (
	"fmt"

	"workrun/workrun"
)

// statusLabel is the name of a run or node status in loc's language.
func statusLabel(loc workrun.Localizer, s string) string {
	if s == "" {
		return ""
	}
	if s == string(workrun.NodeHandled) {
		return uiText(loc, msgStatusHandled)
	}
	if s == string(statusWaiting) {
		return qText(loc, msgQStatus) // question.go
	}
	return loc.X("status."+s, s)
}

// statusLine is what the status bar says about a condition rather than an
// event: the line goes when the condition no longer holds, so the bar never
// keeps saying something that stopped being true (a "Not applied" value
// the person has since typed again, a "Fix the marked value first" that
// was fixed).
type statusLine struct {
	holds func() bool // nil: the line is an event and stays until replaced
}

// setStatusWhile shows text in the status bar for as long as holds().
func (w *Window) setStatusWhile(text string, holds func() bool) {
	w.setStatus(text)
	w.holds = holds
}

// recheckStatus clears the status bar when the condition its line states
// has ended; the window calls it on every document change.
func (w *Window) recheckStatus() {
	if w.holds != nil && !w.holds() {
		w.holds = nil
		w.status.SetText("")
	}
}

// fixFirst says, while it holds, that the inspector's marked value keeps
// the run from starting.
func (w *Window) fixFirst(p string) {
	w.setStatusWhile(fmt.Sprintf(w.loc.X("wf.fix_first", "Fix the marked value first: %s"), p),
		func() bool { return w.insp.Pending() != "" })
}
