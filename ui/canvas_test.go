package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"github.com/google/go-cmp/cmp"

	"workrun/remotecall"
	"workrun/ui/canvas"
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

func TestCanvasWidget_ZoomPanFit(t *testing.T) {
	w := newTestWindow(t, Deps{})
	// Too wide to fit at a readable zoom: Fit stops there, showing the
	// workflow's start (1024×700 used to open a sample at 39 %).
	w.OpenWorkflow("", bigWorkflow(40, 60))
	w.cv.Fit()
	if z := w.cv.Zoom(); z < canvas.FitMinZoom {
		t.Errorf("Fit chose %v, below the readable %v", z, canvas.FitMinZoom)
	}
	if p := w.cv.NodeBox(w.doc.Workflow().Nodes[0].ID).Position(); p.X < 0 || p.Y < 0 {
		t.Errorf("after Fit the first node is at %v, off the view", p)
	}
	// One that fits: every node is in view.
	w.OpenWorkflow("", bigWorkflow(3, 2))
	w.cv.Fit()
	for _, n := range w.doc.Workflow().Nodes {
		nb := w.cv.NodeBox(n.ID)
		p, s := nb.Position(), w.cv.Size()
		if p.X < 0 || p.Y < 0 || p.X+nb.Size().Width > s.Width+1 || p.Y+nb.Size().Height > s.Height+1 {
			t.Fatalf("after Fit node %s at %v size %v is outside the view %v", n.ID, p, nb.Size(), s)
		}
	}
	z := w.cv.Zoom()
	w.cv.SetZoom(z * 2)
	if got := w.cv.Zoom(); got != min(3, z*2) {
		t.Errorf("zoom %v, want %v", got, z*2)
	}
	if got := w.cv.NodeBox("n0").Size().Width; got != canvas.NodeWidth*w.cv.Zoom() {
		t.Errorf("node width %v at zoom %v", got, w.cv.Zoom())
	}
	before := w.cv.NodeBox("n0").Position()
	w.cv.SetOffset(w.cv.Offset().AddXY(10, -5)) // a pan
	if got := w.cv.NodeBox("n0").Position(); got != before.AddXY(10, -5) {
		t.Errorf("after pan node at %v, want %v", got, before.AddXY(10, -5))
	}
}

var (
	desktopShortcutRedo = desktop.CustomShortcut{KeyName: fyne.KeyZ, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
	desktopShortcutDup  = desktop.CustomShortcut{KeyName: fyne.KeyD, Modifier: fyne.KeyModifierShortcutDefault}
)

// TestPalette_DragOntoCanvas drops a kind where the pointer lands.
func TestPalette_DragOntoCanvas(t *testing.T) {
	w := newTestWindow(t, Deps{})
	w.newWorkflow()
	var join fyne.CanvasObject
	for _, o := range test.LaidOutObjects(w.win.Content()) {
		if o == w.palette.Item("join") {
			join = o
		}
	}
	dragged := join.(fyne.Draggable)
	d := fyne.CurrentApp().Driver()
	from := fyne.NewPos(join.Size().Width/2, join.Size().Height/2) // in the item
	target := d.AbsolutePositionForObject(w.cv).AddXY(300, 200)    // in the canvas
	total := target.Subtract(d.AbsolutePositionForObject(join).Add(from))
	half := fyne.Delta{DX: total.X / 2, DY: total.Y / 2}
	// As the real driver sends them: Position is where the pointer is now.
	dragged.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: from.AddXY(half.DX, half.DY)}, Dragged: half})
	dragged.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: from.AddXY(2*half.DX, 2*half.DY)}, Dragged: half})
	dragged.DragEnd()
	if diff := cmp.Diff([]string{"start", "join"}, nodeIDs(w.doc)); diff != "" {
		t.Fatalf("nodes after drop (-want +got):\n%s", diff)
	}
	// The node is centred on the drop point.
	p := w.cv.ToScreen(w.doc.Position("join"))
	z := w.cv.Zoom()
	if dx, dy := p.X+canvas.NodeWidth*z/2-300, p.Y+canvas.NodeHeight*z/2-200; dx*dx+dy*dy > 1 {
		t.Errorf("dropped node centred at %v, want (300,200)", p.AddXY(canvas.NodeWidth*z/2, canvas.NodeHeight*z/2))
	}
}

// TestCanvasWidget_RubberBand: Shift+drag on the background selects the
// nodes it touches; a plain drag pans.
func TestCanvasWidget_RubberBand(t *testing.T) {
	w := newTestWindow(t, Deps{})
	w.OpenWorkflow("", SampleParallel("http://127.0.0.1:1"))
	w.cv.SetView(1, fyne.Position{})
	// Around "ask" (300,60) and "check" (300,260) but not start (40,160).
	w.cv.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(280, 40)}, Modifier: fyne.KeyModifierShift})
	w.cv.Dragged(&fyne.DragEvent{Dragged: fyne.Delta{DX: 100, DY: 150}})
	w.cv.Dragged(&fyne.DragEvent{Dragged: fyne.Delta{DX: 0, DY: 100}})
	w.cv.DragEnd()
	if diff := cmp.Diff([]string{"ask", "check"}, w.doc.Selected()); diff != "" {
		t.Errorf("selected (-want +got):\n%s", diff)
	}
	w.cv.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(600, 400)}})
	w.cv.Dragged(&fyne.DragEvent{Dragged: fyne.Delta{DX: 10, DY: 5}})
	w.cv.DragEnd()
	if got := w.cv.Offset(); got != fyne.NewPos(10, 5) {
		t.Errorf("plain drag panned to %v", got)
	}
}
