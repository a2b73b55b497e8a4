package canvas

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/document"
	"workrun/ui/runpanel"
	"workrun/workrun"
)

// Node box size at zoom 1.
const (
	nodeW = 170
	nodeH = 58

	// MinWidth is the width the window's layout keeps for the view at the
	// least; a view narrower than half of it has not been laid out yet.
	MinWidth = 260

	portR = 6 // radius of the input port and output handle at zoom 1

	minZoom = 0.05
	// fitMinZoom is the smallest zoom Fit chooses: node titles stay
	// readable (the 1024×700 window used to open a sample at 39 %).
	fitMinZoom = 0.6
	// TextZoom is the zoom below which node texts are not drawn.
	TextZoom = 0.35
	maxZoom  = 3

	textZoom = TextZoom
)

// Localizer words the view's labels in the window's language: key's
// words, fallback when the catalogue has none (a workrun.Localizer is one).
type Localizer interface {
	X(key, fallback string) string
}

// Wording is what the app layer knows of node kinds and how it words
// statuses and problems, in the window's language; every field must be set.
type Wording struct {
	// KindLabel is the name of a node kind.
	KindLabel func(kind string) string
	// KindIcon is the icon drawn on a node of a kind and beside it in the
	// palette.
	KindIcon func(kind string) fyne.Resource
	// KindGroups are the palette's headings with their kinds, in order.
	KindGroups func() []PaletteGroup
	// Status is a node status as its badge says it ("" for none).
	Status func(workrun.NodeStatus) string
	// Problem is a validation problem as its node shows it.
	Problem func(workrun.Problem) string
}

// PaletteGroup is one heading of the palette and its kinds in order.
type PaletteGroup struct {
	Name, Label string
	Kinds       []string
}

// View draws a document.Document: nodes as boxes with icon, title and
// status badge, edges as lines with arrowheads (docs/product.md W1). It
// edits only through the Document's commands, so everything it does can
// be undone.
type View struct {
	widget.BaseWidget

	l        Localizer
	text     Wording
	doc      *document.Document
	readOnly bool
	zoom     float32
	offset   fyne.Position // screen position of workflow point (0,0)

	bg      *canvas.Rectangle
	temp    *canvas.Line
	ghost   *canvas.Rectangle // where a node dragged from the palette lands
	ghostT  *canvas.Text
	mini    *minimap
	fitWait bool              // Fit was asked for before the view had its size
	band    *canvas.Rectangle // rubber band of a Shift+drag on the background
	bandOn  bool
	bandAdd bool // Shift (or Ctrl) was held at MouseDown: the drag selects
	bandAt  fyne.Position
	bandTo  fyne.Position
	nodes   map[string]*nodeBox
	edges   []*edgeShape
	byNode  map[string][]*edgeShape
	objects []fyne.CanvasObject

	status   map[string]workrun.NodeStatus
	problems map[string][]string

	// OnSelect is called when the selection changed; OnError shows a refused edit.
	OnSelect func()
	OnError  func(error)
	// OnView is called after the zoom or the pan changed.
	OnView func()
	// OnNodeMenu asks for a node's context menu at a window position
	// (menu.go).
	OnNodeMenu func(nodeID string, at fyne.Position)
}

// New shows doc; a read-only view selects but never edits. l words its
// labels, text the kinds, statuses and problems.
func New(doc *document.Document, readOnly bool, l Localizer, text Wording) *View {
	cv := &View{
		l: l, text: text,
		doc: doc, readOnly: readOnly, zoom: 1,
		nodes: map[string]*nodeBox{}, byNode: map[string][]*edgeShape{},
		status: map[string]workrun.NodeStatus{}, problems: map[string][]string{},
	}
	cv.bg = canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	cv.temp = canvas.NewLine(theme.Color(theme.ColorNamePrimary))
	cv.temp.StrokeWidth = 2
	cv.temp.Hide()
	cv.band = canvas.NewRectangle(color.NRGBA{R: 0x29, G: 0x6f, B: 0xf6, A: 0x30})
	cv.band.StrokeColor = theme.Color(theme.ColorNamePrimary)
	cv.band.StrokeWidth = 1
	cv.band.Hide()
	cv.ghost = canvas.NewRectangle(color.NRGBA{R: 0x29, G: 0x6f, B: 0xf6, A: 0x40})
	cv.ghost.StrokeColor = theme.Color(theme.ColorNamePrimary)
	cv.ghost.StrokeWidth = 1.5
	cv.ghost.CornerRadius = 6
	cv.ghost.Hide()
	cv.ghostT = canvas.NewText("", theme.Color(theme.ColorNameForeground))
	cv.ghostT.Hide()
	cv.mini = newMinimap(cv)
	cv.ExtendBaseWidget(cv)
	cv.sync()
	return cv
}

// Document returns the document shown.
func (cv *View) Document() *document.Document { return cv.doc }

// SetDocument shows another document.
func (cv *View) SetDocument(doc *document.Document, readOnly bool) {
	cv.doc, cv.readOnly = doc, readOnly
	for _, n := range cv.nodes {
		n.Hide()
	}
	cv.nodes = map[string]*nodeBox{}
	clear(cv.status)
	clear(cv.problems)
	cv.sync()
	cv.Refresh()
}

// SetStatus shows a node's run status in its badge.
func (cv *View) SetStatus(id string, s workrun.NodeStatus) {
	cv.status[id] = s
	if n := cv.nodes[id]; n != nil {
		n.update()
	}
}

// ClearStatus removes every badge.
func (cv *View) ClearStatus() {
	clear(cv.status)
	for _, n := range cv.nodes {
		n.update()
	}
}

// SetProblems shows validation problems on their nodes.
func (cv *View) SetProblems(ps []workrun.Problem) {
	clear(cv.problems)
	for _, p := range ps {
		if p.NodeID != "" {
			cv.problems[p.NodeID] = append(cv.problems[p.NodeID], cv.text.Problem(p))
		}
	}
	for _, n := range cv.nodes {
		n.update()
	}
}

// Zoom returns the zoom factor; SetZoom changes it around the view's centre.
func (cv *View) Zoom() float32 { return cv.zoom }

func (cv *View) SetZoom(z float32) {
	z = max(minZoom, min(maxZoom, z))
	c := fyne.NewPos(cv.Size().Width/2, cv.Size().Height/2)
	cv.zoomAround(c, z)
}

func (cv *View) zoomAround(c fyne.Position, z float32) {
	// Keep the workflow point under c where it is.
	wx, wy := (c.X-cv.offset.X)/cv.zoom, (c.Y-cv.offset.Y)/cv.zoom
	cv.zoom = z
	cv.offset = fyne.NewPos(c.X-wx*z, c.Y-wy*z)
	cv.layoutAll()
}

// Fit zooms and pans so that every node is visible, at most at 100 % so a
// small workflow keeps its normal size. Asked before the view has its size
// (a workflow opened or imported while the window is being built), it
// waits for the first layout instead of fitting into nothing.
func (cv *View) Fit() {
	if cv.Size().Width < MinWidth/2 || cv.Size().Height < 100 {
		cv.fitWait = true
		return
	}
	cv.fitWait = false
	if cv.doc.Len() == 0 {
		cv.zoom, cv.offset = 1, fyne.Position{}
		cv.layoutAll()
		return
	}
	minX, minY := float32(math.MaxFloat32), float32(math.MaxFloat32)
	maxX, maxY := float32(-math.MaxFloat32), float32(-math.MaxFloat32)
	for i := range cv.doc.Len() {
		p := cv.doc.PositionAt(i)
		minX, minY = min(minX, p.X), min(minY, p.Y)
		maxX, maxY = max(maxX, p.X+nodeW), max(maxY, p.Y+nodeH)
	}
	const pad = 30
	s := cv.Size()
	z := min((s.Width-2*pad)/(maxX-minX), (s.Height-2*pad)/(maxY-minY))
	// Never below a zoom whose labels can be read: a workflow wider than
	// that shows from its left end and is panned to (or zoomed out by hand).
	cv.zoom = max(fitMinZoom, min(1, z))
	cv.offset = fyne.NewPos(pad-minX*cv.zoom, pad-minY*cv.zoom)
	cv.layoutAll()
}

// pan moves the view by a screen delta.
func (cv *View) pan(dx, dy float32) {
	cv.offset = cv.offset.AddXY(dx, dy)
	cv.layoutAll()
}

// Offset returns the screen position of the workflow origin.
func (cv *View) Offset() fyne.Position { return cv.offset }

// SetOffset pans the view so that the workflow origin is at p.
func (cv *View) SetOffset(p fyne.Position) {
	cv.offset = p
	cv.layoutAll()
}

// ToWorkflow converts a position in the view to workflow coordinates.
func (cv *View) ToWorkflow(p fyne.Position) workrun.Position {
	return workrun.Position{X: (p.X - cv.offset.X) / cv.zoom, Y: (p.Y - cv.offset.Y) / cv.zoom}
}

func (cv *View) toScreen(p workrun.Position) fyne.Position {
	return fyne.NewPos(cv.offset.X+p.X*cv.zoom, cv.offset.Y+p.Y*cv.zoom)
}

// AddKind adds a node of kind in the middle of the view (palette click).
func (cv *View) AddKind(kind string) string {
	if cv.readOnly {
		return ""
	}
	return cv.doc.AddNode(kind, cv.freeSpot())
}

// freeSpot is where a new node goes: right of the selected node (or of the
// last one added) when there is room in view, else the middle of the view;
// from there it moves down until it covers no other node.
func (cv *View) freeSpot() workrun.Position {
	var p workrun.Position
	anchor := -1
	if sel := cv.doc.Selected(); len(sel) == 1 {
		anchor = cv.doc.IndexOf(sel[0])
	} else if cv.doc.Len() > 0 {
		anchor = cv.doc.Len() - 1
	}
	c := cv.ToWorkflow(fyne.NewPos(cv.Size().Width/2-nodeW*cv.zoom/2, cv.Size().Height/2-nodeH*cv.zoom/2))
	p = c
	if anchor >= 0 {
		a := cv.doc.PositionAt(anchor)
		p = workrun.Position{X: a.X + nodeW + 80, Y: a.Y}
		if s := cv.toScreen(p); s.X+nodeW*cv.zoom > cv.Size().Width || s.Y < 0 || s.Y+nodeH*cv.zoom > cv.Size().Height {
			p = c
		}
	}
	for range cv.doc.Len() + 1 {
		if !cv.overlaps(p) {
			break
		}
		p.Y += nodeH + 30
	}
	return p
}

// overlaps reports whether a node box at p would touch another node's box.
func (cv *View) overlaps(p workrun.Position) bool {
	for i := range cv.doc.Len() {
		q := cv.doc.PositionAt(i)
		if abs32(q.X-p.X) < nodeW+20 && abs32(q.Y-p.Y) < nodeH+20 {
			return true
		}
	}
	return false
}

// inside reports whether p (view coordinates) is on the canvas.
func (cv *View) inside(p fyne.Position) bool {
	return p.X >= 0 && p.Y >= 0 && p.X <= cv.Size().Width && p.Y <= cv.Size().Height
}

// showGhost draws where a node of kind dragged from the palette would land,
// centred on p (view coordinates).
func (cv *View) showGhost(kind string, p fyne.Position) {
	w, h := nodeW*cv.zoom, nodeH*cv.zoom
	cv.ghost.Move(p.SubtractXY(w/2, h/2))
	cv.ghost.Resize(fyne.NewSize(w, h))
	cv.ghost.Show()
	cv.ghostT.Text = cv.text.KindLabel(kind)
	cv.ghostT.TextSize = theme.TextSize() * max(cv.zoom, 0.5)
	cv.ghostT.Move(p.SubtractXY(w/2-8*cv.zoom, cv.ghostT.MinSize().Height/2))
	cv.ghostT.Show()
	canvas.Refresh(cv.ghost)
	canvas.Refresh(cv.ghostT)
}

func (cv *View) hideGhost() {
	if !cv.ghost.Visible() {
		return
	}
	cv.ghost.Hide()
	cv.ghostT.Hide()
	canvas.Refresh(cv.ghost)
	canvas.Refresh(cv.ghostT)
}

// Refresh redraws after the document changed.
func (cv *View) Refresh() {
	cv.sync()
	cv.BaseWidget.Refresh()
}

// sync makes the drawn nodes and edges match the document.
func (cv *View) sync() {
	seen := make(map[string]bool, cv.doc.Len())
	cv.objects = cv.objects[:0]
	cv.objects = append(cv.objects, cv.bg)
	cv.edges = cv.edges[:0]
	clear(cv.byNode)
	for _, e := range cv.doc.Edges() {
		es := newEdgeShape(e, cv.l)
		cv.edges = append(cv.edges, es)
		cv.byNode[e.From] = append(cv.byNode[e.From], es)
		cv.byNode[e.To] = append(cv.byNode[e.To], es)
		cv.objects = append(cv.objects, es.line, es.a1, es.a2, es.label)
	}
	for i := range cv.doc.Len() {
		id := cv.doc.NodeAt(i).ID
		seen[id] = true
		nb := cv.nodes[id]
		if nb == nil {
			nb = newNodeBox(cv, id)
			cv.nodes[id] = nb
		}
		cv.objects = append(cv.objects, nb)
	}
	for id := range cv.nodes {
		if !seen[id] {
			delete(cv.nodes, id)
		}
	}
	cv.objects = append(cv.objects, cv.band, cv.temp, cv.ghost, cv.ghostT, cv.mini)
	cv.layoutAll()
}

// layoutAll places every node and edge for the current zoom and offset.
func (cv *View) layoutAll() {
	cv.bg.Resize(cv.Size())
	for i := range cv.doc.Len() {
		if nb := cv.nodes[cv.doc.NodeAt(i).ID]; nb != nil {
			nb.place(cv.toScreen(cv.doc.PositionAt(i)))
		}
	}
	for _, e := range cv.edges {
		cv.placeEdge(e)
	}
	// The minimap of a large workflow sits in the bottom right corner.
	if cv.doc.Len() >= minimapNodes && cv.Size().Width > 3*minimapSize.Width {
		cv.mini.Resize(minimapSize)
		cv.mini.Move(fyne.NewPos(cv.Size().Width-minimapSize.Width-8, cv.Size().Height-minimapSize.Height-8))
		cv.mini.Show()
		cv.mini.raster.Refresh()
	} else {
		cv.mini.Hide()
	}
	canvas.Refresh(cv)
	if cv.OnView != nil {
		cv.OnView()
	}
}

func (cv *View) placeEdge(e *edgeShape) {
	from, to := cv.nodes[e.key.From], cv.nodes[e.key.To]
	if from == nil || to == nil {
		e.hide()
		return
	}
	// From the output handle to just outside the input port, so neither the
	// port nor the target box covers the arrowhead.
	a := from.Position().AddXY(from.Size().Width+portR*cv.zoom, from.Size().Height/2)
	b := to.Position().AddXY(-portR*cv.zoom, to.Size().Height/2)
	selected := cv.doc.EdgeSelected(e.key)
	e.place(a, b, cv.zoom, selected)
}

// nodeAt returns the node whose box holds p (view coordinates).
func (cv *View) nodeAt(p fyne.Position) string {
	for i := cv.doc.Len() - 1; i >= 0; i-- {
		id := cv.doc.NodeAt(i).ID
		nb := cv.nodes[id]
		if nb == nil {
			continue
		}
		q, s := nb.Position(), nb.Size()
		if p.X >= q.X && p.X <= q.X+s.Width && p.Y >= q.Y && p.Y <= q.Y+s.Height {
			return id
		}
	}
	return ""
}

// edgeAt returns the edge passing within a few pixels of p.
func (cv *View) edgeAt(p fyne.Position) (document.EdgeKey, bool) {
	for _, e := range cv.edges {
		if e.line.Hidden {
			continue
		}
		if distToSegment(p, e.line.Position1, e.line.Position2) <= 6 {
			return e.key, true
		}
	}
	return document.EdgeKey{}, false
}

func distToSegment(p, a, b fyne.Position) float32 {
	dx, dy := b.X-a.X, b.Y-a.Y
	l2 := dx*dx + dy*dy
	t := float32(0)
	if l2 > 0 {
		t = max(0, min(1, ((p.X-a.X)*dx+(p.Y-a.Y)*dy)/l2))
	}
	x, y := a.X+t*dx-p.X, a.Y+t*dy-p.Y
	return float32(math.Sqrt(float64(x*x + y*y)))
}

// Tapped on the background selects an edge or clears the selection.
func (cv *View) Tapped(ev *fyne.PointEvent) {
	if k, ok := cv.edgeAt(ev.Position); ok {
		cv.doc.SelectEdge(k, false)
	} else {
		cv.doc.ClearSelection()
	}
	if cv.OnSelect != nil {
		cv.OnSelect()
	}
}

// MouseDown remembers whether Shift or Ctrl was held: then a drag on the
// background draws a rubber band that selects, instead of panning.
func (cv *View) MouseDown(ev *desktop.MouseEvent) {
	cv.bandAdd = ev.Modifier&(fyne.KeyModifierShift|fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0
	cv.bandAt = ev.Position
}

// MouseUp is needed for desktop.Mouseable.
func (cv *View) MouseUp(*desktop.MouseEvent) {}

// Dragged on the background pans the view, or with Shift/Ctrl draws the
// rubber band.
func (cv *View) Dragged(ev *fyne.DragEvent) {
	if !cv.bandAdd {
		cv.pan(ev.Dragged.DX, ev.Dragged.DY)
		return
	}
	if !cv.bandOn {
		cv.bandOn = true
		cv.bandTo = cv.bandAt
	}
	cv.bandTo = cv.bandTo.AddXY(ev.Dragged.DX, ev.Dragged.DY)
	a, b := cv.bandAt, cv.bandTo
	cv.band.Move(fyne.NewPos(min(a.X, b.X), min(a.Y, b.Y)))
	cv.band.Resize(fyne.NewSize(abs32(b.X-a.X), abs32(b.Y-a.Y)))
	cv.band.Show()
	canvas.Refresh(cv.band)
}

// DragEnd ends a pan, or selects the nodes the rubber band touches.
func (cv *View) DragEnd() {
	if !cv.bandOn {
		return
	}
	cv.bandOn, cv.bandAdd = false, false
	cv.band.Hide()
	canvas.Refresh(cv.band)
	a, b := cv.bandAt, cv.bandTo
	x0, y0, x1, y1 := min(a.X, b.X), min(a.Y, b.Y), max(a.X, b.X), max(a.Y, b.Y)
	var ids []string
	for i := range cv.doc.Len() {
		id := cv.doc.NodeAt(i).ID
		nb := cv.nodes[id]
		if nb == nil {
			continue
		}
		p, s := nb.Position(), nb.Size()
		if p.X < x1 && p.X+s.Width > x0 && p.Y < y1 && p.Y+s.Height > y0 {
			ids = append(ids, id)
		}
	}
	cv.doc.SelectNodes(ids, true)
	if cv.OnSelect != nil {
		cv.OnSelect()
	}
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}

// Scrolled zooms around the pointer.
func (cv *View) Scrolled(ev *fyne.ScrollEvent) {
	f := float32(1.1)
	if ev.Scrolled.DY < 0 {
		f = 1 / f
	}
	cv.zoomAround(ev.Position, max(minZoom, min(maxZoom, cv.zoom*f)))
}

func (cv *View) CreateRenderer() fyne.WidgetRenderer { return &canvasRenderer{cv: cv} }

type canvasRenderer struct{ cv *View }

func (r *canvasRenderer) Layout(fyne.Size) {
	if r.cv.fitWait {
		r.cv.Fit()
		if !r.cv.fitWait {
			return
		}
	}
	r.cv.layoutAll()
}
func (r *canvasRenderer) MinSize() fyne.Size           { return fyne.NewSize(200, 150) }
func (r *canvasRenderer) Objects() []fyne.CanvasObject { return r.cv.objects }
func (r *canvasRenderer) Destroy()                     {}
func (r *canvasRenderer) Refresh() {
	r.cv.bg.FillColor = theme.Color(theme.ColorNameInputBackground)
	for _, n := range r.cv.nodes {
		n.update()
	}
	r.cv.layoutAll()
}

// edgeShape is one drawn edge: a line, an arrowhead and the branch label.
type edgeShape struct {
	key     document.EdgeKey
	when    string
	errPort bool // leaves its source's error port (drawn in the error colour)
	line    *canvas.Line
	a1, a2  *canvas.Line
	label   *canvas.Text
}

func newEdgeShape(e workrun.Edge, l Localizer) *edgeShape {
	c := theme.Color(theme.ColorNameForeground)
	es := &edgeShape{key: document.EdgeKey{From: e.From, To: e.To}, when: e.When, errPort: e.Port == workrun.PortError,
		line: canvas.NewLine(c), a1: canvas.NewLine(c), a2: canvas.NewLine(c),
		label: canvas.NewText(e.When, c)}
	if es.errPort {
		es.when = l.X(string(msgEdgeErrorLabel), "on error")
		es.label.Text = es.when
	}
	es.line.StrokeWidth, es.a1.StrokeWidth, es.a2.StrokeWidth = 1.5, 1.5, 1.5
	return es
}

func (e *edgeShape) hide() { e.line.Hide(); e.a1.Hide(); e.a2.Hide(); e.label.Hide() }

func (e *edgeShape) place(a, b fyne.Position, zoom float32, selected bool) {
	c := theme.Color(theme.ColorNameForeground)
	w := float32(1.5)
	if e.errPort {
		c = theme.Color(theme.ColorNameError)
	}
	if selected {
		c, w = theme.Color(theme.ColorNamePrimary), 3
	}
	for _, l := range []*canvas.Line{e.line, e.a1, e.a2} {
		l.StrokeColor, l.StrokeWidth = c, w
		l.Show()
	}
	e.line.Position1, e.line.Position2 = a, b
	if zoom < textZoom {
		// Overview: the line alone; arrowheads would be 3-pixel smudges.
		e.a1.Hide()
		e.a2.Hide()
		e.label.Hide()
		canvas.Refresh(e.line)
		return
	}
	// Arrowhead: two strokes back from b at ±25° of the line's direction.
	ang := math.Atan2(float64(b.Y-a.Y), float64(b.X-a.X))
	l := float64(10 * zoom)
	for i, s := range []float64{-1, 1} {
		t := ang + math.Pi - s*0.45
		p := fyne.NewPos(b.X+float32(l*math.Cos(t)), b.Y+float32(l*math.Sin(t)))
		ln := []*canvas.Line{e.a1, e.a2}[i]
		ln.Position1, ln.Position2 = p, b
	}
	if e.when == "" || zoom < textZoom {
		e.label.Hide()
	} else {
		e.label.Color = c
		e.label.TextSize = theme.CaptionTextSize() * zoom
		e.label.Move(fyne.NewPos((a.X+b.X)/2+4, (a.Y+b.Y)/2-e.label.TextSize-2))
		e.label.Resize(e.label.MinSize())
		e.label.Show()
	}
	canvas.Refresh(e.line)
	canvas.Refresh(e.a1)
	canvas.Refresh(e.a2)
}

// nodeBox is one node on the canvas.
type nodeBox struct {
	widget.BaseWidget
	cv    *View
	id    string
	rect  *canvas.Rectangle
	icon  *canvas.Image
	title *canvas.Text
	kind  *canvas.Text
	badge *canvas.Text
	warn  *canvas.Text
	port  *canvas.Circle // input port on the left edge

	fullTitle, fullWarn string // before fitting into the box
	handle              *outHandle

	addMod   bool // a modifier was held at MouseDown: toggle selection
	dragging bool
	drag     fyne.Delta // screen delta of the current drag
	moved    []string
}

func newNodeBox(cv *View, id string) *nodeBox {
	nb := &nodeBox{cv: cv, id: id,
		rect:  canvas.NewRectangle(color.Transparent),
		title: canvas.NewText("", theme.Color(theme.ColorNameForeground)),
		kind:  canvas.NewText("", theme.Color(theme.ColorNamePlaceHolder)),
		badge: canvas.NewText("", theme.Color(theme.ColorNameForeground)),
		warn:  canvas.NewText("", theme.Color(theme.ColorNameError)),
	}
	nb.rect.CornerRadius = 6
	nb.rect.StrokeWidth = 1.5
	nb.title.TextStyle.Bold = true
	nb.icon = canvas.NewImageFromImage(kindPicture("", cv.text.KindIcon))
	nb.icon.FillMode = canvas.ImageFillContain
	nb.handle = newOutHandle(nb)
	nb.port = canvas.NewCircle(theme.Color(theme.ColorNameBackground))
	nb.port.StrokeColor = theme.Color(theme.ColorNamePrimary)
	nb.port.StrokeWidth = 1.5
	nb.ExtendBaseWidget(nb)
	nb.update()
	return nb
}

// update sets texts and colours from the document, status and problems.
func (nb *nodeBox) update() {
	n, ok := nb.cv.doc.Node(nb.id)
	if !ok {
		return
	}
	title := n.Title
	if title == "" {
		title = n.ID
	}
	nb.fullTitle = title
	nb.title.Text = title
	nb.kind.Text = nb.cv.text.KindLabel(n.Type)
	nb.icon.Image = kindPicture(n.Type, nb.cv.text.KindIcon)
	nb.rect.FillColor = theme.Color(theme.ColorNameBackground)
	nb.rect.StrokeColor = theme.Color(theme.ColorNameSeparator)
	if nb.cv.doc.IsSelected(nb.id) {
		nb.rect.StrokeColor = theme.Color(theme.ColorNamePrimary)
	}
	ps := nb.cv.problems[nb.id]
	nb.warn.Text, nb.fullWarn = "", ""
	if len(ps) > 0 {
		nb.warn.Text = "⚠ " + ps[0]
		nb.fullWarn = nb.warn.Text
		if !nb.cv.doc.IsSelected(nb.id) {
			nb.rect.StrokeColor = theme.Color(theme.ColorNameError)
		}
	}
	s := nb.cv.status[nb.id]
	nb.badge.Text = nb.cv.text.Status(s)
	nb.badge.Color = statusColor(s)
	// Output nodes end a path, so they have no output handle; nothing leads
	// into Start, so it has no input port (Layout shows them).
	nb.Refresh()
}

// place moves and sizes the box for the current zoom.
func (nb *nodeBox) place(p fyne.Position) {
	z := nb.cv.zoom
	nb.Move(p)
	nb.Resize(fyne.NewSize(nodeW*z, nodeH*z))
}

func (nb *nodeBox) CreateRenderer() fyne.WidgetRenderer { return &nodeRenderer{nb: nb} }

type nodeRenderer struct{ nb *nodeBox }

func (r *nodeRenderer) Objects() []fyne.CanvasObject {
	nb := r.nb
	return []fyne.CanvasObject{nb.rect, nb.icon, nb.title, nb.kind, nb.badge, nb.warn, nb.port, nb.handle}
}
func (r *nodeRenderer) MinSize() fyne.Size { return fyne.NewSize(nodeW, nodeH) }
func (r *nodeRenderer) Destroy()           {}
func (r *nodeRenderer) Refresh() {
	r.Layout(r.nb.Size())
	for _, o := range r.Objects() {
		o.Refresh()
	}
}
func (r *nodeRenderer) Layout(s fyne.Size) {
	nb := r.nb
	z := nb.cv.zoom
	nb.rect.Resize(s)
	pad := 6 * z
	ic := 22 * z
	nb.icon.Move(fyne.NewPos(pad, pad))
	nb.icon.Resize(fyne.NewSize(ic, ic))
	ts := theme.TextSize() * z
	nb.title.TextSize = ts
	nb.title.Move(fyne.NewPos(pad*2+ic, pad))
	nb.kind.TextSize = theme.CaptionTextSize() * z
	nb.kind.Move(fyne.NewPos(pad*2+ic, pad+ts+2*z))
	nb.badge.TextSize = theme.CaptionTextSize() * z
	nb.badge.Move(fyne.NewPos(pad, s.Height-nb.badge.TextSize-pad))
	nb.warn.TextSize = theme.CaptionTextSize() * z
	nb.warn.Move(fyne.NewPos(pad+60*z, s.Height-nb.warn.TextSize-pad))
	// Texts end inside the box, with "…" (the inspector shows them whole).
	nb.title.Text = fitText(nb.fullTitle, nb.title.TextSize, nb.title.TextStyle, s.Width-(pad*3+ic))
	nb.warn.Text = fitText(nb.fullWarn, nb.warn.TextSize, nb.warn.TextStyle, s.Width-(pad*2+60*z))
	// Level of detail: below textZoom the texts are too small to read, so
	// they are not drawn at all (a fitted 200-node workflow paints fast).
	for _, t := range []*canvas.Text{nb.title, nb.kind, nb.badge, nb.warn} {
		if z < textZoom {
			t.Hide()
		} else {
			t.Show()
		}
	}
	// The icon, port and handle go with the texts: at that zoom they are a
	// few pixels, and a 500-node overview paints in a third of the time.
	n, _ := nb.cv.doc.Node(nb.id)
	detail := z >= textZoom
	showIf(nb.icon, detail)
	showIf(nb.port, detail && n.Type != "start")
	showIf(nb.handle, detail && n.Type != "output" && !nb.cv.readOnly)
	hs := 2 * portR * z
	nb.handle.Move(fyne.NewPos(s.Width-hs/2, s.Height/2-hs/2))
	nb.handle.Resize(fyne.NewSize(hs, hs))
	nb.port.Move(fyne.NewPos(-hs/2, s.Height/2-hs/2))
	nb.port.Resize(fyne.NewSize(hs, hs))
}

// MouseDown remembers whether Ctrl or Shift was held, for multi-select.
func (nb *nodeBox) MouseDown(ev *desktop.MouseEvent) {
	nb.addMod = ev.Modifier&(fyne.KeyModifierShift|fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0
}
func (nb *nodeBox) MouseUp(*desktop.MouseEvent) {}

// Tapped selects the node (with Ctrl/Shift: toggles it into the selection).
func (nb *nodeBox) Tapped(*fyne.PointEvent) {
	nb.cv.doc.Select(nb.id, nb.addMod)
	nb.addMod = false
	if nb.cv.OnSelect != nil {
		nb.cv.OnSelect()
	}
}

// Dragged moves the selected nodes; only they and their edges are redrawn.
func (nb *nodeBox) Dragged(ev *fyne.DragEvent) {
	cv := nb.cv
	if cv.readOnly {
		return
	}
	if !nb.dragging {
		nb.dragging = true
		nb.drag = fyne.Delta{}
		if !cv.doc.IsSelected(nb.id) {
			cv.doc.SelectSilently([]string{nb.id})
		}
		nb.moved = cv.doc.Selected()
	}
	nb.drag.DX += ev.Dragged.DX
	nb.drag.DY += ev.Dragged.DY
	touched := map[*edgeShape]bool{}
	for _, id := range nb.moved {
		m := cv.nodes[id]
		if m == nil {
			continue
		}
		m.Move(m.Position().AddXY(ev.Dragged.DX, ev.Dragged.DY))
		for _, e := range cv.byNode[id] {
			touched[e] = true
		}
	}
	for e := range touched {
		cv.placeEdge(e)
	}
}

// DragEnd commits the move as one undoable command.
func (nb *nodeBox) DragEnd() {
	if !nb.dragging {
		return
	}
	nb.dragging = false
	z := nb.cv.zoom
	nb.cv.doc.MoveNodes(nb.moved, nb.drag.DX/z, nb.drag.DY/z)
	if nb.cv.OnSelect != nil {
		nb.cv.OnSelect()
	}
}

// outHandle is the dot on a node's right edge; dragging it to another node
// connects the two.
type outHandle struct {
	widget.BaseWidget
	nb     *nodeBox
	dot    *canvas.Circle
	drag   fyne.Delta
	active bool
}

func newOutHandle(nb *nodeBox) *outHandle {
	h := &outHandle{nb: nb, dot: canvas.NewCircle(theme.Color(theme.ColorNamePrimary))}
	h.ExtendBaseWidget(h)
	return h
}

func (h *outHandle) CreateRenderer() fyne.WidgetRenderer { return widgetRendererFor(h.dot) }

func (h *outHandle) centre() fyne.Position {
	return h.nb.Position().Add(h.Position()).AddXY(h.Size().Width/2, h.Size().Height/2)
}

// Dragged draws the pending edge to the pointer.
func (h *outHandle) Dragged(ev *fyne.DragEvent) {
	if h.nb.cv.readOnly {
		return
	}
	if !h.active {
		h.active = true
		h.drag = fyne.Delta{}
	}
	h.drag.DX += ev.Dragged.DX
	h.drag.DY += ev.Dragged.DY
	t := h.nb.cv.temp
	t.Position1 = h.centre()
	t.Position2 = t.Position1.AddXY(h.drag.DX, h.drag.DY)
	t.Show()
	canvas.Refresh(t)
}

// DragEnd connects to the node under the pointer, if any.
func (h *outHandle) DragEnd() {
	if !h.active {
		return
	}
	h.active = false
	cv := h.nb.cv
	cv.temp.Hide()
	canvas.Refresh(cv.temp)
	target := cv.nodeAt(h.centre().AddXY(h.drag.DX, h.drag.DY))
	if target == "" || target == h.nb.id {
		return
	}
	if err := cv.doc.Connect(h.nb.id, target); err != nil && cv.OnError != nil {
		cv.OnError(err)
	}
}

func statusColor(s workrun.NodeStatus) color.Color {
	switch s {
	case workrun.NodeSucceeded:
		return theme.Color(theme.ColorNameSuccess)
	case workrun.NodeFailed:
		return theme.Color(theme.ColorNameError)
	case workrun.NodeRunning:
		return theme.Color(theme.ColorNamePrimary)
	case workrun.NodeInterrupted, workrun.NodeStopped, workrun.NodeHandled, runpanel.StatusWaiting: // the run panel's name for a node the person is asked at
		return theme.Color(theme.ColorNameWarning)
	}
	return theme.Color(theme.ColorNamePlaceHolder)
}

// simpleRenderer draws fixed objects stretched over the widget.
type simpleRenderer struct{ objs []fyne.CanvasObject }

func widgetRendererFor(objs ...fyne.CanvasObject) fyne.WidgetRenderer {
	return &simpleRenderer{objs: objs}
}
func (r *simpleRenderer) Layout(s fyne.Size) {
	for _, o := range r.objs {
		o.Resize(s)
	}
}
func (r *simpleRenderer) MinSize() fyne.Size           { return fyne.NewSize(8, 8) }
func (r *simpleRenderer) Refresh()                     { canvas.Refresh(r.objs[0]) }
func (r *simpleRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *simpleRenderer) Destroy()                     {}

func showIf(o fyne.CanvasObject, on bool) {
	if on {
		o.Show()
	} else {
		o.Hide()
	}
}

// fitText shortens text with "…" until it is at most width wide.
func fitText(text string, size float32, style fyne.TextStyle, width float32) string {
	if text == "" || size <= 0 || fyne.MeasureText(text, size, style).Width <= width {
		return text
	}
	r := []rune(text)
	lo, hi := 0, len(r)
	for lo < hi { // the longest prefix that fits with the ellipsis
		mid := (lo + hi + 1) / 2
		if fyne.MeasureText(string(r[:mid])+"…", size, style).Width <= width {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return string(r[:lo]) + "…"
}
