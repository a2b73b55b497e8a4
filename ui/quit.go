package ui

import (
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"workrun/workrun"
)

// Quitting. Closing the window, Ctrl+Q and File → Quit all come here, on
// the UI thread. While runs go on the window first says what quitting does
// to them — their remote tasks keep running on their servers and the runs
// can be resumed later (exit never cancels remote work) — and quits only
// when asked. The quit itself ends the window's context before the driver
// stops, so no app goroutine hands it work afterwards (uithread.go).

// noteRun keeps the set of runs the window saw going on (applyBatch).
func (w *Window) noteRun(r *workrun.Run) {
	if w.rs.going == nil {
		w.rs.going = map[string]string{}
	}
	switch r.Status {
	case workrun.RunRunning, workrun.RunStopping:
		w.rs.going[r.ID] = r.WorkflowName
	default:
		delete(w.rs.going, r.ID)
	}
}

// goingRuns names the workflows of the runs that go on, sorted.
func (w *Window) goingRuns() []string {
	var names []string
	for _, n := range w.rs.going {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// requestQuit quits, asking first while runs go on.
func (w *Window) requestQuit() {
	going := w.goingRuns()
	if len(going) == 0 {
		w.leaveAndQuit()
		return
	}
	msg := fmt.Sprintf(w.loc.X("quit.runs_going", "Runs still going: %d (%s).\n\nQuitting does not cancel their remote tasks: those keep running on their servers. The runs are marked interrupted and can be resumed (Resume) the next time you open Workrun. To cancel the remote work, press Stop first."),
		len(going), strings.Join(going, ", "))
	d := dialog.NewConfirm(w.loc.X("quit.title", "Quit Workrun?"), msg, func(ok bool) {
		if ok {
			w.leaveAndQuit()
		}
	}, w.win)
	d.SetConfirmText(w.loc.X("quit.quit", "Quit"))
	d.SetDismissText(w.loc.X("quit.keep", "Keep working"))
	d.Show()
	if w.rs.quitAsked != nil {
		w.rs.quitAsked(msg)
	}
}

// leaveAndQuit saves what changed and quits; when saving fails the window
// stays open once, with the error shown, and the next quit goes anyway.
func (w *Window) leaveAndQuit() {
	if w.rs.quitTried {
		w.quitNow()
		return
	}
	w.rs.quitTried = true
	w.leave(w.quitNow)
}

// quitNow ends the window's context (no goroutine of the app layer hands
// the driver work after this), then the window and the process (exit.go).
func (w *Window) quitNow() {
	w.stop()
	if w.rs.quit != nil {
		w.rs.quit()
		return
	}
	w.exit()
}

// quitItem is File → Quit with Ctrl+Q; Fyne keeps it as the menu's quit
// item (it would otherwise add its own, which quits without asking).
func (w *Window) quitItem(sc fyne.Shortcut) *fyne.MenuItem {
	m := fyne.NewMenuItem(w.loc.X("quit.quit", "Quit"), w.requestQuit)
	m.IsQuit = true
	m.Shortcut = sc
	return m
}
