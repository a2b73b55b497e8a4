package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.3/glfw"

	"workrun/ui/panes"
)

// Preferred window size on a large screen; a screen smaller than
// maximiseBelow gets a window over its whole work area (docs/product.md
// "The window").
var (
	preferredSize = fyne.NewSize(1280, 800)
	maximiseBelow = fyne.NewSize(1600, 1000)
)

// prefWindowSize keeps the size the person left the window at, per screen
// size (screenInfo.key): "W H".
const prefWindowSize = "window.size."

// screenInfo is the primary monitor: its size and its work area (the
// screen less the desktop's panels), in pixels.
type screenInfo struct {
	w, h         int
	workW, workH int
}

// key names the screen's size in the preferences: sizes and dividers are
// remembered per screen size.
func (s screenInfo) key() string { return fmt.Sprintf("%dx%d", s.w, s.h) }

// screenSize returns the primary monitor. Only the desktop driver's main
// thread may ask (from Lifecycle.SetOnStarted or fyne.Do); the test driver
// has no monitor.
func screenSize() (screenInfo, bool) {
	m := glfw.GetPrimaryMonitor()
	if m == nil {
		return screenInfo{}, false
	}
	v := m.GetVideoMode()
	if v == nil {
		return screenInfo{}, false
	}
	s := screenInfo{w: v.Width, h: v.Height, workW: v.Width, workH: v.Height}
	if _, _, ww, wh := m.GetWorkarea(); ww > 0 && wh > 0 {
		s.workW, s.workH = ww, wh
	}
	return s, true
}

// windowSizeFor is the window's size on screen s at scale: the size the
// person left it at on a screen of this size (remembered, "W H"), else the
// whole work area below maximiseBelow, else preferredSize; never larger
// than the work area.
func windowSizeFor(s screenInfo, scale float32, remembered string) fyne.Size {
	if scale <= 0 {
		scale = 1
	}
	work := fyne.NewSize(float32(s.workW)/scale, float32(s.workH)/scale)
	var rw, rh float32
	if n, err := fmt.Sscanf(remembered, "%g %g", &rw, &rh); err == nil && n == 2 && rw >= panes.MinSize.Width && rh >= panes.MinSize.Height {
		return fyne.NewSize(min(rw, work.Width), min(rh, work.Height))
	}
	if float32(s.w) < maximiseBelow.Width || float32(s.h) < maximiseBelow.Height {
		return work
	}
	return fyne.NewSize(min(preferredSize.Width, work.Width), min(preferredSize.Height, work.Height))
}

// fit is a window's or dialog's size: want, or less so it fits the room
// there is (docs/product.md "The window": every dialog fits the screen it
// opens on). A separate window gets the screen's work area, less a margin
// for its frame; a dialog inside the main window gets that window.
func (w *Window) fit(want fyne.Size) fyne.Size {
	room := w.screenArea
	if room.Width <= 0 || room.Height <= 0 {
		room = w.win.Canvas().Size()
	}
	return fyne.NewSize(min(want.Width, max(room.Width-fitMargin, 320)), min(want.Height, max(room.Height-fitMargin, 240)))
}

// fitDialog is fit for a dialog over the main window.
func (w *Window) fitDialog(want fyne.Size) fyne.Size {
	s := w.win.Canvas().Size()
	if s.Width <= 0 || s.Height <= 0 {
		return w.fit(want)
	}
	return fyne.NewSize(min(want.Width, max(s.Width-fitMargin, 320)), min(want.Height, max(s.Height-fitMargin, 240)))
}

// fitMargin leaves room around a window for its frame and the desktop.
const fitMargin = 40
