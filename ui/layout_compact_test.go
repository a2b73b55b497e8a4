package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"workrun/ui/panes"
)

// TestPanes_ListGivesWayWhenCompact: below panes.CompactWidth the workflow list
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
	if l, _, _, _ := paneWidths(w.panes); l != panes.DefaultListWidth || !w.panes.ListShown() {
		t.Fatalf("at 1440 wide the list is %v wide (shown %v), want %v", l, w.panes.ListShown(), panes.DefaultListWidth)
	}
	_, wideCentre, _, _ := paneWidths(w.panes)

	w.win.Resize(fyne.NewSize(1024, 700))
	l, centre, insp, _ := paneWidths(w.panes)
	if l != 0 || w.panes.ListShown() {
		t.Fatalf("at 1024 wide the list still takes %v", l)
	}
	if want := 1024 - float32(panes.DefaultInspectorWidth) - panes.DividerSize; centre < want-16 { // the window pads its content
		t.Errorf("at 1024 wide the canvas column is %v (inspector %v), want ~%v: the list's room goes to the canvas", centre, insp, want)
	}

	// The person opens it: it shows as in a wide window; the wide choice is
	// not written over.
	w.win.Canvas().(fyne.Shortcutable).TypedShortcut(w.binding("toggle_list").keys[0])
	if l, _, _, _ := paneWidths(w.panes); l != panes.DefaultListWidth || !w.panes.ListShown() {
		t.Errorf("Ctrl+L at 1024 wide: list %v wide (shown %v), want %v", l, w.panes.ListShown(), panes.DefaultListWidth)
	}
	w.toggleList()
	if l, _, _, _ := paneWidths(w.panes); l != 0 || w.panes.ListShown() {
		t.Errorf("closed again at 1024 wide, the list takes %v", l)
	}
	w.toggleList() // open while narrow: must not leak into the wide state below
	if !prefs.BoolWithFallback(panes.PrefListShown, true) {
		t.Errorf("toggling in the narrow window wrote %s = false", panes.PrefListShown)
	}

	// Wide again: the remembered (shown) state is back.
	w.win.Resize(fyne.NewSize(1440, 900))
	if l, c, _, _ := paneWidths(w.panes); l != panes.DefaultListWidth || c != wideCentre {
		t.Errorf("back at 1440 wide: list %v canvas %v, want %v and %v", l, c, panes.DefaultListWidth, wideCentre)
	}
	// Hidden in the wide window is remembered; narrowing and opening it
	// there does not show it again when wide.
	w.toggleList()
	if prefs.BoolWithFallback(panes.PrefListShown, true) {
		t.Errorf("hiding the list in a wide window was not remembered")
	}
	w.win.Resize(fyne.NewSize(1024, 700))
	w.toggleList()
	if !w.panes.ListShown() {
		t.Error("opened at 1024 wide, the list is not shown")
	}
	if prefs.BoolWithFallback(panes.PrefListShown, true) {
		t.Errorf("opening the list at 1024 wide wrote %s = true", panes.PrefListShown)
	}
	w.win.Resize(fyne.NewSize(1440, 900))
	if w.panes.ListShown() {
		t.Error("back at 1440 wide the list shows, but the person hid it there")
	}
	// Narrowing again starts with the list away, whatever was open before.
	w.toggleList()
	w.win.Resize(fyne.NewSize(1024, 700))
	if w.panes.ListShown() {
		t.Error("narrowed again, the list shows")
	}
}
