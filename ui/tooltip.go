package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// tipLayer draws one tooltip above the window content. It holds only a
// rectangle and a text, which take no pointer events, so the widget under
// the pointer keeps its hover.
type tipLayer struct {
	root *fyne.Container
	bg   *canvas.Rectangle
	text *canvas.Text
	win  fyne.Window
}

func newTipLayer(win fyne.Window) *tipLayer {
	t := &tipLayer{win: win, bg: canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground)),
		text: canvas.NewText("", theme.Color(theme.ColorNameForeground))}
	t.bg.StrokeColor = theme.Color(theme.ColorNameSeparator)
	t.bg.StrokeWidth = 1
	t.bg.CornerRadius = 3
	t.text.TextSize = theme.CaptionTextSize()
	t.root = container.NewWithoutLayout(t.bg, t.text)
	t.hide()
	return t
}

// show puts the tip under (or, at the bottom of the window, above) the
// object o, kept inside the window.
func (t *tipLayer) show(o fyne.CanvasObject, text string) {
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

func (t *tipLayer) hide() {
	if t == nil {
		return
	}
	t.bg.Hide()
	t.text.Hide()
	t.root.Refresh()
}

// Text returns the tooltip shown now, "" when none.
func (t *tipLayer) Text() string {
	if t == nil || !t.text.Visible() {
		return ""
	}
	return t.text.Text
}

// tipButton is a button that names what it does in a tooltip on hover
// (icon-only buttons have no other text).
type tipButton struct {
	widget.Button
	tip  string
	tips *tipLayer
}

func newTipButton(tips *tipLayer, label string, icon fyne.Resource, tip string, f func()) *tipButton {
	b := &tipButton{tip: tip, tips: tips}
	b.Text, b.Icon, b.OnTapped = label, icon, f
	b.ExtendBaseWidget(b)
	return b
}

func (b *tipButton) MouseIn(ev *desktop.MouseEvent) {
	b.Button.MouseIn(ev)
	b.tips.show(b, b.tip)
}

func (b *tipButton) MouseOut() {
	b.Button.MouseOut()
	b.tips.hide()
}

func (b *tipButton) Tapped(ev *fyne.PointEvent) {
	b.tips.hide()
	b.Button.Tapped(ev)
}

// tipLabel is a one-line label that truncates with "…" and shows its whole
// text in a tooltip on hover, so a long line never widens the window.
type tipLabel struct {
	widget.Label
	tips *tipLayer
}

func newTipLabel(tips *tipLayer) *tipLabel {
	l := &tipLabel{tips: tips}
	l.Truncation = fyne.TextTruncateEllipsis
	l.ExtendBaseWidget(l)
	return l
}

func (l *tipLabel) MouseIn(*desktop.MouseEvent) {
	if l.Text != "" {
		l.tips.show(l, l.Text)
	}
}
func (l *tipLabel) MouseMoved(*desktop.MouseEvent) {}
func (l *tipLabel) MouseOut()                      { l.tips.hide() }
