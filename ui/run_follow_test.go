package ui

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"workrun/nodes/start"
	"workrun/store"
	"workrun/workrun"
)

// tickKind's node logs a line every 20 ms until its context ends, and
// registers an abort hook, counted in aborts.
type tickKind struct{ aborts *atomic.Int32 }

func (tickKind) Type() string { return "tick" }
func (k tickKind) Compile(workrun.NodeSpec, workrun.Workflow) (workrun.Step, error) {
	return tickStep(k), nil
}

type tickStep tickKind

func (tickStep) Reads() []string  { return nil }
func (tickStep) Writes() []string { return nil }
func (s tickStep) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	nc.OnAbort(func(context.Context) { s.aborts.Add(1) })
	for i := 1; ; i++ {
		nc.Log(workrun.Plain(fmt.Sprintf("tick %d", i)))
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestFollowsRunOfAnotherProcess: a run executed by another engine and
// store on the same data directory (another process, such as `workrun
// serve`) sends the window's engine no events; the run panel follows it
// from the store — its node's lines keep coming — and Stop in the window
// asks that engine to stop it: its abort hook runs once and the panel
// shows it stopped, after which the window reads it no more.
func TestFollowsRunOfAnotherProcess(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	owner, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { owner.Close() })
	mine, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mine.Close() })
	var aborts atomic.Int32
	kinds := []workrun.Kind{start.Kind{}, tickKind{&aborts}}
	wf := workrun.Workflow{Name: "Ticks",
		Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "tick", Type: "tick"}},
		Edges: []workrun.Edge{{From: "start", To: "tick"}}}
	there := workrun.NewEngine(owner, nil, kinds...)
	id, err := there.Start(ctx, "", wf, nil)
	if err != nil {
		t.Fatal(err)
	}

	here := workrun.NewEngine(mine, nil, kinds...)
	w := newTestWindow(t, Deps{Engine: here, Runs: mine, Workflows: mine})
	type seen struct {
		status workrun.RunStatus
		lines  int
	}
	reads := make(chan seen, 100)
	onUI(w, func() {
		w.rs.followed = func(string) {
			select {
			case reads <- seen{w.panel.Run().Status, w.panel.StoredCount()}:
			default:
			}
		}
		w.pickRun(id)
	})
	next := func(what string) seen {
		t.Helper()
		select {
		case s := <-reads:
			return s
		case <-time.After(30 * time.Second):
			t.Fatalf("no follow read for %s", what)
		}
		return seen{}
	}
	first := next("the first read")
	for s := first; s.lines <= first.lines; s = next("more lines") {
		if s.status != workrun.RunRunning {
			t.Fatalf("followed run %s, want running", s.status)
		}
	}
	if n := aborts.Load(); n != 0 {
		t.Fatalf("%d abort hooks before Stop", n)
	}
	onUI(w, w.stopRun)
	for s := next("the stop"); s.status != workrun.RunStopped; s = next("the stop") {
		if s.status != workrun.RunStopping && s.status != workrun.RunRunning {
			t.Fatalf("followed run %s while stopping", s.status)
		}
	}
	if n := aborts.Load(); n != 1 {
		t.Errorf("%d abort hooks, want 1", n)
	}
	r, err := mine.GetRun(ctx, id)
	if err != nil || r.Status != workrun.RunStopped {
		t.Fatalf("record %s, %v", r.Status, err)
	}
	// Ended: no more reads.
	select {
	case s := <-reads:
		t.Errorf("read again after the end: %+v", s)
	case <-time.After(3 * followEvery):
	}
	var following string
	onUI(w, func() { following = w.rs.following })
	if following != "" {
		t.Errorf("still following %s", following)
	}
}
