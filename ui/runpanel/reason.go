package runpanel

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// reasonLines is how many lines of a run's failure or interruption reason
// the run panel's header gives room to. A longer reason scrolls there (and
// the failed node's detail shows its error whole), so at 1024×700 the node
// list keeps its five rows however long a server's error is (docs/product.md).
const reasonLines = 2

// cappedText is a wrapped label in a vertical scroll that is as tall as the
// label's text, up to a number of lines.
type cappedText struct {
	label  *widget.Label
	scroll *container.Scroll
	box    *fyne.Container
}

func newCappedText(l *widget.Label, lines int) *cappedText {
	ref := widget.NewLabel("")
	for i := 1; i < lines; i++ {
		ref.Text += "\n"
	}
	ref.TextStyle = l.TextStyle
	c := &cappedText{label: l, scroll: container.NewVScroll(l)}
	c.box = container.New(&cappedLayout{text: l, ref: ref}, c.scroll)
	c.Hide()
	return c
}

// Show shows text; a new text shows from its first line, the same text
// keeps where the person scrolled to.
func (c *cappedText) Show(text string) {
	if text != c.label.Text {
		c.label.SetText(text)
		c.scroll.ScrollToTop()
	}
	c.label.Show()
	c.box.Show()
}

func (c *cappedText) Hide() {
	c.label.Hide()
	c.box.Hide()
}

// cappedLayout sizes its one object (the scroll) to the label's height,
// never more than the reference label's (lines of text): a longer text shows
// its first lines and scrolls.
type cappedLayout struct {
	text *widget.Label
	ref  *widget.Label
}

func (c *cappedLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	s := c.text.MinSize()
	if max := c.ref.MinSize().Height; s.Height > max {
		// Without the bottom padding, so no part of the next line peeks in.
		s.Height = max - theme.InnerPadding()
	}
	return s
}

func (c *cappedLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}
