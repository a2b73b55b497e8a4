//go:build linux

package main

import (
	"image"
	"path/filepath"
	"testing"
	"time"

	"workrun/workrun"
)

// triggersGUIWorkflow is published and fires every second; its webhook
// shows the webhook settings.
const triggersGUIWorkflow = `{"name":"Tick","state":{"message":"text"},"publish":{"outputs":["message"]},
 "nodes":[{"id":"start","type":"start","title":"Clock","position":{"x":40,"y":60},"config":{"triggers":[
   {"type":"schedule","cron":"*/1 * * * * *","time_zone":"Asia/Shanghai","overlap":"allow"},{"type":"webhook","auth":"hmac"}]}},
  {"id":"say","type":"set","title":"Say","position":{"x":260,"y":60},"config":{"values":{"message":"tick"}}}],
 "edges":[{"from":"start","to":"say"}]}`

// TestGUITriggersInWindow: the open window (real binary, Xvfb 1024×700,
// OCR), with no `workrun serve` running, fires the published workflow's
// `*/1 * * * * *` schedule into run records, marked as started by a
// schedule; the start node's inspector shows its Triggers section with the
// next fire time, in English and then in Chinese (docs/triggers.md "In the
// window"). The pictures of the section are kept as steps
// (WORKRUN_GUI_STEPS keeps them after the test).
func TestGUITriggersInWindow(t *testing.T) {
	g := newGUITest(t)
	data := filepath.Join(g.tmp, "data-triggers")
	wfID := saveWorkflowJSON(t, data, triggersGUIWorkflow)
	for _, c := range []struct{ lang, heading, next, fired string }{
		{"en", "Triggers", "Next:", "started a run"},
		{"zh", "触发器", "下次", "已启动运行"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			began := time.Now()
			scr, app, win := startWindow1024(t, g, c.lang, "triggers-"+c.lang, data)
			// Opened, the workflow shows its last run, which the schedule
			// may have started already: the title then names its status.
			list := image.Rect(0, 60, 260, scr.height)
			box, ok := scr.waitText(t, list, "Tick", 5*time.Second)
			if !ok { // the list gives way in a narrow window
				scr.key(t, "ctrl+l")
				box, ok = scr.waitText(t, list, "Tick", textWait)
			}
			if !ok {
				scr.shot(t, "no-list")
				t.Fatalf("the workflow list does not show Tick (steps in %s)", scr.shots)
			}
			mid := box.Min.Add(box.Max).Div(2)
			scr.click(t, mid.X, mid.Y)
			scr.waitTitle(t, app, win, "^Workrun — Tick( — .+)?$")
			scr.clickTextIn(t, image.Rect(355, 70, 735, 330), "Clock") // the start node on the canvas
			// The section is below the node's title: the run panel's divider
			// down for room, then the wheel over the inspector until its
			// heading shows.
			settle()
			div := runPanelDivider(t, g.importTool, scr)
			scr.drag(t, scr.width/2, div, scr.width/2, scr.height-40)
			settle()
			insp := image.Rect(735, 70, scr.width, scr.height)
			// wheelTo scrolls the inspector down until text shows in it.
			wheelTo := func(text, step string) {
				t.Helper()
				for try := 0; try < 15; try++ {
					if boxes, _ := scr.lookText(t, insp, text); len(boxes) > 0 {
						return
					}
					scr.run(t, "mousemove", "1000", "300")
					scr.run(t, "click", "--repeat", "2", "--delay", "50", "5")
					settle()
				}
				scr.shot(t, "no-"+step)
				t.Fatalf("the inspector shows no %q (steps in %s)", text, scr.shots)
			}
			wheelTo(c.heading, "triggers")
			wheelTo(c.next, "next")
			// Fires while the window is open, and nothing else serves: runs
			// started by a schedule appear, and the section lists them.
			deadline := time.Now().Add(90 * time.Second)
			for len(scheduleRunsCLI(t, g.bin, data, wfID, began)) < 2 {
				if time.Now().After(deadline) {
					scr.shot(t, "no-fires")
					t.Fatalf("the open window started no scheduled runs in 90 s (steps in %s)\noutput:\n%s", scr.shots, app.out.String())
				}
				time.Sleep(500 * time.Millisecond)
			}
			wheelTo(c.fired, "fired")
			scr.shot(t, "triggers-"+c.lang)
			quitApp(t, app)
		})
	}
}

// scheduleRunsCLI are workflow wfID's runs a schedule started since
// began, read through the CLI (the newest runs).
func scheduleRunsCLI(t *testing.T, bin, data, wfID string, began time.Time) []workrun.Run {
	t.Helper()
	var out []workrun.Run
	for _, r := range cliRuns(t, bin, data) {
		if r.WorkflowID == wfID && r.StartedBy.Kind == workrun.StartedBySchedule && r.CreatedAt.After(began) {
			out = append(out, r)
		}
	}
	return out
}
