package canvas

import "fyne.io/fyne/v2"

// TappedSecondary (a right click) selects the node and asks for its menu
// (View.OnNodeMenu): "Run from here", "Test this node".
func (nb *nodeBox) TappedSecondary(ev *fyne.PointEvent) {
	if !nb.cv.doc.IsSelected(nb.id) {
		nb.cv.doc.Select(nb.id, false)
		if nb.cv.OnSelect != nil {
			nb.cv.OnSelect()
		}
	}
	if nb.cv.OnNodeMenu != nil && !nb.cv.readOnly {
		nb.cv.OnNodeMenu(nb.id, ev.AbsolutePosition)
	}
}
