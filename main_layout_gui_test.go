//go:build linux

package main

import (
	"fmt"
	"image"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"workrun/a2a/demoagent"
)

// TestGUILayout1024 is issue 23's items 5, 8 and 10 in the real window:
// the built binary on a 1024×700 screen (Xvfb), driven with xdotool as a
// person would, in English and Chinese; what is on the screen is read
// with OCR (guitext_test.go). One workflow of five nodes — a Set, a Remote
// Agent asking the demo agent (its own process) for a file, a Process
// whose command line is longer than the run panel is wide, an Output of
// all three fields — is opened from the list and run with Ctrl+R.
//
//   - Item 10: the opened workflow's zoom (the toolbar's "NN %") is at
//     least the readable minimum, 60 %, and a node's title on the canvas
//     can be read; after the run the run panel shows all five node rows;
//     the Process's "Running …" message wraps in the message list: its
//     last word is on the screen, on a row below its first (and again,
//     whole, in the detail when that row is chosen).
//   - Item 5: the Remote Agent's outputs and the Output node show the
//     file by name, media type and size (demo.txt, text/plain, 34 B) with
//     Open and Save…, never "1 files" or the artifact's id; Open hands the
//     desktop's opener (xdg-open, replaced by a script on PATH that notes
//     what it was given) a copy of the file with the agent's bytes.
//   - Item 8: with a node selected, the divider between the canvas and
//     the run panel is dragged up from its middle, down from 4 px above it
//     (over the canvas's edge) and up from 4 px below it (over the tab
//     bar): each drag moves the divider by the drag, the canvas above it
//     is drawn exactly as before (no pan, no node moved) and the workflow
//     is not changed (no "•" in the title).
func TestGUILayout1024(t *testing.T) {
	g := newGUITest(t)
	lookTool(t, "tesseract")
	agentURL := startDemoAgentProcess(t, g.bin)
	for _, c := range []layoutCase{
		{lang: "en", locale: "C.UTF-8", succeeded: "succeeded", open: "Open", save: "Save…", openRead: true},
		{lang: "zh", locale: "zh_CN.UTF-8", succeeded: "成功", open: "打开", save: "保存…"},
	} {
		t.Run(c.lang, func(t *testing.T) { layoutAt1024(t, g, c, agentURL) })
	}
}

type layoutCase struct {
	lang, locale          string
	succeeded, open, save string
	// openRead: OCR reads the Open button's label. chi_sim does not read
	// "打开" beside its icon on the small grey button (it reads "BHF"), so
	// in Chinese the Open button is the one left of Save… on the file's
	// row (the same order as in English), and clicking it must hand the
	// opener the file.
	openRead bool
}

// The node titles of the layout workflow (the same in both languages:
// they are the person's words), and the last word of the long command.
var layoutTitles = []string{"Begin", "Ask for a file", "Fetch file", "Long line", "Result"}

const layoutLastWord = "finalword"

// layoutFirstWords are on the long message's first row.
const layoutFirstWords = "this command"

func layoutWorkflow(agentURL string) string {
	long := "echo ok; : this command line is long enough to need more than one line in the run panel of a window " +
		"that is only 1024 pixels wide, so the panel must wrap it instead of cutting it at the edge " + layoutLastWord
	return fmt.Sprintf(`{"name":"Layout check","state":{"question":"text","answer":"text","docs":"files","note":"text"},
		"nodes":[
		  {"id":"start","type":"start","title":"Begin","position":{"x":40,"y":120}},
		  {"id":"ask_for","type":"set","title":"Ask for a file","config":{"values":{"question":"file"}},"position":{"x":260,"y":120}},
		  {"id":"fetch","type":"remote_agent","title":"Fetch file","position":{"x":480,"y":120},
		   "config":{"url":%q,"inputs":["question"],"output":"answer","output_files":"docs","timeout_seconds":60}},
		  {"id":"long","type":"process","title":"Long line","position":{"x":700,"y":120},
		   "config":{"command":["sh","-c",%q],"stdout":"note","timeout_seconds":30}},
		  {"id":"end","type":"output","title":"Result","config":{"fields":["answer","docs","note"]},"position":{"x":920,"y":120}}],
		"edges":[{"from":"start","to":"ask_for"},{"from":"ask_for","to":"fetch"},{"from":"fetch","to":"long"},{"from":"long","to":"end"}]}`,
		agentURL, long)
}

func layoutAt1024(t *testing.T, g guiTest, c layoutCase, agentURL string) {
	const sw, sh = 1024, 700
	data := filepath.Join(g.tmp, "data-layout-"+c.lang)
	saveWorkflowJSON(t, data, layoutWorkflow(agentURL))

	// The desktop's opener: a script that notes the URL it is given.
	opener := filepath.Join(g.tmp, "opener-"+c.lang)
	opened := filepath.Join(opener, "opened.txt")
	if err := os.MkdirAll(opener, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '" + opened + "'\n"
	if err := os.WriteFile(filepath.Join(opener, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}

	home := filepath.Join(g.tmp, "home-layout-"+c.lang)
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	scr := startXvfb(t, sw, sh)
	scr.shots = filepath.Join(g.tmp, "steps-layout-"+c.lang)
	if d := os.Getenv("WORKRUN_GUI_STEPS"); d != "" {
		scr.shots = filepath.Join(d, "layout-"+c.lang) // kept after the test
	}
	env := append(withDisplay(appEnv(home), scr.display), sessionKeyring(t, home)...)
	env = append(env, "LANG="+c.locale, "PATH="+opener+string(os.PathListSeparator)+os.Getenv("PATH"))
	app := startApp(t, g.bin, []string{"--data-dir", data}, env)
	win := scr.readyWindow(t, app, g.importTool)
	scr.run(t, "windowmove", win, "0", "0", "windowsize", win, fmt.Sprint(sw), fmt.Sprint(sh))
	settle()
	scr.openWorkflowList(t, sw, c.lang)

	// Open the workflow from the list.
	scr.clickTextIn(t, image.Rect(0, 60, 260, sh), "Layout check")
	scr.waitTitle(t, app, win, "^Workrun — Layout check$")
	scr.shot(t, "1-opened")

	// Item 10: a readable zoom.
	div := runPanelDivider(t, g.importTool, scr)
	toolbar := image.Rect(0, 28, sw, 72)
	zoom := scr.zoomPercent(t, toolbar)
	if zoom < 60 {
		t.Errorf("the workflow opened at %d %% zoom at 1024×700, want at least 60 %% (steps in %s)", zoom, scr.shots)
	}
	canvas := image.Rect(0, 72, sw, div-4)
	if _, ok := scr.waitText(t, canvas, "Ask for a file", 20*time.Second); !ok {
		t.Errorf("no node title can be read on the canvas at %d %% (steps in %s)", zoom, scr.shots)
	}
	t.Logf("opened at %d %% zoom; run panel divider at y=%d", zoom, div)

	// Run it.
	scr.focus(t, win)
	scr.key(t, "ctrl+r")
	scr.waitTitle(t, app, win, "— "+c.succeeded+"$")
	settle()
	scr.shot(t, "2-succeeded")

	// Item 10: five node rows in the run panel.
	rows := image.Rect(0, div, 360, sh)
	var rowY []int
	for _, title := range layoutTitles {
		box, ok := scr.waitText(t, rows, title, 20*time.Second)
		if !ok {
			scr.shot(t, "no-row")
			t.Fatalf("the run panel does not show the row of %q at 1024×700 (steps in %s)", title, scr.shots)
		}
		rowY = append(rowY, box.Min.Y)
	}
	for i := 1; i < len(rowY); i++ {
		if rowY[i] <= rowY[i-1] {
			t.Errorf("run panel rows not in order, top to bottom: %v", rowY)
		}
	}

	// Item 10: a long message can be read whole: it wraps in the message
	// list (onto rows of one height: a stream of 100 000 lines stays
	// fast), its last word on the screen below its first line before any
	// row is chosen; choosing the row shows the whole line wrapped above.
	scr.clickTextIn(t, rows, "Long line")
	detail := image.Rect(350, div, sw, sh)
	end, ok := scr.waitText(t, detail, layoutLastWord, 20*time.Second)
	scr.shot(t, "3-long-line")
	if !ok {
		t.Fatalf("the end of the long message (%q) is not in the run panel's message list: cut at the right edge, not wrapped (steps in %s)", layoutLastWord, scr.shots)
	}
	if end.Max.X > sw {
		t.Errorf("the long message's last word at %v: past the window's right edge", end)
	}
	// The list follows the newest line, so the message's first line may be
	// above the few rows shown: scroll up to it (wheel over the list).
	scr.run(t, "mousemove", fmt.Sprint(end.Max.X), fmt.Sprint((end.Min.Y+end.Max.Y)/2))
	scr.run(t, "click", "--repeat", "3", "--delay", "50", "4")
	settle()
	// Its first row, found by words the same in both languages (chi_sim
	// reads the small "正在运行" before a quote poorly).
	first, ok := scr.waitText(t, detail, layoutFirstWords, 20*time.Second)
	if !ok {
		scr.shot(t, "no-message")
		t.Fatalf("the Process's message (%q) is not shown (steps in %s)", layoutFirstWords, scr.shots)
	}
	if end, ok := scr.waitText(t, detail, layoutLastWord, 5*time.Second); ok && end.Min.Y <= first.Max.Y {
		t.Errorf("the long message's last word at %v, its first line at %v: not wrapped onto the rows below", end, first)
	}
	scr.click(t, first.Max.X+40, (first.Min.Y+first.Max.Y)/2)
	scr.shot(t, "3-message-chosen")
	last, ok := scr.waitText(t, detail, layoutLastWord, 20*time.Second)
	switch {
	case !ok:
		scr.shot(t, "cut")
		t.Errorf("the end of the long message (%q) is not on the screen after choosing it: cut, not wrapped (steps in %s)", layoutLastWord, scr.shots)
	case last.Max.X > sw || (last.Min.Y+last.Max.Y)/2 >= first.Min.Y && (last.Min.Y+last.Max.Y)/2 <= first.Max.Y:
		// Its row in the list is cut; the last word must be on another line.
		t.Errorf("the long message's last word at %v, its row at %v: not wrapped", last, first)
	}

	// Item 5: the file by name, type and size, with Open and Save….
	scr.clickTextIn(t, rows, "Fetch file")
	open := scr.checkFileShown(t, detail, c, "the Remote Agent's outputs")
	scr.click(t, open.X, open.Y)
	checkOpened(t, opened, app)
	scr.clickTextIn(t, rows, "Result")
	// The Output node's messages name the file too, never by its id.
	// "docs: demo.txt (text/plain; …)", in Chinese with full-width
	// punctuation, which OCR may read as one stray letter (allowed).
	named := "docs " + demoagent.DemoFile.Name + " " + demoagent.DemoFile.MediaType
	if _, ok := scr.waitText(t, detail, named, 20*time.Second); !ok {
		scr.shot(t, "output-messages")
		t.Errorf("the Output node's messages do not name the file (steps in %s)", scr.shots)
	}
	if text := scr.readText(t, detail, c.lang == "zh").String(); uuidLike.MatchString(text) {
		t.Errorf("the Output node shows an artifact id:\n%s", text)
	}
	scr.checkFileShown(t, detail, c, "the Output node")
	scr.shot(t, "4-output")

	// Item 8: drag the divider with a node selected.
	scr.clickTextIn(t, canvas, "Ask for a file")
	scr.shot(t, "4-selected")
	title0 := strings.TrimSpace(scr.run(t, "getwindowname", win))
	// Up, down, up (the canvas keeps at least 30 % of the height): each
	// compares the canvas alone — between the palette and the inspector,
	// whose scroll bars change with their height — above the divider.
	const by = 40
	for i, m := range []struct{ press, move int }{{0, -by}, {-4, by}, {4, -by}} {
		div0 := runPanelDivider(t, g.importTool, scr)
		above := image.Rect(360, 72, sw-300, min(div0, div0+m.move)-dividerMargin)
		before := scr.regionSum(t, above.Min.X, above.Min.Y, above.Dx(), above.Dy())
		scr.drag(t, sw/2, div0+m.press, sw/2, div0+m.press+m.move)
		settle()
		div1 := runPanelDivider(t, g.importTool, scr)
		scr.shot(t, fmt.Sprintf("5-drag-%d", i))
		dy := m.press
		if d := div1 - div0; d < m.move-3 || d > m.move+3 {
			t.Errorf("drag %d (pressed %+d px from the divider's middle): the divider moved %d px, want %d", i, dy, d, m.move)
		}
		if after := scr.regionSum(t, above.Min.X, above.Min.Y, above.Dx(), above.Dy()); after != before {
			t.Errorf("drag %d (pressed %+d px from the divider's middle) changed the canvas above the divider: it panned or moved a node (steps in %s)", i, dy, scr.shots)
		}
	}
	if title := strings.TrimSpace(scr.run(t, "getwindowname", win)); title != title0 || strings.Contains(title, "•") {
		t.Errorf("after dragging the divider the title is %q (before: %q): the workflow was changed", title, title0)
	}
	quitApp(t, app)
	checkAppOutput(t, app)
}

// uuidLike is the start of an artifact id as OCR reads it.
var uuidLike = regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}`)

// dividerMargin is how far above the dragged divider the canvas is
// compared: its bottom edge (a scroll bar, the divider's shadow) changes
// with its height.
const dividerMargin = 16

// zoomPercent reads the toolbar's zoom label ("60 %").
func (s *screen) zoomPercent(t *testing.T, toolbar image.Rectangle) int {
	t.Helper()
	re := regexp.MustCompile(`(\d{2,3}) ?%`)
	deadline := time.Now().Add(30 * time.Second)
	for {
		page := s.readText(t, toolbar, false)
		if m := re.FindStringSubmatch(page.String()); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n
		}
		if time.Now().After(deadline) {
			s.shot(t, "no-zoom")
			t.Fatalf("no zoom label in the toolbar; read:\n%s", page)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// checkFileShown checks that the detail shows the demo agent's file by its
// name, media type and size with Open and Save… under it (scrolling the
// node's values down to it, as a person would), and neither a count of
// files nor an artifact id; it returns the middle of the Open button.
func (s *screen) checkFileShown(t *testing.T, detail image.Rectangle, c layoutCase, where string) image.Point {
	t.Helper()
	// From the top: the detail keeps the scroll of the node shown before.
	s.run(t, "mousemove", fmt.Sprint(detail.Min.X+250), fmt.Sprint(detail.Min.Y+110))
	s.run(t, "click", "--repeat", "15", "--delay", "30", "4")
	settle()
	var save, open, name image.Rectangle
	found := false
	for try := 0; try < 24 && !found; try++ {
		if try > 0 { // the values scroll under the node's title
			s.run(t, "mousemove", fmt.Sprint(detail.Min.X+250), fmt.Sprint(detail.Min.Y+110))
			s.run(t, "click", "5")
			settle()
		}
		// One quick reading a step (×2 only): most steps do not show it.
		// The file's row is the one with Save… and, left of it, Open or
		// the file's name ("保存" alone is also in "已保存文件").
		// The buttons are on their own line under the file's line (which
		// wraps rather than being cut beside them).
		page := s.readText(t, detail, c.lang == "zh")
		for _, b := range page.findLabel(c.save) {
			row := image.Rect(detail.Min.X, b.Min.Y-8, b.Min.X, b.Max.Y+8)
			above := image.Rect(detail.Min.X, b.Min.Y-fileLineAbove, detail.Max.X, b.Min.Y)
			names := page.find(demoagent.DemoFile.Name)
			n := slices.IndexFunc(names, func(o image.Rectangle) bool { return o.In(above) })
			if n < 0 {
				continue
			}
			if !c.openRead {
				save, name, found = b, names[n], true
				break
			}
			left := page.findLabel(c.open)
			if i := slices.IndexFunc(left, func(o image.Rectangle) bool { return o.In(row) }); i >= 0 {
				save, open, name, found = b, left[i], names[n], true
				break
			}
		}
	}
	if !found {
		s.shot(t, "no-save")
		t.Fatalf("%s: no file row with %q under the file's name (steps in %s)", where, c.save, s.shots)
	}
	// From the file's name down to its buttons (the value above it, the
	// agent's answer "files: 0", is not the file's line).
	line := image.Rect(detail.Min.X, name.Min.Y-6, detail.Max.X, save.Min.Y)
	size := fmt.Sprintf("%d B", len(demoagent.DemoFile.Content))
	for _, want := range []string{demoagent.DemoFile.Name, demoagent.DemoFile.MediaType, size} {
		if _, ok := s.waitText(t, line, want, 5*time.Second); !ok {
			s.shot(t, "file-line")
			t.Errorf("%s: %q is not on the file's line (steps in %s)", where, want, s.shots)
		}
	}
	text := s.readText(t, line, c.lang == "zh").String()
	if uuidLike.MatchString(text) || strings.Contains(strings.ToLower(text), "files") {
		t.Errorf("%s shows an artifact id or a file count on the file's line:\n%s", where, text)
	}
	if !c.openRead { // the button left of Save…'s icon
		return image.Pt(save.Min.X-70, (save.Min.Y+save.Max.Y)/2)
	}
	return open.Min.Add(open.Max).Div(2)
}

// fileLineAbove is how far above its Open and Save… buttons a file's line
// (one or two rows, wrapped) is looked for.
const fileLineAbove = 80

// checkOpened waits until the opener was handed a file URL and checks that
// the file holds the demo agent's bytes.
func checkOpened(t *testing.T, opened string, app *runningApp) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		raw, err := os.ReadFile(opened)
		if err == nil && len(raw) > 0 {
			u, err := url.Parse(strings.TrimSpace(strings.Split(string(raw), "\n")[0]))
			if err != nil || u.Scheme != "file" {
				t.Fatalf("Open handed the opener %q, want a file URL", raw)
			}
			got, err := os.ReadFile(u.Path)
			if err != nil {
				t.Fatalf("Open handed the opener %s: %v", u, err)
			}
			if string(got) != string(demoagent.DemoFile.Content) || filepath.Base(u.Path) != demoagent.DemoFile.Name {
				t.Errorf("Open handed the opener %s holding %q, want %s holding %q", u.Path, got, demoagent.DemoFile.Name, demoagent.DemoFile.Content)
			}
			_ = os.RemoveAll(filepath.Dir(u.Path))
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("Open did not hand the desktop's opener a file within 30 s\n%s", app.out.String())
		}
		time.Sleep(300 * time.Millisecond)
	}
}
