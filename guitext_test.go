//go:build linux

package main

// Finding what is on the screen by its text, for the real-window tests:
// a screenshot (ImageMagick's import) read by tesseract OCR, so that a
// test clicks "Sign in…" where the window draws it instead of at a
// coordinate that moves whenever a panel, a font or a translation does.
//
//	x, y := scr.findText(t, "Sign in…")            // waits until it is shown
//	scr.clickText(t, "关于 Workrun")
//	box, ok := scr.waitText(t, area, "Close", 20*time.Second)
//	scr.waitTextGone(t, area, "Close", 20*time.Second)
//
// How it reads: the screen (or an area of it) is turned grey, inverted
// when it is dark (tesseract reads dark text on light best; the window is
// dark), scaled up ×2 (the window's small fonts are 11–13 px high; ×3 on a
// second try), and read with `tesseract IMG - --psm 11 tsv` (sparse text:
// labels scattered over a window, each word with its box). English queries
// are read with the eng model, queries with Chinese characters with
// chi_sim+eng. Words on one line whose gap is less than two line heights
// are joined, so a query may span several words ("Sign in…", "本地 进程").
//
// How it matches: letters and digits only, lower case, with the shapes OCR
// mixes up folded together (l I 1 |, O 0, S 5), spaces ignored (tesseract
// splits Chinese into single characters). An exact match of those anywhere
// in a run of words wins; failing that a run within edit distance 1 (5–9
// letters) or 2 (10 and more) — never for shorter queries. Several matches
// come in reading order (top to bottom, left to right).
//
// Chinese: chi_sim reads the window's menu, tab, button and row labels
// (tested below in TestGUIFindText); it confuses some characters of small
// text on coloured backgrounds (node badges on the canvas). Where a
// Chinese label is not found reliably, find the same widget in the English
// run and use its position in the Chinese one only when the layout does
// not depend on the text's width (rows, tabs in order: findAll's order).
//
// tesseract runs with OMP_THREAD_LIMIT=1: with its default threads it is
// ten times slower on a loaded 2-core machine (15 s instead of 1.5 s).

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	xdraw "golang.org/x/image/draw"
)

// textWait is how long findText waits for a text to appear: long, since
// the machine may be loaded and the app built with -race.
const textWait = 60 * time.Second

// ocrWord is a word tesseract read, with its box in screen pixels.
type ocrWord struct {
	text string
	box  image.Rectangle
	conf float64
}

// ocrLine is the words of one line of text, left to right, none more than
// two line heights from the one before.
type ocrLine []ocrWord

// ocrPage is what one reading of the screen found, in reading order.
type ocrPage []ocrLine

// String prints the page as text, one line a line, for a failure's report.
func (p ocrPage) String() string {
	var b strings.Builder
	for _, l := range p {
		for i, w := range l {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(w.text)
		}
		fmt.Fprintf(&b, "   @%d,%d\n", l[0].box.Min.X, l[0].box.Min.Y)
	}
	return b.String()
}

// find returns the boxes of text on the page in reading order: the exact
// matches, or when there are none the close ones (see the file's comment).
func (p ocrPage) find(text string) []image.Rectangle { return p.match(text, false) }

// findLabel is find for a whole label: a run of whole words must read
// text and nothing more ("Save…" is not found in "Saved file").
func (p ocrPage) findLabel(text string) []image.Rectangle { return p.match(text, true) }

func (p ocrPage) match(text string, whole bool) []image.Rectangle {
	q := []rune(foldText(text))
	if len(q) == 0 {
		return nil
	}
	slack := 0
	switch {
	case len(q) >= 10:
		slack = 2
	case len(q) >= 5:
		slack = 1
	}
	var exact, close []image.Rectangle
	for _, l := range p {
		norm := make([][]rune, len(l))
		for i, w := range l {
			norm[i] = []rune(foldText(w.text))
		}
		for i := 0; i < len(l); i++ {
			if len(norm[i]) == 0 {
				continue
			}
			var joined []rune
			for j := i; j < len(l); j++ {
				joined = append(joined, norm[j]...)
				if len(joined) == 0 {
					continue
				}
				// The shortest run from word i that holds the text, when
				// word i is part of the match (else the run from i+1 is it,
				// found on its own turn).
				rest := joined[len(norm[i]):]
				span := spanBox(l[i : j+1])
				if whole {
					switch {
					case string(joined) == string(q):
						exact = append(exact, span)
					case slack > 0 && abs(len(joined)-len(q)) <= slack && editDistance(joined, q) <= slack:
						close = append(close, span)
					default:
						if len(joined) <= len(q)+slack {
							continue
						}
					}
					break
				}
				if containsRunes(joined, q) {
					if !containsRunes(rest, q) {
						exact = append(exact, span)
					}
					break
				}
				if slack > 0 && len(joined) >= len(q)-slack && nearSubstring(joined, q) <= slack {
					if len(rest) < len(q)-slack || nearSubstring(rest, q) > slack {
						close = append(close, span)
					}
					break
				}
				if len(joined) > len(q)+slack {
					break
				}
			}
		}
	}
	if len(exact) > 0 {
		return dedupBoxes(exact)
	}
	return dedupBoxes(close)
}

// dedupBoxes drops a box that holds another one found (a longer run
// around the same words).
func dedupBoxes(bs []image.Rectangle) []image.Rectangle {
	var out []image.Rectangle
	for i, b := range bs {
		if !slices.ContainsFunc(bs[:i], func(o image.Rectangle) bool { return o == b }) &&
			!slices.ContainsFunc(bs, func(o image.Rectangle) bool { return o != b && o.In(b) }) {
			out = append(out, b)
		}
	}
	return out
}

func spanBox(ws []ocrWord) image.Rectangle {
	r := ws[0].box
	for _, w := range ws[1:] {
		r = r.Union(w.box)
	}
	return r
}

// foldText keeps the letters and digits of s, lower case, with the
// characters OCR confuses folded into one.
func foldText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case 'I', '1', '|', '!', 'L':
			r = 'l'
		case 'O', '0':
			r = 'o'
		case 'S', '5':
			r = 's'
		}
		if r == 'l' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

func containsRunes(s, sub []rune) bool {
	return strings.Contains(string(s), string(sub))
}

// nearSubstring is the least edit distance between q and any substring of s
// (Sellers' algorithm).
func nearSubstring(s, q []rune) int { return distance(q, s, true) }

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b []rune) int { return distance(a, b, false) }

// distance is the edit distance from q to s, or with anywhere to the
// closest substring of s (a match may start and end anywhere in s).
func distance(q, s []rune, anywhere bool) int {
	prev := make([]int, len(s)+1)
	cur := make([]int, len(s)+1)
	if !anywhere { // else row 0 stays 0: free to start anywhere
		for j := range prev {
			prev[j] = j
		}
	}
	for i := 1; i <= len(q); i++ {
		cur[0] = i
		for j := 1; j <= len(s); j++ {
			cost := 1
			if q[i-1] == s[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j-1]+cost, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	if anywhere {
		return slices.Min(prev)
	}
	return prev[len(s)]
}

// parseTSV reads tesseract's tsv output (level 5 rows are words) into
// lines; scale and origin turn the picture's pixels into the screen's.
func parseTSV(tsv []byte, scale int, origin image.Point) ocrPage {
	var words []ocrWord
	for _, row := range strings.Split(string(tsv), "\n") {
		f := strings.Split(row, "\t")
		if len(f) < 12 || f[0] != "5" {
			continue
		}
		text := strings.TrimSpace(f[11])
		if text == "" {
			continue
		}
		var n [4]int
		bad := false
		for i := range n {
			v, err := strconv.Atoi(f[6+i])
			if err != nil {
				bad = true
			}
			n[i] = v
		}
		if bad {
			continue
		}
		conf, _ := strconv.ParseFloat(f[10], 64)
		box := image.Rect(n[0]/scale, n[1]/scale, (n[0]+n[2]+scale-1)/scale, (n[1]+n[3]+scale-1)/scale).Add(origin)
		words = append(words, ocrWord{text: text, box: box, conf: conf})
	}
	return groupLines(words)
}

// groupLines puts words whose middles are within half a height of each
// other on one line, then splits a line where the gap between two words is
// more than two line heights (separate labels side by side).
func groupLines(words []ocrWord) ocrPage {
	sort.SliceStable(words, func(i, j int) bool {
		return words[i].box.Min.Y+words[i].box.Max.Y < words[j].box.Min.Y+words[j].box.Max.Y
	})
	type row struct {
		mid, h int
		ws     []ocrWord
	}
	var rows []*row
	for _, w := range words {
		mid, h := (w.box.Min.Y+w.box.Max.Y)/2, w.box.Dy()
		var in *row
		for _, r := range rows {
			if abs(mid-r.mid) <= max(h, r.h)/2 {
				in = r
				break
			}
		}
		if in == nil {
			in = &row{mid: mid, h: h}
			rows = append(rows, in)
		}
		in.ws = append(in.ws, w)
		in.h = max(in.h, h)
	}
	var page ocrPage
	for _, r := range rows {
		sort.SliceStable(r.ws, func(i, j int) bool { return r.ws[i].box.Min.X < r.ws[j].box.Min.X })
		line := ocrLine{r.ws[0]}
		for _, w := range r.ws[1:] {
			if w.box.Min.X-line[len(line)-1].box.Max.X > 2*max(r.h, 8) {
				page = append(page, line)
				line = nil
			}
			line = append(line, w)
		}
		page = append(page, line)
	}
	sort.SliceStable(page, func(i, j int) bool {
		a, b := page[i][0].box, page[j][0].box
		if a.Max.Y <= b.Min.Y || b.Max.Y <= a.Min.Y {
			return a.Min.Y < b.Min.Y
		}
		return a.Min.X < b.Min.X
	})
	return page
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// hasHan reports whether s holds a Chinese character.
func hasHan(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) })
}

// capture takes a picture of the whole screen.
func (s *screen) capture(t *testing.T) image.Image {
	t.Helper()
	cmd := exec.Command(lookTool(t, "import"), "-window", "root", "png:-")
	cmd.Env = withDisplay(os.Environ(), s.display)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("import -window root: %v\n%s", err, errb.String())
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("decode the screenshot: %v", err)
	}
	return img
}

// ocr reads area of img (the whole picture when area is empty) at scale
// with languages langs.
func ocr(t *testing.T, img image.Image, area image.Rectangle, scale int, langs string) ocrPage {
	t.Helper()
	if area.Empty() {
		area = img.Bounds()
	}
	area = area.Intersect(img.Bounds())
	if area.Empty() {
		t.Fatalf("the area %v is off the screen %v", area, img.Bounds())
	}
	gray := image.NewGray(image.Rect(0, 0, area.Dx(), area.Dy()))
	xdraw.Draw(gray, gray.Bounds(), img, area.Min, xdraw.Src)
	var sum int
	for _, p := range gray.Pix {
		sum += int(p)
	}
	if sum/len(gray.Pix) < 128 { // dark: light text on it
		for i, p := range gray.Pix {
			gray.Pix[i] = 255 - p
		}
	}
	big := image.NewGray(image.Rect(0, 0, area.Dx()*scale, area.Dy()*scale))
	xdraw.CatmullRom.Scale(big, big.Bounds(), gray, gray.Bounds(), xdraw.Src, nil)
	f, err := os.CreateTemp("", "workrun-ocr-*.png")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(f.Name())
	if err := png.Encode(f, big); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(lookTool(t, "tesseract"), f.Name(), "-", "-l", langs, "--psm", "11", "--dpi", "150", "tsv")
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tesseract -l %s: %v\n%s", langs, err, errb.String())
	}
	return parseTSV(out, scale, area.Min)
}

// lookText reads the screen once and returns the boxes of text in area
// (the whole screen when empty), in reading order, and what was read.
func (s *screen) lookText(t *testing.T, area image.Rectangle, text string) ([]image.Rectangle, ocrPage) {
	t.Helper()
	return s.look(t, area, text, false)
}

// look is lookText; whole asks for a whole label (ocrPage.findLabel).
func (s *screen) look(t *testing.T, area image.Rectangle, text string, whole bool) ([]image.Rectangle, ocrPage) {
	t.Helper()
	langs := "eng"
	if hasHan(text) {
		langs = "chi_sim+eng"
	}
	img := s.capture(t)
	var page ocrPage
	for _, scale := range []int{2, 3} {
		page = ocr(t, img, area, scale, langs)
		if found := page.match(text, whole); len(found) > 0 {
			return found, page
		}
	}
	return nil, page
}

// readText reads area of the screen once (×2), in English or, when
// chinese, in Chinese and English: for tests that look for a pattern
// rather than a label.
func (s *screen) readText(t *testing.T, area image.Rectangle, chinese bool) ocrPage {
	t.Helper()
	langs := "eng"
	if chinese {
		langs = "chi_sim+eng"
	}
	return ocr(t, s.capture(t), area, 2, langs)
}

// waitText waits up to d until text is shown in area and returns its first
// box in reading order.
func (s *screen) waitText(t *testing.T, area image.Rectangle, text string, d time.Duration) (image.Rectangle, bool) {
	t.Helper()
	all, ok := s.waitAll(t, area, text, d)
	if !ok {
		return image.Rectangle{}, false
	}
	return all[0], true
}

// waitAll waits up to d until text is shown in area and returns all its
// boxes in reading order.
func (s *screen) waitAll(t *testing.T, area image.Rectangle, text string, d time.Duration) ([]image.Rectangle, bool) {
	t.Helper()
	return s.waitMatch(t, area, text, false, d)
}

// waitLabel is waitText for a whole label (ocrPage.findLabel): a button's
// "Save…", not the "Saved" of a message.
func (s *screen) waitLabel(t *testing.T, area image.Rectangle, text string, d time.Duration) (image.Rectangle, bool) {
	t.Helper()
	all, ok := s.waitMatch(t, area, text, true, d)
	if !ok {
		return image.Rectangle{}, false
	}
	return all[0], true
}

func (s *screen) waitMatch(t *testing.T, area image.Rectangle, text string, whole bool, d time.Duration) ([]image.Rectangle, bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		found, page := s.look(t, area, text, whole)
		if len(found) > 0 {
			return found, true
		}
		if time.Now().After(deadline) {
			t.Logf("%q not on the screen (area %v) within %s; read:\n%s", text, area, d, page)
			return nil, false
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// waitTextGone waits up to d until text is no longer shown in area.
func (s *screen) waitTextGone(t *testing.T, area image.Rectangle, text string, d time.Duration) bool {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		if found, _ := s.lookText(t, area, text); len(found) == 0 {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// findTextIn waits until text is shown in area and returns the centre of
// its box; it fails the test (with a picture in s.shots) when it is not
// shown within textWait.
func (s *screen) findTextIn(t *testing.T, area image.Rectangle, text string) (x, y int) {
	t.Helper()
	box, ok := s.waitText(t, area, text, textWait)
	if !ok {
		s.shot(t, "no-text-"+safeName(text))
		t.Fatalf("%q is not on the screen (area %v) within %s (steps in %s)", text, area, textWait, s.shots)
	}
	c := box.Min.Add(box.Max).Div(2)
	return c.X, c.Y
}

// findText is findTextIn over the whole screen.
func (s *screen) findText(t *testing.T, text string) (x, y int) {
	t.Helper()
	return s.findTextIn(t, image.Rectangle{}, text)
}

// clickText clicks the middle of text once it is shown on the screen.
func (s *screen) clickText(t *testing.T, text string) {
	t.Helper()
	s.clickTextIn(t, image.Rectangle{}, text)
}

// clickTextIn clicks the middle of text once it is shown in area.
func (s *screen) clickTextIn(t *testing.T, area image.Rectangle, text string) {
	t.Helper()
	x, y := s.findTextIn(t, area, text)
	s.click(t, x, y)
}

// safeName makes text usable in a file name.
func safeName(text string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return '-'
	}, text)
}

// TestOCRMatching checks the matching on tesseract output written by hand
// (no X, no tesseract): words joined over a line, Chinese split into
// characters, OCR's confusions, reading order, and what must not match.
func TestOCRMatching(t *testing.T) {
	row := func(x, y, w, h int, text string) string {
		return fmt.Sprintf("5\t1\t1\t1\t1\t1\t%d\t%d\t%d\t%d\t90\t%s", x, y, w, h, text)
	}
	tsv := strings.Join([]string{
		"level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
		row(200, 20, 60, 26, "Sign"), row(270, 22, 30, 24, "in..."), // "Sign in…" at ×2
		row(1400, 20, 80, 26, "Cancel"), // far to the right: a label of its own
		row(100, 400, 26, 26, "本"), row(130, 400, 26, 26, "地"), row(160, 400, 52, 26, "进程"),
		row(100, 200, 120, 26, "Loca1"), row(230, 202, 100, 24, "check"), // above the Chinese row
		row(100, 600, 160, 26, "Temporarly"), // "Temporarily" read with one letter lost
		row(100, 700, 60, 26, "Rvn"),         // a short word read wrong: never matched
		row(100, 800, 60, 26, "Run"), row(100, 900, 60, 26, "Run"),
		row(400, 1000, 52, 26, "设置"), row(470, 1000, 52, 26, "帮助"), // menu titles close together
	}, "\n")
	page := parseTSV([]byte(tsv), 2, image.Pt(10, 0))
	one := func(text string, want image.Rectangle) {
		t.Helper()
		got := page.find(text)
		if len(got) != 1 || got[0] != want {
			t.Errorf("find(%q) = %v, want [%v]\npage:\n%s", text, got, want, page)
		}
	}
	one("Sign in…", image.Rect(110, 10, 160, 23))
	one("Cancel", image.Rect(710, 10, 750, 23))
	one("本地进程", image.Rect(60, 200, 116, 213))
	one("本地 进程", image.Rect(60, 200, 116, 213))
	one("Local check", image.Rect(60, 100, 175, 113))
	one("Temporarily", image.Rect(60, 300, 140, 313))
	one("帮助", image.Rect(245, 500, 271, 513))
	if got := page.findLabel("Sign in…"); len(got) != 1 {
		t.Errorf("findLabel(Sign in…) = %v, want the one label", got)
	}
	if got := page.findLabel("Sig"); len(got) != 0 {
		t.Errorf("findLabel(Sig) = %v, want nothing: no word is Sig", got)
	}
	if got := page.findLabel("Temporarily"); len(got) != 1 {
		t.Errorf("findLabel(Temporarily) = %v, want the word read with one letter lost", got)
	}
	if got := page.findLabel("Loca"); len(got) != 0 || len(page.find("Loca")) != 1 {
		t.Errorf("Loca: findLabel %v (want none), find %v (want one)", page.findLabel("Loca"), page.find("Loca"))
	}
	if got := page.find("Run"); len(got) != 2 || got[0].Min.Y != 400 || got[1].Min.Y != 450 {
		t.Errorf("find(Run) = %v, want the two rows in reading order", got)
	}
	for _, absent := range []string{"Sign out", "in… Cancel", "远程", "Rvm", "Quokka", "…"} {
		if got := page.find(absent); len(got) > 0 {
			t.Errorf("find(%q) = %v, want nothing", absent, got)
		}
	}
	if lines := len(page); lines != 9 {
		t.Errorf("%d lines, want 9:\n%s", lines, page)
	}
}

// TestGUIFindText is the OCR's own check in the real window, 1024×700, in
// Chinese: it finds the Help menu's title in the menu bar, clicks it,
// finds and clicks "关于 Workrun" in the menu that opened, and finds the
// About dialog's button (only there after the click), closes the dialog by
// its Close button and sees the button gone. Chinese only: chi_sim is the
// weaker reader, and English text is found the same way by every English
// real-window test (menu items, buttons, rows); the English case cost a
// minute of make test and proved nothing those do not.
func TestGUIFindText(t *testing.T) {
	g := newGUITest(t)
	lookTool(t, "tesseract")
	for _, c := range []struct {
		lang, locale                    string
		help, about, openDir, closeText string
	}{
		{"zh", "zh_CN.UTF-8", "帮助", "关于 Workrun", "打开数据目录", "关闭"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			home := filepath.Join(g.tmp, "home-"+c.lang)
			if err := os.Mkdir(home, 0o700); err != nil {
				t.Fatal(err)
			}
			scr := startXvfb(t, 1024, 700)
			scr.shots = filepath.Join(g.tmp, "steps-"+c.lang)
			env := append(withDisplay(appEnv(home), scr.display), sessionKeyring(t, home)...)
			env = append(env, "LANG="+c.locale)
			app := startApp(t, g.bin, []string{"--data-dir", filepath.Join(g.tmp, "data-"+c.lang)}, env)
			scr.readyWindow(t, app, g.importTool)

			// The whole screen: the menu bar's title comes first in
			// reading order (the status bar may name Help too).
			start := time.Now()
			x, y := scr.findText(t, c.help)
			t.Logf("%q at %d,%d (%.1f s)", c.help, x, y, time.Since(start).Seconds())
			if y > 30 {
				t.Errorf("%q found at %d,%d, not in the menu bar", c.help, x, y)
			}
			scr.click(t, x, y)
			below := image.Rect(0, 26, 1024, 700)
			ax, ay := scr.findTextIn(t, below, c.about)
			if ay < y || ax < x-40 {
				t.Errorf("%q at %d,%d is not in the menu under %q at %d,%d", c.about, ax, ay, c.help, x, y)
			}
			scr.click(t, ax, ay)
			if _, ok := scr.waitLabel(t, below, c.openDir, textWait); !ok {
				scr.shot(t, "no-about")
				t.Fatalf("the About dialog's %q did not appear after clicking %q (steps in %s)", c.openDir, c.about, scr.shots)
			}
			if found, _ := scr.lookText(t, image.Rectangle{}, "Quokka"); len(found) > 0 {
				t.Errorf("found %q, which the window never shows: %v", "Quokka", found)
			}
			scr.clickText(t, c.closeText)
			if !scr.waitTextGone(t, below, c.openDir, textWait) {
				scr.shot(t, "about-open")
				t.Errorf("the About dialog is still open after clicking %q (steps in %s)", c.closeText, scr.shots)
			}
			quitApp(t, app)
		})
	}
}
