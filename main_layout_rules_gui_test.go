//go:build linux

package main

import (
	"fmt"
	"image"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"workrun/mcp/demoserver"
)

// ruleScreens are the screens the layout rules are met on (docs/product.md
// "Layout rules at 1024×700 and 1440×900").
var ruleScreens = [][2]int{{1024, 700}, {1440, 900}}

// TestGUIQuestionFormVisibleWithoutDragging: a question's answer form is
// visible without dragging. The real binary on a 1024×700 and a 1440×900
// screen, in English and Chinese, runs a saved workflow whose Remote MCP
// Tool calls the demo server's survey tool, which asks twice (a region,
// then a depth). Without touching a divider, the screen (read by OCR) shows
// each round's Answer, Decline and Cancel request on one row inside the
// screen, and the answer typed into the form above them; Enter in the
// one-line region sends it, the depth is picked with the keyboard, and the
// run succeeds with both answers.
//
// WORKRUN_SAVE_SCREENSHOT=1 writes assets/screenshots/question-form-{en,zh}-WxH.png
// (the form with the typed answer, before it is sent).
func TestGUIQuestionFormVisibleWithoutDragging(t *testing.T) {
	g := newGUITest(t)
	lookTool(t, "tesseract")
	d := demoserver.New(demoserver.Options{})
	srv := httptest.NewServer(d.Mux())
	t.Cleanup(func() { srv.Close(); d.Close() })
	for _, size := range ruleScreens {
		for _, lng := range []string{"en", "zh"} {
			t.Run(fmt.Sprintf("%s-%dx%d", lng, size[0], size[1]), func(t *testing.T) {
				questionFormInView(t, g, lng, size[0], size[1], srv.URL+demoserver.Path)
			})
		}
	}
}

func questionFormInView(t *testing.T, g guiTest, lng string, sw, sh int, mcpURL string) {
	tag := fmt.Sprintf("form-%s-%d", lng, sw)
	data := filepath.Join(g.tmp, "data-"+tag)
	topic := "tea " + lng
	wfID := saveSurveyWorkflow(t, data, mcpURL, topic)
	scr, app, win := startWindowAt(t, g, lng, tag, data, sw, sh)
	scr.openWorkflowList(t, sw, lng)
	scr.clickTextIn(t, image.Rect(0, 150, 220, sh/2), "Survey")
	scr.waitTitle(t, app, win, "^Workrun — Survey$")
	scr.shot(t, "0-opened")

	scr.key(t, "ctrl+r")
	runID := waitQuestionRound(t, g.bin, data, wfID, "survey", 1, app)
	settle()
	scr.shot(t, "1-asked")
	decline := scr.formButtonsInView(t, lng, "round 1")

	// Round 1: the keyboard is in the region's one-line input; what is
	// typed shows above the buttons, and Enter sends it.
	region := "Porto " + lng
	scr.typeText(t, region)
	typed, ok := scr.waitText(t, image.Rect(0, sh/3, sw, sh), region, textWait)
	if !ok {
		scr.shot(t, "1-not-typed")
		t.Fatalf("the typed answer %q is not in view (steps in %s)", region, scr.shots)
	}
	if typed.Min.Y > decline.Min.Y {
		t.Errorf("the answer's input (y=%d) is below its buttons (y=%d)", typed.Min.Y, decline.Min.Y)
	}
	if os.Getenv("WORKRUN_SAVE_SCREENSHOT") == "1" {
		shot := filepath.Join(g.tmp, tag+".png")
		waitForPicture(t, app, g.importTool, "root", shot, "DISPLAY="+scr.display)
		saveScreenshot(t, shot, filepath.Join("assets", "screenshots", fmt.Sprintf("question-form-%s-%dx%d.png", lng, sw, sh)))
	}
	scr.key(t, "Return")

	// Round 2: a choice; its buttons are in view too. → → picks
	// "thorough", Tab goes to Answer, Space presses it.
	waitQuestionRound(t, g.bin, data, wfID, "survey", 2, app)
	settle()
	scr.shot(t, "2-round2")
	scr.formButtonsInView(t, lng, "round 2")
	scr.key(t, "Right")
	scr.key(t, "Right")
	scr.key(t, "Tab")
	scr.key(t, "space")
	shown := endSucceeded(t, g, scr, app, win, data, runID)
	report, _ := shown.Run.State["report"].(string)
	if want := fmt.Sprintf("Survey of %s: region %s, thorough.", topic, region); report != want {
		t.Errorf("report %q, want %q", report, want)
	}
	checkAppOutput(t, app)
}

// formButtonsInView checks that a question's Answer, Decline and Cancel
// request are on the screen, on one row, inside it, and returns Decline's
// box. Decline and Cancel request are read by OCR; Answer by its colour.
func (s *screen) formButtonsInView(t *testing.T, lng, when string) image.Rectangle {
	t.Helper()
	labels := map[string][3]string{
		"en": {"Answer", "Decline", "Cancel request"},
		"zh": {"回答", "拒绝", "取消请求"},
	}[lng]
	whole := image.Rect(0, 0, s.width, s.height)
	decline, ok := s.waitLabel(t, whole, labels[1], textWait)
	if !ok {
		s.shot(t, "no-decline")
		t.Fatalf("%s: %q is not in view without dragging (steps in %s)", when, labels[1], s.shots)
	}
	boxes, page := s.look(t, whole, labels[2], true)
	found := false
	for _, b := range boxes {
		found = found || abs(b.Min.Y-decline.Min.Y) <= 12
	}
	if !found {
		s.shot(t, "no-cancel")
		t.Errorf("%s: %q is not in view beside %q (y=%d) without dragging (steps in %s); the screen reads:\n%s", when, labels[2], labels[1], decline.Min.Y, s.shots, page)
	}
	// Answer is the blue (high-importance) button left of Decline: OCR
	// misreads white text on blue, so it is found by its colour.
	img := s.capture(t)
	y := (decline.Min.Y + decline.Max.Y) / 2
	blue := 0
	for _, dy := range []int{-8, 0, 8} { // above, through and below its text
		for x := decline.Min.X - 8; x > max(0, decline.Min.X-220); x-- {
			r, g, b, _ := img.At(x, y+dy).RGBA()
			if b>>8 > 180 && r>>8 < 100 && g>>8 < 160 {
				blue++
			}
		}
	}
	if blue < 30 {
		s.shot(t, "no-answer")
		t.Errorf("%s: no %s button (blue) left of %q at y=%d: %d blue pixels on three lines of its row (steps in %s)", when, labels[0], labels[1], y, blue, s.shots)
	}
	if decline.Max.Y > s.height-4 {
		t.Errorf("%s: the answer's buttons end at y=%d, past the %d px screen", when, decline.Max.Y, s.height)
	}
	return decline
}

// TestGUIInspectorScrollsWithWheelOverEntry: the inspector scrolls with
// the wheel over an entry. The real binary on a 1024×700 and a 1440×900
// screen opens the Remote Agent sample and selects its agent; the pointer
// rests on the inspector's URL entry and then on a label, and one wheel
// notch (xdotool button 5) moves the inspector's text up by at least 40 px
// (three rows, docs/product.md): the entry does not keep the wheel, and a
// label does not move it by a few pixels only.
func TestGUIInspectorScrollsWithWheelOverEntry(t *testing.T) {
	g := newGUITest(t)
	lookTool(t, "tesseract")
	for _, size := range ruleScreens {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			sw, sh := size[0], size[1]
			tag := fmt.Sprintf("wheel-%d", sw)
			scr, app, win := startWindowAt(t, g, "en", tag, filepath.Join(g.tmp, "data-"+tag), sw, sh)
			scr.menuItem(t, menuHelpX("en"), "Sample: Remote Agent demo")
			scr.waitTitle(t, app, win, "^Workrun — "+regexp.QuoteMeta("Remote Agent demo")+"$")
			scr.clickTextIn(t, image.Rect(0, 70, sw*2/3, sh/2), "Ask the agent")
			insp := image.Rect(sw-340, 60, sw, sh*3/5)
			// Over the URL entry (its text), then over the label above the
			// URL.
			for _, over := range []string{"127.0.0.1:41241", "A2A service URL"} {
				x, y0 := scr.findTextIn(t, insp, over)
				scr.run(t, "mousemove", fmt.Sprint(x), fmt.Sprint(y0))
				time.Sleep(200 * time.Millisecond)
				scr.run(t, "click", "5")
				settle()
				scr.shot(t, "wheel-"+safeName(over))
				boxes, page := scr.lookText(t, insp, over)
				moved := y0 - insp.Min.Y // scrolled out of the pane: at least that
				if len(boxes) > 0 {
					moved = y0 - (boxes[0].Min.Y+boxes[0].Max.Y)/2
				}
				if moved < 40 {
					t.Errorf("one wheel notch over %q moved the inspector by %d px, want at least 40 (steps in %s); the inspector reads:\n%s", over, moved, scr.shots, page)
				}
				// Back to the top for the next one.
				scr.run(t, "click", "--repeat", "10", "4")
				settle()
			}
			quitApp(t, app)
			checkAppOutput(t, app)
		})
	}
}
