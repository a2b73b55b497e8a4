//go:build linux

package main

import (
	"image"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"workrun/store"
	"workrun/workrun"
)

// TestGUIRunHistory drives the built binary on a 1024×700 screen, in
// English and in Chinese, as a person does (issue 23 items 1 and 3):
//
//   - Run again runs the workflow as it is now. A saved workflow (start →
//     join) is run with Ctrl+R; then its join node is duplicated (click,
//     Ctrl+D), moved aside and connected to start by dragging from start's
//     port, and saved with Ctrl+S. The run panel says the run shown is of an
//     older version; Run again's new run (read back with `workrun show
//     --json`) ran the added node, and the first run's record still holds
//     the version it ran.
//   - A workflow's history belongs to it: switching (in the workflow list)
//     to a workflow that has a run from an earlier session shows that run —
//     the window title names its status — not "No run yet"; switching back
//     shows the first workflow's newest run.
//   - In the run records, typing in the search box lists only the seeded
//     run (by its failure reason); its row's Open in editor opens its
//     workflow with that run (labels found by OCR, guitext_test.go).
//
// Where it clicks comes from the screen: the canvas's ports by their
// colour, the Run again button in the run panel's header under the
// divider, the workflow list's rows from the row picked. It waits on the
// window title and the CLI's records, not on fixed times.
//
// WORKRUN_SAVE_SCREENSHOT=1 writes assets/screenshots/history-{en,zh}-1024x700.png
// (the older-version note after the edit).
func TestGUIRunHistory(t *testing.T) {
	g := newGUITest(t)
	for _, lng := range []string{"en", "zh"} {
		t.Run(lng, func(t *testing.T) { historyInWindow(t, g, lng) })
	}
}

// Window title endings, in both languages.
const (
	titleSucceeded = ` — (succeeded|成功)$`
	titleFailed    = ` — (failed|失败)$`
)

func historyInWindow(t *testing.T, g guiTest, lng string) {
	data := filepath.Join(g.tmp, "data-history-"+lng)
	histID := saveWorkflowJSON(t, data, `{"name":"History","state":{},
		"nodes":[{"id":"start","type":"start","position":{"x":40,"y":120}},
		  {"id":"merge","type":"join","position":{"x":300,"y":120}}],
		"edges":[{"from":"start","to":"merge"}]}`)
	otherID := saveWorkflowJSON(t, data, `{"name":"Other","state":{},
		"nodes":[{"id":"start","type":"start","position":{"x":40,"y":120}}],"edges":[]}`)
	seeded := seedRun(t, data, otherID, "Other", workrun.RunFailed, "seeded failure "+lng)
	scr, app, win := openQuestionWindow(t, g, lng, "history-"+lng, data, "History")
	firstRow := scr.selectedListRow(t)

	// The first run: the workflow as saved.
	scr.key(t, "ctrl+r")
	scr.waitTitle(t, app, win, "^Workrun — History"+titleSucceeded)
	first := historyRuns(t, g.bin, data, histID, 1)[0]
	scr.shot(t, "1-ran")

	// Duplicate the join node (the only node with a port on each side),
	// move the copy below, and connect start to it.
	ports := scr.canvasPorts(t, g.importTool)
	outs, ins := ports.filled(), ports.rings()
	if len(outs) != 2 || len(ins) != 1 {
		scr.shot(t, "ports")
		t.Fatalf("the canvas shows %d out ports and %d in ports, want start's and merge's (steps in %s)", len(outs), len(ins), scr.shots)
	}
	startOut, merge := outs[0], ins[0]
	scr.click(t, merge.x+60, merge.y)
	scr.key(t, "ctrl+d")
	scr.waitTitle(t, app, win, "^Workrun — History •")
	// A selected node's outline is port-blue too: click the empty canvas
	// under start to select nothing.
	divider := runPanelDivider(t, g.importTool, scr)
	empty := point{startOut.x - 60, divider - 20}
	scr.click(t, empty.x, empty.y)
	ports = scr.canvasPorts(t, g.importTool)
	var dup point
	for _, p := range ports.rings() {
		if p != merge {
			dup = p
		}
	}
	if dup == (point{}) {
		scr.shot(t, "no-copy")
		t.Fatalf("no copy of the join node on the canvas (steps in %s)", scr.shots)
	}
	down := min(110, divider-40-dup.y)
	scr.drag(t, dup.x+60, dup.y, dup.x+60, dup.y+down)
	scr.click(t, empty.x, empty.y)
	moved := point{dup.x, dup.y + down}
	if !slices.Contains(scr.canvasPorts(t, g.importTool).rings(), moved) {
		scr.shot(t, "not-moved")
		t.Fatalf("the copy's port is not at %v after the drag (steps in %s)", moved, scr.shots)
	}
	// Dropped on the copy's box (its in port lies just outside it).
	scr.drag(t, startOut.x, startOut.y, moved.x+40, moved.y)
	scr.shot(t, "2-connected")
	scr.key(t, "ctrl+s")
	scr.waitTitle(t, app, win, "^Workrun — History"+titleSucceeded)
	settle()
	scr.shot(t, "3-saved")
	keepQuestionShot(t, g, scr, app, "history-"+lng)

	// Run again runs the workflow as saved now.
	x, y := scr.headerButton(t, divider)
	scr.click(t, x, y)
	runs := historyRuns(t, g.bin, data, histID, 2)
	scr.waitTitle(t, app, win, "^Workrun — History"+titleSucceeded)
	again := runs[0]
	shown := showRun(t, g.bin, data, again.ID)
	if shown.Run.Status != workrun.RunSucceeded {
		t.Fatalf("Run again's run %s: %s", shown.Run.Status, shown.Run.Reason)
	}
	var ran []string
	for _, n := range shown.Nodes {
		if n.Status == workrun.NodeSucceeded {
			ran = append(ran, n.NodeID)
		}
	}
	if len(ran) != 3 || !slices.Contains(ran, "start") || !slices.Contains(ran, "merge") {
		t.Errorf("Run again ran nodes %v, want start, merge and the node added since", ran)
	}
	if n := len(showRun(t, g.bin, data, first.ID).Run.Workflow.Nodes); n != 2 {
		t.Errorf("the first run's record now holds a workflow of %d nodes, want the 2 it ran", n)
	}

	// Switching to Other shows its run from the earlier session; back to
	// History shows History's newest.
	scr.click(t, firstRow.x, firstRow.y+firstRow.pitch)
	scr.waitTitle(t, app, win, "^Workrun — Other"+titleFailed)
	scr.shot(t, "4-other")
	scr.click(t, firstRow.x, firstRow.y)
	scr.waitTitle(t, app, win, "^Workrun — History"+titleSucceeded)
	scr.shot(t, "5-back")

	// Run records: the search finds the seeded run by its reason, and its
	// row's Open in editor opens Other with that run.
	words := map[string][3]string{"en": {"Run records", "Search", "Open in editor"}, "zh": {"运行记录", "搜索", "在编辑器中打开"}}[lng]
	scr.clickText(t, words[0])
	scr.clickText(t, words[1])
	scr.typeText(t, "seeded")
	below := image.Rect(0, divider, scr.width, scr.height-40) // the records, not the status bar
	if !scr.waitTextGone(t, below, "History", textWait) {
		scr.shot(t, "6-search")
		t.Fatalf("searching for the seeded run still lists History's runs (steps in %s)", scr.shots)
	}
	scr.findTextIn(t, below, "seeded failure")
	scr.shot(t, "6-search")
	scr.clickTextIn(t, below, words[2])
	scr.waitTitle(t, app, win, "^Workrun — Other"+titleFailed)
	scr.shot(t, "7-opened")
	quitApp(t, app)
	if runs := cliRuns(t, g.bin, data); len(runs) != 3 || !slices.ContainsFunc(runs, func(r workrun.Run) bool { return r.ID == seeded }) {
		t.Errorf("after the session the records are %d runs, want the seeded one and History's two", len(runs))
	}
	checkAppOutput(t, app)
}

// historyRuns waits until workflow wfID has n runs that ended (read through
// the CLI) and returns them, newest first.
func historyRuns(t *testing.T, bin, data, wfID string, n int) []workrun.Run {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var rs []workrun.Run
		for _, r := range cliRuns(t, bin, data) {
			if r.WorkflowID == wfID && r.Status.Terminal() {
				rs = append(rs, r)
			}
		}
		if len(rs) >= n {
			return rs
		}
		if time.Now().After(deadline) {
			t.Fatalf("workflow %s has %d ended runs, want %d", wfID, len(rs), n)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// seedRun saves a finished run of a saved workflow in data dir data, as an
// earlier session would have left it, and returns its id.
func seedRun(t *testing.T, data, wfID, name string, st workrun.RunStatus, reason string) string {
	t.Helper()
	s, err := store.Open(t.Context(), data)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec, err := s.GetWorkflow(t.Context(), wfID)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	r := workrun.Run{ID: "5eed-" + wfID, WorkflowID: wfID, WorkflowName: name, Workflow: rec.Workflow,
		Status: st, Reason: reason, FailedNode: "start", CreatedAt: now.Add(-time.Hour), EndedAt: now.Add(-time.Hour + time.Second)}
	if err := s.CreateRun(t.Context(), r); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateRun(t.Context(), r); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveNodeRun(t.Context(), workrun.NodeRun{RunID: r.ID, NodeID: "start", Type: "start", Status: workrun.NodeFailed,
		Error: reason, StartedAt: r.CreatedAt, EndedAt: r.EndedAt}); err != nil {
		t.Fatal(err)
	}
	return r.ID
}

type point struct{ x, y int }

// portSet holds the canvas's ports: filled (out) and ring (in) ports.
type portSet struct{ out, in []point }

func (p portSet) filled() []point { return p.out }
func (p portSet) rings() []point  { return p.in }

// near reports whether the pixel at (x, y) of img is within d of rgb in
// every channel.
func near(img image.Image, x, y int, rgb [3]int, d int) bool {
	r, g, b, _ := img.At(x, y).RGBA()
	c := [3]int{int(r >> 8), int(g >> 8), int(b >> 8)}
	for i := range c {
		if c[i] < rgb[i]-d || c[i] > rgb[i]+d {
			return false
		}
	}
	return true
}

// portBlue is the theme's primary colour, which the canvas draws ports in.
var portBlue = [3]int{0x29, 0x6f, 0xf6}

// canvasPorts finds the node ports drawn between the toolbar and the run
// panel: port-blue blobs of a port's size (a focused entry's underline is
// longer, buttons are outside the band), filled for an out port, a ring
// for an in port; ordered left to right.
func (s *screen) canvasPorts(t *testing.T, importTool string) portSet {
	t.Helper()
	img := s.capture(t)
	y0, y1 := 75, runPanelDivider(t, importTool, s)-2
	seen := map[point]bool{}
	var ps portSet
	for y := y0; y < y1; y++ {
		for x := 0; x < s.width; x++ {
			p := point{x, y}
			if seen[p] || !near(img, x, y, portBlue, 40) {
				continue
			}
			// The blob's extent, by a flood fill.
			minX, minY, maxX, maxY := x, y, x, y
			stack := []point{p}
			seen[p] = true
			for len(stack) > 0 {
				q := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				minX, minY, maxX, maxY = min(minX, q.x), min(minY, q.y), max(maxX, q.x), max(maxY, q.y)
				for _, n := range []point{{q.x + 1, q.y}, {q.x - 1, q.y}, {q.x, q.y + 1}, {q.x, q.y - 1}} {
					if n.x >= 0 && n.x < s.width && n.y >= y0 && n.y < y1 && !seen[n] && near(img, n.x, n.y, portBlue, 40) {
						seen[n] = true
						stack = append(stack, n)
					}
				}
			}
			w, h := maxX-minX+1, maxY-minY+1
			if w < 6 || w > 18 || h < 6 || h > 18 {
				continue
			}
			c := point{(minX + maxX) / 2, (minY + maxY) / 2}
			if near(img, c.x, c.y, portBlue, 40) {
				ps.out = append(ps.out, c)
			} else {
				ps.in = append(ps.in, c)
			}
		}
	}
	byX := func(a, b point) int { return a.x - b.x }
	slices.SortFunc(ps.out, byX)
	slices.SortFunc(ps.in, byX)
	return ps
}

// band finds the first run of pixels near rgb (within d) in column x of
// img between y0 and y1: its top and bottom rows (-1, -1 for none).
func band(img image.Image, x, y0, y1 int, rgb [3]int, d int) (top, bottom int) {
	top, bottom = -1, -1
	for y := y0; y < y1; y++ {
		if near(img, x, y, rgb, d) {
			if top < 0 {
				top = y
			}
			bottom = y
		} else if top >= 0 {
			break
		}
	}
	return top, bottom
}

// listRow is the workflow list's selected row: a point in it and the
// distance to the next row.
type listRow struct{ x, y, pitch int }

// listPicked is the list's colour for the row picked.
var listPicked = [3]int{0x11, 0x2c, 0x52}

// selectedListRow finds the picked row of the workflow list, left of the
// palette, by its colour in the column x=100.
func (s *screen) selectedListRow(t *testing.T) listRow {
	t.Helper()
	img := s.capture(t)
	const x = 100
	top, bottom := band(img, x, 75, s.height/2, listPicked, 6)
	if top < 0 || bottom-top < 15 {
		s.shot(t, "no-row")
		t.Fatalf("no picked row in the workflow list (steps in %s)", s.shots)
	}
	// Rows are the picked row's height plus the gap and separator under it.
	pitch := bottom - top + 1
	for y := bottom + 1; y < bottom+12 && !near(img, x, y, [3]int{0, 0, 0}, 4); y++ {
		pitch++
	}
	pitch += 2 // the separator line and the row's top padding
	return listRow{x, (top + bottom) / 2, pitch}
}

// buttonFace is the colour of a button's face.
var buttonFace = [3]int{0x28, 0x29, 0x2e}

// headerButton finds the rightmost button of the run panel's header (under
// the tabs below the divider): its face in the column 12 px from the right
// edge, then its left edge along its top row. It returns its centre.
func (s *screen) headerButton(t *testing.T, divider int) (int, int) {
	t.Helper()
	img := s.capture(t)
	x := s.width - 12
	top, bottom := band(img, x, divider+30, min(divider+160, s.height), buttonFace, 3)
	if top < 0 || bottom-top < 20 {
		s.shot(t, "no-button")
		t.Fatalf("no button at the right of the run panel's header (steps in %s)", s.shots)
	}
	left := x
	for left > s.width/2 && near(img, left-1, top+2, buttonFace, 3) {
		left--
	}
	return (left + x + 12) / 2, (top + bottom) / 2
}
