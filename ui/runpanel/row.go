package runpanel

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// msgRow is one row of the message list: a single line of text placed as a
// Label places it. A Label shapes its text as rich text and measures it
// again to cut it to the row on every change; a stream changes every
// visible row each frame, so the row is one canvas.Text, cut to a fixed
// number of characters beforehand (rowLine) and clipped by the list.
type msgRow struct {
	widget.BaseWidget
	text *canvas.Text
}

func newMsgRow() *msgRow {
	r := &msgRow{text: canvas.NewText("", nil)}
	r.ExtendBaseWidget(r)
	return r
}

// SetText shows s; an unchanged line is not redrawn.
func (r *msgRow) SetText(s string) {
	if r.text.Text == s {
		return
	}
	r.text.Text = s
	r.text.Refresh()
}

func (r *msgRow) CreateRenderer() fyne.WidgetRenderer {
	rr := &msgRowRenderer{row: r}
	rr.Refresh()
	return rr
}

type msgRowRenderer struct {
	row *msgRow
}

func (rr *msgRowRenderer) Destroy() {}

func (rr *msgRowRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{rr.row.text}
}

func (rr *msgRowRenderer) Layout(size fyne.Size) {
	pad := rr.row.Theme().Size(theme.SizeNameInnerPadding)
	rr.row.text.Move(fyne.NewPos(pad, pad))
	rr.row.text.Resize(fyne.NewSize(max(0, size.Width-2*pad), max(0, size.Height-2*pad)))
}

// MinSize is one line of text with a Label's padding; it does not depend
// on the line shown, so no row is measured.
func (rr *msgRowRenderer) MinSize() fyne.Size {
	th := rr.row.Theme()
	pad := th.Size(theme.SizeNameInnerPadding)
	line := fyne.MeasureText("M", th.Size(theme.SizeNameText), fyne.TextStyle{})
	return fyne.NewSize(line.Width+2*pad, line.Height+2*pad)
}

func (rr *msgRowRenderer) Refresh() {
	th := rr.row.Theme()
	t := rr.row.text
	t.Color = th.Color(theme.ColorNameForeground, fyne.CurrentApp().Settings().ThemeVariant())
	t.TextSize = th.Size(theme.SizeNameText)
	t.Refresh()
}
