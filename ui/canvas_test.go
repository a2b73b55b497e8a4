package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"github.com/google/go-cmp/cmp"

	"workrun/remotecall"
	"workrun/ui/document"
	"workrun/workrun"
)

// newTestWindow opens the real window on the test driver with deps.
func newTestWindow(t *testing.T, d Deps) *Window {
	t.Helper()
	a := test.NewTempApp(t)
	SetupLanguage("en")
	if d.Kinds == nil {
		d.Kinds = workrun.Describe(realKinds()...)
	}
	if d.CheckOrigin == nil {
		d.CheckOrigin = remotecall.CheckCredentialOrigin // as main.go wires it
	}
	w := NewWindow(a, d)
	w.win.Resize(fyne.NewSize(1280, 800))
	w.win.Show()
	t.Cleanup(func() { w.Close(); w.win.Close() })
	return w
}

// centreOf returns the centre of a node box in window coordinates.
func centreOf(w *Window, id string) fyne.Position {
	nb := w.cv.NodeBox(id)
	abs := fyne.CurrentApp().Driver().AbsolutePositionForObject(nb)
	return abs.AddXY(nb.Size().Width/2, nb.Size().Height/2)
}

func handleOf(w *Window, id string) fyne.Position {
	h := w.cv.NodeHandle(id)
	abs := fyne.CurrentApp().Driver().AbsolutePositionForObject(h)
	return abs.AddXY(h.Size().Width/2, h.Size().Height/2)
}

func shortcut(w *Window, s fyne.Shortcut) {
	w.win.Canvas().(fyne.Shortcutable).TypedShortcut(s)
}

func edgesOf(d *document.Document) []workrun.Edge { return d.Workflow().Edges }

func nodeIDs(d *document.Document) []string {
	var ids []string
	for _, n := range d.Workflow().Nodes {
		ids = append(ids, n.ID)
	}
	return ids
}

// TestCanvasWidget_W1 edits through the widgets as a person would: palette
// taps, dragging from an output handle, tapping, keyboard shortcuts.
func TestCanvasWidget_W1(t *testing.T) {
	w := newTestWindow(t, Deps{})
	w.newWorkflow()
	c := w.win.Canvas()

	// Add from the palette by tapping its buttons.
	var set, out fyne.CanvasObject
	for _, o := range test.LaidOutObjects(w.win.Content()) {
		switch o {
		case w.palette.Item("set"):
			set = o
		case w.palette.Item("output"):
			out = o
		}
	}
	if set == nil || out == nil {
		t.Fatal("palette items not found in the window")
	}
	test.Tap(set.(fyne.Tappable))
	test.Tap(out.(fyne.Tappable))
	if diff := cmp.Diff([]string{"start", "set", "output"}, nodeIDs(w.doc)); diff != "" {
		t.Fatalf("nodes after palette taps (-want +got):\n%s", diff)
	}
	// Spread them out so that they do not overlap.
	place := func(id string, x, y float32) {
		p := w.doc.Position(id)
		w.doc.MoveNodes([]string{id}, x-p.X, y-p.Y)
	}
	place("start", 10, 10)
	place("set", 220, 10)
	place("output", 220, 200)
	w.cv.SetView(1, fyne.Position{})

	// Connect by dragging from start's handle onto set, then set onto output.
	drag := func(from, to string) {
		h, tgt := handleOf(w, from), centreOf(w, to)
		test.Drag(c, h, tgt.X-h.X, tgt.Y-h.Y)
	}
	drag("start", "set")
	drag("set", "output")
	want := []workrun.Edge{{From: "start", To: "set"}, {From: "set", To: "output"}}
	if diff := cmp.Diff(want, edgesOf(w.doc)); diff != "" {
		t.Fatalf("edges after dragging handles (-want +got):\n%s", diff)
	}

	// Drag a node: it moves by the drag, as one undo step.
	before := w.doc.Position("output")
	test.Drag(c, centreOf(w, "output").AddXY(0, -15), 40, 25)
	if got := w.doc.Position("output"); got.X != before.X+40 || got.Y != before.Y+25 {
		t.Fatalf("after drag output at %v, want %v moved by (40,25)", got, before)
	}
	shortcut(w, &fyne.ShortcutUndo{})
	if got := w.doc.Position("output"); got != before {
		t.Fatalf("undo of the drag left output at %v, want %v", got, before)
	}

	// Select set by tapping it, delete with the Delete key: its edges go too.
	test.TapCanvas(c, centreOf(w, "set").AddXY(0, -15))
	if diff := cmp.Diff([]string{"set"}, w.doc.Selected()); diff != "" {
		t.Fatalf("selection after tap (-want +got):\n%s", diff)
	}
	c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyDelete})
	if diff := cmp.Diff([]string{"start", "output"}, nodeIDs(w.doc)); diff != "" {
		t.Fatalf("nodes after Delete (-want +got):\n%s", diff)
	}
	if len(edgesOf(w.doc)) != 0 {
		t.Fatalf("edges of the deleted node remain: %v", edgesOf(w.doc))
	}
	// Ctrl+Z brings both back; Ctrl+Shift+Z deletes again.
	shortcut(w, &fyne.ShortcutUndo{})
	if diff := cmp.Diff(want, edgesOf(w.doc)); diff != "" {
		t.Fatalf("edges after undo (-want +got):\n%s", diff)
	}
	shortcut(w, &desktopShortcutRedo)
	if got := len(nodeIDs(w.doc)); got != 2 {
		t.Fatalf("after redo %d nodes, want 2", got)
	}
	shortcut(w, &fyne.ShortcutUndo{})

	// Copy and paste, then duplicate with Ctrl+D.
	w.doc.Select("set", false)
	w.doc.Select("output", true)
	shortcut(w, &fyne.ShortcutCopy{})
	shortcut(w, &fyne.ShortcutPaste{})
	if diff := cmp.Diff([]string{"start", "set", "output", "set2", "output2"}, nodeIDs(w.doc)); diff != "" {
		t.Fatalf("nodes after copy/paste (-want +got):\n%s", diff)
	}
	if got := w.cv.NodeBox("set2"); got == nil || !got.Visible() {
		t.Fatal("pasted node not drawn")
	}
	shortcut(w, &desktopShortcutDup)
	if got := len(nodeIDs(w.doc)); got != 7 {
		t.Fatalf("after Ctrl+D %d nodes, want 7", got)
	}
	// Every edge is drawn with a line and an arrowhead.
	if got, want := w.cv.EdgeCount(), len(edgesOf(w.doc)); got != want {
		t.Fatalf("%d edges drawn, document has %d", got, want)
	}
}

var (
	desktopShortcutRedo = desktop.CustomShortcut{KeyName: fyne.KeyZ, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
	desktopShortcutDup  = desktop.CustomShortcut{KeyName: fyne.KeyD, Modifier: fyne.KeyModifierShortcutDefault}
)
