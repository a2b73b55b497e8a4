package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"workrun/nodes/join"
	"workrun/nodes/output"
	"workrun/nodes/process"
	"workrun/nodes/set"
	"workrun/nodes/start"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// gatedEngine is the real engine whose events reach the window only after
// open is closed: the test driver runs fyne.Do on the caller's goroutine,
// so the test must not touch widgets while events are being applied.
type gatedEngine struct {
	*workrun.Engine
	open chan struct{}
}

func (g *gatedEngine) Subscribe() (<-chan Event, func()) {
	in, cancel := g.Engine.Subscribe()
	out := make(chan Event)
	go func() {
		defer close(out)
		<-g.open
		for ev := range in {
			out <- ev
		}
	}()
	return out, cancel
}

// TestRealEngine_ParallelFailure runs a workflow on the real engine: one
// branch fails while the other still works; the window shows the failure
// reason on top, the failed node, the other branch stopped, and Run again.
func TestRealEngine_ParallelFailure(t *testing.T) {
	st := workruntest.NewMemStore()
	eng := workrun.NewEngine(st, &fakeArtifacts{}, start.Kind{}, set.Kind{}, join.Kind{}, output.Kind{}, process.Kind{})
	eng.AbortTimeout = 5 * time.Second
	g := &gatedEngine{Engine: eng, open: make(chan struct{})}
	w := newTestWindow(t, Deps{Engine: g, Runs: st})
	wf := workrun.Workflow{
		Name:  "parallel",
		State: map[string]workrun.FieldType{"a": workrun.FieldText, "b": workrun.FieldText},
		Nodes: []workrun.NodeSpec{
			{ID: "start", Type: "start"},
			{ID: "slow", Type: "process", Config: EncodeConfig(Config{Command: []string{"sh", "-c", "sleep 20"}, TimeoutSeconds: 60, Stdout: "a"})},
			{ID: "bad", Type: "process", Config: EncodeConfig(Config{Command: []string{"sh", "-c", "sleep 0.3; exit 3"}, TimeoutSeconds: 60, Stdout: "b"})},
			{ID: "join", Type: "join"},
			{ID: "end", Type: "output", Config: EncodeConfig(Config{Fields: []string{"a", "b"}})},
		},
		Edges: []workrun.Edge{{From: "start", To: "slow"}, {From: "start", To: "bad"}, {From: "slow", To: "join"}, {From: "bad", To: "join"}, {From: "join", To: "end"}},
	}
	w.OpenWorkflow("", wf)
	if !w.RunEnabled() {
		t.Fatalf("Run disabled: %v", w.Problems())
	}
	// Wait until the run ended and both branches did; then end the event
	// goroutine so that reading the widgets races with nothing.
	ended := make(chan workrun.Run, 1)
	var last workrun.Run
	done := map[string]bool{}
	w.applied = func(ev Event) {
		if ev.Run != nil && ev.Run.Status.Terminal() {
			last = *ev.Run
		}
		if ev.Node != nil && ev.Node.Status != workrun.NodeRunning && ev.Node.Status != workrun.NodePending {
			done[ev.NodeID] = true
		}
		if last.ID != "" && done["slow"] && done["bad"] {
			select {
			case ended <- last:
			default:
			}
		}
	}
	var runID string
	onUI(w, func() {
		w.launch(w.doc.Workflow(), workrun.Values{})
		runID = w.panel.RunID()
	})
	close(g.open)
	var r workrun.Run
	select {
	case r = <-ended:
	case <-time.After(20 * time.Second):
		t.Fatal("the run did not end")
	}
	if r.ID != runID || r.Status != workrun.RunFailed || r.FailedNode != "bad" {
		t.Fatalf("run ended %s (failed node %q), want failed at bad", r.Status, r.FailedNode)
	}
	w.unsub()
	<-w.pumpDone
	w.Close() // no app goroutine touches the widgets from here on
	status, reason := w.panel.headerTexts()
	if !strings.Contains(status, "failed") || !strings.Contains(reason, "(bad)") {
		t.Errorf("header %q / reason %q", status, reason)
	}
	if got := w.panel.statusOf("bad"); got != workrun.NodeFailed {
		t.Errorf("bad shows %s", got)
	}
	if got := w.panel.statusOf("slow"); got != workrun.NodeStopped {
		t.Errorf("slow shows %s, want stopped", got)
	}
	if got := w.panel.actionLabels(); !slices.Equal(got, []string{"Run again"}) {
		t.Errorf("actions %q", got)
	}
	if got := w.cv.nodes["bad"].badge.Text; got != "failed" {
		t.Errorf("badge of bad %q", got)
	}
}
