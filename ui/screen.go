package ui

import (
	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.3/glfw"
)

// Preferred window size; smaller screens get a window that fits them.
var preferredSize = fyne.NewSize(1280, 800)

// screenSize returns the primary monitor's size in pixels. Only the desktop
// driver's main thread may ask (from Lifecycle.SetOnStarted or fyne.Do);
// the test driver has no monitor.
func screenSize() (w, h int, ok bool) {
	m := glfw.GetPrimaryMonitor()
	if m == nil {
		return 0, 0, false
	}
	v := m.GetVideoMode()
	if v == nil {
		return 0, 0, false
	}
	return v.Width, v.Height, true
}

// fitScreen is the window size for a screen of sw×sh pixels at scale: the
// preferred size, or less, leaving room for the desktop's panels and the
// window's frame.
func fitScreen(sw, sh int, scale float32) fyne.Size {
	if scale <= 0 {
		scale = 1
	}
	w := min(preferredSize.Width, float32(sw)/scale)
	h := min(preferredSize.Height, float32(sh)/scale-40)
	return fyne.NewSize(w, h)
}
