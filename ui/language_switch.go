package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/panes"
)

// A language switch builds the window's widgets anew (rebuildKeeping).
// What the person arranged stays as it was: the dividers, the canvas pan,
// the selected run tab and how far each pane was scrolled
// (docs/product.md, "Languages").

// viewKept is the view of the window before a rebuild.
type viewKept struct {
	panes  *panes.Panes
	pan    fyne.Position
	tab    int
	scroll []fyne.CanvasObject // the scrollers of the old body, in walk order
}

// keepView notes the view before build replaces the widgets.
func (w *Window) keepView() viewKept {
	v := viewKept{panes: w.panes, pan: w.cv.Offset(), tab: -1}
	if w.tabs != nil {
		v.tab = w.tabs.SelectedIndex()
	}
	v.scroll = scrollers(w.viewRoots())
	return v
}

// restoreView puts the kept view back on the rebuilt widgets. The pan is
// set after the zoom (SetZoom moves it around the centre).
func (w *Window) restoreView(v viewKept) {
	if v.panes != nil {
		w.panes.KeepSizes(v.panes)
	}
	if v.tab >= 0 && v.tab < len(w.tabs.Items) {
		w.tabs.SelectIndex(v.tab)
	}
	w.cv.SetOffset(v.pan)
	w.renameUntitled() // new_names.go
	// The new panes lay out before their scrollers take the old offsets:
	// a scroller clamps an offset to its content, which has no size
	// before its first layout.
	w.panes.Refresh()
	now := scrollers(w.viewRoots())
	for i := 0; i < len(now) && i < len(v.scroll); i++ {
		copyScroll(v.scroll[i], now[i])
	}
}

// viewRoots are the scrolled panes: the inspector and the run tabs.
func (w *Window) viewRoots() []fyne.CanvasObject {
	var roots []fyne.CanvasObject
	if w.inspScroll != nil {
		roots = append(roots, w.inspScroll)
	}
	if w.tabs != nil {
		for _, t := range w.tabs.Items {
			roots = append(roots, t.Content)
		}
	}
	return roots
}

// scrollers lists the scroll containers, splits and lists under roots in
// a fixed walk order. A rebuild makes the same tree with other words, so
// the i-th scroller before it is the i-th after it. Widgets of their own
// are not opened (their parts are theirs), except the run panel's.
func scrollers(roots []fyne.CanvasObject) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch t := o.(type) {
		case *container.Scroll:
			out = append(out, t)
			walk(t.Content)
		case *container.Split:
			out = append(out, t)
			walk(t.Leading)
			walk(t.Trailing)
		case *widget.List:
			out = append(out, t)
		case *fyne.Container:
			for _, c := range t.Objects {
				walk(c)
			}
		}
	}
	for _, r := range roots {
		walk(r)
	}
	return out
}

// copyScroll gives to the offset from had, when both are the same kind.
func copyScroll(had, to fyne.CanvasObject) {
	switch h := had.(type) {
	case *container.Scroll:
		if t, ok := to.(*container.Scroll); ok {
			t.ScrollToOffset(h.Offset)
		}
	case *container.Split:
		if t, ok := to.(*container.Split); ok && t.Horizontal == h.Horizontal {
			t.SetOffset(h.Offset)
		}
	case *widget.List:
		if t, ok := to.(*widget.List); ok {
			t.ScrollToOffset(h.GetScrollOffset())
		}
	}
}
