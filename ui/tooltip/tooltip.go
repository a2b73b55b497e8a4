// Package tooltip draws the window's tooltips: one Layer above the window
// content and the widgets that show their words on it on hover (Button, Label).
// It is a widget package (ui/doc.go): it starts no goroutine and holds no
// state but what it draws.
package tooltip

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Layer draws one tooltip above the window content. It holds only a
// rectangle and a text, which take no pointer events, so the widget under
// the pointer keeps its hover.
type Layer struct {
	root *fyne.Container
	bg   *canvas.Rectangle
	text *canvas.Text
	win  fyne.Window
}

// NewLayer makes the tooltip layer of win; the window stacks Root() above
// its content.
func NewLayer(win fyne.Window) *Layer {
	t := &Layer{win: win, bg: canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground)),
		text: canvas.NewText("", theme.Color(theme.ColorNameForeground))}
	t.bg.StrokeColor = theme.Color(theme.ColorNameSeparator)
	t.bg.StrokeWidth = 1
	t.bg.CornerRadius = 3
	t.text.TextSize = theme.CaptionTextSize()
	t.root = container.NewWithoutLayout(t.bg, t.text)
	t.Hide()
	return t
}

// Show puts the tip under (or, at the bottom of the window, above) the
// object o, kept inside the window.
func (t *Layer) Show(o fyne.CanvasObject, text string) {
	if t == nil || text == "" {
		return
	}
	t.text.Text = text
	t.text.Color = theme.Color(theme.ColorNameForeground)
	ts := t.text.MinSize()
	size := ts.AddWidthHeight(12, 8)
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	win := t.win.Canvas().Size()
	p := at.AddXY(0, o.Size().Height+4)
	if p.Y+size.Height > win.Height {
		p = at.SubtractXY(0, size.Height+4)
	}
	p.X = max(0, min(p.X, win.Width-size.Width))
	t.bg.Move(p)
	t.bg.Resize(size)
	t.text.Move(p.AddXY(6, 4))
	t.text.Resize(ts)
	t.bg.Show()
	t.text.Show()
	t.root.Refresh()
}

// Hide takes the tip shown away.
func (t *Layer) Hide() {
	if t == nil {
		return
	}
	t.bg.Hide()
	t.text.Hide()
	t.root.Refresh()
}

// Root is the layer's canvas object, stacked above the window content.
func (t *Layer) Root() fyne.CanvasObject { return t.root }

// Text returns the tooltip shown now, "" when none.
func (t *Layer) Text() string {
	if t == nil || !t.text.Visible() {
		return ""
	}
	return t.text.Text
}

// Button is a button that names what it does in a tooltip on hover
// (icon-only buttons have no other text).
type Button struct {
	widget.Button
	tip  string
	tips *Layer
}

// NewButton makes a button labelled label (may be "") with icon whose
// tooltip on tips says tip.
func NewButton(tips *Layer, label string, icon fyne.Resource, tip string, f func()) *Button {
	b := &Button{tip: tip, tips: tips}
	b.Text, b.Icon, b.OnTapped = label, icon, f
	b.ExtendBaseWidget(b)
	return b
}

func (b *Button) MouseIn(ev *desktop.MouseEvent) {
	b.Button.MouseIn(ev)
	b.tips.Show(b, b.tip)
}

func (b *Button) MouseOut() {
	b.Button.MouseOut()
	b.tips.Hide()
}

func (b *Button) Tapped(ev *fyne.PointEvent) {
	b.tips.Hide()
	b.Button.Tapped(ev)
}

// Label is a one-line label that truncates with "…" and shows its whole
// text in a tooltip on hover, so a long line never widens the window.
type Label struct {
	widget.Label
	tips *Layer
}

// NewLabel makes a truncating label whose whole text shows on tips.
func NewLabel(tips *Layer) *Label {
	l := &Label{tips: tips}
	l.Truncation = fyne.TextTruncateEllipsis
	l.ExtendBaseWidget(l)
	return l
}

func (l *Label) MouseIn(*desktop.MouseEvent) {
	if l.Text != "" {
		l.tips.Show(l, l.Text)
	}
}
func (l *Label) MouseMoved(*desktop.MouseEvent) {}
func (l *Label) MouseOut()                      { l.tips.Hide() }
