package ui

import (
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"workrun/workrun"
)

// TestLanguageSwitchKeepsView: switching language (to Chinese and back)
// keeps what the person arranged — the dragged dividers, the canvas pan,
// the inspector scrolled down its form, the run tab's message list
// scrolled — not only the run, the zoom and the selection.
func TestLanguageSwitchKeepsView(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: kindsEngine()})
	t.Cleanup(func() { SetupLanguage("en") })
	wf := SampleRemote(langNow(), "http://127.0.0.1:1")
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)
	run := workrun.Run{ID: "run-v", WorkflowName: wf.Name, Workflow: wf, Status: workrun.RunSucceeded, CreatedAt: start, EndedAt: start.Add(time.Minute)}
	var nrs []workrun.NodeRun
	for _, n := range wf.Nodes {
		nrs = append(nrs, workrun.NodeRun{RunID: run.ID, NodeID: n.ID, Type: n.Type, Status: workrun.NodeSucceeded, StartedAt: start, EndedAt: start.Add(time.Second)})
	}
	var msgs []workrun.Message
	for i := range 200 {
		msgs = append(msgs, workrun.Message{RunID: run.ID, NodeID: "ask", Seq: int64(i + 1), Time: start, Text: fmt.Sprintf("line %d", i)})
	}
	// At 1024 wide the workflow list gives way to the canvas until the
	// person opens it (Ctrl+L).
	w.win.Resize(fyne.NewSize(1024, 700))
	onUI(w, func() {
		w.toggleList()
		w.OpenWorkflow("", wf)
		w.panel.Load(run, nrs, msgs)
		w.panel.OnRunChanged(run.ID)
		w.doc.Select("ask", false)
	})

	type view struct {
		listW, inspW, bottomH float32
		listOn                bool
		pan, insp             fyne.Position
		zoom                  float32
		lists                 []float32
	}
	read := func() view {
		var v view
		onUI(w, func() {
			v = view{listOn: w.panes.ListShown(), listW: listW(w.panes), inspW: inspW(w.panes), bottomH: bottomH(w.panes), pan: w.cv.Offset(), insp: w.inspScroll.Offset, zoom: w.cv.Zoom()}
			for _, s := range scrollers(w.viewRoots()) {
				if l, ok := s.(interface{ GetScrollOffset() float32 }); ok {
					v.lists = append(v.lists, l.GetScrollOffset())
				}
			}
		})
		return v
	}
	onUI(w, func() {
		inspDivider(w.panes).Dragged(&fyne.DragEvent{Dragged: fyne.NewDelta(-70, 0)})
		inspDivider(w.panes).DragEnd()
		bottomDivider(w.panes).Dragged(&fyne.DragEvent{Dragged: fyne.NewDelta(0, -90)})
		bottomDivider(w.panes).DragEnd()
		w.cv.Dragged(&fyne.DragEvent{Dragged: fyne.NewDelta(-83, 41)})
		w.cv.DragEnd()
		w.inspScroll.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, -150)})
		w.panel.Pick("ask")
		w.panel.Parts().MessageList.ScrollToOffset(400)
	})
	before := read()
	if !before.listOn {
		t.Fatal("Ctrl+L did not open the workflow list at 1024×700")
	}
	if before.insp.Y == 0 {
		t.Fatal("the inspector did not scroll: nothing to keep")
	}
	scrolledList := false
	for _, o := range before.lists {
		scrolledList = scrolledList || o > 0
	}
	if !scrolledList {
		t.Fatalf("no list of the run tab scrolled: %v", before.lists)
	}
	for _, code := range []string{"zh-Hans", "en"} {
		onUI(w, func() { w.SetLanguage(code) })
		got := read()
		if got.listW != before.listW || got.inspW != before.inspW || got.bottomH != before.bottomH {
			t.Errorf("%s: dividers list %v inspector %v run panel %v, were %v %v %v", code, got.listW, got.inspW, got.bottomH, before.listW, before.inspW, before.bottomH)
		}
		if !got.listOn {
			t.Errorf("%s: the workflow list the person opened is hidden again", code)
		}
		if got.pan != before.pan || got.zoom != before.zoom {
			t.Errorf("%s: canvas pan %v zoom %v, was %v %v", code, got.pan, got.zoom, before.pan, before.zoom)
		}
		if got.insp != before.insp {
			t.Errorf("%s: inspector scrolled to %v, was %v", code, got.insp, before.insp)
		}
		if fmt.Sprint(got.lists) != fmt.Sprint(before.lists) {
			t.Errorf("%s: run tab lists scrolled to %v, were %v", code, got.lists, before.lists)
		}
		var abs fyne.Size
		onUI(w, func() { abs = w.inspScroll.Content.Size() })
		if abs.Height == 0 {
			t.Errorf("%s: the inspector is empty after the switch", code)
		}
	}
}
