package inspector

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// widthFree lays its objects out over its whole size but asks only for
// their height: the pane decides the width.
type widthFree struct{}

func (widthFree) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(1, h)
}

func (widthFree) Layout(objs []fyne.CanvasObject, s fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.Position{})
		o.Resize(s)
	}
}

// breakingLabel is a wrapping label whose lines break where the window
// breaks lines (Wording.Wrap), for text that mixes Chinese with Latin words
// (keys, ids): at each width it is laid out at, its text is broken into lines that fit. Full is the
// text as given (Text holds the broken lines).
type breakingLabel struct {
	widget.Label
	Full  string
	wrap  func(s string, width, size float32) []string
	width float32 // Text is broken for this width (0: not yet)
}

// newBreakingLabel is a breakingLabel showing text.
func newBreakingLabel(wrap func(s string, width, size float32) []string, text string) *breakingLabel {
	l := &breakingLabel{Full: text, wrap: wrap}
	l.Text = text
	l.Wrapping = fyne.TextWrapWord
	l.ExtendBaseWidget(l)
	return l
}

// SetText shows text, broken for the label's width.
func (l *breakingLabel) SetText(text string) {
	l.Full, l.width = text, 0
	l.Label.SetText(text)
	l.rebreak(l.Size().Width)
}

// Resize breaks the text for the new width before the label lays it out.
func (l *breakingLabel) Resize(s fyne.Size) {
	l.rebreak(s.Width)
	l.Label.Resize(s)
}

func (l *breakingLabel) rebreak(width float32) {
	if width <= 0 || width == l.width {
		return
	}
	l.width = width
	th := l.Theme()
	size := th.Size(theme.SizeNameText)
	// The label's text is inset by its inner padding on each side; a pixel
	// more for rounding keeps Fyne's own wrapping from cutting a line again.
	room := width - 2*th.Size(theme.SizeNameInnerPadding) - 1
	text := strings.Join(l.wrap(l.Full, room, size), "\n")
	if text != l.Text {
		l.Text = text
		l.Refresh()
	}
}
