package canvas

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"github.com/google/go-cmp/cmp"

	"workrun/ui/document"
	"workrun/workrun"
)

// The canvas and its palette alone, laid out as the window lays them out:
// the palette left of the canvas.

// newTestEditor shows wf in a view with its palette beside it, in a
// 1100×700 window, fitted as the window fits a workflow it opens.
func newTestEditor(t *testing.T, wf workrun.Workflow) (*View, *Palette, fyne.Window) {
	t.Helper()
	test.NewTempApp(t)
	cv := newTestView(wf)
	p := NewPalette(cv)
	win := test.NewTempWindow(t, container.NewBorder(nil, nil, p.Object(), nil, cv))
	win.Resize(fyne.NewSize(1100, 700))
	cv.Fit()
	return cv, p, win
}

// open shows wf in cv as the window opens a workflow: a new document, fitted.
func open(cv *View, wf workrun.Workflow) {
	cv.SetDocument(newTestDocument(wf), false)
	cv.Fit()
}

// newWorkflow is the window's new workflow: one Start node.
func newWorkflow() workrun.Workflow {
	return workrun.Workflow{Name: "new", Nodes: []workrun.NodeSpec{{ID: "start", Type: "start", Position: &workrun.Position{X: 40, Y: 120}}}}
}

// parallelWorkflow has the Parallel sample's node positions.
func parallelWorkflow() workrun.Workflow {
	at := func(x, y float32) *workrun.Position { return &workrun.Position{X: x, Y: y} }
	return workrun.Workflow{Name: "parallel",
		Nodes: []workrun.NodeSpec{
			{ID: "start", Type: "start", Position: at(40, 160)},
			{ID: "ask", Type: "remote_agent", Position: at(300, 60)},
			{ID: "check", Type: "process", Position: at(300, 260)},
			{ID: "join", Type: "join", Position: at(560, 160)},
			{ID: "end", Type: "output", Position: at(800, 160)},
		},
		Edges: []workrun.Edge{{From: "start", To: "ask"}, {From: "start", To: "check"}, {From: "ask", To: "join"}, {From: "check", To: "join"}, {From: "join", To: "end"}},
	}
}

func nodeIDs(cv *View) []string {
	var ids []string
	for _, n := range cv.Document().Workflow().Nodes {
		ids = append(ids, n.ID)
	}
	return ids
}

func TestCanvasWidget_ZoomPanFit(t *testing.T) {
	// Too wide to fit at a readable zoom: Fit stops there, showing the
	// workflow's start (1024×700 used to open a sample at 39 %).
	cv, _, _ := newTestEditor(t, bigWorkflow(40, 60))
	if z := cv.Zoom(); z < fitMinZoom {
		t.Errorf("Fit chose %v, below the readable %v", z, fitMinZoom)
	}
	if p := cv.nodes[cv.doc.NodeAt(0).ID].Position(); p.X < 0 || p.Y < 0 {
		t.Errorf("after Fit the first node is at %v, off the view", p)
	}
	// One that fits: every node is in view.
	open(cv, bigWorkflow(3, 2))
	for _, n := range cv.doc.Workflow().Nodes {
		nb := cv.nodes[n.ID]
		p, s := nb.Position(), cv.Size()
		if p.X < 0 || p.Y < 0 || p.X+nb.Size().Width > s.Width+1 || p.Y+nb.Size().Height > s.Height+1 {
			t.Fatalf("after Fit node %s at %v size %v is outside the view %v", n.ID, p, nb.Size(), s)
		}
	}
	z := cv.Zoom()
	cv.SetZoom(z * 2)
	if got := cv.Zoom(); got != min(3, z*2) {
		t.Errorf("zoom %v, want %v", got, z*2)
	}
	if got := cv.nodes["n0"].Size().Width; got != nodeW*cv.Zoom() {
		t.Errorf("node width %v at zoom %v", got, cv.Zoom())
	}
	before := cv.nodes["n0"].Position()
	cv.pan(10, -5)
	if got := cv.nodes["n0"].Position(); got != before.AddXY(10, -5) {
		t.Errorf("after pan node at %v, want %v", got, before.AddXY(10, -5))
	}
}

// TestPalette_DragOntoCanvas drops a kind where the pointer lands.
func TestPalette_DragOntoCanvas(t *testing.T) {
	cv, _, win := newTestEditor(t, newWorkflow())
	var join *paletteItem
	for _, o := range test.LaidOutObjects(win.Content()) {
		if p, ok := o.(*paletteItem); ok && p.kind == "join" {
			join = p
		}
	}
	d := fyne.CurrentApp().Driver()
	from := fyne.NewPos(join.Size().Width/2, join.Size().Height/2) // in the item
	target := d.AbsolutePositionForObject(cv).AddXY(300, 200)      // in the canvas
	total := target.Subtract(d.AbsolutePositionForObject(join).Add(from))
	half := fyne.Delta{DX: total.X / 2, DY: total.Y / 2}
	// As the real driver sends them: Position is where the pointer is now.
	join.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: from.AddXY(half.DX, half.DY)}, Dragged: half})
	join.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: from.AddXY(2*half.DX, 2*half.DY)}, Dragged: half})
	join.DragEnd()
	if diff := cmp.Diff([]string{"start", "join"}, nodeIDs(cv)); diff != "" {
		t.Fatalf("nodes after drop (-want +got):\n%s", diff)
	}
	// The node is centred on the drop point.
	p := cv.toScreen(cv.doc.Position("join"))
	z := cv.Zoom()
	if dx, dy := p.X+nodeW*z/2-300, p.Y+nodeH*z/2-200; dx*dx+dy*dy > 1 {
		t.Errorf("dropped node centred at %v, want (300,200)", p.AddXY(nodeW*z/2, nodeH*z/2))
	}
}

// TestCanvasWidget_RubberBand: Shift+drag on the background selects the
// nodes it touches; a plain drag pans.
func TestCanvasWidget_RubberBand(t *testing.T) {
	cv, _, _ := newTestEditor(t, parallelWorkflow())
	cv.zoom, cv.offset = 1, fyne.Position{}
	cv.layoutAll()
	// Around "ask" (300,60) and "check" (300,260) but not start (40,160).
	cv.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(280, 40)}, Modifier: fyne.KeyModifierShift})
	cv.Dragged(&fyne.DragEvent{Dragged: fyne.Delta{DX: 100, DY: 150}})
	cv.Dragged(&fyne.DragEvent{Dragged: fyne.Delta{DX: 0, DY: 100}})
	cv.DragEnd()
	if diff := cmp.Diff([]string{"ask", "check"}, cv.doc.Selected()); diff != "" {
		t.Errorf("selected (-want +got):\n%s", diff)
	}
	cv.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(600, 400)}})
	cv.Dragged(&fyne.DragEvent{Dragged: fyne.Delta{DX: 10, DY: 5}})
	cv.DragEnd()
	if got := cv.Offset(); got != fyne.NewPos(10, 5) {
		t.Errorf("plain drag panned to %v", got)
	}
}

// TestAddKind_DoesNotOverlap: nodes added by clicking the palette never
// land on one another.
func TestAddKind_DoesNotOverlap(t *testing.T) {
	cv, _, _ := newTestEditor(t, newWorkflow())
	for range 8 {
		cv.AddKind("set")
		cv.doc.ClearSelection()
	}
	wf := cv.doc.Workflow()
	for i := range wf.Nodes {
		for j := range i {
			p, q := wf.Nodes[i].Position, wf.Nodes[j].Position
			if abs32(p.X-q.X) < nodeW && abs32(p.Y-q.Y) < nodeH {
				t.Errorf("%s at %v overlaps %s at %v", wf.Nodes[i].ID, *p, wf.Nodes[j].ID, *q)
			}
		}
	}
}

// TestMinimap_LargeWorkflows: a large workflow gets a minimap; tapping it
// centres the view there. A small one has none.
func TestMinimap_LargeWorkflows(t *testing.T) {
	cv, _, win := newTestEditor(t, workrun.Workflow{Name: "remote", Nodes: []workrun.NodeSpec{
		{ID: "start", Type: "start", Position: &workrun.Position{X: 40, Y: 120}},
		{ID: "ask", Type: "remote_agent", Position: &workrun.Position{X: 300, Y: 120}},
		{ID: "end", Type: "output", Position: &workrun.Position{X: 560, Y: 120}},
	}})
	if cv.mini.Visible() {
		t.Error("a 3-node workflow shows a minimap")
	}
	open(cv, bigWorkflow(60, 80))
	if !cv.mini.Visible() {
		t.Fatal("a 60-node workflow shows no minimap")
	}
	cv.SetZoom(1)
	before := cv.Offset()
	test.TapCanvas(win.Canvas(), fyne.CurrentApp().Driver().AbsolutePositionForObject(cv.mini).AddXY(170, 12))
	if after := cv.Offset(); after == before {
		t.Error("tapping the minimap did not move the view")
	}
	// The last node (right end of the bottom row, drawn near the picture's
	// top right: the workflow is 20 times wider than high) is now near the
	// middle of the view.
	last := cv.doc.Position("n59")
	centre := cv.ToWorkflow(fyne.NewPos(cv.Size().Width/2, cv.Size().Height/2))
	if abs32(centre.X-last.X) > 400 || abs32(centre.Y-last.Y) > 200 {
		t.Errorf("view centred on %v after tapping the minimap's corner, want near %v", centre, last)
	}
}

// TestPaletteDrag_ShowsGhostAndDrops: dragging a kind from the palette
// shows a ghost node over the canvas and drops the node where it is let go.
func TestPaletteDrag_ShowsGhostAndDrops(t *testing.T) {
	cv, pal, _ := newTestEditor(t, newWorkflow())
	var set *paletteItem
	for _, it := range pal.items {
		if it.kind == "set" {
			set = it
		}
	}
	d := fyne.CurrentApp().Driver()
	from := d.AbsolutePositionForObject(set).AddXY(20, 10)
	to := d.AbsolutePositionForObject(cv).AddXY(300, 250)
	step := fyne.Delta{DX: (to.X - from.X) / 4, DY: (to.Y - from.Y) / 4}
	for i := 1; i <= 4; i++ {
		set.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(20+step.DX*float32(i), 10+step.DY*float32(i))}, Dragged: step})
	}
	if !cv.ghost.Visible() {
		t.Error("no ghost node while dragging over the canvas")
	}
	set.DragEnd()
	if cv.ghost.Visible() {
		t.Error("the ghost stays after the drop")
	}
	p := cv.doc.Position("set")
	want := cv.ToWorkflow(fyne.NewPos(300-nodeW*cv.Zoom()/2, 250-nodeH*cv.Zoom()/2))
	if abs32(p.X-want.X) > 1 || abs32(p.Y-want.Y) > 1 {
		t.Errorf("dropped at %v, want %v (centred where it was let go)", p, want)
	}
}

// TestWords_FromTheLocalizer: the view words its labels through the
// Localizer it is given, not the process language: a Chinese view draws
// an error edge's label in Chinese beside an English one.
func TestWords_FromTheLocalizer(t *testing.T) {
	test.NewTempApp(t)
	wf := workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "a", Type: "start"}, {ID: "b", Type: "set"}},
		Edges: []workrun.Edge{{From: "a", To: "b", Port: workrun.PortError}}}
	for lang, want := range map[string]string{"zh-Hans": "出错时", "en": "on error"} {
		cv := New(newTestDocument(wf), false, workrun.NewLocalizer(lang), testWording())
		label, errPort, ok := cv.EdgeDrawn(document.EdgeKey{From: "a", To: "b"})
		if !ok || !errPort || label != want {
			t.Errorf("%s: the error edge is drawn %v with %q (error port %v), want %q", lang, ok, label, errPort, want)
		}
	}
}
