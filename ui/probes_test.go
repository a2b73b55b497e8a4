package ui

import (
	"slices"

	"fyne.io/fyne/v2"

	"workrun/ui/panes"
)

// What the tests read of the window and its widgets: none of it is in the
// shipped binary.

// paneWidths returns the laid-out widths of list, canvas column and
// inspector (0 for a collapsed pane) and the height of the bottom pane.
func paneWidths(p *panes.Panes) (list, centre, insp, bottom float32) {
	l, c, i, b := p.Parts()
	return l.Size().Width * vis(l), c.Size().Width, i.Size().Width * vis(i), b.Size().Height
}

// The panes and dividers, by name.
func bottomPane(p *panes.Panes) fyne.CanvasObject { _, _, _, b := p.Parts(); return b }
func centrePane(p *panes.Panes) fyne.CanvasObject { _, c, _, _ := p.Parts(); return c }
func inspPane(p *panes.Panes) fyne.CanvasObject   { _, _, i, _ := p.Parts(); return i }
func bottomDivider(p *panes.Panes) *panes.Divider { _, _, b := p.Dividers(); return b }
func inspDivider(p *panes.Panes) *panes.Divider   { _, i, _ := p.Dividers(); return i }
func listW(p *panes.Panes) float32                { l, _, _ := p.Sizes(); return l }
func inspW(p *panes.Panes) float32                { _, i, _ := p.Sizes(); return i }
func bottomH(p *panes.Panes) float32              { _, _, b := p.Sizes(); return b }

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
