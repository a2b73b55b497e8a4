//go:build linux

package main

import (
	"fmt"
	"image"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"workrun/a2a/demoagent"
)

// ruleScreens are the screens the layout rules are met on (docs/product.md
// "Layout rules at 1024×700 and 1440×900").
var ruleScreens = [][2]int{{1024, 700}, {1440, 900}}

// TestGUIQuestionFormVisibleWithoutDragging: a question's answer form is
// visible without dragging. The real binary on a 1024×700 and a 1440×900
// screen, in English and Chinese, runs a saved workflow whose Remote Agent
// asks the person twice (the demo agent's "input 2"). Without touching a
// divider, the screen (read by OCR) shows the question's Answer, Decline
// and Cancel request on one row inside the screen, the hint that Enter
// sends, and the answer typed into the box; Enter sends each answer and the
// run succeeds with both in the agent's echo.
//
// WORKRUN_SAVE_SCREENSHOT=1 writes assets/screenshots/question-form-{en,zh}-WxH.png
// (the form with the typed answer, before it is sent).
func TestGUIQuestionFormVisibleWithoutDragging(t *testing.T) {
	g := newGUITest(t)
	lookTool(t, "tesseract")
	for _, size := range ruleScreens {
		for _, lng := range []string{"en", "zh"} {
			t.Run(fmt.Sprintf("%s-%dx%d", lng, size[0], size[1]), func(t *testing.T) {
				a := demoagent.New(demoagent.Options{})
				srv := httptest.NewServer(a.Handler())
				t.Cleanup(func() { srv.Close(); a.Close() })
				questionFormInView(t, g, lng, size[0], size[1], srv.URL)
			})
		}
	}
}

func questionFormInView(t *testing.T, g guiTest, lng string, sw, sh int, agentURL string) {
	tag := fmt.Sprintf("form-%s-%d", lng, sw)
	data := filepath.Join(g.tmp, "data-"+tag)
	wfID := saveWorkflowJSON(t, data, agentAsksWorkflow(agentURL))
	scr, app, win := startWindowAt(t, g, lng, tag, data, sw, sh)
	scr.openWorkflowList(t, sw, lng)
	scr.clickTextIn(t, image.Rect(0, 150, 220, sh/2), "Agent asks")
	scr.waitTitle(t, app, win, "^Workrun — Agent asks$")
	scr.shot(t, "0-opened")

	scr.key(t, "ctrl+r")
	runID := waitQuestionRound(t, g.bin, data, wfID, "ask", 1, app)
	settle()
	scr.shot(t, "1-asked")

	whole := image.Rect(0, 0, sw, sh)
	labels := map[string][4]string{
		"en": {"Answer", "Decline", "Cancel request", "Shift+Enter"},
		"zh": {"回答", "拒绝", "取消请求", "换行"},
	}[lng]
	// Decline is found first: Answer sits on its row (in Chinese 回答 is
	// also in the header's 等待你回答).
	decline, ok := scr.waitLabel(t, whole, labels[1], textWait)
	if !ok {
		scr.shot(t, "no-decline")
		t.Fatalf("%q is not in view without dragging (steps in %s)", labels[1], scr.shots)
	}
	row := func(b image.Rectangle) bool { return abs(b.Min.Y-decline.Min.Y) <= 12 }
	for _, want := range []string{labels[0], labels[2]} {
		boxes, page := scr.look(t, whole, want, true)
		found := false
		for _, b := range boxes {
			found = found || row(b)
		}
		if !found {
			scr.shot(t, "no-"+safeName(want))
			t.Errorf("%q is not in view beside %q (at y=%d) without dragging (steps in %s); the screen reads:\n%s", want, labels[1], decline.Min.Y, scr.shots, page)
		}
	}
	if decline.Max.Y > sh-4 {
		t.Errorf("the answer's buttons end at y=%d, past the %d px screen", decline.Max.Y, sh)
	}
	if _, ok := scr.waitText(t, whole, labels[3], 10*time.Second); !ok {
		t.Errorf("no hint %q saying how to send", labels[3])
	}

	answers := []string{"blue " + lng, "green " + lng}
	for i, ans := range answers {
		if i > 0 {
			waitQuestionRound(t, g.bin, data, wfID, "ask", i+1, app)
			settle()
		}
		scr.typeText(t, ans)
		typed, ok := scr.waitText(t, image.Rect(0, sh/3, sw, sh), ans, textWait)
		if !ok {
			scr.shot(t, fmt.Sprintf("%d-not-typed", i+1))
			t.Fatalf("the typed answer %q is not in view (steps in %s)", ans, scr.shots)
		}
		if typed.Min.Y > decline.Min.Y {
			t.Errorf("the answer's box (y=%d) is below its buttons (y=%d)", typed.Min.Y, decline.Min.Y)
		}
		if i == 0 && os.Getenv("WORKRUN_SAVE_SCREENSHOT") == "1" {
			shot := filepath.Join(g.tmp, tag+".png")
			waitForPicture(t, app, g.importTool, "root", shot, "DISPLAY="+scr.display)
			saveScreenshot(t, shot, filepath.Join("assets", "screenshots", fmt.Sprintf("question-form-%s-%dx%d.png", lng, sw, sh)))
		}
		scr.key(t, "Return") // Enter sends
	}
	shown := endSucceeded(t, g, scr, app, win, data, runID)
	if got, _ := shown.Run.State["answer"].(string); !strings.Contains(got, strings.Join(answers, " | ")) {
		t.Errorf("answer %q, want the agent's echo of %q", got, strings.Join(answers, " | "))
	}
	checkAppOutput(t, app)
}

// agentAsksWorkflow is a workflow whose Remote Agent at agentURL sends
// "input 2": the demo agent asks twice before it answers.
func agentAsksWorkflow(agentURL string) string {
	return fmt.Sprintf(`{"name":"Agent asks","state":{"question":"text","answer":"text"},
		"nodes":[{"id":"start","type":"start","position":{"x":20,"y":40}},
		  {"id":"q","type":"set","config":{"values":{"question":"input 2"}},"position":{"x":160,"y":40}},
		  {"id":"ask","type":"remote_agent","title":"Ask the agent","position":{"x":300,"y":40},
		   "config":{"url":%q,"inputs":["question"],"output":"answer"}},
		  {"id":"end","type":"output","config":{"fields":["answer"]},"position":{"x":460,"y":40}}],
		"edges":[{"from":"start","to":"q"},{"from":"q","to":"ask"},{"from":"ask","to":"end"}]}`, agentURL)
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
			// input fields.
			for _, over := range []string{"127.0.0.1:41241", "Input fields"} {
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
