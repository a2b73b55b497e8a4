// Package panes lays out the window's body: the workflow list, the canvas
// column and the inspector side by side over the run tabs, with dividers
// the person drags; sizes are kept per screen size in the app's
// preferences. It is a widget package (ui/doc.go): it lays out what it is
// given and starts no goroutine.
package panes

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	wfcanvas "workrun/ui/canvas"
)

// Default pane sizes in pixels; the user's own sizes are kept in the app's
// preferences under the pref* keys.
const (
	DefaultListWidth      = 190
	DefaultInspectorWidth = 330
	DefaultBottomHeight   = 180 // the least the run panel opens with
	// RowsBottomHeight is what the run panel needs for its header, a
	// failure line and five node rows: the height it opens with unless
	// that would push a palette that fits otherwise into scrolling.
	RowsBottomHeight = 320
	PaletteWidth     = 150
	// CompactWidth is the body width under which the workflow list gives
	// way to the canvas (docs/product.md, "The window"): at 1024 wide the
	// list, palette and inspector left the canvas ~340 px, too little for
	// a sample at a readable zoom.
	CompactWidth = 1200

	minPane     = 120               // a pane is never narrower than this while shown
	minCanvas   = wfcanvas.MinWidth // the canvas keeps at least this much width
	DividerSize = 6
	// dividerGrab is how far past its 6 pixels a divider takes a drag, over
	// the edges of the panes beside it: Fyne gives a drag to what is under
	// the pointer a move or two after the press, so a press near the thin
	// bar used to drag the canvas (pan, or move the selected node) instead.
	dividerGrab = 5

	PrefListWidth      = "layout.list_width"
	PrefInspectorWidth = "layout.inspector_width"
	PrefBottomHeight   = "layout.bottom_height"
	PrefListShown      = "layout.list_shown"
	PrefInspectorShown = "layout.inspector_shown"
)

// MinSize is the smallest body the panes ask for. It is a constant,
// not a sum of what the panes hold: the window's minimum size must never
// come from content (a long error line once widened the window past the
// screen), so panes clip or wrap instead.
var MinSize = fyne.NewSize(560, 360)

// Panes lays out the window body: the workflow list, the canvas column and
// the inspector side by side over the run tabs across the whole width. Each
// side pane has a width of its own that the user drags (and the app
// remembers); the canvas gets whatever is left.
type Panes struct {
	widget.BaseWidget
	prefs fyne.Preferences

	list, centre, insp, bottom  fyne.CanvasObject
	divList, divInsp, divBottom *Divider

	listW, inspW, bottomH float32
	listOn, inspOn        bool
	// compact is whether the last layout was narrower than CompactWidth;
	// compactListOn is the list's state there: hidden until the person
	// opens it, and never written to PrefListShown (the wide window's choice).
	compact, compactListOn bool
	bottomSet              bool // the person chose bottomH (dragged it, now or before)
	// shownBottomH is the run panel's height as last laid out: taller than
	// bottomH while BottomWant asks for more. A drag starts from it, so the
	// divider follows the pointer from where it is drawn.
	shownBottomH float32
	// screen suffixes the preference keys: sizes are kept per screen size
	// ("" until UseScreen).
	screen string

	// TopWant, when set, is the height the panes above the run panel would
	// like (the palette's whole list): see DefaultBottom.
	TopWant func() float32
	// BottomWant, when set and above 0, is the height the run panel needs
	// now (a question's whole form): it gets it, up to 70 % of the body,
	// without changing the height the person chose.
	BottomWant func() float32
	// RunShown, when set, reports whether the run panel shows a run; while
	// it shows none the editor keeps at least 45 % of the height.
	RunShown func() bool
}

// New lays out the four panes; prefs (may be nil) keeps the sizes.
func New(prefs fyne.Preferences, list, centre, insp, bottom fyne.CanvasObject) *Panes {
	p := &Panes{prefs: prefs, list: list, centre: centre, insp: insp, bottom: bottom,
		listW: DefaultListWidth, inspW: DefaultInspectorWidth, bottomH: DefaultBottomHeight, listOn: true, inspOn: true}
	if prefs != nil {
		p.listW = float32(prefs.FloatWithFallback(PrefListWidth, DefaultListWidth))
		p.inspW = float32(prefs.FloatWithFallback(PrefInspectorWidth, DefaultInspectorWidth))
		if h := prefs.FloatWithFallback(PrefBottomHeight, 0); h > 0 {
			p.bottomH, p.bottomSet = float32(h), true
		}
		p.listOn = prefs.BoolWithFallback(PrefListShown, true)
		p.inspOn = prefs.BoolWithFallback(PrefInspectorShown, true)
	}
	p.divList = newDivider(true, func(d float32) { p.listW += d })
	p.divInsp = newDivider(true, func(d float32) { p.inspW -= d })
	p.divBottom = newDivider(false, func(d float32) {
		if p.shownBottomH > 0 {
			p.bottomH = p.shownBottomH
		}
		p.bottomH -= d
		p.bottomSet = true
	})
	for _, dv := range []*Divider{p.divList, p.divInsp, p.divBottom} {
		dv.done, dv.owner = p.remember, p
	}
	p.ExtendBaseWidget(p)
	return p
}

// ToggleList and ToggleInspector collapse or reopen a side pane. In a
// compact body the list's toggle lasts only while the body stays compact.
func (p *Panes) ToggleList() {
	if p.compact {
		p.compactListOn = !p.compactListOn
		p.Refresh()
		return
	}
	p.listOn = !p.listOn
	p.remember()
	p.Refresh()
}

// ListShown reports whether the workflow list is open at the current width.
func (p *Panes) ListShown() bool {
	if p.compact {
		return p.compactListOn
	}
	return p.listOn
}

func (p *Panes) ToggleInspector() { p.inspOn = !p.inspOn; p.remember(); p.Refresh() }

// ShowInspector opens the inspector if it was collapsed.
func (p *Panes) ShowInspector() {
	if !p.inspOn {
		p.ToggleInspector()
	}
}

// UseScreen keeps the pane sizes per screen size from now on: the sizes
// the person dragged on a screen of this size come back; a screen size not
// seen before keeps the side widths and starts with the default run panel
// height (a height dragged on a tall screen is not one for a short one).
func (p *Panes) UseScreen(key string) {
	p.screen = "." + key
	if p.prefs == nil {
		return
	}
	p.listW = float32(p.prefs.FloatWithFallback(PrefListWidth+p.screen, float64(p.listW)))
	p.inspW = float32(p.prefs.FloatWithFallback(PrefInspectorWidth+p.screen, float64(p.inspW)))
	if h := p.prefs.FloatWithFallback(PrefBottomHeight+p.screen, 0); h > 0 {
		p.bottomH, p.bottomSet = float32(h), true
	} else {
		p.bottomH, p.bottomSet = DefaultBottomHeight, false
	}
	p.Refresh()
}

// BottomChosen reports whether the run panel's height is the person's own
// (dragged, now or in an earlier session): it then wins over what the
// selected node's detail would fit.
func (p *Panes) BottomChosen() bool { return p.bottomSet }

// Parts are the panes as laid out: the workflow list, the canvas column,
// the inspector and the run tabs (the window's layout tests measure them).
func (p *Panes) Parts() (list, centre, insp, bottom fyne.CanvasObject) {
	return p.list, p.centre, p.insp, p.bottom
}

// Dividers are the handles between the list and the canvas, the canvas and
// the inspector, and above the run tabs.
func (p *Panes) Dividers() (list, insp, bottom *Divider) { return p.divList, p.divInsp, p.divBottom }

// Sizes are the person's pane sizes: the list's and the inspector's widths
// and the run panel's height (before BottomWant).
func (p *Panes) Sizes() (listW, inspW, bottomH float32) { return p.listW, p.inspW, p.bottomH }

// SetInspectorWidth sets the inspector's width, as dragging its divider
// does (kept once remembered).
func (p *Panes) SetInspectorWidth(w float32) { p.inspW = w; p.Refresh() }

// KeepSizes takes old's sizes and shown panes (the window was rebuilt:
// a language switch): what the person dragged and toggled, and the
// screen the sizes are kept for, stay as they were.
func (p *Panes) KeepSizes(old *Panes) {
	p.listW, p.inspW, p.bottomH, p.bottomSet = old.listW, old.inspW, old.bottomH, old.bottomSet
	p.listOn, p.inspOn, p.compact, p.compactListOn = old.listOn, old.inspOn, old.compact, old.compactListOn
	p.screen = old.screen
	p.Refresh()
}

func (p *Panes) remember() {
	if p.prefs == nil {
		return
	}
	p.prefs.SetFloat(PrefListWidth, float64(p.listW))
	p.prefs.SetFloat(PrefInspectorWidth, float64(p.inspW))
	if p.bottomSet {
		p.prefs.SetFloat(PrefBottomHeight, float64(p.bottomH))
	}
	if p.screen != "" {
		p.prefs.SetFloat(PrefListWidth+p.screen, float64(p.listW))
		p.prefs.SetFloat(PrefInspectorWidth+p.screen, float64(p.inspW))
		if p.bottomSet {
			p.prefs.SetFloat(PrefBottomHeight+p.screen, float64(p.bottomH))
		}
	}
	p.prefs.SetBool(PrefListShown, p.listOn)
	p.prefs.SetBool(PrefInspectorShown, p.inspOn)
}

func (p *Panes) CreateRenderer() fyne.WidgetRenderer { return &panesRenderer{p: p} }

type panesRenderer struct{ p *Panes }

func (r *panesRenderer) Destroy()           {}
func (r *panesRenderer) MinSize() fyne.Size { return MinSize }
func (r *panesRenderer) Refresh()           { r.Layout(r.p.Size()) }
func (r *panesRenderer) Objects() []fyne.CanvasObject {
	p := r.p
	return []fyne.CanvasObject{p.list, p.centre, p.insp, p.bottom, p.divList, p.divInsp, p.divBottom}
}

// Layout clamps the remembered sizes to the space there is, the canvas
// first: side panes shrink before the canvas drops under minCanvas.
func (r *panesRenderer) Layout(s fyne.Size) {
	p := r.p
	if s.Width <= 0 || s.Height <= 0 {
		return
	}
	if !p.bottomSet {
		p.bottomH = p.DefaultBottom(s.Height)
	}
	p.bottomH = clamp(p.bottomH, 60, s.Height*0.7)
	bottomH := p.bottomH
	if p.RunShown != nil && !p.RunShown() {
		bottomH = min(bottomH, max(60, s.Height*0.55-DividerSize))
	}
	if p.BottomWant != nil {
		if want := min(p.BottomWant(), s.Height*0.7); want > bottomH {
			bottomH = want
		}
	}
	p.shownBottomH = bottomH
	topH := s.Height - bottomH - DividerSize
	compact := s.Width < CompactWidth
	if compact && !p.compact {
		p.compactListOn = false // each narrowing starts with the list away
	}
	p.compact = compact
	listOn := p.ListShown()
	listW, inspW := float32(0), float32(0)
	if listOn {
		p.listW = clamp(p.listW, minPane, s.Width*0.35)
		listW = p.listW
	}
	if p.inspOn {
		p.inspW = clamp(p.inspW, 200, s.Width*0.5)
		inspW = p.inspW
	}
	// Room for the canvas: take it from the inspector, then from the list.
	side := func() float32 { return s.Width - listW - inspW - 2*DividerSize }
	if short := minCanvas - side(); short > 0 && inspW > 0 {
		inspW = max(200, inspW-short)
	}
	if short := minCanvas - side(); short > 0 && listW > 0 {
		listW = max(minPane, listW-short)
	}
	x := float32(0)
	place := func(o fyne.CanvasObject, on bool, w float32) {
		if !on {
			o.Hide()
			return
		}
		o.Show()
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(w, topH))
		x += w
	}
	placeDivider := func(d *Divider, on bool) {
		if !on {
			d.Hide()
			return
		}
		d.Show()
		// The inspector's divider also takes the canvas's edge; the list's
		// does not reach over the list's scroll bar or the palette's items.
		grab := float32(0)
		if d == p.divInsp {
			grab = dividerGrab
		}
		d.Move(fyne.NewPos(x-grab, 0))
		d.Resize(fyne.NewSize(DividerSize+grab, topH))
		x += DividerSize
	}
	place(p.list, listOn, listW)
	placeDivider(p.divList, listOn)
	place(p.centre, true, max(0, s.Width-listW-inspW-DividerSize*(b2f(listOn)+b2f(p.inspOn))))
	placeDivider(p.divInsp, p.inspOn)
	place(p.insp, p.inspOn, inspW)
	p.divBottom.Move(fyne.NewPos(0, topH-dividerGrab))
	p.divBottom.Resize(fyne.NewSize(s.Width, DividerSize+2*dividerGrab))
	p.bottom.Move(fyne.NewPos(0, topH+DividerSize))
	p.bottom.Resize(fyne.NewSize(s.Width, bottomH))
}

// DefaultBottom is the run panel's height until the person drags it: room
// for five node rows (RowsBottomHeight), except where the palette above
// would fit whole with a lower panel and not with that one — then the
// palette keeps its room and the panel takes the rest, never under
// DefaultBottomHeight. Where the palette cannot fit anyway (a short window:
// 1024×700) it scrolls and the run panel gets its five rows.
func (p *Panes) DefaultBottom(h float32) float32 {
	if p.TopWant == nil {
		return RowsBottomHeight
	}
	left := h - DividerSize - p.TopWant()
	switch {
	case left >= RowsBottomHeight, left < DefaultBottomHeight:
		return RowsBottomHeight
	default:
		return left
	}
}

func b2f(b bool) float32 {
	if b {
		return 1
	}
	return 0
}

func clamp(v, lo, hi float32) float32 {
	if hi < lo {
		hi = lo
	}
	return max(lo, min(hi, v))
}

// Divider is the handle between two panes; dragging it resizes them. The
// run panel's divider is laid out dividerGrab pixels wider on each side
// than the gap it draws its line in, the inspector's on the canvas side;
// dividers come after the panes in the renderer's objects, so that strip
// takes the drag.
type Divider struct {
	widget.BaseWidget
	vertical bool // a vertical bar between side-by-side panes
	moved    func(delta float32)
	done     func()
	owner    *Panes
	bar      *canvas.Rectangle
}

func newDivider(vertical bool, moved func(float32)) *Divider {
	d := &Divider{vertical: vertical, moved: moved, bar: canvas.NewRectangle(theme.Color(theme.ColorNameSeparator))}
	d.ExtendBaseWidget(d)
	return d
}

func (d *Divider) Cursor() desktop.Cursor {
	if d.vertical {
		return desktop.HResizeCursor
	}
	return desktop.VResizeCursor
}

func (d *Divider) Dragged(ev *fyne.DragEvent) {
	if d.vertical {
		d.moved(ev.Dragged.DX)
	} else {
		d.moved(ev.Dragged.DY)
	}
	if p, ok := d.parent(); ok {
		p.Refresh()
	}
}

func (d *Divider) DragEnd() {
	if d.done != nil {
		d.done()
	}
}

// parent is the Panes the divider belongs to (New sets it).
func (d *Divider) parent() (*Panes, bool) { return d.owner, d.owner != nil }

func (d *Divider) CreateRenderer() fyne.WidgetRenderer {
	return &dividerRenderer{d: d}
}

type dividerRenderer struct{ d *Divider }

func (r *dividerRenderer) Destroy()                     {}
func (r *dividerRenderer) MinSize() fyne.Size           { return fyne.NewSize(DividerSize, DividerSize) }
func (r *dividerRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.d.bar} }
func (r *dividerRenderer) Refresh() {
	r.d.bar.FillColor = theme.Color(theme.ColorNameSeparator)
	r.d.bar.Refresh()
}

// Layout draws a 2-px line in the middle of the gap between the panes
// (the handle may reach further to the left, see Panes' Layout).
func (r *dividerRenderer) Layout(s fyne.Size) {
	if r.d.vertical {
		r.d.bar.Move(fyne.NewPos(s.Width-DividerSize/2-1, 0))
		r.d.bar.Resize(fyne.NewSize(2, s.Height))
	} else {
		r.d.bar.Move(fyne.NewPos(0, s.Height/2-1))
		r.d.bar.Resize(fyne.NewSize(s.Width, 2))
	}
}
