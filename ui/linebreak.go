package ui

import (
	"sort"
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
)

// Where a line of window text may break (docs/product.md, "Languages"):
// after a space; between two Chinese characters, or between a Chinese
// character and a Latin one. Never inside a Latin run — "Ctrl+Z", a URL,
// a number stay whole — never before closing punctuation (、。，） …: a
// line does not start with it) and never after opening punctuation
// (（ …: a line does not end with it). Fyne's own wrapping breaks only at
// spaces and, where a line has none, anywhere, which in Chinese text cut
// "Ct/rl+Z" and left a lone "）" on a line.

// closing are the marks a line never starts with; opening those it never
// ends with.
const (
	// Written as escapes: the embedded CJK font covers the characters the
	// repository writes (scripts/cjk-font.sh), and most of these are never
	// shown by Workrun itself.
	closing = "\u3001\u3002\uFF0C\uFF0E\uFF1A\uFF1B\uFF01\uFF1F\uFF09\u300D\u300F\u3011\u3009\u300B\u3015\uFF3D\uFF5D\u3017\u3019\u301B\u201D\u2019\u2026\u2025\u00B7\u30FC\u3005\u3041\u3043\u3045\u3047\u3049\u3063\u3083\u3085\u3087\u308E" + ",.:;!?)]}%"
	opening = "\uFF08\u300C\u300E\u3010\u3008\u300A\u3014\uFF3B\uFF5B\u3016\u3018\u301A\u201C\u2018" + "([{"
)

// wide reports whether r is written in Chinese (or Japanese, Korean)
// text, where a line may break between characters.
func wide(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) ||
		r >= 0x3000 && r <= 0x303F || r >= 0xFF00 && r <= 0xFFEF
}

// mayBreak reports whether a line may break between a and b (b starts
// the next line).
func mayBreak(a, b rune) bool {
	switch {
	case strings.ContainsRune(closing, b), strings.ContainsRune(opening, a):
		return false
	case a == ' ':
		return true
	case b == ' ':
		return false // it breaks after the space
	}
	return wide(a) || wide(b)
}

// breakLines breaks s into lines for which fits holds, each as long as
// it can be, at the places mayBreak allows; the spaces at a break are
// dropped. A run with no such place that alone does not fit is cut where
// it must, though never so that a line starts with closing punctuation
// while the run has a character to carry it. Newlines in s end lines.
func breakLines(s string, fits func(string) bool) []string {
	var out []string
	for _, para := range strings.Split(s, "\n") {
		out = append(out, breakLine([]rune(para), fits)...)
	}
	return out
}

func breakLine(r []rune, fits func(string) bool) []string {
	var out []string
	for {
		if len(out) > 0 { // the spaces at a break
			r = []rune(strings.TrimLeft(string(r), " "))
		}
		if len(r) == 0 || fits(string(r)) {
			if len(r) > 0 || len(out) == 0 {
				out = append(out, string(r))
			}
			return out
		}
		// The breaks inside r, then the longest line up to one that fits.
		var at []int
		for i := 1; i < len(r); i++ {
			if mayBreak(r[i-1], r[i]) {
				at = append(at, i)
			}
		}
		line := func(i int) string { return strings.TrimRight(string(r[:i]), " ") }
		k := sort.Search(len(at), func(k int) bool { return !fits(line(at[k])) })
		if k > 0 {
			out = append(out, line(at[k-1]))
			r = r[at[k-1]:]
			continue
		}
		// No break fits: the longest prefix that does (at least a
		// character), moved back off closing punctuation.
		n := max(1, sort.Search(len(r), func(k int) bool { return !fits(string(r[:k+1])) }))
		m := n
		for m > 1 && m < len(r) && strings.ContainsRune(closing, r[m]) {
			m--
		}
		if m < len(r) && !strings.ContainsRune(closing, r[m]) {
			n = m // else nothing can carry it: cut where it fits
		}
		out = append(out, string(r[:n]))
		r = r[n:]
	}
}

// wrapText breaks s into lines no wider than width at text size, where a
// line may break (the run panel's message list wraps a long message so).
func wrapText(s string, width float32, size float32) []string {
	return breakLines(s, func(l string) bool { return fyne.MeasureText(l, size, fyne.TextStyle{}).Width <= width })
}
