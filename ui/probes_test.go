package ui

import (
	"slices"

	"fyne.io/fyne/v2"
)

// What the tests read of the window and its widgets: none of it is in the
// shipped binary.

// listShown reports whether the workflow list pane is open.
func (p *Panes) listShown() bool { return p.ListShown() }

// widths returns the laid-out widths of list, canvas column and inspector
// (0 for a collapsed pane) and the height of the bottom pane.
func (p *Panes) widths() (list, centre, insp, bottom float32) {
	return p.list.Size().Width * vis(p.list), p.centre.Size().Width, p.insp.Size().Width * vis(p.insp), p.bottom.Size().Height
}

func vis(o fyne.CanvasObject) float32 {
	if o.Visible() {
		return 1
	}
	return 0
}

// Problems returns the current validation problems.
func (w *Window) Problems() []Problem { return slices.Clone(w.probs) }

// RunEnabled reports whether the Run button is enabled.
func (w *Window) RunEnabled() bool { return !w.runBtn.Disabled() }
