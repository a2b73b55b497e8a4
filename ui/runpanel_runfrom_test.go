package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"workrun/nodes/output"
	"workrun/nodes/set"
	"workrun/nodes/start"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// The run panel's own entry (issue 24 item 4): with a finished run shown,
// selecting a node offers "Run from here" and "Test this node" beside its
// title; pressing "Test this node" starts a new run in which only that node
// runs, the node before it pinned from the run shown and the node after it
// skipped. The entry is not offered while the run goes on, nor on the start
// node; it speaks Chinese too.
func TestRunPanel_RunFromHereAndTestThisNode(t *testing.T) {
	st := workruntest.NewMemStore()
	eng := workrun.NewEngine(st, &fakeArtifacts{}, start.Kind{}, set.Kind{}, output.Kind{})
	g := &gatedEngine{Engine: eng, open: make(chan struct{})}
	w := newTestWindow(t, Deps{Engine: g, Runs: st})
	w.OpenWorkflow("", workrun.Workflow{
		Name:  "three",
		State: map[string]workrun.FieldType{"x": workrun.FieldText, "y": workrun.FieldText},
		Nodes: []workrun.NodeSpec{
			{ID: "start", Type: "start"},
			{ID: "a", Type: "set", Config: EncodeConfig(Config{Values: map[string]string{"x": "from a"}})},
			{ID: "b", Type: "set", Config: EncodeConfig(Config{Values: map[string]string{"y": "b saw {{x}}"}})},
			{ID: "c", Type: "output", Config: EncodeConfig(Config{Fields: []string{"y"}})},
		},
		Edges: []workrun.Edge{{From: "start", To: "a"}, {From: "a", To: "b"}, {From: "b", To: "c"}},
	})
	ended := make(chan workrun.Run, 2)
	w.applied = func(ev Event) {
		if ev.Run != nil && ev.Run.Status.Terminal() {
			select {
			case ended <- *ev.Run:
			default:
			}
		}
	}
	var during []string
	onUI(w, func() {
		w.launch(w.doc.Workflow(), workrun.Values{})
		w.panel.Pick("b")
		w.panel.Flush()
		during = w.panel.RunFromLabels() // events are held back by the gate: the run is running
	})
	first := w.panel.RunID()
	close(g.open)
	if len(during) != 0 {
		t.Errorf("offered while the run goes on: %q", during)
	}
	var r workrun.Run
	select {
	case r = <-ended:
	case <-time.After(20 * time.Second):
		t.Fatal("the first run did not end")
	}
	if r.ID != first || r.Status != workrun.RunSucceeded {
		t.Fatalf("first run %s %s", r.ID, r.Status)
	}

	var labels, onStart, zh []string
	tapped := false
	// Only another run's end counts from here: the first run may report
	// its end more than once, and a second report may wait in ended.
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
		w.panel.Pick("start")
		w.panel.Flush()
		onStart = w.panel.RunFromLabels()
		w.SetLanguage("zh-Hans")
		w.panel.Pick("b")
		w.panel.Flush()
		zh = w.panel.RunFromLabels()
		w.SetLanguage("en")
		w.panel.Pick(w.panel.Selected())
		labels = w.panel.RunFromLabels()
		tapped = w.panel.TapRunFrom("Test this node")
	})
	if len(onStart) != 0 {
		t.Errorf("offered on the start node: %q", onStart)
	}
	if !slices.Equal(zh, []string{"从这里运行", "测试此节点"}) {
		t.Errorf("in Chinese: %q", zh)
	}
	if !slices.Equal(labels, []string{"Run from here", "Test this node"}) || !tapped {
		t.Fatalf("the run panel offers %q (tapped %v)", labels, tapped)
	}
	second := waitEnded(t, w, later, 20*time.Second, "the test run did not end")
	if second.ID == first || second.Status != workrun.RunSucceeded || second.PinnedFrom != first {
		t.Fatalf("test this node: %s %s pinned from %q", second.ID, second.Status, second.PinnedFrom)
	}
	nrs, err := st.NodeRuns(t.Context(), second.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]workrun.NodeRun{}
	for _, n := range nrs {
		got[n.NodeID] = n
	}
	if a := got["a"]; a.PinnedFrom != first || a.Status != workrun.NodeSucceeded {
		t.Errorf("a in the test run: %s pinned from %q, want pinned from %s", a.Status, a.PinnedFrom, first)
	}
	if b := got["b"]; b.PinnedFrom != "" || b.Status != workrun.NodeSucceeded || second.State["y"] != "b saw from a" {
		t.Errorf("b in the test run: %s pinned from %q, y = %v", b.Status, b.PinnedFrom, second.State["y"])
	}
	if c := got["c"]; c.Status != workrun.NodeSkipped {
		t.Errorf("c in the test run: %s, want skipped (only b is tested)", c.Status)
	}
	if s := w.panel.NodeStatus("a"); !strings.Contains(s, "pinned from run "+first[:8]) {
		t.Errorf("a's status in the run panel: %q", s)
	}
}
