//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"workrun/workrun"
)

// TestGUIFailureHandlingRetryAndErrorBranch drives the real binary on a
// 1024×700 Xvfb screen with xdotool only: File → Import from a typed path
// opens a workflow whose process node "flaky" fails every time (it counts
// its runs in a file) and has a normal edge to the Output node "handler";
// that edge is clicked on the canvas and made the error edge in the
// inspector ("Leaves from": the error port); the retry policy is typed
// into the inspector's "On failure" section (Attempts in all: 2); Run,
// Run in the inputs dialog. The title ends "succeeded" (the failure was
// handled); the record read back through `workrun show --json` has the
// inspector's retry, the window's error edge, flaky "handled" at attempt 2 with the reason, the handler succeeded with the
// error text, and the command ran exactly twice. The run panel's line for
// flaky is captured in English and, after Settings → 简体中文, in Chinese
// (with WORKRUN_SHOTS=DIR the pictures are kept there to be read).
func TestGUIFailureHandlingRetryAndErrorBranch(t *testing.T) {
	g := newGUITest(t)
	count := filepath.Join(g.tmp, "count")
	flow := filepath.Join(g.tmp, "flow.json")
	wf := fmt.Sprintf(`{
  "name": "Retry and error branch",
  "state": {"why": "text"},
  "nodes": [
    {"id": "start", "type": "start", "position": {"x": 40, "y": 120}},
    {"id": "flaky", "type": "process", "title": "Flaky command",
     "config": {"command": ["sh", "-c", "echo try >> %s; echo broken >&2; exit 3"], "timeout_seconds": 120},
     "on_error": "branch", "error_field": "why", "position": {"x": 240, "y": 120}},
    {"id": "handler", "type": "output", "title": "Handle the failure", "config": {"fields": ["why"]}, "position": {"x": 440, "y": 220}}
  ],
  "edges": [
    {"from": "start", "to": "flaky"},
    {"from": "flaky", "to": "handler"}
  ]
}`, count)
	if err := os.WriteFile(flow, []byte(wf), 0o644); err != nil {
		t.Fatal(err)
	}

	scr := startXvfb(t, 1024, 700)
	scr.shots = filepath.Join(g.tmp, "steps")
	if d := os.Getenv("WORKRUN_GUI_STEPS"); d != "" {
		scr.shots = filepath.Join(d, "failure") // kept after the test
	}
	env := append(withDisplay(appEnv(g.home), scr.display), sessionKeyring(t, g.home)...)
	app := startApp(t, g.bin, []string{"--data-dir", g.dataDir}, env)
	win := scr.waitWindow(t, app, "^Workrun( |$)")
	// The window takes the screen's size once shown; on a loaded machine
	// (the app built with -race) that can take a while.
	w, h := scr.windowSize(t, win)
	for deadline := time.Now().Add(60 * time.Second); (w != 1024 || h > 700) && time.Now().Before(deadline); {
		time.Sleep(500 * time.Millisecond)
		w, h = scr.windowSize(t, win)
	}
	time.Sleep(time.Second)
	if w != 1024 || h > 700 {
		t.Fatalf("window %dx%d on a 1024x700 screen", w, h)
	}
	scr.openWorkflowList(t, w, "en")

	// File → Import from a typed path…, the path typed into its entry.
	// The dialog opens over the window's middle, its entry focused; the
	// path is typed once its title shows, and Enter imports it.
	scr.menuItem(t, menuFileX, "Import from a typed path…")
	if _, ok := scr.waitText(t, image.Rect(w/2-300, 60, w/2+300, h-60), "Import from a typed path", textWait); !ok {
		scr.shot(t, "no-import-dialog")
		t.Fatalf("File → Import from a typed path… opened no dialog (steps in %s)", scr.shots)
	}
	scr.typeText(t, flow)
	scr.key(t, "Return")
	scr.waitTitle(t, app, win, `^Workrun — Retry and error branch \(imported\)$`)
	scr.shot(t, "1-imported")
	// The error branch, made in the window: the edge flaky → handler is
	// clicked on the canvas (on its line, between the two nodes), and the
	// inspector's "Leaves from" is set to the error port, both found by
	// their text. Until then the workflow has a problem (flaky branches on
	// error without an error edge) and Run is disabled. Repeated until the
	// inspector says the edge leaves from the error port: a loaded machine
	// may miss a click.
	insp := image.Rect(w-290, 72, w, runPanelDivider(t, g.importTool, scr)-4)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if time.Now().After(deadline) {
			scr.shot(t, "timeout")
			t.Fatalf("the edge never became an error edge (steps in %s)\noutput:\n%s", scr.shots, app.out.String())
		}
		scr.click(t, 615, 148) // the edge's line
		leaves, ok := scr.waitText(t, insp, "Leaves from", 10*time.Second)
		if !ok {
			continue
		}
		// Its select is right of the label, on the same row (Delete is
		// under them).
		cy := (leaves.Min.Y + leaves.Max.Y) / 2
		scr.click(t, leaves.Max.X+70, cy)
		if port, ok := scr.waitText(t, image.Rect(w-420, cy+10, w, h), "the error port", 10*time.Second); ok {
			scr.click(t, (port.Min.X+port.Max.X)/2, (port.Min.Y+port.Max.Y)/2)
		}
		if _, ok := scr.waitText(t, image.Rect(leaves.Max.X, leaves.Min.Y-10, w, leaves.Max.Y+10), "error port", 10*time.Second); ok {
			break
		}
	}
	scr.shot(t, "1b-error-edge")

	// Select flaky, scroll the inspector with the wheel (over its entries:
	// it scrolls there too) until its On failure section's "Attempts in
	// all" shows with the entry under it, and type 2 attempts there.
	scr.click(t, 560, 122)
	if _, ok := scr.waitText(t, insp, "Flaky command", textWait); !ok {
		scr.shot(t, "no-flaky")
		t.Fatalf("clicking the node Flaky command did not show it in the inspector (steps in %s)", scr.shots)
	}
	var attempts image.Rectangle
	for step := 0; ; step++ {
		if bs, _ := scr.lookText(t, insp, "Attempts in all"); len(bs) > 0 && bs[0].Max.Y+40 < insp.Max.Y {
			attempts = bs[0]
			break
		}
		if step == 30 {
			scr.shot(t, "no-attempts")
			t.Fatalf("the inspector never showed Attempts in all with its entry (steps in %s)", scr.shots)
		}
		scr.run(t, "mousemove", fmt.Sprint(w-150), fmt.Sprint(insp.Max.Y-60))
		scr.run(t, "click", "5")
		settle()
	}
	scr.click(t, attempts.Min.X+40, attempts.Max.Y+22) // the entry under its caption
	scr.key(t, "ctrl+a")
	scr.typeText(t, "2")
	scr.shot(t, "2-policy")

	// Run; the inputs dialog asks for "why" (nothing typed): once its
	// title shows, Enter runs (its entry has the focus). Until the run
	// ends Enter is pressed again while the dialog shows: a loaded machine
	// may show it late.
	scr.click(t, 415, 49)
	dialogArea := image.Rect(w/2-330, 60, w/2+330, h/2)
	var title string
	deadline = time.Now().Add(4 * time.Minute)
	for title == "" {
		if time.Now().After(deadline) {
			scr.shot(t, "timeout")
			t.Fatalf("the run never ended (steps in %s)\noutput:\n%s", scr.shots, app.out.String())
		}
		if _, ok := scr.waitText(t, dialogArea, "Run inputs", 20*time.Second); ok {
			scr.shot(t, "2b-inputs")
			scr.key(t, "Return")
		}
		for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(300 * time.Millisecond) {
			if s := strings.TrimSpace(scr.run(t, "getwindowname", win)); strings.HasSuffix(s, "— succeeded") ||
				strings.HasSuffix(s, "— failed") || strings.HasSuffix(s, "— stopped") || strings.HasSuffix(s, "— interrupted") {
				title = s
				break
			}
		}
	}
	if !strings.HasSuffix(title, "— succeeded") {
		scr.shot(t, "3-end")
		t.Fatalf("window title %q: the handled failure should leave the run succeeded (steps in %s)\noutput:\n%s", title, scr.shots, app.out.String())
	}

	// The run panel: flaky's line picked shows its attempts, in both languages.
	deadline = time.Now().Add(3 * time.Minute)
	scr.clickTextIn(t, image.Rect(0, runPanelDivider(t, g.importTool, scr), 350, h), "Flaky command")
	shots := map[string]string{}
	for _, lng := range []string{"en", "zh-Hans"} {
		if lng == "zh-Hans" {
			// Settings → 简体中文, until the title's status is in Chinese.
			for switched := false; !switched; {
				if time.Now().After(deadline) {
					scr.shot(t, "timeout")
					t.Fatalf("the window never switched to Chinese (steps in %s)", scr.shots)
				}
				scr.menuItem(t, menuSettingsX("en"), "简体中文")
				for end := time.Now().Add(20 * time.Second); !switched && time.Now().Before(end); time.Sleep(300 * time.Millisecond) {
					switched = strings.HasSuffix(strings.TrimSpace(scr.run(t, "getwindowname", win)), "— 成功")
				}
			}
			settle()
		}
		shots[lng] = filepath.Join(g.tmp, "failure-"+lng+".png")
		stats := waitForPicture(t, app, g.importTool, win, shots[lng], "DISPLAY="+scr.display)
		t.Logf("%s: screenshot %dx%d, %d colours", lng, stats.w, stats.h, stats.colours)
		if dir := os.Getenv("WORKRUN_SHOTS"); dir != "" {
			saveScreenshot(t, shots[lng], filepath.Join(dir, "gui-failure-"+lng+".png"))
		}
	}
	quitApp(t, app)

	// The record, read back through the CLI from the same data directory.
	out, err := exec.Command(g.bin, "--data-dir", g.dataDir, "runs", "--json").Output()
	if err != nil {
		t.Fatalf("workrun runs --json: %v", err)
	}
	var runs []workrun.Run
	if err := json.Unmarshal(out, &runs); err != nil {
		t.Fatalf("workrun runs --json: %v\n%s", err, out)
	}
	if len(runs) != 1 || runs[0].Status != workrun.RunSucceeded {
		t.Fatalf("run records after the GUI run = %s, want one succeeded run", out)
	}
	out, err = exec.Command(g.bin, "--data-dir", g.dataDir, "show", runs[0].ID, "--json").Output()
	if err != nil {
		t.Fatalf("workrun show --json: %v", err)
	}
	var shown struct {
		Run   workrun.Run
		Nodes []workrun.NodeRun
	}
	if err := json.Unmarshal(out, &shown); err != nil {
		t.Fatalf("workrun show --json: %v\n%s", err, out)
	}
	r := shown.Run
	idx := slices.IndexFunc(r.Workflow.Nodes, func(n workrun.NodeSpec) bool { return n.ID == "flaky" })
	if idx < 0 {
		t.Fatalf("the run's workflow has no flaky node: %+v", r.Workflow.Nodes)
	}
	if n := r.Workflow.Nodes[idx]; n.Retry == nil || n.Retry.MaxAttempts != 2 || n.OnError != workrun.OnErrorBranch {
		t.Errorf("flaky in the run's workflow: retry %+v on_error %q, want the inspector's 2 attempts and the error branch", n.Retry, n.OnError)
	}
	if !slices.Contains(r.Workflow.Edges, workrun.Edge{From: "flaky", To: "handler", Port: workrun.PortError}) {
		t.Errorf("edges %v lack the error edge flaky → handler set in the inspector", r.Workflow.Edges)
	}
	nodes := map[string]workrun.NodeRun{}
	for _, n := range shown.Nodes {
		nodes[n.NodeID] = n
	}
	if f := nodes["flaky"]; f.Status != workrun.NodeHandled || f.AttemptNo() != 2 || !strings.Contains(f.LastError, "exit status 3") {
		t.Errorf("flaky's record: status %q attempt %d last error %q, want handled at attempt 2 after exit status 3", f.Status, f.AttemptNo(), f.LastError)
	}
	if h := nodes["handler"]; h.Status != workrun.NodeSucceeded {
		t.Errorf("handler's record: status %q, want succeeded (the error branch taken)", h.Status)
	}
	if why, _ := r.State["why"].(string); !strings.Contains(why, "exit status 3") {
		t.Errorf("state why = %q, want the failure's reason", r.State["why"])
	}
	if b, err := os.ReadFile(count); err != nil || strings.Count(string(b), "try") != 2 {
		t.Errorf("the command ran %q times (%v), want exactly 2 attempts", b, err)
	}
	for _, bad := range []string{"DATA RACE", "panic:"} {
		if strings.Contains(app.out.String(), bad) {
			t.Errorf("workrun printed %q", bad)
		}
	}
}

// regionSum is the FNV-1a sum of a rectangle of the screen, to tell when
// part of the window is drawn differently.
func (s *screen) regionSum(t *testing.T, x, y, w, h int) uint64 {
	t.Helper()
	path := filepath.Join(t.TempDir(), "region.png")
	cmd := exec.Command(lookTool(t, "import"), "-window", "root", "-crop", fmt.Sprintf("%dx%d+%d+%d", w, h, x, y), "png:"+path)
	cmd.Env = withDisplay(os.Environ(), s.display)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("import -crop: %v\n%s", err, out)
	}
	p, err := readPicture(path)
	if err != nil {
		t.Fatalf("read region: %v", err)
	}
	return p.sum
}
