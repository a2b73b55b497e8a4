//go:build linux

package main

import (
	"fmt"
	"image"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"workrun/workrun"
)

// itemsLang is what the issue 23 item test reads and types in one language.
type itemsLang struct {
	lang                 string
	runInputs            string // the run-inputs dialog's title
	name, origin, secret string // the credentials form's labels
	save, close, saved   string // its Save and Close buttons; the saved message
	noCredent            string // the Credential picker's first entry
}

var itemsLangs = []itemsLang{
	{lang: "en", runInputs: "Run inputs", name: "Name", origin: "Service origin",
		secret: "Secret", save: "Save", close: "Close", saved: "OS keyring", noCredent: "No authentication"},
	{lang: "zh", runInputs: "运行输入", name: "名称", origin: "服务来源",
		secret: "密钥", save: "保存", close: "关闭", saved: "已将", noCredent: "不认证"},
}

// itemsWorkflow greets the name it is given; its Remote Agent node "Ask
// helper" is on a branch no run takes (name is never "nobody"), so the
// runs need no agent and the node still has a Credential picker. Two
// columns, three rows: Fit shows it at a zoom whose labels OCR reads, also
// in the 1024×700 window's small canvas.
const itemsWorkflow = `{"name":"Greet","state":{"name":"text","greeting":"text","answer":"text"},
	"nodes":[{"id":"start","type":"start","position":{"x":0,"y":0}},
	  {"id":"check","type":"condition","config":{"field":"name","op":"eq","value":"nobody"},"position":{"x":200,"y":0}},
	  {"id":"hi","type":"set","position":{"x":200,"y":100},"config":{"values":{"greeting":"hello {{name}}"}}},
	  {"id":"end","type":"output","config":{"fields":["greeting"]},"position":{"x":200,"y":200}},
	  {"id":"ask","type":"remote_agent","title":"Ask helper","position":{"x":0,"y":100},
	   "config":{"url":"http://127.0.0.1:9/","inputs":["name"],"output":"answer"}}],
	"edges":[{"from":"start","to":"check"},{"from":"check","to":"ask","when":"true"},
	  {"from":"check","to":"hi","when":"false"},{"from":"hi","to":"end"}]}`

// TestGUIWindowItems is issue 23 items 6 and 2 in the real window (built
// binary, Xvfb 1024×700, xdotool, English and Chinese, the session's real
// keyring), one window per language:
//
// Item 6, keyboard only: a first run (Ctrl+R, type a name, Enter) gives the
// workflow a last input; the second Ctrl+R prefills it selected, so typing
// replaces it — the second run got exactly the new name, not the old one
// with the new glued on. It waits for the dialog's title (OCR) before typing.
//
// Item 2: with the Remote Agent node selected, a credential added in
// Settings → Credentials… (name, origin and secret typed into the form,
// Save, Close) is at once in the node's Credential list — opened by a
// click, its new entry read by OCR — without selecting the node again.
func TestGUIWindowItems(t *testing.T) {
	g := newGUITest(t)
	for _, c := range itemsLangs {
		t.Run(c.lang, func(t *testing.T) {
			data := filepath.Join(g.tmp, "data-items-"+c.lang)
			wfID := saveWorkflowJSON(t, data, itemsWorkflow)
			began := time.Now()
			scr, app, win := startWindow1024(t, g, c.lang, "items-"+c.lang, data)
			openListed(t, scr, app, win, c.lang, "Greet")
			t.Logf("window open after %s", time.Since(began).Round(time.Second))
			runTypingReplaces(t, g, c, scr, app, win, data, wfID)
			t.Logf("item 6 checked after %s", time.Since(began).Round(time.Second))
			credentialShowsInOpenNode(t, g, c, scr, app, data)
			t.Logf("item 2 checked after %s", time.Since(began).Round(time.Second))
		})
	}
}

// openListed opens the saved workflow name (window language lng) from the workflow list as a
// person does: in a window narrower than ui.CompactWidth (1024 px) the
// list gives way to the canvas, so it is opened first (Ctrl+L, once: a
// second press hides it again), then the name is clicked.
func openListed(t *testing.T, scr *screen, app *runningApp, win, lng, name string) {
	t.Helper()
	list := image.Rect(0, 60, 260, scr.height)
	scr.openWorkflowList(t, scr.width, lng)
	box, ok := scr.waitText(t, list, name, textWait)
	if !ok {
		scr.shot(t, "no-list")
		t.Fatalf("the workflow list does not show %q (steps in %s)", name, scr.shots)
	}
	c := box.Min.Add(box.Max).Div(2)
	scr.click(t, c.X, c.Y)
	scr.shot(t, "0-clicked")
	scr.waitTitle(t, app, win, "^Workrun — "+regexp.QuoteMeta(name)+"$")
}

// runTypingReplaces is item 6 (see TestGUIWindowItems).
func runTypingReplaces(t *testing.T, g guiTest, c itemsLang, scr *screen, app *runningApp, win, data, wfID string) {
	t.Helper()
	// The dialog's title is in its top left; its size varies.
	title := image.Rect(scr.width/2-330, 60, scr.width/2+330, scr.height/2)
	run := func(n int, text string) workrun.Run {
		t.Helper()
		scr.key(t, "ctrl+r")
		if _, ok := scr.waitText(t, title, c.runInputs, textWait); !ok {
			scr.shot(t, "no-dialog")
			t.Fatalf("run %d: the run inputs dialog did not open (steps in %s)", n, scr.shots)
		}
		scr.shot(t, fmt.Sprintf("1-dialog-%d", n))
		scr.typeText(t, text)
		scr.key(t, "Return")
		deadline := time.Now().Add(90 * time.Second)
		for time.Now().Before(deadline) {
			runs := cliRuns(t, g.bin, data)
			if len(runs) == n && runs[0].WorkflowID == wfID && runs[0].Status.Terminal() {
				if runs[0].Status != workrun.RunSucceeded {
					t.Fatalf("run %d %s: %s", n, runs[0].Status, runs[0].Reason)
				}
				scr.waitTitle(t, app, win, titleSucceeded)
				// The run list holds no inputs; the record does.
				return showRun(t, g.bin, data, runs[0].ID).Run
			}
			time.Sleep(300 * time.Millisecond)
		}
		scr.shot(t, "no-run")
		t.Fatalf("run %d did not succeed (steps in %s)", n, scr.shots)
		return workrun.Run{}
	}
	first := run(1, "Ada "+c.lang)
	if got := first.Inputs["name"]; got != "Ada "+c.lang {
		t.Fatalf("first run's input %q, want %q", got, "Ada "+c.lang)
	}
	second := run(2, "Grace")
	if got := second.Inputs["name"]; got != "Grace" {
		t.Fatalf("item 6: second run's input %q, want %q: typing did not replace the prefilled value (steps in %s)", got, "Grace", scr.shots)
	}
	if g, _ := second.State["greeting"].(string); !strings.Contains(g, "hello Grace") {
		t.Fatalf("the second run's greeting %q, want it to greet Grace", g)
	}
}

// credentialShowsInOpenNode is item 2 (see TestGUIWindowItems); it quits
// the app at the end.
func credentialShowsInOpenNode(t *testing.T, g guiTest, c itemsLang, scr *screen, app *runningApp, data string) {
	t.Helper()
	sw, sh := scr.width, scr.height
	div := runPanelDivider(t, g.importTool, scr)
	canvas := image.Rect(0, 72, sw-300, div-4) // where the list gives way, the canvas starts further left
	inspector := image.Rect(sw-300, 72, sw, sh)

	// Select the node; its inspector shows the Credential picker under the
	// URL and Test connection. At 1024×700 the run panel leaves the
	// inspector too short for it: make room as a person would, dragging
	// the divider down first, then scrolling.
	if div < sh-150 {
		scr.drag(t, 600, div, 600, sh-150)
	}
	scr.clickTextIn(t, canvas, "Ask helper")
	if _, ok := scr.waitText(t, image.Rect(inspector.Min.X, inspector.Min.Y, sw, sh/2), "Ask helper", textWait); !ok {
		scr.shot(t, "not-selected")
		t.Fatalf("the inspector does not show the node Ask helper (steps in %s)", scr.shots)
	}
	// The picker is third from the form's end: scroll to the end (again
	// while the form may still be laid out anew) until it shows.
	var picker image.Rectangle
	for try := 0; ; try++ {
		scr.run(t, "mousemove", fmt.Sprint(sw-150), "300")
		scr.run(t, "click", "--repeat", "10", "5")
		settle()
		var ok bool
		if picker, ok = scr.waitText(t, inspector, c.noCredent, 3*time.Second); ok {
			break
		}
		if try == 4 {
			scr.shot(t, "no-picker")
			t.Fatalf("the inspector shows no Credential picker saying %q (steps in %s)", c.noCredent, scr.shots)
		}
	}
	scr.shot(t, "2-selected")

	// Settings → Credentials…, its first item: read by where it is, one
	// row above English (chi_sim does not read the small 凭据…; English and
	// 简体中文 below it read in both languages).
	const name = "teamkey"
	mx := menuSettingsX(c.lang)
	scr.click(t, mx, 14)
	menu := image.Rect(max(0, mx-30), 22, min(sw, mx+400), sh/2)
	en, ok := scr.waitLabel(t, menu, "English", textWait)
	if !ok {
		scr.shot(t, "no-menu")
		t.Fatalf("the Settings menu shows no English item (steps in %s)", scr.shots)
	}
	// Read alone, in a strip just below English and no wider than the
	// menu's items (in a larger area chi_sim splits it into 简体 and 中文,
	// and the canvas's node titles right of the menu confuse it).
	zh, ok := scr.waitText(t, image.Rect(en.Min.X-12, en.Max.Y, en.Min.X+110, en.Max.Y+50), "简体中文", textWait)
	if !ok {
		scr.shot(t, "no-menu-zh")
		t.Fatalf("the Settings menu shows no 简体中文 item below English (steps in %s)", scr.shots)
	}
	enY, row := (en.Min.Y+en.Max.Y)/2, (zh.Min.Y+zh.Max.Y)/2-(en.Min.Y+en.Max.Y)/2
	scr.click(t, (en.Min.X+en.Max.X)/2, enY-row)

	// The dialog is 680×620 in the middle of the window; its form's labels
	// are in a column at its left, its buttons and message under the form.
	dlg := image.Rect(sw/2-340, sh/2-310, sw/2+340, sh/2+310)
	labels := image.Rect(dlg.Min.X, dlg.Min.Y+200, dlg.Min.X+130, dlg.Max.Y-100)
	under := image.Rect(dlg.Min.X, sh/2+150, dlg.Max.X, dlg.Max.Y)
	// One reading of the label column, once it shows the name field,
	// places all three fields.
	form, ok := waitPage(t, scr, labels, c.name, true)
	if !ok {
		scr.shot(t, "no-form")
		t.Fatalf("no credentials form with a %q field (steps in %s); read:\n%s", c.name, scr.shots, form)
	}
	for _, f := range []struct{ label, text string }{{c.name, name}, {c.origin, "http://127.0.0.1:9"}, {c.secret, "s3cret-value"}} {
		boxes := form.findLabel(f.label)
		if len(boxes) == 0 {
			scr.shot(t, "no-field")
			t.Fatalf("the credentials form has no %q field (steps in %s); read:\n%s", f.label, scr.shots, form)
		}
		// The entry is right of its label.
		scr.click(t, boxes[0].Max.X+120, (boxes[0].Min.Y+boxes[0].Max.Y)/2)
		scr.typeText(t, f.text)
	}
	scr.shot(t, "3-form")
	// Save and Close are in the button rows under the form (the list
	// above is empty; the dialog's title holds no such word).
	click := func(box image.Rectangle) {
		c := box.Min.Add(box.Max).Div(2)
		scr.click(t, c.X, c.Y)
	}
	save, ok := scr.waitLabel(t, under, c.save, textWait)
	if !ok {
		scr.shot(t, "no-save")
		t.Fatalf("no %q button in the credentials dialog (steps in %s)", c.save, scr.shots)
	}
	click(save)
	saved, ok := waitPage(t, scr, under, c.saved, false)
	if !ok {
		scr.shot(t, "not-saved")
		t.Fatalf("the credentials dialog does not say the credential was saved (steps in %s)\n%s", scr.shots, app.out.String())
	}
	scr.shot(t, "4-saved")
	closeB := saved.findLabel(c.close)
	if len(closeB) == 0 {
		scr.shot(t, "no-close")
		t.Fatalf("no %q button under the saved message (steps in %s); read:\n%s", c.close, scr.shots, saved)
	}
	click(closeB[0])
	if !scr.waitTextGone(t, labels, c.origin, textWait) {
		scr.shot(t, "not-closed")
		t.Fatalf("the credentials dialog did not close (steps in %s)", scr.shots)
	}

	// The node's picker, opened as it is (no reselect), lists it.
	scr.click(t, (picker.Min.X+picker.Max.X)/2, (picker.Min.Y+picker.Max.Y)/2)
	if _, ok := scr.waitText(t, image.Rect(inspector.Min.X, picker.Min.Y-200, sw, sh), name, 20*time.Second); !ok {
		scr.shot(t, "5-not-listed")
		t.Fatalf("item 2: the open node's Credential list lacks %q, added in Settings (steps in %s)", name, scr.shots)
	}
	scr.shot(t, "5-listed")
	scr.key(t, "Escape")
	quitApp(t, app)
	checkAppOutput(t, app)

	// It is in the same keyring, for the CLI too.
	list := exec.Command(g.bin, "--data-dir", data, "credential", "list")
	list.Env = app.cmd.Env
	if out, err := list.CombinedOutput(); err != nil || !strings.Contains(string(out), name) {
		t.Errorf("credential list after the window's save: %v\n%s", err, out)
	}
}

// waitPage waits up to textWait until text (a whole label when whole) is
// read in area and returns that reading, so other labels are placed
// without reading again; false with the last reading when it is not.
func waitPage(t *testing.T, scr *screen, area image.Rectangle, text string, whole bool) (ocrPage, bool) {
	t.Helper()
	for deadline := time.Now().Add(textWait); ; {
		found, page := scr.look(t, area, text, whole)
		if len(found) > 0 {
			return page, true
		}
		if time.Now().After(deadline) {
			return page, false
		}
		time.Sleep(300 * time.Millisecond)
	}
}
