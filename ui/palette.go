package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// paletteItem adds a node: tap to add it in the middle of the canvas, or
// drag it onto the canvas to drop it where it lands.
type paletteItem struct {
	widget.Button
	cv    *CanvasView
	kind  string
	drag  fyne.Delta
	start fyne.Position
	on    bool
}

func newPaletteItem(cv *CanvasView, kind string) *paletteItem {
	p := &paletteItem{cv: cv, kind: kind}
	p.Text = KindLabel(kind)
	p.Icon = KindIcon(kind)
	p.Alignment = widget.ButtonAlignLeading
	p.OnTapped = func() { cv.AddKind(kind) }
	p.ExtendBaseWidget(p)
	return p
}

func (p *paletteItem) Dragged(ev *fyne.DragEvent) {
	if !p.on {
		p.on = true
		p.drag = fyne.Delta{}
		p.start = ev.Position.Subtract(ev.Dragged)
	}
	p.drag.DX += ev.Dragged.DX
	p.drag.DY += ev.Dragged.DY
}

func (p *paletteItem) DragEnd() {
	if !p.on {
		return
	}
	p.on = false
	d := fyne.CurrentApp().Driver()
	abs := d.AbsolutePositionForObject(p).Add(p.start).AddXY(p.drag.DX, p.drag.DY)
	local := abs.Subtract(d.AbsolutePositionForObject(p.cv))
	if local.X < 0 || local.Y < 0 || local.X > p.cv.Size().Width || local.Y > p.cv.Size().Height || p.cv.readOnly {
		return
	}
	pos := p.cv.ToWorkflow(local.SubtractXY(nodeW*p.cv.zoom/2, nodeH*p.cv.zoom/2))
	p.cv.doc.AddNode(p.kind, pos)
}
