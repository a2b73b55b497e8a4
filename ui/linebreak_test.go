package ui

import (
	"strings"
	"testing"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// latinRun reports whether r belongs to a Latin run that never breaks
// ("Ctrl+Shift+Z", "Ctrl+C/V").
func latinRun(r rune) bool {
	return r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("+/=-_.", r))
}

// badBreaks lists the breaks between the lines of s that cut a Latin
// run or start a line with closing punctuation (a break at a space drops
// the space).
func badBreaks(s string, lines []string) []string {
	var bad []string
	r := []rune(s)
	pos := 0
	for i, l := range lines {
		pos += len([]rune(l))
		if i == len(lines)-1 || pos == 0 || pos >= len(r) {
			continue
		}
		spaces := 0
		for pos < len(r) && r[pos] == ' ' {
			pos, spaces = pos+1, spaces+1
		}
		if pos >= len(r) {
			continue
		}
		a, b := r[pos-spaces-1], r[pos]
		if spaces == 0 && latinRun(a) && latinRun(b) || strings.ContainsRune(closing, b) {
			bad = append(bad, l+" / "+lines[i+1])
		}
	}
	return bad
}

// TestLinesBreakWhereTheyMay: Chinese text mixed with keys breaks between
// Chinese characters, never inside "Ctrl+Z" and never before "）" or "，";
// English breaks at spaces only. Checked on the run panel's message
// wrapping at many widths, and on the inspector's hint as the window
// draws it in both languages.
func TestLinesBreakWhereTheyMay(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: kindsEngine()})
	t.Cleanup(func() { SetupLanguage("en") })
	size := theme.TextSize()
	zh := []string{
		windowWord("zh-Hans", "insp.hint2", ""),
		windowWord("zh-Hans", "keys.entry_note", ""),
		windowWord("zh-Hans", "help.first", ""),
		"节点（远程智能体）失败了（Ctrl+Z 可撤销）",
	}
	for _, s := range zh {
		if s == "" {
			t.Fatal("a catalogue text is missing")
		}
		for width := float32(110); width < 420; width += 7 { // from about the width of "Ctrl+Shift+Z"
			lines := wrapText(s, width, size)
			if bad := badBreaks(s, lines); len(bad) > 0 {
				t.Errorf("at %v px the message %q breaks as %q", width, s, bad)
				break
			}
			for _, l := range lines {
				if fyne.MeasureText(l, size, fyne.TextStyle{}).Width > width && len([]rune(l)) > 1 && !strings.ContainsFunc(l, latinRun) {
					t.Errorf("at %v px the line %q is wider", width, l)
				}
			}
			if got := strings.ReplaceAll(strings.Join(lines, ""), " ", ""); got != strings.ReplaceAll(s, " ", "") {
				t.Errorf("at %v px the lines %q lose words of %q", width, lines, s)
			}
		}
	}

	// The inspector's hint with no node selected, as drawn.
	hintRows := func() []string {
		var rows []string
		onUI(w, func() {
			o := w.insp.Widget("hint")
			for _, x := range test.LaidOutObjects(o) {
				if t, ok := x.(*canvas.Text); ok && t.Text != "" {
					rows = append(rows, t.Text)
				}
			}
		})
		return rows
	}
	for _, code := range []string{"zh-Hans", "en"} {
		onUI(w, func() { w.SetLanguage(code) })
		for _, width := range []float32{180, 230, 300, 330} {
			onUI(w, func() {
				w.panes.SetInspectorWidth(width)
				w.doc.ClearSelection()
				w.insp.Show()
			})
			rows := hintRows()
			if len(rows) < 2 {
				t.Fatalf("%s at %v px: the hint has %d rows: %q", code, width, len(rows), rows)
			}
			full := w.loc.X("insp.hint2", "") // the hint as the catalogue has it, unbroken
			if bad := badBreaks(full, rows); len(bad) > 0 {
				t.Errorf("%s: the inspector %v px wide breaks its hint as %q", code, width, bad)
			}
		}
	}
}

// TestBreakLinesCases: the places breakLines breaks, one by one.
func TestBreakLinesCases(t *testing.T) {
	// A "width" of n characters.
	chars := func(n int) func(string) bool {
		return func(s string) bool { return len([]rune(s)) <= n }
	}
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"按 Ctrl+Z 撤销", 7, "按|Ctrl+Z|撤销"},
		{"撤销用Ctrl+Z键", 7, "撤销用|Ctrl+Z键"},
		{"失败了（超时）。", 6, "失败了（超|时）。"},
		{"一二三四五，六", 5, "一二三四|五，六"},
		{"））））", 2, "））|））"},
		{"见（附件）", 2, "见|（附|件）"},
		{"hello world again", 11, "hello world|again"},
		{"abcdefghij", 4, "abcd|efgh|ij"},
		{"", 3, ""},
		{"一行\n二行", 10, "一行|二行"},
	} {
		if got := strings.Join(breakLines(c.s, chars(c.n)), "|"); got != c.want {
			t.Errorf("breakLines(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

// TestWrapText: every line fits, no word is lost, a word wider than the
// width is cut inside it, and Chinese (no spaces) wraps too.
func TestWrapText(t *testing.T) {
	test.NewTempApp(t)
	size := theme.TextSize()
	for _, s := range []string{
		"15:04:05  " + strings.Repeat("word ", 60) + "end",
		strings.Repeat("x", 300),
		strings.Repeat("代理正在读取每一个来源并比较它们，", 8) + "完",
	} {
		lines := wrapText(s, 300, size)
		if len(lines) < 2 {
			t.Errorf("%q: %d lines at 300 wide", s, len(lines))
		}
		for _, l := range lines {
			if w := fyne.MeasureText(l, size, fyne.TextStyle{}).Width; w > 300 || l == "" {
				t.Errorf("line %q is %.0f wide (max 300)", l, w)
			}
		}
		squash := func(s string) string { return strings.Join(strings.Fields(s), "") }
		if squash(strings.Join(lines, "")) != squash(s) {
			t.Errorf("wrapped lines %q lose words of %q", lines, s)
		}
	}
}
