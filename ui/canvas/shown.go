package canvas

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/document"
	"workrun/workrun"
)

// What the view and the palette show, as the window's tests read it.

// NodeBox is the box drawn for node id (nil when the view draws none).
func (cv *View) NodeBox(id string) fyne.CanvasObject {
	if nb := cv.nodes[id]; nb != nil {
		return nb
	}
	return nil
}

// NodeHandle is node id's output handle, the dot dragged to connect it
// (nil when the view draws no box for id).
func (cv *View) NodeHandle(id string) fyne.CanvasObject {
	if nb := cv.nodes[id]; nb != nil {
		return nb.handle
	}
	return nil
}

// NodeStatus is the run status node id's badge shows.
func (cv *View) NodeStatus(id string) workrun.NodeStatus { return cv.status[id] }

// NodeBadge is the words of node id's status badge.
func (cv *View) NodeBadge(id string) string {
	if nb := cv.nodes[id]; nb != nil {
		return nb.badge.Text
	}
	return ""
}

// NodeWarning is node id's first problem as its box says it, before it is
// shortened to fit ("" for none).
func (cv *View) NodeWarning(id string) string {
	if nb := cv.nodes[id]; nb != nil {
		return nb.fullWarn
	}
	return ""
}

// EdgeCount is the number of edges drawn.
func (cv *View) EdgeCount() int { return len(cv.edges) }

// EdgeDrawn tells how edge k is drawn: its label, and whether it leaves
// its source's error port (drawn in the error colour); ok is false when it
// is not drawn.
func (cv *View) EdgeDrawn(k document.EdgeKey) (label string, errPort, ok bool) {
	for _, e := range cv.edges {
		if e.key == k {
			return e.label.Text, e.errPort, true
		}
	}
	return "", false, false
}

// SetView sets the zoom and the screen position of the workflow origin.
func (cv *View) SetView(zoom float32, offset fyne.Position) {
	cv.zoom, cv.offset = zoom, offset
	cv.layoutAll()
}

// Item is the palette's row that adds a node of kind, nil when the
// palette has none; it is tapped and dragged as the person does.
func (p *Palette) Item(kind string) fyne.CanvasObject {
	for _, it := range p.items {
		if it.kind == kind {
			return it
		}
	}
	return nil
}

// SetFilter types s into the filter box.
func (p *Palette) SetFilter(s string) { p.filter.SetText(s) }

// ShownKinds returns the kinds the palette shows, in order.
func (p *Palette) ShownKinds() []string {
	var out []string
	for _, it := range p.items {
		if it.Visible() {
			out = append(out, it.kind)
		}
	}
	return out
}

// Filter is the palette's filter box; Enter in it adds the first kind shown.
func (p *Palette) Filter() *widget.Entry { return p.filter }
