package canvas

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// minimapNodes is the workflow size from which the canvas shows a minimap.
const minimapNodes = 20

// Minimap size on screen.
var minimapSize = fyne.NewSize(180, 120)

// minimap is the overview in the canvas corner of a large workflow: every
// node as a dot, the visible part as a frame. Tapping it centres the view
// there. It is one raster, redrawn only when the view or the workflow changed.
type minimap struct {
	widget.BaseWidget
	cv     *View
	raster *canvas.Raster

	// The workflow area the picture covers (workflow coordinates).
	minX, minY, scale float32
}

func newMinimap(cv *View) *minimap {
	m := &minimap{cv: cv}
	m.raster = canvas.NewRaster(m.draw)
	m.ExtendBaseWidget(m)
	return m
}

func (m *minimap) CreateRenderer() fyne.WidgetRenderer { return widgetRendererFor(m.raster) }

// bounds computes the area of the workflow the picture shows.
func (m *minimap) bounds(w, h int) {
	minX, minY := float32(math.MaxFloat32), float32(math.MaxFloat32)
	maxX, maxY := float32(-math.MaxFloat32), float32(-math.MaxFloat32)
	for i := range m.cv.doc.Len() {
		p := m.cv.doc.PositionAt(i)
		minX, minY = min(minX, p.X), min(minY, p.Y)
		maxX, maxY = max(maxX, p.X+nodeW), max(maxY, p.Y+nodeH)
	}
	if m.cv.doc.Len() == 0 {
		minX, minY, maxX, maxY = 0, 0, 1, 1
	}
	m.minX, m.minY = minX, minY
	m.scale = min(float32(w)/(maxX-minX), float32(h)/(maxY-minY))
}

func (m *minimap) draw(w, h int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	bg := toNRGBA(theme.Color(theme.ColorNameOverlayBackground))
	bg.A = 0xe0
	draw.Draw(img, img.Bounds(), &image.Uniform{bg}, image.Point{}, draw.Src)
	m.bounds(w, h)
	dot := toNRGBA(theme.Color(theme.ColorNameForeground))
	sel := toNRGBA(theme.Color(theme.ColorNamePrimary))
	for i := range m.cv.doc.Len() {
		p := m.cv.doc.PositionAt(i)
		x0, y0 := int((p.X-m.minX)*m.scale), int((p.Y-m.minY)*m.scale)
		x1, y1 := max(x0+2, int((p.X+nodeW-m.minX)*m.scale)), max(y0+2, int((p.Y+nodeH-m.minY)*m.scale))
		c := dot
		if m.cv.doc.IsSelected(m.cv.doc.NodeAt(i).ID) {
			c = sel
		}
		draw.Draw(img, image.Rect(x0, y0, x1, y1), &image.Uniform{c}, image.Point{}, draw.Src)
	}
	// The part of the workflow the canvas shows now.
	tl := m.cv.ToWorkflow(fyne.Position{})
	br := m.cv.ToWorkflow(fyne.NewPos(m.cv.Size().Width, m.cv.Size().Height))
	r := image.Rect(int((tl.X-m.minX)*m.scale), int((tl.Y-m.minY)*m.scale), int((br.X-m.minX)*m.scale), int((br.Y-m.minY)*m.scale)).Intersect(img.Bounds())
	for x := r.Min.X; x < r.Max.X; x++ {
		img.Set(x, r.Min.Y, sel)
		img.Set(x, r.Max.Y-1, sel)
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		img.Set(r.Min.X, y, sel)
		img.Set(r.Max.X-1, y, sel)
	}
	return img
}

// Tapped centres the canvas on the tapped point.
func (m *minimap) Tapped(ev *fyne.PointEvent) {
	s := m.Size()
	m.bounds(int(s.Width), int(s.Height))
	if m.scale <= 0 {
		return
	}
	wx, wy := m.minX+ev.Position.X/m.scale, m.minY+ev.Position.Y/m.scale
	cv := m.cv
	cv.offset = fyne.NewPos(cv.Size().Width/2-wx*cv.zoom, cv.Size().Height/2-wy*cv.zoom)
	cv.layoutAll()
}

func toNRGBA(c color.Color) color.NRGBA {
	return color.NRGBAModel.Convert(c).(color.NRGBA)
}
