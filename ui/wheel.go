package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// wheelStep is how much one wheel event scrolls a form pane, relative to
// what the driver reports (25 px a notch on Linux and Windows): a notch
// moves a form by about three rows, as in a browser, not by a third of one.
const wheelStep = 2

// wheelOver lays a wheel layer over s: the mouse wheel scrolls s wherever
// the pointer is, also over an entry or a select. Fyne hands a wheel event
// to the topmost scrollable object under the pointer, and every entry holds
// a scroller of its own that keeps the event although it has nothing to
// scroll, so over most of a form the wheel did nothing (docs/product.md
// "The window"). The layer only takes wheel events: taps, drags, hovers
// and the keyboard reach the widgets under it.
func wheelOver(s *container.Scroll) fyne.CanvasObject {
	l := &wheelLayer{scroll: s}
	l.ExtendBaseWidget(l)
	return container.NewStack(s, l)
}

type wheelLayer struct {
	widget.BaseWidget
	scroll *container.Scroll
}

func (l *wheelLayer) Scrolled(ev *fyne.ScrollEvent) {
	e := *ev
	e.Scrolled = fyne.NewDelta(ev.Scrolled.DX*wheelStep, ev.Scrolled.DY*wheelStep)
	l.scroll.Scrolled(&e)
}

func (l *wheelLayer) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(&fyne.Container{})
}

// MinSize: the layer asks for nothing; the pane decides its size.
func (l *wheelLayer) MinSize() fyne.Size { return fyne.Size{} }
