package runpanel

import (
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// A long message wraps in the message list (issue 23 item 10): the list
// shows visual rows, one per line of a wrapped message, all of the same
// height, so the list keeps Fyne's fixed-height path (no per-row height
// that makes every layout walk all rows). A message that fits takes one
// row; rowWraps says where the others' continuation rows are.

// rowWraps maps a node's messages to the list's visual rows at one width.
// Each message is read once as it arrives: its width is estimated from the
// advance of each of its characters (measured once per character, kept in
// adv), so a stream of short lines costs no text measuring; only a message
// whose estimate comes near the width is measured and wrapped.
type rowWraps struct {
	width float32   // text width wrapped for (0: not laid out yet, no wraps)
	n     int       // messages indexed
	est   []float32 // estimated width of each message as the list shows it
	long  []wrapped
	rows  int // visual rows of the n messages
	adv   advances
}

// advances is the width of single characters at one text size: ASCII in
// an array, the rest in a map, each measured the first time it is seen.
type advances struct {
	size  float32
	ascii [128]float32
	other map[rune]float32
}

// of is the estimated width of s: the sum of its characters' advances. It
// leaves out kerning, which narrows text, so index keeps a margin.
func (a *advances) of(s string, size float32) float32 {
	if a.size != size {
		*a = advances{size: size}
	}
	var w float32
	for _, r := range s {
		if r < 128 {
			if a.ascii[r] == 0 {
				a.ascii[r] = max(fyne.MeasureText(string(r), size, fyne.TextStyle{}).Width, 0.01)
			}
			w += a.ascii[r]
			continue
		}
		v, ok := a.other[r]
		if !ok {
			if a.other == nil {
				a.other = map[rune]float32{}
			}
			v = fyne.MeasureText(string(r), size, fyne.TextStyle{}).Width
			a.other[r] = v
		}
		w += v
	}
	return w
}

// wrapped is a message shown on more than one row: first is its first
// visual row.
type wrapped struct {
	msg, first int
	lines      []string
}

// index brings w up to date with the log's l messages at width (a new
// width re-wraps all of them; the estimates are kept).
func (w *rowWraps) index(words Wording, l *msgLog, width float32, th fyne.Theme) {
	if width != w.width {
		w.width, w.n, w.long, w.rows = width, 0, w.long[:0], 0
	}
	n := l.len()
	size := th.Size(theme.SizeNameText)
	// Below this estimate a message surely fits: kerning only narrows a
	// line, and the margin covers rounding of many advances.
	fit := float32(1 << 30)
	if width > 0 {
		fit = 0.95*width - size
	}
	for i := w.n; i < n; i++ {
		var s string
		if i >= len(w.est) {
			s = rowLine(words, *l.at(i))
			w.est = append(w.est, w.adv.of(s, size))
		}
		if w.est[i] > fit {
			if s == "" {
				s = rowLine(words, *l.at(i))
			}
			if lines := words.Wrap(s, width, size); len(lines) > 1 {
				w.long = append(w.long, wrapped{msg: i, first: w.rows, lines: lines})
				w.rows += len(lines)
				continue
			}
		}
		w.rows++
	}
	w.n = n
}

// truncate forgets what it knows of message pos and those after it (a
// message there changed its words).
func (w *rowWraps) truncate(pos int) {
	if pos >= w.n {
		return
	}
	k := sort.Search(len(w.long), func(k int) bool { return w.long[k].msg >= pos })
	w.rows = pos
	if k > 0 {
		lw := w.long[k-1]
		w.rows = lw.first + len(lw.lines) + pos - lw.msg - 1
	}
	w.long, w.n, w.est = w.long[:k], pos, w.est[:pos]
}

// at is the message and the part of it (0: its first line) on visual row v,
// and the words the row shows ("" for a message that fits: the caller
// shows rowLine).
func (w *rowWraps) at(v int) (msg, part int, line string) {
	k := sort.Search(len(w.long), func(k int) bool { return w.long[k].first > v }) - 1
	if k < 0 {
		return v, 0, ""
	}
	lw := w.long[k]
	if v < lw.first+len(lw.lines) {
		return lw.msg, v - lw.first, lw.lines[v-lw.first]
	}
	return lw.msg + 1 + v - (lw.first + len(lw.lines)), 0, ""
}

// msgListLayout lays the message list out at the panel's size and, when
// its width changes, re-wraps the shown node's messages to it.
type msgListLayout struct{ p *Panel }

func (l msgListLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Resize(size)
	}
	if s := l.p.shown; s != nil && l.p.wrapWidth(size.Width) != s.wraps.width {
		l.p.refreshMessages()
	}
}

func (l msgListLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	return objs[0].MinSize()
}

// wrapWidth is the text width of a row of a list listWidth wide (the row's
// padding is msgRowRenderer.Layout's).
func (p *Panel) wrapWidth(listWidth float32) float32 {
	pad := p.msgList.Theme().Size(theme.SizeNameInnerPadding)
	return max(0, listWidth-2*pad)
}
