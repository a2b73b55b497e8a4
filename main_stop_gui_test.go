//go:build linux

package main

import (
	"context"
	"image"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	sdk "github.com/a2aproject/a2a-go/v2/a2a"

	"workrun/a2a/demoagent"
	"workrun/workrun"
)

// TestGUIStopsServedRun (docs/serve.md S6, docs/engine.md "Stop across
// processes") drives the real window (built binary, Xvfb 1024×700,
// xdotool, OCR) next to a real `workrun serve` on one data directory. A
// caller's task runs in serve: its Remote Agent node works on the demo
// agent's `slow` task, which reports progress every 300 ms. The person
// opens the workflow; the run panel shows the served run and follows it
// from the store — the agent's progress number read off the screen goes
// up — and presses Stop. Serve stops the run: the demo agent gets exactly
// one CancelTask, the window's title says stopped, the record is stopped,
// and the caller's task is CANCELED. In English and in Chinese.
func TestGUIStopsServedRun(t *testing.T) {
	g := newGUITest(t)
	for _, lng := range []string{"en", "zh"} {
		t.Run(lng, func(t *testing.T) { stopServedInWindow(t, g, lng) })
	}
}

func stopServedInWindow(t *testing.T, g guiTest, lng string) {
	words := map[string][3]string{ // running, stopped, the Stop button
		"en": {"running", "stopped", "Stop"},
		"zh": {"运行中", "已停止", "停止"},
	}[lng]
	agent := demoagent.New(demoagent.Options{})
	agentURL, stopAgent, err := agent.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stopAgent)
	data := filepath.Join(g.tmp, "data-stop-"+lng)
	saveWorkflowJSON(t, data, relayFlow("Relay", agentURL))
	s := startServe(t, g.bin, data) // no file: the published saved workflows

	c := sdkFor(t, s.urls["relay"])
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	res, err := c.SendMessage(ctx, &sdk.SendMessageRequest{Message: sdk.NewMessage(sdk.MessageRoleUser, sdk.NewTextPart("slow 2000 300")),
		Config: &sdk.SendMessageConfig{ReturnImmediately: true}})
	if err != nil {
		t.Fatal(err)
	}
	task := res.(*sdk.Task)
	waitFor(t, 60*time.Second, "the demo agent to get the message", func() bool { return len(agent.Stats().Submissions) == 1 })
	run := servedRunning(t, data)

	scr, app, win := startWindow1024(t, g, lng, "stop-served-"+lng, data)
	scr.openWorkflowList(t, 1024, lng)
	box, ok := scr.waitText(t, image.Rect(0, 60, 260, scr.height), "Relay", textWait)
	if !ok {
		scr.shot(t, "no-list")
		t.Fatalf("the workflow list does not show Relay (steps in %s)", scr.shots)
	}
	at := box.Min.Add(box.Max).Div(2)
	scr.click(t, at.X, at.Y)
	// Opening the workflow shows its latest run: the served one.
	scr.waitTitle(t, app, win, "^Workrun — Relay — "+words[0]+"$")
	scr.drag(t, scr.width/2, runPanelDivider(t, g.importTool, scr), scr.width/2, 150)
	settle()
	scr.shot(t, "1-following")

	// The agent's progress, as the run panel shows it, goes up: the panel
	// follows the run serve executes.
	panel := image.Rect(0, 150, scr.width, scr.height)
	progress := regexp.MustCompile(`progress (\d+)/2000`)
	seen := func() int {
		best := -1
		for _, m := range progress.FindAllStringSubmatch(scr.readText(t, panel, lng == "zh").String(), -1) {
			if n, err := strconv.Atoi(m[1]); err == nil && n > best {
				best = n
			}
		}
		return best
	}
	first := -1
	deadline := time.Now().Add(60 * time.Second)
	for first < 0 {
		if time.Now().After(deadline) {
			scr.shot(t, "no-progress")
			t.Fatalf("no agent progress in the run panel (steps in %s)", scr.shots)
		}
		first = seen()
	}
	later := first
	deadline = time.Now().Add(60 * time.Second)
	for later <= first {
		if time.Now().After(deadline) {
			scr.shot(t, "progress-stuck")
			t.Fatalf("the run panel stays at progress %d/2000 (steps in %s)", first, scr.shots)
		}
		later = seen()
	}
	t.Logf("progress shown live: %d, then %d", first, later)
	if n := demoCancels(agent); n != 0 {
		t.Fatalf("the demo agent got %d CancelTask before Stop", n)
	}

	// Stop, the toolbar's button.
	scr.clickTextIn(t, image.Rect(0, 24, scr.width, 90), words[2])
	scr.waitTitle(t, app, win, "^Workrun — Relay — "+words[1]+"$")
	scr.shot(t, "2-stopped")
	waitFor(t, 30*time.Second, "the CancelTask to reach the demo agent", func() bool { return demoCancels(agent) > 0 })
	got, err := c.GetTask(ctx, &sdk.GetTaskRequest{ID: task.ID})
	if err != nil || got.Status.State != sdk.TaskStateCanceled {
		t.Fatalf("the caller's task: %+v %v", got, err)
	}
	quitApp(t, app)
	shown := showRun(t, g.bin, data, run.ID)
	if shown.Run.Status != workrun.RunStopped || shown.Run.Reason != "stopped by the user" {
		t.Fatalf("run %s (%s), want stopped by the user", shown.Run.Status, shown.Run.Reason)
	}
	if n := demoCancels(agent); n != 1 {
		t.Errorf("the demo agent got %d CancelTask, want 1 (%v)", n, agent.Stats().Cancels)
	}
	if n := len(agent.Stats().Submissions); n != 1 {
		t.Errorf("the demo agent got %d messages, want 1", n)
	}
	checkAppOutput(t, app)
}
