package ui

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/google/go-cmp/cmp"

	"workrun/ui/canvas"
	"workrun/ui/document"
	"workrun/ui/panes"
	"workrun/ui/runinputs"
	"workrun/workrun"
)

// TestInspector_AppliesAsYouTypeWithUndo: what is typed is in the document
// at once (no Apply), the keys of one field make one undo step, a value that
// cannot be read is marked, kept pending and never applied, and Run refuses
// while it is pending.
func TestInspector_AppliesAsYouTypeWithUndo(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: &fakeEngine{StartFunc: func(context.Context, string, workrun.Workflow, workrun.Values) (string, error) {
		t.Error("Run started with a value pending")
		return "", nil
	}}})
	w.OpenWorkflow("", SampleRemote(langNow(), "http://127.0.0.1:41241"))
	w.doc.Select("ask", false)
	url := w.insp.Widget("url").(*widget.Entry)
	for _, s := range []string{"http://127.0.0.1:4", "http://127.0.0.1:43", "http://127.0.0.1:43118"} {
		url.SetText(s) // one keystroke each
	}
	cfg := func() Config {
		n, _ := w.doc.Node("ask")
		c, _ := DecodeConfig(n.Config)
		return c
	}
	if got := cfg().URL; got != "http://127.0.0.1:43118" {
		t.Fatalf("URL in the document %q, want what was typed", got)
	}
	if !w.doc.Dirty() {
		t.Error("typing did not mark the workflow changed")
	}
	// The form stays (the entry keeps its focus): typing did not rebuild it.
	if w.insp.Widget("url") != url {
		t.Error("the inspector was rebuilt while typing")
	}

	timeout := w.insp.Widget("timeout_seconds").(*widget.Entry)
	timeout.SetText("soon")
	if err := timeout.Validate(); err == nil {
		t.Error("a timeout of \"soon\" is not marked in place")
	}
	if got := cfg().TimeoutSeconds; got != DefaultTimeout {
		t.Errorf("the unreadable timeout was applied: %d", got)
	}
	if w.insp.Pending() == "" {
		t.Error("the unreadable timeout is not pending")
	}
	w.runClicked()
	if w.win.Canvas().Overlays().Top() != nil {
		t.Error("Run asked for inputs while a value was pending")
	}
	timeout.SetText("30")
	if w.insp.Pending() != "" || cfg().TimeoutSeconds != 30 {
		t.Errorf("after fixing: pending %q, timeout %d", w.insp.Pending(), cfg().TimeoutSeconds)
	}

	// Two fields, two undo steps: the timeout, then the whole URL.
	w.doc.Undo()
	if c := cfg(); c.TimeoutSeconds != DefaultTimeout || c.URL != "http://127.0.0.1:43118" {
		t.Errorf("first undo: %+v, want only the timeout undone", c)
	}
	w.doc.Undo()
	if c := cfg(); c.URL != "http://127.0.0.1:41241" {
		t.Errorf("second undo: URL %q, want the original", c.URL)
	}
	if w.doc.CanUndo() {
		t.Error("more undo steps than fields typed")
	}
	// The form follows undo.
	if got := w.insp.Widget("url").(*widget.Entry).Text; got != "http://127.0.0.1:41241" {
		t.Errorf("inspector shows %q after undo", got)
	}

	// Selecting another node ends the typing: the same field typed again is
	// a new undo step.
	w.doc.Select("ask", false)
	w.insp.Widget("url").(*widget.Entry).SetText("http://127.0.0.1:1")
	w.doc.Select("end", false)
	w.doc.Select("ask", false)
	w.insp.Widget("url").(*widget.Entry).SetText("http://127.0.0.1:2")
	w.doc.Undo()
	if got := cfg().URL; got != "http://127.0.0.1:1" {
		t.Errorf("undo after reselecting: URL %q, want the first edit kept", got)
	}
}

// TestSwitchWorkflow_Autosaves: switching to another workflow saves the
// unsaved edits of the open one first; a value the inspector could not
// apply makes the switch ask, and Cancel keeps the workflow open with it.
func TestSwitchWorkflow_Autosaves(t *testing.T) {
	wfs := newMemWorkflows()
	ctx := context.Background()
	a, _ := wfs.SaveWorkflow(ctx, "", SampleRemote(langNow(), "http://127.0.0.1:41241"))
	b, _ := wfs.SaveWorkflow(ctx, "", SampleParallel(langNow(), "http://127.0.0.1:41241"))
	w := newTestWindow(t, Deps{Workflows: wfs})
	w.reloadList("")
	index := func(id string) int {
		for i, r := range w.recs {
			if r.ID == id {
				return i
			}
		}
		t.Fatalf("workflow %s not listed", id)
		return -1
	}
	w.list.Select(index(a.ID))
	if w.wfID != a.ID {
		t.Fatalf("open %q, want %q", w.wfID, a.ID)
	}
	// Move a node (unsaved) and switch: the move is saved, not dropped.
	w.doc.MoveNodes([]string{"ask"}, 40, 0)
	w.list.Select(index(b.ID))
	if w.wfID != b.ID {
		t.Fatalf("open %q after the switch, want %q", w.wfID, b.ID)
	}
	got, _ := wfs.GetWorkflow(ctx, a.ID)
	if p := got.Workflow.Nodes[1].Position; p == nil || p.X != 340 {
		t.Errorf("the moved node was saved at %v, want x 340", p)
	}

	// An unreadable value: switching asks; Cancel stays.
	w.doc.Select("check", false)
	w.insp.Widget("timeout_seconds").(*widget.Entry).SetText("later")
	w.list.Select(index(a.ID))
	top := w.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("switching with an unapplied value did not ask")
	}
	tapButton(t, top, "No")
	if w.wfID != b.ID || w.insp.Pending() == "" {
		t.Errorf("after No: open %q pending %q; want %q still open with the value", w.wfID, w.insp.Pending(), b.ID)
	}
	// Asked again and confirmed: the value is dropped and the switch happens.
	w.list.Select(index(a.ID))
	tapButton(t, w.win.Canvas().Overlays().Top(), "Yes")
	if w.wfID != a.ID {
		t.Errorf("after Yes: open %q, want %q", w.wfID, a.ID)
	}
}

func tapButton(t *testing.T, o fyne.CanvasObject, text string) {
	t.Helper()
	for _, x := range test.LaidOutObjects(o) {
		if b, ok := x.(*widget.Button); ok && b.Text == text {
			test.Tap(b)
			return
		}
	}
	t.Fatalf("no button %q", text)
}

// TestWindow_NeverWiderThanItIs: at 1024×640, whatever the inspector shows
// (each node kind, a long URL, a long run error), the content never asks for
// more than the window has.
func TestWindow_NeverWiderThanItIs(t *testing.T) {
	w := newTestWindow(t, Deps{})
	size := fyne.NewSize(1024, 640)
	w.win.Resize(size)
	check := func(after string) {
		t.Helper()
		if m := w.win.Content().MinSize(); m.Width > size.Width || m.Height > size.Height {
			t.Errorf("after %s the content asks for %v in a %v window", after, m, size)
		}
		if got := w.win.Canvas().Size(); got != size {
			t.Errorf("after %s the window is %v, want %v", after, got, size)
		}
	}
	check("opening")
	wf := SampleRemote(langNow(), "http://127.0.0.1:41241/"+fmt.Sprintf("%0300d", 0))
	wf.State["a_state_field_with_a_rather_long_name_indeed"] = workrun.FieldText
	w.OpenWorkflow("", wf)
	for _, k := range kindTypes() {
		id := w.cv.AddKind(k)
		w.doc.Select(id, false)
		check("selecting a " + k + " node")
	}
	w.doc.Select("ask", false)
	w.insp.Widget("url").(*widget.Entry).SetText("http://127.0.0.1:9/" + fmt.Sprintf("%0500d", 7))
	check("typing a long URL")
	long := fmt.Sprintf("connect to remote agent http://127.0.0.1:9/%0600d: connection refused", 1)
	w.panel.Start("run-1", wf)
	w.panel.Apply(Event{Type: "run", RunID: "run-1", Run: &workrun.Run{ID: "run-1", Workflow: wf, Status: workrun.RunFailed, Reason: long, FailedNode: "ask"}})
	w.setStatus(long)
	check("a run failing with a long error")
}

// TestPanes_RememberedAndCollapsible: the side panes keep a fixed width when
// the window grows (the canvas gets the rest), collapse, and come back at
// the user's sizes in a new window.
func TestPanes_RememberedAndCollapsible(t *testing.T) {
	a := test.NewTempApp(t)
	SetupLanguage("en")
	w := NewWindow(a, Deps{})
	w.win.Resize(fyne.NewSize(1280, 800))
	w.win.Show()
	list, centre, insp, _ := paneWidths(w.panes)
	if list != panes.DefaultListWidth || insp != panes.DefaultInspectorWidth || centre < insp*2 {
		t.Errorf("default widths list %v canvas column %v inspector %v: the canvas should get the most", list, centre, insp)
	}
	w.win.Resize(fyne.NewSize(1600, 900))
	if _, c2, i2, _ := paneWidths(w.panes); i2 != insp || c2 != centre+320 {
		t.Errorf("at 1600 wide: inspector %v (was %v), canvas column %v (was %v): the canvas takes the new room", i2, insp, c2, centre)
	}
	// Drag the inspector's divider 100 px left: it is 100 px wider.
	test.Drag(w.win.Canvas(), fyne.CurrentApp().Driver().AbsolutePositionForObject(inspDivider(w.panes)).AddXY(3, 50), -100, 0)
	if _, _, i3, _ := paneWidths(w.panes); i3 != insp+100 {
		t.Errorf("after dragging the divider the inspector is %v, want %v", i3, insp+100)
	}
	w.toggleList()
	if l, _, _, _ := paneWidths(w.panes); l != 0 || w.panes.ListShown() {
		t.Errorf("the collapsed list still takes %v", l)
	}
	w.Close()
	w.win.Close()

	w2 := NewWindow(a, Deps{})
	w2.win.Resize(fyne.NewSize(1600, 900))
	w2.win.Show()
	defer func() { w2.Close(); w2.win.Close() }()
	if l, _, i, _ := paneWidths(w2.panes); l != 0 || i != insp+100 {
		t.Errorf("a new window: list %v inspector %v, want the remembered 0 and %v", l, i, insp+100)
	}
}

// TestPalette_GroupedAndFiltered: Remote Agent comes first, under Agents;
// the filter shows the matching kinds and Enter adds the first.
func TestPalette_GroupedAndFiltered(t *testing.T) {
	w := newTestWindow(t, Deps{})
	w.newWorkflow()
	p := w.palette
	if got := p.ShownKinds(); got[0] != "remote_agent" || len(got) != len(kindTypes()) {
		t.Errorf("palette order %v, want Remote Agent first and every kind", got)
	}
	var groups []string
	for _, g := range KindGroups(langNow()) {
		groups = append(groups, g.Name)
	}
	if diff := cmp.Diff([]string{"agents", "logic", "people", "local"}, groups); diff != "" {
		t.Errorf("groups (-want +got):\n%s", diff)
	}
	p.SetFilter("hum")
	if diff := cmp.Diff([]string{"human_review", "ask_human"}, p.ShownKinds()); diff != "" {
		t.Errorf("filter \"hum\" (-want +got):\n%s", diff)
	}
	f := p.Filter()
	f.OnSubmitted(f.Text)
	if diff := cmp.Diff([]string{"start", "human_review"}, nodeIDs(w.doc)); diff != "" {
		t.Errorf("Enter in the filter (-want +got):\n%s", diff)
	}
	// Every kind is visible without scrolling at 1280×800.
	p.SetFilter("")
	for _, kind := range p.ShownKinds() {
		it := p.Item(kind)
		pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(it)
		if bottom := pos.Y + it.Size().Height; bottom > fyne.CurrentApp().Driver().AbsolutePositionForObject(bottomPane(w.panes)).Y {
			t.Errorf("%s ends at y %v, below the canvas", kind, bottom)
		}
	}
}

// TestWorkflowInputs: the run asks only for fields no node writes before a
// node reads them, in the order they are read.
func TestWorkflowInputs(t *testing.T) {
	tests := []struct {
		name string
		wf   workrun.Workflow
		want []string
	}{
		{"remote sample", SampleRemote(langNow(), "http://x"), []string{"question"}},
		{"parallel sample", SampleParallel(langNow(), "http://x"), []string{"question"}},
		{"set then read", workrun.Workflow{
			State: map[string]workrun.FieldType{"name": workrun.FieldText, "greeting": workrun.FieldText, "topic": workrun.FieldText},
			Nodes: []workrun.NodeSpec{
				{ID: "start", Type: "start"},
				{ID: "set", Type: "set", Config: EncodeConfig(Config{Values: map[string]string{"greeting": "hello {{name}}"}})},
				{ID: "ra", Type: "remote_agent", Config: EncodeConfig(Config{URL: "http://x", Inputs: []string{"topic", "greeting"}})},
			},
			Edges: []workrun.Edge{{From: "start", To: "set"}, {From: "set", To: "ra"}},
		}, []string{"name", "topic"}},
		{"written on another branch only", workrun.Workflow{
			State: map[string]workrun.FieldType{"x": workrun.FieldText},
			Nodes: []workrun.NodeSpec{
				{ID: "start", Type: "start"},
				{ID: "ask", Type: "ask_human", Config: EncodeConfig(Config{Prompt: "x?", Field: "x"})},
				{ID: "out", Type: "output", Config: EncodeConfig(Config{Fields: []string{"x"}})},
			},
			Edges: []workrun.Edge{{From: "start", To: "ask"}, {From: "start", To: "out"}},
		}, []string{"x"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, document.WorkflowInputs(tt.wf, kindsEngine().Fields(tt.wf))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestFitKeepsTextReadable: a fitted sample draws its texts; the toolbar
// shows the zoom.
func TestFitKeepsTextReadable(t *testing.T) {
	w := newTestWindow(t, Deps{})
	w.OpenWorkflow("", SampleParallel(langNow(), "http://x"))
	if z := w.cv.Zoom(); z < canvas.TextZoom {
		t.Errorf("after Fit the zoom is %v: node texts are not drawn below %v", z, canvas.TextZoom)
	}
	if got := w.zoomLbl.Text; got != fmt.Sprintf("%d %%", int(w.cv.Zoom()*100+0.5)) {
		t.Errorf("zoom label %q for zoom %v", got, w.cv.Zoom())
	}
}

// TestStateField_EnterAdds: Enter in the field name adds the field and
// leaves the focus there for the next one.
func TestStateField_EnterAdds(t *testing.T) {
	w := newTestWindow(t, Deps{})
	w.newWorkflow()
	e := w.insp.Widget("field_name").(*widget.Entry)
	e.SetText("topic")
	e.OnSubmitted(e.Text)
	if _, ok := w.doc.Workflow().State["topic"]; !ok {
		t.Fatal("Enter did not add the field")
	}
	if f := w.win.Canvas().Focused(); f == nil || f != w.insp.Widget("field_name").(*widget.Entry) {
		t.Errorf("focus on %T after Enter, want the new field-name entry", f)
	}
}

// TestRunInputs_RememberedAndOnlyInputs: the dialog asks for the inputs
// only, filled with the last run's values.
func TestRunInputs_RememberedAndOnlyInputs(t *testing.T) {
	test.NewTempApp(t)
	wf := SampleRemote(langNow(), "http://x")
	wf.Name = "mine"
	ri := runinputs.New(langNow(), runinputs.Inputs{Workflow: wf, Names: document.WorkflowInputs(wf, kindsEngine().Fields(wf)),
		Last: workrun.Values{"question": "echo again", "answer": "old"}, Defaults: SampleInputs[wf.Name]}, nil)
	if diff := cmp.Diff([]string{"question"}, ri.Names); diff != "" {
		t.Errorf("asked for (-want +got):\n%s", diff)
	}
	if got := ri.Text("question"); got != "echo again" {
		t.Errorf("question prefilled with %q, want the last run's", got)
	}
	v, err := ri.Values()
	if err != nil || !cmp.Equal(workrun.Values{"question": "echo again"}, v) {
		t.Errorf("values %v, %v", v, err)
	}
}

// TestImport_NamedImported: an imported workflow is saved under
// "… (imported)" and the status says where it came from.
func TestImport_NamedImported(t *testing.T) {
	w := newTestWindow(t, Deps{})
	b, _ := ExportWorkflow(SampleRemote(langNow(), "http://x"))
	wf, err := ImportWorkflow(b)
	if err != nil {
		t.Fatal(err)
	}
	w.importData(wf, "/tmp/flow.json")
	if w.doc.Workflow().Name != "Remote Agent demo (imported)" || w.wfID == "" {
		t.Errorf("imported as %q (id %q)", w.doc.Workflow().Name, w.wfID)
	}
	if got := w.status.Text; !strings.Contains(got, "Imported /tmp/flow.json") {
		t.Errorf("status %q", got)
	}
}

// TestImportPath: a typed path is read and imported; a bad one is an error
// that leaves the open workflow alone.
func TestImportPath(t *testing.T) {
	w := newTestWindow(t, Deps{})
	dir := t.TempDir()
	b, _ := ExportWorkflow(SampleParallel(langNow(), "http://x"))
	path := dir + "/flow.json"
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	w.importPath(path)
	if w.doc.Workflow().Name != "Parallel branches, one fails (imported)" {
		t.Errorf("imported as %q", w.doc.Workflow().Name)
	}
	w.importPath(dir + "/missing.json")
	if w.doc.Workflow().Name != "Parallel branches, one fails (imported)" || !strings.Contains(w.status.Text, "missing.json") {
		t.Errorf("after a missing file: open %q, status %q", w.doc.Workflow().Name, w.status.Text)
	}
}

// TestPanes_DividerTakesDragsNearIt: a drag that starts a few pixels off
// the run panel's 6-pixel divider — over the canvas's bottom edge or the
// run tabs' top — or just left of the inspector's divider resizes the
// pane; it never pans the canvas or moves a node (issue 23 item 8).
func TestPanes_DividerTakesDragsNearIt(t *testing.T) {
	w := newTestWindow(t, Deps{})
	onUI(w, func() { w.OpenWorkflow("", SampleParallel(langNow(), "http://127.0.0.1:1")) })
	d := fyne.CurrentApp().Driver()
	inset, _ := w.win.Canvas().InteractiveArea() // test.Drag takes canvas positions
	abs := func(o fyne.CanvasObject) fyne.Position { return d.AbsolutePositionForObject(o).Add(inset) }
	positions := func() []workrun.Position {
		var ps []workrun.Position
		for _, n := range w.doc.Workflow().Nodes {
			ps = append(ps, *n.Position)
		}
		return ps
	}
	w.doc.Select("ask", false) // a selected node must not move either
	before, offset := positions(), w.cv.Offset()
	for _, dy := range []float32{-4, -2, panes.DividerSize + 2, panes.DividerSize + 4} {
		gap := abs(centrePane(w.panes)).Y + centrePane(w.panes).Size().Height // the gap's top
		h := bottomPane(w.panes).Size().Height
		test.Drag(w.win.Canvas(), fyne.NewPos(500, gap+dy), 0, -40)
		if got := bottomPane(w.panes).Size().Height; got != h+40 {
			t.Errorf("a drag %v px from the top of the divider's gap: run panel %v high, want %v", dy, got, h+40)
		}
	}
	for _, dx := range []float32{-4, -2} {
		gap := abs(inspPane(w.panes)).X - panes.DividerSize // the gap's left edge
		_, _, insp, _ := paneWidths(w.panes)
		test.Drag(w.win.Canvas(), fyne.NewPos(gap+dx, 300), -30, 0)
		if _, _, got, _ := paneWidths(w.panes); got != insp+30 {
			t.Errorf("a drag %v px left of the inspector's divider: inspector %v wide, want %v", -dx, got, insp+30)
		}
	}
	if w.cv.Offset() != offset {
		t.Errorf("the canvas panned from %v to %v", offset, w.cv.Offset())
	}
	if diff := cmp.Diff(before, positions()); diff != "" {
		t.Errorf("nodes moved (-before +after):\n%s", diff)
	}
}

// TestImportFromPath_TypedAtOnce: File → Import from a typed path… opens
// with its entry focused, so the path is typed at once, and Enter imports
// it (the entry had no focus and Enter did nothing: the person had to aim
// at the entry and then at Import).
func TestImportFromPath_TypedAtOnce(t *testing.T) {
	w := newTestWindow(t, Deps{})
	b, _ := ExportWorkflow(SampleParallel(langNow(), "http://x"))
	path := t.TempDir() + "/flow.json"
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	onUI(w, w.importFromPath)
	c := w.win.Canvas()
	e, ok := c.Focused().(*widget.Entry)
	if !ok {
		t.Fatalf("focused after the dialog opened: %T, want its path entry", c.Focused())
	}
	test.Type(e, path)
	onUI(w, func() { e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) })
	if w.doc.Workflow().Name != "Parallel branches, one fails (imported)" {
		t.Errorf("after typing the path and Enter the open workflow is %q, want the imported one", w.doc.Workflow().Name)
	}
}
