package ui

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/document"
	"workrun/ui/panes"
	"workrun/workrun"
)

func helloFlow(name string) workrun.Workflow {
	return workrun.Workflow{Name: name, State: map[string]workrun.FieldType{"msg": workrun.FieldText},
		Nodes: []workrun.NodeSpec{{ID: "start", Type: "start", Config: DefaultConfig(langNow(), "start"), Position: &workrun.Position{X: 40, Y: 120}}}}
}

// TestRunAgain_RunsTheWorkflowAsItIsNow: after a node was added (and not
// yet saved), Run again on the run shown saves and runs the workflow with
// that node; the panel said the run shown is of an older version.
func TestRunAgain_RunsTheWorkflowAsItIsNow(t *testing.T) {
	var ran workrun.Workflow
	eng := &fakeEngine{StartFunc: func(_ context.Context, _ string, wf workrun.Workflow, _ workrun.Values) (string, error) {
		ran = wf
		return "r2", nil
	}}
	w := newTestWindow(t, Deps{Engine: eng})
	onUI(w, func() {
		w.OpenWorkflow("", helloFlow("Hello"))
		if !w.saveNow() {
			t.Fatal("save failed")
		}
		old := w.doc.Workflow()
		w.panel.Load(workrun.Run{ID: "r1", WorkflowID: w.wfID, WorkflowName: "Hello", Workflow: old, Status: workrun.RunSucceeded,
			CreatedAt: time.Now().Add(-time.Minute), EndedAt: time.Now()}, nil, nil)
		w.updateTitle()
		if w.panel.Note() != "" {
			t.Errorf("the version note shows for a run of the version open: %q", w.panel.Note())
		}
		added := w.cv.AddKind("set")
		if w.panel.Note() == "" || !strings.Contains(w.panel.Note(), "older version") {
			t.Errorf("after an edit the note is %q (visible %v), want it to say the run is of an older version", w.panel.Note(), w.panel.Note() != "")
		}
		w.runAgain()
		if !slices.Contains(nodeIDs(document.NewDocument(ran)), added) {
			t.Fatalf("Run again ran nodes %v, want the added node %q in them", nodeIDs(document.NewDocument(ran)), added)
		}
		if w.doc.Dirty() {
			t.Error("Run again did not save the edit first")
		}
	})
}

// TestOpenWorkflow_ShowsItsLatestRun: switching to a workflow that has runs
// shows its newest run in the run panel (not "No run yet"), with its node
// statuses on the canvas; the document stays the workflow opened.
func TestOpenWorkflow_ShowsItsLatestRun(t *testing.T) {
	wfs := newMemWorkflows()
	a, _ := wfs.SaveWorkflow(t.Context(), "", helloFlow("Alpha"))
	b, _ := wfs.SaveWorkflow(t.Context(), "", helloFlow("Beta"))
	run := workrun.Run{ID: "run-beta", WorkflowID: b.ID, WorkflowName: "Beta", Workflow: b.Workflow, Status: workrun.RunFailed,
		Reason: "boom", FailedNode: "start", CreatedAt: time.Now().Add(-time.Minute), EndedAt: time.Now()}
	runs := &fakeRuns{
		ListRunsFunc: func(_ context.Context, f workrun.RunFilter) ([]workrun.Run, error) {
			if f.WorkflowID == b.ID {
				return []workrun.Run{run}, nil
			}
			return nil, nil
		},
		GetRunFunc: func(context.Context, string) (workrun.Run, error) { return run, nil },
		NodeRunsFunc: func(context.Context, string) ([]workrun.NodeRun, error) {
			return []workrun.NodeRun{{RunID: run.ID, NodeID: "start", Status: workrun.NodeFailed}}, nil
		},
	}
	w := newTestWindow(t, Deps{Engine: &fakeEngine{}, Workflows: wfs, Runs: runs})
	shown := make(chan string, 4)
	onUI(w, func() {
		w.rs.latestShown = func(id string) { shown <- id }
		w.reloadList("")
		i := slices.IndexFunc(w.recs, func(r workrun.WorkflowRecord) bool { return r.ID == b.ID })
		w.list.Select(i)
	})
	select {
	case id := <-shown:
		if id != run.ID {
			t.Fatalf("showed run %q, want %q", id, run.ID)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("opening Beta never showed its latest run")
	}
	onUI(w, func() {
		if status, _ := w.panel.HeaderTexts(); !strings.Contains(status, "Beta") || !strings.Contains(status, "failed") {
			t.Errorf("run panel header %q, want Beta's failed run", status)
		}
		if w.wfID != b.ID || w.doc.Workflow().Name != "Beta" {
			t.Errorf("open workflow %q %q, want Beta", w.wfID, w.doc.Workflow().Name)
		}
		if got := w.cv.NodeStatus("start"); got != workrun.NodeFailed {
			t.Errorf("canvas status of start %q, want failed", got)
		}
		// Alpha has no run: switching to it says so.
		i := slices.IndexFunc(w.recs, func(r workrun.WorkflowRecord) bool { return r.ID == a.ID })
		w.list.Select(i)
	})
	time.Sleep(100 * time.Millisecond)
	onUI(w, func() {
		if status, _ := w.panel.HeaderTexts(); !strings.Contains(status, "No run yet") {
			t.Errorf("Alpha's run panel header %q, want No run yet", status)
		}
	})
}

// TestRecordWindow_ClosesAndOpensInEditor: a run record's window closes
// with Esc, with Ctrl+W and with its Close button (there may be no window
// manager frame), and "Open in editor" opens the run's workflow as it is
// now in the main window.
func TestRecordWindow_ClosesAndOpensInEditor(t *testing.T) {
	wfs := newMemWorkflows()
	saved, _ := wfs.SaveWorkflow(t.Context(), "", helloFlow("Alpha"))
	run := workrun.Run{ID: "r1", WorkflowID: saved.ID, WorkflowName: "Alpha", Workflow: helloFlow("Alpha (old)"), Status: workrun.RunSucceeded}
	w := newTestWindow(t, Deps{Workflows: wfs})
	onUI(w, func() { w.reloadList("") })
	open := func() fyne.Window {
		return w.showRecord(runRecord{run: run})
	}
	shown := func(win fyne.Window) bool {
		return slices.Contains(fyne.CurrentApp().Driver().AllWindows(), win)
	}
	win := open()
	win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if shown(win) {
		t.Error("Esc did not close the record window")
	}
	win = open()
	win.Canvas().(fyne.Shortcutable).TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyW, Modifier: fyne.KeyModifierShortcutDefault})
	if shown(win) {
		t.Error("Ctrl+W did not close the record window")
	}
	win = open()
	onUI(w, func() { tapButton(t, win.Content(), "Open in editor") })
	if shown(win) || w.wfID != saved.ID || w.doc.Workflow().Name != "Alpha" {
		t.Errorf("Open in editor: window shown %v, open %q %q; want Alpha as saved, the record closed", shown(win), w.wfID, w.doc.Workflow().Name)
	}
	win = open()
	tapButton(t, win.Content(), "Close  (Esc)")
	if shown(win) {
		t.Error("Close did not close the record window")
	}
}

// TestInspector_StartsAtTopForAnotherNode: the inspector scrolled down on
// one node shows the next node's form from its top.
func TestInspector_StartsAtTopForAnotherNode(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: &fakeEngine{}})
	w.win.Resize(fyne.NewSize(1024, 700))
	var scroll *container.Scroll
	for _, o := range test.LaidOutObjects(w.win.Content()) {
		if s, ok := o.(*container.Scroll); ok && s.Content == w.insp.Object() {
			scroll = s
		}
	}
	if scroll == nil {
		t.Fatal("no scroll around the inspector")
	}
	onUI(w, func() {
		w.OpenWorkflow("", SampleRemote(langNow(), "http://127.0.0.1:41241"))
		w.doc.Select("ask", false)
		w.insp.Show()
		scroll.ScrollToBottom()
		if scroll.Offset.Y == 0 {
			t.Fatal("the Remote Agent's form does not scroll at 1024×700; the test shows nothing")
		}
		w.doc.Select("end", false)
		w.insp.Show()
		if scroll.Offset.Y != 0 {
			t.Errorf("another node's form starts scrolled to %v, want its top", scroll.Offset.Y)
		}
	})
}

// TestOpenWork_ListsOpenTasksAcrossRuns: the Remote work tab lists the
// remote tasks of every run that have not ended or have an open outcome,
// each with its server, task id and a link to its run, and no query or
// cancel button.
func TestOpenWork_ListsOpenTasksAcrossRuns(t *testing.T) {
	rs := []workrun.Run{
		{ID: "run-int", WorkflowName: "Report", Status: workrun.RunInterrupted},
		{ID: "run-failed", WorkflowName: "Tools", Status: workrun.RunFailed},
		{ID: "run-ok", WorkflowName: "Fine", Status: workrun.RunSucceeded},
	}
	calls := map[string][]workrun.RemoteCall{
		"run-int":    {{RunID: "run-int", NodeID: "ask", AgentURL: "https://agent.example.com/", TaskID: "task-int"}},
		"run-failed": {{RunID: "run-failed", NodeID: "tool", AgentURL: "https://mcp.example.com/mcp", TaskID: "task-unc", CancelOutcome: "unconfirmed"}},
		"run-ok":     {{RunID: "run-ok", NodeID: "ask", AgentURL: "https://agent.example.com/", TaskID: "task-ok", Ended: true}},
	}
	runs := &fakeRuns{ListRunsFunc: func(context.Context, workrun.RunFilter) ([]workrun.Run, error) { return rs, nil }}
	w := newTestWindow(t, Deps{Runs: runs, RemoteCalls: func(_ context.Context, id string) ([]workrun.RemoteCall, error) { return calls[id], nil }})
	shown := make(chan struct{}, 1)
	onUI(w, func() {
		w.rs.openShown = func() { shown <- struct{}{} }
		w.tabs.SelectIndex(4)
	})
	select {
	case <-shown:
	case <-time.After(20 * time.Second):
		t.Fatal("the Remote work list was never shown")
	}
	var texts, buttons []string
	onUI(w, func() {
		for _, o := range test.LaidOutObjects(w.openWork.Object()) {
			switch x := o.(type) {
			case *widget.Label:
				texts = append(texts, x.Text)
			case *widget.Button:
				buttons = append(buttons, x.Text)
			}
		}
	})
	all := strings.Join(texts, "\n")
	for _, want := range []string{"Report · ask — interrupted; the run can be resumed", "task-int", "https://agent.example.com/",
		"Tools · tool — cancel unconfirmed", "task-unc", "https://mcp.example.com/mcp", "2 remote tasks"} {
		if !strings.Contains(all, want) {
			t.Errorf("the Remote work tab lacks %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "task-ok") {
		t.Errorf("an ended task is listed:\n%s", all)
	}
	if len(buttons) != 2 || buttons[0] != "Show run" || buttons[1] != "Show run" {
		t.Errorf("buttons %q, want only a Show run per task", buttons)
	}
}

// TestRunPanel_FiveRowsAt1024x700: at 1024×700 the run panel's node list
// has room for at least five rows under a failed run's reason (it used to
// show two), while at 1280×800 the palette above keeps every kind
// unscrolled (TestPalette_GroupedAndFiltered) and the panel takes the rest.
func TestRunPanel_FiveRowsAt1024x700(t *testing.T) {
	w := newTestWindow(t, Deps{})
	w.win.Resize(fyne.NewSize(1024, 700))
	wf := SampleParallel(langNow(), "http://127.0.0.1:1")
	onUI(w, func() {
		w.OpenWorkflow("", wf)
		w.panel.Load(workrun.Run{ID: "r1", WorkflowName: wf.Name, Workflow: wf, Status: workrun.RunFailed,
			Reason: "check failed: exit status 3", FailedNode: "check"}, nil, nil)
		w.tabs.Refresh() // lay out the reason line shown (a frame does it in the window)
	})
	if _, reason := w.panel.HeaderTexts(); reason == "" {
		t.Fatal("the failed run shows no reason line")
	}
	// What shows of the list: the Run tab scrolls, so the list may be
	// laid out taller than the pane shows.
	d := fyne.CurrentApp().Driver()
	top := d.AbsolutePositionForObject(w.panel.Parts().NodeList).Y
	paneEnd := d.AbsolutePositionForObject(bottomPane(w.panes)).Y + bottomPane(w.panes).Size().Height
	row := w.panel.Parts().NodeList.CreateItem().MinSize().Height
	if h := min(top+w.panel.Parts().NodeList.Size().Height, paneEnd) - top; h < 5*row {
		t.Errorf("the node list shows %v pixels, %.1f rows of %v; want at least 5", h, h/row, row)
	}
	// The person's own height wins over the default, and is kept.
	onUI(w, func() {
		bottomDivider(w.panes).Dragged(&fyne.DragEvent{Dragged: fyne.Delta{DY: 100}})
		bottomDivider(w.panes).DragEnd()
	})
	if h := bottomPane(w.panes).Size().Height; h != panes.RowsBottomHeight-100 {
		t.Errorf("after dragging the divider 100 down the run panel is %v high, want %v", h, panes.RowsBottomHeight-100)
	}
	if got := w.app.Preferences().Float(panes.PrefBottomHeight); got != panes.RowsBottomHeight-100 {
		t.Errorf("remembered height %v, want %v", got, panes.RowsBottomHeight-100)
	}
}
