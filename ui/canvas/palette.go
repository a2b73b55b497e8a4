package canvas

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// paletteRowHeight keeps every kind visible at 1280×800 without scrolling.
const paletteRowHeight = 28

// Palette lists the node kinds by group under a filter box that stays put
// while the list scrolls. Typing filters by name; Enter adds the first match.
type Palette struct {
	cv     *View
	filter *widget.Entry
	box    *fyne.Container
	items  []*paletteItem
	groups map[*paletteItem]string // the heading each item is under
	heads  map[string]fyne.CanvasObject
	root   fyne.CanvasObject
}

// NewPalette builds the palette for the canvas cv.
func NewPalette(cv *View) *Palette {
	p := &Palette{cv: cv, box: container.NewVBox(), groups: map[*paletteItem]string{}, heads: map[string]fyne.CanvasObject{}}
	p.filter = widget.NewEntry()
	p.filter.SetPlaceHolder(cv.l.X("palette.filter", "Filter nodes"))
	p.filter.OnChanged = func(string) { p.apply() }
	p.filter.OnSubmitted = func(string) {
		for _, it := range p.items {
			if it.Visible() {
				cv.AddKind(it.kind)
				return
			}
		}
	}
	for _, g := range cv.text.KindGroups() {
		h := canvas.NewText(g.Label, theme.Color(theme.ColorNamePlaceHolder))
		h.TextSize = theme.CaptionTextSize()
		h.TextStyle.Bold = true
		head := container.New(headingLayout{}, h)
		p.heads[g.Name] = head
		p.box.Add(head)
		for _, k := range g.Kinds {
			it := newPaletteItem(cv, k)
			p.items = append(p.items, it)
			p.groups[it] = g.Name
			p.box.Add(it)
		}
	}
	p.root = container.NewBorder(p.filter, nil, nil, nil, container.NewVScroll(p.box))
	return p
}

// WantHeight is the height the palette needs to show every kind unscrolled
// (the run panel gives way to it where that is possible: Panes.TopWant).
func (p *Palette) WantHeight() float32 {
	return p.filter.MinSize().Height + theme.Padding() + p.box.MinSize().Height
}

// Object is the palette's widget tree.
func (p *Palette) Object() fyne.CanvasObject { return p.root }

func (p *Palette) apply() {
	q := strings.ToLower(strings.TrimSpace(p.filter.Text))
	shown := map[string]bool{}
	for _, it := range p.items {
		match := q == "" || strings.Contains(strings.ToLower(p.cv.text.KindLabel(it.kind)), q) || strings.Contains(it.kind, q)
		if match {
			it.Show()
			shown[p.groups[it]] = true
		} else {
			it.Hide()
		}
	}
	for g, h := range p.heads {
		if shown[g] {
			h.Show()
		} else {
			h.Hide()
		}
	}
	p.box.Refresh()
}

// paletteItem adds a node: tap to add it where it does not cover another
// node, or drag it onto the canvas (a ghost shows where) to drop it there.
type paletteItem struct {
	widget.BaseWidget
	cv    *View
	kind  string
	drag  fyne.Delta
	start fyne.Position
	on    bool
	hover bool

	bg    *canvas.Rectangle
	icon  *canvas.Image
	label *canvas.Text
}

func newPaletteItem(cv *View, kind string) *paletteItem {
	p := &paletteItem{cv: cv, kind: kind,
		bg:    canvas.NewRectangle(theme.Color(theme.ColorNameButton)),
		icon:  canvas.NewImageFromResource(cv.text.KindIcon(kind)),
		label: canvas.NewText(cv.text.KindLabel(kind), theme.Color(theme.ColorNameForeground)),
	}
	p.bg.CornerRadius = 4
	p.icon.FillMode = canvas.ImageFillContain
	p.ExtendBaseWidget(p)
	return p
}

func (p *paletteItem) Tapped(*fyne.PointEvent) { p.cv.AddKind(p.kind) }

func (p *paletteItem) Cursor() desktop.Cursor { return desktop.PointerCursor }

func (p *paletteItem) MouseIn(*desktop.MouseEvent)    { p.hover = true; p.Refresh() }
func (p *paletteItem) MouseMoved(*desktop.MouseEvent) {}
func (p *paletteItem) MouseOut()                      { p.hover = false; p.Refresh() }

// local converts the current drag position to canvas coordinates.
func (p *paletteItem) local() fyne.Position {
	d := fyne.CurrentApp().Driver()
	abs := d.AbsolutePositionForObject(p).Add(p.start).AddXY(p.drag.DX, p.drag.DY)
	return abs.Subtract(d.AbsolutePositionForObject(p.cv))
}

func (p *paletteItem) Dragged(ev *fyne.DragEvent) {
	if !p.on {
		p.on = true
		p.drag = fyne.Delta{}
		p.start = ev.Position.Subtract(ev.Dragged)
	}
	p.drag.DX += ev.Dragged.DX
	p.drag.DY += ev.Dragged.DY
	if l := p.local(); p.cv.inside(l) && !p.cv.readOnly {
		p.cv.showGhost(p.kind, l)
	} else {
		p.cv.hideGhost()
	}
}

func (p *paletteItem) DragEnd() {
	if !p.on {
		return
	}
	p.on = false
	p.cv.hideGhost()
	local := p.local()
	if !p.cv.inside(local) || p.cv.readOnly {
		return
	}
	pos := p.cv.ToWorkflow(local.SubtractXY(nodeW*p.cv.zoom/2, nodeH*p.cv.zoom/2))
	p.cv.doc.AddNode(p.kind, pos)
	if p.cv.OnSelect != nil {
		p.cv.OnSelect()
	}
}

func (p *paletteItem) CreateRenderer() fyne.WidgetRenderer { return &paletteItemRenderer{p: p} }

type paletteItemRenderer struct{ p *paletteItem }

func (r *paletteItemRenderer) Destroy() {}
func (r *paletteItemRenderer) MinSize() fyne.Size {
	return fyne.NewSize(60, paletteRowHeight)
}
func (r *paletteItemRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.p.bg, r.p.icon, r.p.label}
}
func (r *paletteItemRenderer) Layout(s fyne.Size) {
	p := r.p
	p.bg.Resize(s)
	ic := s.Height - 10
	p.icon.Move(fyne.NewPos(6, 5))
	p.icon.Resize(fyne.NewSize(ic, ic))
	p.label.Move(fyne.NewPos(12+ic, (s.Height-p.label.MinSize().Height)/2))
}
func (r *paletteItemRenderer) Refresh() {
	p := r.p
	p.bg.FillColor = theme.Color(theme.ColorNameButton)
	if p.hover {
		p.bg.FillColor = theme.Color(theme.ColorNameHover)
	}
	p.label.Text = p.cv.text.KindLabel(p.kind)
	p.label.Color = theme.Color(theme.ColorNameForeground)
	p.bg.Refresh()
	p.label.Refresh()
	r.Layout(p.Size())
}

// headingLayout gives a palette heading a short row of its own.
type headingLayout struct{}

func (headingLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(objs[0].MinSize().Width+8, objs[0].MinSize().Height+6)
}

func (headingLayout) Layout(objs []fyne.CanvasObject, s fyne.Size) {
	objs[0].Move(fyne.NewPos(4, s.Height-objs[0].MinSize().Height-1))
	objs[0].Resize(objs[0].MinSize())
}
