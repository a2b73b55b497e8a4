//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"workrun/a2a/demoagent"
	"workrun/mcp/demoserver"
	"workrun/nodes/remoteagent"
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
	data := filepath.Join(g.tmp, "data-"+lng)
	topic := "coffee " + lng
	wfID := saveSurveyWorkflow(t, data, mcpURL, topic)
	scr, app, win := openQuestionWindow(t, g, lng, lng, data, "Survey")
	// Drag the divider above the run panel up: the form gets room on the
	// small screen.
	scr.drag(t, scr.width/2, runPanelDivider(t, g.importTool, scr), scr.width/2, 150)
	scr.shot(t, "0-panel")
	seen := len(d.Requests())
	scr.key(t, "ctrl+r")
	runID := waitQuestionRound(t, g.bin, data, wfID, "survey", 1, app)
	settle()
	scr.shot(t, "1-asked")

	// Round 1: the keyboard is in the region field; type and press Enter.
	region := "Lisbon " + lng
	scr.typeText(t, region)
	scr.shot(t, "2-typed")
	keepQuestionShot(t, g, scr, app, "question-"+lng)
	scr.key(t, "Return")
	waitQuestionRound(t, g.bin, data, wfID, "survey", 2, app)
	settle()
	scr.shot(t, "3-round2")

	// Round 2: a choice of quick / thorough: → → picks "thorough"; Tab
	// goes to Answer, Space presses it.
	scr.key(t, "Right")
	scr.key(t, "Right")
	scr.shot(t, "4-picked")
	scr.key(t, "Tab")
	scr.key(t, "space")
	shown := endSucceeded(t, g, scr, app, win, data, runID)
	report, _ := shown.Run.State["report"].(string)
	if want := fmt.Sprintf("Survey of %s: region %s, thorough.", topic, region); report != want {
		t.Errorf("report %q, want %q", report, want)
	}
	checkMessages(t, shown, "round 1", "answered (round 1): region: "+region, "answered (round 2): depth: thorough")
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
	checkAppOutput(t, app)
}

// TestGUIAnswersAgentQuestions is the A2A side of
// TestGUIAnswersRemoteQuestions: a saved workflow's Remote Agent sends
// "input 2" to the demo agent, which asks twice (INPUT_REQUIRED). Each
// time xdotool types the answer into the question's text box in the run
// panel and presses Enter (Answer). The run succeeds with both
// answers in the agent's echo, the record shows each answer in the node's
// messages, and the agent got the first message and each round's answer
// exactly once (its per-messageId counters).
//
// WORKRUN_SAVE_SCREENSHOT=1 writes assets/screenshots/question-agent-{en,zh}-1024x700.png
// (the agent's question with the typed answer, before it is sent).
func TestGUIAnswersAgentQuestions(t *testing.T) {
	g := newGUITest(t)
	for _, lng := range []string{"en", "zh"} {
		t.Run(lng, func(t *testing.T) {
			a := demoagent.New(demoagent.Options{})
			srv := httptest.NewServer(a.Handler())
			t.Cleanup(func() { srv.Close(); a.Close() })
			answerAgentInWindow(t, g, lng, srv.URL, a)
		})
	}
}

func answerAgentInWindow(t *testing.T, g guiTest, lng, agentURL string, a *demoagent.Server) {
	data := filepath.Join(g.tmp, "data-agent-"+lng)
	wfID := saveWorkflowJSON(t, data, fmt.Sprintf(`{"name":"Agent asks","state":{"question":"text","answer":"text"},
		"nodes":[{"id":"start","type":"start","position":{"x":20,"y":40}},
		  {"id":"q","type":"set","config":{"values":{"question":"input 2"}},"position":{"x":160,"y":40}},
		  {"id":"ask","type":"remote_agent","title":"Ask the agent","position":{"x":300,"y":40},
		   "config":{"url":%q,"inputs":["question"],"output":"answer"}},
		  {"id":"end","type":"output","config":{"fields":["answer"]},"position":{"x":460,"y":40}}],
		"edges":[{"from":"start","to":"q"},{"from":"q","to":"ask"},{"from":"ask","to":"end"}]}`, agentURL))
	scr, app, win := openQuestionWindow(t, g, lng, "agent-"+lng, data, "Agent asks")
	// Drag the divider above the run panel up, so the question, its text
	// box and Answer all show on the small screen.
	scr.drag(t, scr.width/2, runPanelDivider(t, g.importTool, scr), scr.width/2, 150)
	scr.shot(t, "0-panel")
	scr.key(t, "ctrl+r")
	runID := waitQuestionRound(t, g.bin, data, wfID, "ask", 1, app)
	settle()
	scr.shot(t, "1-asked")

	// Each round: the keyboard is in the answer's text box; type, then
	// Enter presses Answer (Shift+Enter would start a new line).
	answers := []string{"blue " + lng, "green tea " + lng}
	for i, ans := range answers {
		if i > 0 {
			waitQuestionRound(t, g.bin, data, wfID, "ask", i+1, app)
			settle()
			scr.shot(t, fmt.Sprintf("%d-asked", i+1))
		}
		scr.typeText(t, ans)
		scr.shot(t, fmt.Sprintf("%d-typed", i+1))
		if i == 0 {
			keepQuestionShot(t, g, scr, app, "question-agent-"+lng)
		}
		scr.key(t, "Return")
	}
	shown := endSucceeded(t, g, scr, app, win, data, runID)
	if got, _ := shown.Run.State["answer"].(string); !strings.Contains(got, strings.Join(answers, " | ")) {
		t.Errorf("answer %q, want the agent's echo of %q", got, strings.Join(answers, " | "))
	}
	checkMessages(t, shown, "answered (round 1): "+answers[0], "answered (round 2): "+answers[1])
	// The agent got the first message and each round's answer once, and
	// nothing else.
	want := map[string]int{remoteagent.MessageID(runID, "ask", "send"): 1}
	for round := 1; round <= len(answers); round++ {
		want[remoteagent.MessageID(runID, "ask", fmt.Sprintf("send/answer-%d", round))] = 1
	}
	if got := a.Stats().Submissions; !maps.Equal(got, want) {
		t.Errorf("the agent's submissions per messageId %v, want %v", got, want)
	}
	checkAppOutput(t, app)
}

// keepQuestionShot writes the screen to assets/screenshots/NAME-1024x700.png
// when WORKRUN_SAVE_SCREENSHOT=1.
func keepQuestionShot(t *testing.T, g guiTest, scr *screen, app *runningApp, name string) {
	t.Helper()
	if os.Getenv("WORKRUN_SAVE_SCREENSHOT") != "1" {
		return
	}
	shot := filepath.Join(g.tmp, name+".png")
	waitForPicture(t, app, g.importTool, "root", shot, "DISPLAY="+scr.display)
	saveScreenshot(t, shot, filepath.Join("assets", "screenshots", name+"-1024x700.png"))
}

// startWindow1024 starts the built binary with data dir data on its own
// 1024×700 screen, in language lng ("en" or "zh"), with the session's
// keyring, and waits for its window; tag names its home and step pictures.
func startWindow1024(t *testing.T, g guiTest, lng, tag, data string) (*screen, *runningApp, string) {
	t.Helper()
	return startWindowAt(t, g, lng, tag, data, 1024, 700)
}

// startWindowAt is startWindow1024 on a screen of sw×sh.
func startWindowAt(t *testing.T, g guiTest, lng, tag, data string, sw, sh int) (*screen, *runningApp, string) {
	t.Helper()
	home := filepath.Join(g.tmp, "home-"+tag)
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	scr := startXvfb(t, sw, sh)
	scr.shots = filepath.Join(g.tmp, "steps-"+tag)
	if d := os.Getenv("WORKRUN_GUI_STEPS"); d != "" {
		scr.shots = filepath.Join(d, tag) // kept after the test
	}
	env := append(withDisplay(appEnv(home), scr.display), sessionKeyring(t, home)...)
	if lng == "zh" {
		env = append(env, "LANG=zh_CN.UTF-8")
	}
	app := startApp(t, g.bin, []string{"--data-dir", data}, env)
	// The window shows at 1280×800 and then takes the screen's work area;
	// on a loaded machine (a -race build) that can be seconds later. Keys
	// sent before it did act on the wide layout (Ctrl+L there hides the
	// wide window's list, remembered), so wait for the size and a drawn
	// frame.
	win := scr.readyWindow(t, app, g.importTool)
	scr.waitWorkArea(t, win)
	scr.run(t, "windowmove", win, "0", "0", "windowsize", win, fmt.Sprint(sw), fmt.Sprint(sh))
	settle()
	scr.shot(t, "0-start")
	return scr, app, win
}

// waitWorkArea waits until win has the screen's size (the app opens over
// the work area of a screen smaller than 1600×1000; Xvfb has no panels).
func (s *screen) waitWorkArea(t *testing.T, win string) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		w, h := s.windowSize(t, win)
		if w == s.width && h == s.height {
			return
		}
		if time.Now().After(deadline) {
			s.shot(t, "no-work-area")
			t.Fatalf("the window is %dx%d, not the %dx%d screen's work area, after 90 s (steps in %s)", w, h, s.width, s.height, s.shots)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// openQuestionWindow starts the binary on a 1024×700 screen in language lng
// with data dir data, opens the one saved workflow (named name) from the
// list. tag names the test's home and step folders.
func openQuestionWindow(t *testing.T, g guiTest, lng, tag, data, name string) (*screen, *runningApp, string) {
	t.Helper()
	scr, app, win := startWindow1024(t, g, lng, tag, data)
	scr.openWorkflowList(t, 1024, lng)

	// Open the saved workflow from the list (its first row).
	scr.click(t, 40, 208)
	scr.shot(t, "0-clicked")
	scr.waitTitle(t, app, win, "^Workrun — "+regexp.QuoteMeta(name)+"$")
	return scr, app, win
}

// endSucceeded waits for the window title to say the run ended, quits the
// app and returns run runID's record, which must have succeeded.
func endSucceeded(t *testing.T, g guiTest, scr *screen, app *runningApp, win, data, runID string) shownRunJSON {
	t.Helper()
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
	return shown
}

// checkMessages checks that the record's node messages contain each of want.
func checkMessages(t *testing.T, shown shownRunJSON, want ...string) {
	t.Helper()
	var msgs []string
	for _, n := range shown.Nodes {
		for _, m := range n.Messages {
			msgs = append(msgs, m.Text)
		}
	}
	all := strings.Join(msgs, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("messages lack %q:\n%s", w, all)
		}
	}
}

func checkAppOutput(t *testing.T, app *runningApp) {
	t.Helper()
	for _, bad := range []string{"DATA RACE", "panic:"} {
		if strings.Contains(app.out.String(), bad) {
			t.Errorf("workrun printed %q", bad)
		}
	}
}

// runPanelDivider finds the divider above the run panel — its height
// depends on the language's font and the layout — by its black middle
// line in the column x=600: the first one below the canvas's top third
// (the canvas above is never black there).
func runPanelDivider(t *testing.T, importTool string, scr *screen) int {
	t.Helper()
	y0 := scr.height / 3
	cmd := exec.Command(importTool, "-window", "root", "-crop", fmt.Sprintf("1x%d+600+%d", scr.height-y0-40, y0), "txt:-")
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
	raw := fmt.Sprintf(`{"name":"Survey","state":{"report":"text"},
		"nodes":[{"id":"start","type":"start","position":{"x":20,"y":40}},
		  {"id":"survey","type":"remote_mcp","title":"Survey","position":{"x":200,"y":40},
		   "config":{"url":%q,"tool":"survey","arguments":{"topic":%q},"output":"report"}},
		  {"id":"end","type":"output","config":{"fields":["report"]},"position":{"x":400,"y":40}}],
		"edges":[{"from":"start","to":"survey"},{"from":"survey","to":"end"}]}`, mcpURL, topic)
	return saveWorkflowJSON(t, data, raw)
}

// saveWorkflowJSON saves workflow raw as the one workflow of data dir data
// and returns its id.
func saveWorkflowJSON(t *testing.T, data, raw string) string {
	t.Helper()
	var wf workrun.Workflow
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
// round of its node's question (read through the CLI, as another
// process would) and returns the run's id.
func waitQuestionRound(t *testing.T, bin, data, wfID, node string, round int, app *runningApp) string {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		out, err := exec.Command(bin, "--data-dir", data, "runs", "--json").Output()
		var runs []workrun.Run
		if err == nil && json.Unmarshal(out, &runs) == nil && len(runs) > 0 {
			s := showRun(t, bin, data, runs[0].ID)
			for _, n := range s.Nodes {
				if n.NodeID == node && n.Question != nil && n.Question.Round == round && n.Status == workrun.NodeInterrupted {
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
	t.Fatalf("node %s never asked round %d\n%s", node, round, app.out.String())
	return ""
}
