//go:build linux && screenshots

package main

import (
	"fmt"
	"image"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestScreenshots takes the README's pictures of sample runs (make
// screenshot runs it through scripts/screenshots.sh; the build tag keeps it
// out of make test). Each picture is taken from the built binary on its own
// Xvfb screen of the picture's size, with a fresh HOME, data directory and
// an unlocked Secret Service, in English or Chinese (the locale a desktop
// of that language gives), driven with xdotool as a person would: the
// window maximised, Help → the sample (found on the screen by its text,
// guitext_test.go, so new menu items move nothing), Ctrl+R and Enter in
// the inputs dialog; once the title names the run's end the run panel is
// dragged taller, on a screen narrower than 1280 the workflow list and the
// inspector are hidden (Ctrl+L, Ctrl+I), the workflow is fitted (Ctrl+0),
// the node detail's split gives the inputs and outputs room, and the Remote
// Agent's row is chosen.
//
//	assets/screenshots/parallel-{en,zh}.png            1440×900
//	assets/screenshots/parallel-{en,zh}-1024x700.png   1024×700
//	docs/screenshot-run.png                            1440×900, Remote Agent sample
//
// SCREENSHOT_ONLY=TEXT takes only the pictures whose file name holds TEXT;
// SCREENSHOT_STEPS=DIR keeps a picture of every step in DIR.
func TestScreenshots(t *testing.T) {
	g := newGUITest(t)
	lookTool(t, "tesseract")
	for _, c := range []shotCase{
		{"en", 1440, 900, "parallel", "assets/screenshots/parallel-en.png"},
		{"zh", 1440, 900, "parallel", "assets/screenshots/parallel-zh.png"},
		{"en", 1024, 700, "parallel", "assets/screenshots/parallel-en-1024x700.png"},
		{"zh", 1024, 700, "parallel", "assets/screenshots/parallel-zh-1024x700.png"},
		{"en", 1440, 900, "remote", "docs/screenshot-run.png"},
	} {
		if only := os.Getenv("SCREENSHOT_ONLY"); only != "" && !strings.Contains(filepath.Base(c.out), only) {
			continue
		}
		t.Run(strings.TrimSuffix(filepath.Base(c.out), ".png"), func(t *testing.T) { takeShot(t, g, c) })
	}
}

type shotCase struct {
	lang        string
	w, h        int
	sample, out string
}

// shotSample is what a sample is called in the Help menu (a part of the
// item's label that no other item has), its workflow's name and the title
// of its Remote Agent, in English and in Chinese (a sample opened in a
// Chinese window has Chinese names: docs/product.md "Languages").
var shotSamples = map[string]struct{ item, itemZh, name, nameZh, agent, agentZh string }{
	"parallel": {"parallel branches with a failure", "并行分支中有一支失败", "Parallel branches, one fails", "并行分支，其中一支失败", "Slow remote work", "耗时的远程工作"},
	"remote":   {"Sample: Remote Agent demo", "远程智能体演示", "Remote Agent demo", "远程智能体演示", "Ask the agent", "询问智能体"},
}

func takeShot(t *testing.T, g guiTest, c shotCase) {
	s := shotSamples[c.sample]
	tag := strings.TrimSuffix(filepath.Base(c.out), ".png")
	home := filepath.Join(g.tmp, "home-"+tag)
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	scr := startXvfb(t, c.w, c.h)
	scr.shots = filepath.Join(g.tmp, "steps-"+tag)
	if d := os.Getenv("SCREENSHOT_STEPS"); d != "" {
		scr.shots = filepath.Join(d, tag)
	}
	env := append(withDisplay(appEnv(home), scr.display), sessionKeyring(t, home)...)
	help, item, name, agent := "Help", s.item, s.name, s.agent
	if c.lang == "zh" {
		env = append(env, "LANG=zh_CN.UTF-8", "LANGUAGE=zh_CN")
		help, item, name, agent = "帮助", s.itemZh, s.nameZh, s.agentZh
	}
	app := startApp(t, g.bin, []string{"--data-dir", filepath.Join(g.tmp, "data-"+tag)}, env)
	win := scr.readyWindow(t, app, g.importTool)
	// The window opens at 1280×800 where the screen is larger; the picture
	// shows it maximised (Xvfb has no window manager: xdotool does what
	// the maximise button does).
	scr.run(t, "windowmove", win, "0", "0", "windowsize", win, fmt.Sprint(c.w), fmt.Sprint(c.h))
	settle()
	if w, h := scr.windowSize(t, win); w != c.w || h != c.h {
		t.Fatalf("the window is %dx%d, want %dx%d", w, h, c.w, c.h)
	}
	scr.shot(t, "0-start")

	scr.clickTextIn(t, image.Rect(0, 0, c.w, 30), help)
	scr.shot(t, "1-help")
	scr.clickTextIn(t, image.Rect(0, 26, c.w, c.h), item)
	scr.waitTitle(t, app, win, "^Workrun — "+regexp.QuoteMeta(name)+"$")
	scr.shot(t, "2-sample")

	// Run: Ctrl+R opens the inputs dialog; Enter runs with the sample's values.
	scr.focus(t, win)
	scr.key(t, "ctrl+r")
	time.Sleep(2 * time.Second) // the dialog takes the keyboard once shown
	scr.shot(t, "3-inputs")
	scr.key(t, "Return")
	title := scr.waitTitle(t, app, win, " — (succeeded|failed|stopped|interrupted|成功|失败|已停止|已中断)$")
	want := map[string][]string{"parallel": {"— failed", "— 失败"}, "remote": {"— succeeded", "— 成功"}}[c.sample]
	if !strings.HasSuffix(title, want[0]) && !strings.HasSuffix(title, want[1]) {
		t.Fatalf("the %s sample ended with the title %q (steps in %s)", c.sample, title, scr.shots)
	}
	time.Sleep(2 * time.Second) // the run panel's last messages
	scr.shot(t, "4-done")

	// The run panel taller, so the nodes and the messages have room.
	top := c.h * 38 / 100
	div := runPanelDivider(t, g.importTool, scr)
	scr.drag(t, c.w/2, div, c.w/2, top)
	if c.w < 1280 { // too narrow for the workflow's labels beside the inspector
		// The workflow list has given way already (below ui.CompactWidth).
		scr.key(t, "ctrl+i")
	}
	scr.key(t, "ctrl+0")
	scr.shot(t, "5-panel")

	// The detail's split (a light bar in the node detail) gives the inputs
	// and outputs more room: the messages below need less.
	hx := c.w * 67 / 100
	if hy, ok := scr.splitHandle(t, hx, top+170, c.h-60); ok {
		dy := 90
		if c.w < 1280 {
			dy = 30
		}
		scr.drag(t, hx, hy, hx, hy+dy)
	} else {
		t.Logf("no split handle in the node detail at x=%d (steps in %s)", hx, scr.shots)
	}
	scr.shot(t, "6-detail")

	// The Remote Agent's row in the run panel: the detail shows its answer
	// and, in the parallel sample, the lines of its cancel.
	scr.clickTextIn(t, image.Rect(0, top, c.w*34/100, c.h-30), agent)
	time.Sleep(2 * time.Second)
	shot := filepath.Join(g.tmp, tag+".png")
	waitForPicture(t, app, g.importTool, "root", shot, "DISPLAY="+scr.display)
	saveScreenshot(t, shot, c.out)
	quitApp(t, app)
	checkAppOutput(t, app)
}

// splitHandle finds the detail split's light bar (#F3F3F3) in column x
// between y0 and y1.
func (s *screen) splitHandle(t *testing.T, x, y0, y1 int) (int, bool) {
	t.Helper()
	img := s.capture(t)
	for y := y0; y < y1; y++ {
		r, g, b, _ := img.At(x, y).RGBA()
		if r>>8 == 0xF3 && g>>8 == 0xF3 && b>>8 == 0xF3 {
			return y, true
		}
	}
	return 0, false
}
