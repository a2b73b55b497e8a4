package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"workrun/a2a/demoagent"
	"workrun/artifacts"
	"workrun/nodes/join"
	"workrun/nodes/output"
	"workrun/nodes/process"
	"workrun/nodes/remoteagent"
	"workrun/nodes/set"
	"workrun/nodes/start"
	"workrun/store"
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

// demoRig is a window wired as main.go wires it (a real store, artifact
// store and engine with the Remote Agent kind) beside the built-in demo
// agent on loopback. Engine events reach the window only once gate.open is
// closed (launchGated does).
type demoRig struct {
	w     *Window
	st    *store.Store
	agent *demoagent.Server
	url   string // the demo agent's
	gate  *gatedEngine
}

// newDemoRig builds the rig; the engine knows start, output, the Remote
// Agent and kinds.
func newDemoRig(t *testing.T, kinds ...workrun.Kind) demoRig {
	t.Helper()
	ctx := t.Context()
	dir := t.TempDir()
	st, err := store.Open(ctx, dir)
	var arts *artifacts.Store
	if err == nil {
		t.Cleanup(func() { st.Close() })
		arts, err = artifacts.New(dir, st)
	}
	if err != nil {
		t.Fatal(err)
	}
	agent := demoagent.New(demoagent.Options{})
	url, stop, err := agent.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	kinds = append([]workrun.Kind{start.Kind{}, output.Kind{}, remoteagent.New(remoteagent.Deps{Calls: st})}, kinds...)
	eng := workrun.NewEngine(st, arts, kinds...)
	eng.AbortTimeout = 10 * time.Second
	g := &gatedEngine{Engine: eng, open: make(chan struct{})}
	w := newTestWindow(t, Deps{Engine: g, Runs: st, Workflows: st, Artifacts: arts, RemoteCalls: st.RemoteCallsForRun})
	return demoRig{w: w, st: st, agent: agent, url: url, gate: g}
}

// launchGated starts the open workflow with vals on the UI thread, then
// lets the engine's events through; it returns the run shown.
func launchGated(w *Window, g *gatedEngine, vals workrun.Values) (runID string) {
	onUI(w, func() {
		w.launch(w.doc.Workflow(), vals)
		runID = w.panel.RunID()
	})
	close(g.open)
	return runID
}

// waitEnded waits for what ended delivers, then ends the window's event
// goroutine and closes the window: from there on no app goroutine touches
// the widgets, and the test reads them racing with nothing.
func waitEnded[T any](t *testing.T, w *Window, ended <-chan T, limit time.Duration, what string) T {
	t.Helper()
	var v T
	select {
	case v = <-ended:
	case <-time.After(limit):
		t.Fatal(what)
	}
	w.unsub()
	<-w.pumpDone
	w.Close()
	return v
}

// runWatch follows the events a window applied: the run's last terminal
// state and the nodes that finished.
type runWatch struct {
	last workrun.Run
	done map[string]bool
}

func (rw *runWatch) see(ev Event) {
	if ev.Run != nil && ev.Run.Status.Terminal() {
		rw.last = *ev.Run
	}
	if ev.Node != nil && ev.Node.Status != workrun.NodeRunning && ev.Node.Status != workrun.NodePending {
		if rw.done == nil {
			rw.done = map[string]bool{}
		}
		rw.done[ev.NodeID] = true
	}
}

// ended reports whether the run ended and every node of ids finished.
func (rw *runWatch) ended(ids ...string) bool {
	return rw.last.ID != "" && !slices.ContainsFunc(ids, func(id string) bool { return !rw.done[id] })
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
	var seen runWatch
	w.applied = func(ev Event) {
		if seen.see(ev); seen.ended("slow", "bad") {
			select {
			case ended <- seen.last:
			default:
			}
		}
	}
	runID := launchGated(w, g, workrun.Values{})
	r := waitEnded(t, w, ended, 20*time.Second, "the run did not end")
	if r.ID != runID || r.Status != workrun.RunFailed || r.FailedNode != "bad" {
		t.Fatalf("run ended %s (failed node %q), want failed at bad", r.Status, r.FailedNode)
	}
	status, reason := w.panel.HeaderTexts()
	if !strings.Contains(status, "failed") || !strings.Contains(reason, "(bad)") {
		t.Errorf("header %q / reason %q", status, reason)
	}
	if got := w.panel.StatusOf("bad"); got != workrun.NodeFailed {
		t.Errorf("bad shows %s", got)
	}
	if got := w.panel.StatusOf("slow"); got != workrun.NodeStopped {
		t.Errorf("slow shows %s, want stopped", got)
	}
	if got := w.panel.ActionLabels(); !slices.Equal(got, []string{"Run again"}) {
		t.Errorf("actions %q", got)
	}
	if got := w.cv.NodeBadge("bad"); got != "failed" {
		t.Errorf("badge of bad %q", got)
	}
}
