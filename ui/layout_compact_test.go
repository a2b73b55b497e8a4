package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// TestPanes_ListGivesWayWhenCompact: below CompactWidth the workflow list
// is away until the person opens it (Ctrl+L / the toolbar / View); that
// choice does not touch the remembered wide-window state, and widening
// the window brings that state back.
func TestPanes_ListGivesWayWhenCompact(t *testing.T) {
	a := test.NewTempApp(t)
	SetupLanguage("en")
	prefs := a.Preferences()
	w := NewWindow(a, Deps{})
	defer func() { w.Close(); w.win.Close() }()
	w.win.Resize(fyne.NewSize(1440, 900))
	w.win.Show()
	if l, _, _, _ := w.panes.widths(); l != DefaultListWidth || !w.panes.listShown() {
		t.Fatalf("at 1440 wide the list is %v wide (shown %v), want %v", l, w.panes.listShown(), DefaultListWidth)
	}
	_, wideCentre, _, _ := w.panes.widths()

	w.win.Resize(fyne.NewSize(1024, 700))
	l, centre, insp, _ := w.panes.widths()
	if l != 0 || w.panes.listShown() {
		t.Fatalf("at 1024 wide the list still takes %v", l)
	}
	if want := 1024 - float32(DefaultInspectorWidth) - dividerSize; centre < want-16 { // the window pads its content
		t.Errorf("at 1024 wide the canvas column is %v (inspector %v), want ~%v: the list's room goes to the canvas", centre, insp, want)
	}

	// The person opens it: it shows as in a wide window; the wide choice is
	// not written over.
	w.win.Canvas().(fyne.Shortcutable).TypedShortcut(w.binding("toggle_list").keys[0])
	if l, _, _, _ := w.panes.widths(); l != DefaultListWidth || !w.panes.listShown() {
		t.Errorf("Ctrl+L at 1024 wide: list %v wide (shown %v), want %v", l, w.panes.listShown(), DefaultListWidth)
	}
	w.toggleList()
	if l, _, _, _ := w.panes.widths(); l != 0 || w.panes.listShown() {
		t.Errorf("closed again at 1024 wide, the list takes %v", l)
	}
	w.toggleList() // open while narrow: must not leak into the wide state below
	if !prefs.BoolWithFallback(prefListOn, true) {
		t.Errorf("toggling in the narrow window wrote %s = false", prefListOn)
	}

	// Wide again: the remembered (shown) state is back.
	w.win.Resize(fyne.NewSize(1440, 900))
	if l, c, _, _ := w.panes.widths(); l != DefaultListWidth || c != wideCentre {
		t.Errorf("back at 1440 wide: list %v canvas %v, want %v and %v", l, c, DefaultListWidth, wideCentre)
	}
	// Hidden in the wide window is remembered; narrowing and opening it
	// there does not show it again when wide.
	w.toggleList()
	if prefs.BoolWithFallback(prefListOn, true) {
		t.Errorf("hiding the list in a wide window was not remembered")
	}
	w.win.Resize(fyne.NewSize(1024, 700))
	w.toggleList()
	if !w.panes.listShown() {
		t.Error("opened at 1024 wide, the list is not shown")
	}
	if prefs.BoolWithFallback(prefListOn, true) {
		t.Errorf("opening the list at 1024 wide wrote %s = true", prefListOn)
	}
	w.win.Resize(fyne.NewSize(1440, 900))
	if w.panes.listShown() {
		t.Error("back at 1440 wide the list shows, but the person hid it there")
	}
	// Narrowing again starts with the list away, whatever was open before.
	w.toggleList()
	w.win.Resize(fyne.NewSize(1024, 700))
	if w.panes.listShown() {
		t.Error("narrowed again, the list shows")
	}
}
