//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"workrun/mcp/demoserver"
	"workrun/store"
	"workrun/workrun"
)

// TestGUIAnswersRemoteQuestions drives the real binary on a 1024×700
// screen, in English and in Chinese, as a person does: it opens a saved
// workflow whose Remote MCP Tool calls the demo server's survey tool,
// presses Ctrl+R, and answers the two questions the tool asks in the run
// panel with the keyboard only — xdotool types the region into the form
// (Enter answers), then picks the depth in the form's choice (→ →, Tab to
// Answer, Space). The run succeeds with both answers in the tool's result,
// the server got each answer exactly once, and the record shows each
// question and answer in the node's messages.
//
// WORKRUN_SAVE_SCREENSHOT=1 writes assets/screenshots/question-{en,zh}-1024x700.png
// (the form with the typed answer, before it is sent).
func TestGUIAnswersRemoteQuestions(t *testing.T) {
	g := newGUITest(t)
	d := demoserver.New(demoserver.Options{})
	srv := httptest.NewServer(d.Mux())
	t.Cleanup(func() { srv.Close(); d.Close() })
	for _, lng := range []string{"en", "zh"} {
		t.Run(lng, func(t *testing.T) { answerInWindow(t, g, lng, srv.URL+demoserver.Path, d) })
	}
}

func answerInWindow(t *testing.T, g guiTest, lng, mcpURL string, d *demoserver.Server) {
	const sw, sh = 1024, 700
	home := filepath.Join(g.tmp, "home-"+lng)
	data := filepath.Join(g.tmp, "data-"+lng)
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	topic := "coffee " + lng
	wfID := saveSurveyWorkflow(t, data, mcpURL, topic)

	scr := startXvfb(t, sw, sh)
	scr.shots = filepath.Join(g.tmp, "steps-"+lng)
	if d := os.Getenv("WORKRUN_GUI_STEPS"); d != "" {
		scr.shots = filepath.Join(d, lng) // kept after the test
	}
	env := append(withDisplay(appEnv(home), scr.display), sessionKeyring(t, home)...)
	if lng == "zh" {
		env = append(env, "LANG=zh_CN.UTF-8")
	}
	app := startApp(t, g.bin, []string{"--data-dir", data}, env)
	win := scr.waitWindow(t, app, "^Workrun( |$)")
	time.Sleep(2 * time.Second) // the window takes its size once shown
	scr.run(t, "windowmove", win, "0", "0", "windowsize", win, fmt.Sprint(sw), fmt.Sprint(sh))
	settle()
	scr.shot(t, "0-start")

	// Open the saved workflow from the list (its first row) and run it.
	scr.click(t, 40, 208)
	scr.shot(t, "0-clicked")
	scr.waitTitle(t, app, win, "^Workrun — Survey$")
	// Drag the divider above the run panel up: the form gets room on the
	// small screen.
	scr.drag(t, sw/2, runPanelDivider(t, g.importTool, scr), sw/2, 150)
	scr.shot(t, "0-panel")
	seen := len(d.Requests())
	scr.key(t, "ctrl+r")
	runID := waitQuestionRound(t, g.bin, data, wfID, 1, app)
	settle()
	scr.shot(t, "1-asked")

	// Round 1: the keyboard is in the region field; type and press Enter.
	region := "Lisbon " + lng
	scr.typeText(t, region)
	scr.shot(t, "2-typed")
	if os.Getenv("WORKRUN_SAVE_SCREENSHOT") == "1" {
		shot := filepath.Join(g.tmp, "question-"+lng+".png")
		waitForPicture(t, app, g.importTool, "root", shot, "DISPLAY="+scr.display)
		saveScreenshot(t, shot, filepath.Join("assets", "screenshots", "question-"+lng+"-1024x700.png"))
	}
	scr.key(t, "Return")
	waitQuestionRound(t, g.bin, data, wfID, 2, app)
	settle()
	scr.shot(t, "3-round2")

	// Round 2: a choice of quick / thorough: → → picks "thorough"; Tab
	// goes to Answer, Space presses it.
	scr.key(t, "Right")
	scr.key(t, "Right")
	scr.shot(t, "4-picked")
	scr.key(t, "Tab")
	scr.key(t, "space")
	title := scr.waitTitle(t, app, win, " — (succeeded|failed|stopped|interrupted|成功|失败|已停止|已中断)$")
	if !strings.HasSuffix(title, "— succeeded") && !strings.HasSuffix(title, "— 成功") {
		scr.shot(t, "5-end")
		t.Fatalf("window title %q (steps in %s)", title, scr.shots)
	}
	quitApp(t, app)

	shown := showRun(t, g.bin, data, runID)
	if shown.Run.Status != workrun.RunSucceeded {
		t.Fatalf("run %s: %s", shown.Run.Status, shown.Run.Reason)
	}
	report, _ := shown.Run.State["report"].(string)
	if want := fmt.Sprintf("Survey of %s: region %s, thorough.", topic, region); report != want {
		t.Errorf("report %q, want %q", report, want)
	}
	var msgs []string
	for _, n := range shown.Nodes {
		for _, m := range n.Messages {
			msgs = append(msgs, m.Text)
		}
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"round 1", "answered (round 1): region: " + region, "answered (round 2): depth: thorough"} {
		if !strings.Contains(all, want) {
			t.Errorf("messages lack %q:\n%s", want, all)
		}
	}
	// The server got each answer once.
	var regions, depths int
	for _, r := range d.Requests()[seen:] {
		if strings.Contains(string(r.Params), `"region":"`+region+`"`) {
			regions++
		}
		if strings.Contains(string(r.Params), `"depth":"thorough"`) {
			depths++
		}
	}
	if regions == 0 || depths != 1 {
		var sent []string
		for _, r := range d.Requests()[seen:] {
			sent = append(sent, r.Method+" "+string(r.Params))
		}
		t.Errorf("the server got the region in %d requests and the depth %d times (want the depth once):\n%s", regions, depths, strings.Join(sent, "\n"))
	}
	for _, bad := range []string{"DATA RACE", "panic:"} {
		if strings.Contains(app.out.String(), bad) {
			t.Errorf("workrun printed %q", bad)
		}
	}
}

// runPanelDivider finds the divider above the run panel — its height
// depends on the language's font — by its black middle line in the
// column x=600, between the middle and the bottom of the screen.
func runPanelDivider(t *testing.T, importTool string, scr *screen) int {
	t.Helper()
	y0 := scr.height / 2
	cmd := exec.Command(importTool, "-window", "root", "-crop", fmt.Sprintf("1x%d+600+%d", scr.height/2-40, y0), "txt:-")
	cmd.Env = withDisplay(os.Environ(), scr.display)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		var x, y int
		if n, _ := fmt.Sscanf(line, "%d,%d:", &x, &y); n == 2 && strings.Contains(line, "#000000") {
			return y0 + y
		}
	}
	scr.shot(t, "no-divider")
	t.Fatalf("no divider above the run panel (steps in %s)", scr.shots)
	return 0
}

// saveSurveyWorkflow saves the one workflow of data dir data: a Remote MCP
// Tool calling the demo server's survey tool about topic.
func saveSurveyWorkflow(t *testing.T, data, mcpURL, topic string) string {
	t.Helper()
	var wf workrun.Workflow
	raw := fmt.Sprintf(`{"name":"Survey","state":{"report":"text"},
		"nodes":[{"id":"start","type":"start","position":{"x":20,"y":40}},
		  {"id":"survey","type":"remote_mcp","title":"Survey","position":{"x":200,"y":40},
		   "config":{"url":%q,"tool":"survey","arguments":{"topic":%q},"output":"report"}},
		  {"id":"end","type":"output","config":{"fields":["report"]},"position":{"x":400,"y":40}}],
		"edges":[{"from":"start","to":"survey"},{"from":"survey","to":"end"}]}`, mcpURL, topic)
	if err := json.Unmarshal([]byte(raw), &wf); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(t.Context(), data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rec, err := st.SaveWorkflow(t.Context(), "", wf)
	if err != nil {
		t.Fatal(err)
	}
	return rec.ID
}

type shownRunJSON struct {
	Run   workrun.Run `json:"run"`
	Nodes []struct {
		workrun.NodeRun
		Messages []workrun.Message `json:"messages"`
	} `json:"nodes"`
}

func showRun(t *testing.T, bin, data, runID string) shownRunJSON {
	t.Helper()
	out, err := exec.Command(bin, "--data-dir", data, "show", runID, "--json", "--lang", "en").Output()
	if err != nil {
		t.Fatalf("workrun show: %v", err)
	}
	var s shownRunJSON
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatalf("workrun show --json: %v\n%s", err, out)
	}
	return s
}

// waitQuestionRound waits until the newest run of workflow wfID waits on
// round of its survey node's question (read through the CLI, as another
// process would) and returns the run's id.
func waitQuestionRound(t *testing.T, bin, data, wfID string, round int, app *runningApp) string {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		out, err := exec.Command(bin, "--data-dir", data, "runs", "--json").Output()
		var runs []workrun.Run
		if err == nil && json.Unmarshal(out, &runs) == nil && len(runs) > 0 {
			s := showRun(t, bin, data, runs[0].ID)
			for _, n := range s.Nodes {
				if n.NodeID == "survey" && n.Question != nil && n.Question.Round == round && n.Status == workrun.NodeInterrupted {
					return runs[0].ID
				}
			}
		}
		select {
		case err := <-app.done:
			app.done <- err
			t.Fatalf("workrun exited while waiting for round %d: %v\n%s", round, err, app.out.String())
		case <-time.After(300 * time.Millisecond):
		}
	}
	t.Fatalf("the survey never asked round %d\n%s", round, app.out.String())
	return ""
}
