package ui

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"workrun/nodes/output"
	"workrun/nodes/process"
	"workrun/nodes/set"
	"workrun/nodes/start"
	"workrun/ui/document"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// A retry policy and an error branch set through the inspector (the node's
// "On failure" section, the edge's port), run on the real engine: the run
// panel shows the handled failure, "attempt 2 of 2" and why the last one
// failed; the canvas draws the error edge as one. Then "Run from here" on
// the handler pins the failing node from that run.
func TestFailureHandling_InspectorRunPanelAndRunFromHere(t *testing.T) {
	st := workruntest.NewMemStore()
	eng := workrun.NewEngine(st, &fakeArtifacts{}, start.Kind{}, output.Kind{}, process.Kind{})
	g := &gatedEngine{Engine: eng, open: make(chan struct{})}
	w := newTestWindow(t, Deps{Engine: g, Runs: st})
	wf := workrun.Workflow{
		Name:  "failing",
		State: map[string]workrun.FieldType{"why": workrun.FieldText},
		Nodes: []workrun.NodeSpec{
			{ID: "start", Type: "start", Position: &workrun.Position{X: 20, Y: 80}},
			{ID: "flaky", Type: "process", Position: &workrun.Position{X: 220, Y: 80}, Config: EncodeConfig(Config{Command: []string{"sh", "-c", "echo broken >&2; exit 3"}, TimeoutSeconds: 60})},
			{ID: "handler", Type: "output", Config: EncodeConfig(Config{Fields: []string{"why"}}), Position: &workrun.Position{X: 420, Y: 300}},
		},
		Edges: []workrun.Edge{{From: "start", To: "flaky"}, {From: "flaky", To: "handler"}},
	}
	w.OpenWorkflow("", wf)

	w.doc.Select("flaky", false)
	w.insp.Show()
	w.insp.Widget("policy.max_attempts").(*widget.Entry).SetText("2")
	w.insp.Widget("policy.on_error").(*widget.Select).SetSelectedIndex(2) // take the error edges
	w.insp.Widget("policy.error_field").(*widget.Select).SetSelected("why")
	w.doc.SelectEdge(document.EdgeKey{From: "flaky", To: "handler"}, false)
	w.insp.Show()
	w.insp.Widget("port").(*widget.Select).SetSelectedIndex(1) // the error port
	got := w.doc.Workflow()
	if n := got.Nodes[1]; n.Retry == nil || n.Retry.MaxAttempts != 2 || n.OnError != workrun.OnErrorBranch || n.ErrorField != "why" {
		t.Fatalf("node after the inspector: %+v", n)
	}
	if got.Edges[1].Port != workrun.PortError {
		t.Fatalf("edge after the inspector: %+v", got.Edges[1])
	}
	if !w.RunEnabled() {
		t.Fatalf("Run disabled: %v", w.Problems())
	}
	label, errPort, _ := w.cv.EdgeDrawn(document.EdgeKey{From: "flaky", To: "handler"})
	drawn := errPort && label == "on error"
	if !drawn {
		t.Error("the error edge is not drawn as one")
	}

	ended := make(chan workrun.Run, 1)
	w.applied = func(ev Event) {
		if ev.Run != nil && ev.Run.Status.Terminal() {
			select {
			case ended <- *ev.Run:
			default:
			}
		}
	}
	first := launchGated(w, g, workrun.Values{})
	var r workrun.Run
	select {
	case r = <-ended:
	case <-time.After(20 * time.Second):
		t.Fatal("the run did not end")
	}
	if r.ID != first || r.Status != workrun.RunSucceeded {
		t.Fatalf("run %s (%s), want succeeded: the failure is handled", r.Status, r.Reason)
	}
	var status string
	onUI(w, func() { status = w.panel.NodeStatus("flaky") })
	for _, want := range []string{"failed (handled)", "attempt 2 of 2", "attempt 1 failed: command failed: exit status 3"} {
		if !strings.Contains(status, want) {
			t.Errorf("flaky's status %q lacks %q", status, want)
		}
	}

	// What a person sees: the flaky node selected (its On failure section
	// in the inspector), the red error edge, the run panel's attempts.
	onUI(w, func() {
		for _, lng := range []string{"en", "zh-Hans"} {
			w.SetLanguage(lng)
			w.doc.Select("flaky", false)
			w.insp.Show()
			w.panel.Pick("flaky")
			scrollInspector(w, true)
			saveShot(t, w, "failure-"+lng)
			w.doc.SelectEdge(document.EdgeKey{From: "flaky", To: "handler"}, false)
			w.insp.Show()
			scrollInspector(w, false)
			saveShot(t, w, "failure-edge-"+lng)
		}
		w.SetLanguage("en")
	})

	// Run from here on the handler: flaky is pinned from the run shown.
	// Only another run's end counts: the first run may report its end
	// more than once, and a second report of it may wait in ended.
	later := make(chan workrun.Run, 1)
	onUI(w, func() {
		w.applied = func(ev Event) {
			if ev.Run != nil && ev.Run.Status.Terminal() && ev.Run.ID != first {
				select {
				case later <- *ev.Run:
				default:
				}
			}
		}
		w.runFrom("handler", false)
	})
	ended = later
	second := waitEnded(t, w, ended, 20*time.Second, "the run from here did not end")
	if second.ID == first || second.Status != workrun.RunSucceeded || second.PinnedFrom != first {
		t.Fatalf("run from here: %s %s pinned from %q", second.ID, second.Status, second.PinnedFrom)
	}
	status = w.panel.NodeStatus("flaky")
	if !strings.Contains(status, "pinned from run "+first[:8]) {
		t.Errorf("flaky's status in the second run %q", status)
	}
	w.SetLanguage("zh-Hans")
	defer SetupLanguage("en")
	if zh := w.panel.NodeStatus("flaky"); !strings.Contains(zh, "失败（已处理）") || !strings.Contains(zh, "固定自运行 "+first[:8]) {
		t.Errorf("in Chinese: %q", zh)
	}
}

// "Run from here" on a workflow that never ran asks for the outputs of the
// nodes before the node, typed by hand (JSON per field, a text field bare),
// and runs with them pinned "typed by hand".
func TestRunFromHere_TypedPins(t *testing.T) {
	st := workruntest.NewMemStore()
	eng := workrun.NewEngine(st, &fakeArtifacts{}, start.Kind{}, set.Kind{}, output.Kind{})
	g := &gatedEngine{Engine: eng, open: make(chan struct{})}
	close(g.open)
	w := newTestWindow(t, Deps{Engine: g, Runs: st})
	w.OpenWorkflow("", workrun.Workflow{
		Name:  "typed",
		State: map[string]workrun.FieldType{"x": workrun.FieldText, "n": workrun.FieldNumber},
		Nodes: []workrun.NodeSpec{
			{ID: "start", Type: "start"},
			{ID: "a", Type: "set", Config: EncodeConfig(Config{Values: map[string]string{"x": "from a"}})},
			{ID: "b", Type: "output", Config: EncodeConfig(Config{Fields: []string{"x"}})},
		},
		Edges: []workrun.Edge{{From: "start", To: "a"}, {From: "a", To: "b"}},
	})
	ended := make(chan workrun.Run, 1)
	w.applied = func(ev Event) {
		if ev.Run != nil && ev.Run.Status.Terminal() {
			select {
			case ended <- *ev.Run:
			default:
			}
		}
	}
	asked := make(chan struct{}, 1)
	w.pinsAsked = func() { asked <- struct{}{} }
	onUI(w, func() { w.runFrom("b", false) })
	select {
	case <-asked:
	case <-time.After(10 * time.Second):
		t.Fatal("no dialog for typed outputs")
	}
	onUI(w, func() {
		w.pins.entries["a.x"].SetText("typed by a person")
		w.pins.submit()
	})
	r := waitEnded(t, w, ended, 20*time.Second, "the run with typed outputs did not end")
	if r.Status != workrun.RunSucceeded || r.State["x"] != "typed by a person" {
		t.Fatalf("run %s state %v", r.Status, r.State)
	}
	if s := w.panel.NodeStatus("a"); !strings.Contains(s, "pinned: typed by hand") {
		t.Errorf("a's status %q", s)
	}
}

// saveShot captures the window; with WORKRUN_SHOTS set, it is written
// there as NAME.png (docs/screenshots of failure handling, read by a person).
func saveShot(t *testing.T, w *Window, name string) {
	t.Helper()
	img := w.win.Canvas().Capture()
	if img.Bounds().Dx() == 0 {
		t.Fatal("empty capture")
	}
	dir := os.Getenv("WORKRUN_SHOTS")
	if dir == "" {
		return
	}
	f, err := os.Create(filepath.Join(dir, name+".png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

// scrollInspector scrolls the inspector's pane to its end (where the On
// failure section is) or its top.
func scrollInspector(w *Window, down bool) {
	for _, o := range test.LaidOutObjects(w.win.Content()) {
		if sc, ok := o.(*container.Scroll); ok && sc.Content == w.insp.Object() {
			if down {
				sc.ScrollToBottom()
			} else {
				sc.ScrollToTop()
			}
		}
	}
}
