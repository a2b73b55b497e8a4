package store

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"workrun/workrun"
)

// Engine-level tests over the real store: what the engine promises on
// resume and at start-up rests on the columns of schema 3.

type testStep struct {
	reads, writes []string
	branches      []string
	entry         bool
	runs          atomic.Int32
	run           func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error)
}

func (s *testStep) Reads() []string  { return s.reads }
func (s *testStep) Writes() []string { return s.writes }
func (s *testStep) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	s.runs.Add(1)
	if s.run == nil {
		return nil, nil
	}
	return s.run(ctx, nc)
}

type entryStep struct{ *testStep }

func (entryStep) Entry() {}

type branchStep struct{ *testStep }

func (b branchStep) Branches() []string { return b.branches }

type plainStep struct{ s *testStep }

func (p plainStep) Reads() []string  { return p.s.reads }
func (p plainStep) Writes() []string { return p.s.writes }
func (p plainStep) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	return p.s.Run(ctx, nc)
}

// testKind compiles every node of its type to the step named by the node id.
type testKind struct {
	typ   string
	steps map[string]*testStep
}

func (k testKind) Type() string { return k.typ }
func (k testKind) Compile(spec workrun.NodeSpec, _ workrun.Workflow) (workrun.Step, error) {
	s := k.steps[spec.ID]
	switch {
	case s.entry:
		return entryStep{s}, nil
	case s.branches != nil:
		return branchStep{s}, nil
	}
	return plainStep{s}, nil
}

// branchFlow: start → cond ─true→ yes → j, cond ─false→ no → j, start → wait → j.
func branchFlow(wait func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error)) (workrun.Workflow, map[string]*testStep, workrun.Kind) {
	steps := map[string]*testStep{
		"start": {entry: true},
		"cond": {branches: []string{"true", "false"}, run: func(_ context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			nc.SetBranch("true")
			return nil, nil
		}},
		"yes": {}, "no": {}, "j": {},
		"wait": {run: wait},
	}
	wf := workrun.Workflow{Name: "branch"}
	for _, id := range []string{"start", "cond", "yes", "no", "wait", "j"} {
		wf.Nodes = append(wf.Nodes, workrun.NodeSpec{ID: id, Type: "t"})
	}
	for _, e := range [][3]string{{"start", "cond", ""}, {"start", "wait", ""}, {"cond", "yes", "true"}, {"cond", "no", "false"},
		{"yes", "j", ""}, {"no", "j", ""}, {"wait", "j", ""}} {
		wf.Edges = append(wf.Edges, workrun.Edge{From: e[0], To: e[1], When: e[2]})
	}
	return wf, steps, testKind{"t", steps}
}

func waitForNode(t *testing.T, s *Store, runID, node string, st workrun.NodeStatus) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ns, err := s.NodeRuns(context.Background(), runID)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range ns {
			if n.NodeID == node && n.Status == st {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("node %s never became %s: %+v", node, st, ns)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestEngineResume_DoesNotRerunFinishedCondition: the store keeps the
// branch a condition picked, so resume after an exit follows it without
// running the condition again (docs/engine.md: resume re-enters only the nodes
// that had not finished).
func TestEngineResume_DoesNotRerunFinishedCondition(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	wf, steps, kind := branchFlow(func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		if nc.Resumed() {
			return nil, nil
		}
		<-ctx.Done()
		return nil, ctx.Err()
	})
	e := workrun.NewEngine(s, nil, kind)
	id, err := e.Start(ctx, "", wf, nil)
	if err != nil {
		t.Fatal(err)
	}
	waitForNode(t, s, id, "yes", workrun.NodeSucceeded)
	waitForNode(t, s, id, "wait", workrun.NodeRunning)
	if err := e.Close(ctx); err != nil {
		t.Fatal(err)
	}
	e2 := workrun.NewEngine(s, nil, kind)
	if err := e2.Resume(ctx, id); err != nil {
		t.Fatal(err)
	}
	r, err := e2.Wait(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != workrun.RunSucceeded {
		t.Fatalf("status %s (%s)", r.Status, r.Reason)
	}
	for node, want := range map[string]int32{"cond": 1, "yes": 1, "no": 0, "wait": 2, "j": 1} {
		if got := steps[node].runs.Load(); got != want {
			t.Errorf("%s ran %d times, want %d", node, got, want)
		}
	}
}

// TestEngineRecover_LeavesRunsOfLiveProcesses: a second process (here a
// second store and engine on the same data directory) starting up while a
// run goes on elsewhere neither marks it interrupted nor lets it be resumed.
func TestEngineRecover_LeavesRunsOfLiveProcesses(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	a, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	release := make(chan struct{})
	wf, _, kind := branchFlow(func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		<-release
		return nil, nil
	})
	ea := workrun.NewEngine(a, nil, kind)
	id, err := ea.Start(ctx, "", wf, nil)
	if err != nil {
		t.Fatal(err)
	}
	waitForNode(t, a, id, "wait", workrun.NodeRunning)

	b, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	eb := workrun.NewEngine(b, nil, kind)
	changed, err := eb.RecoverInterrupted(ctx)
	if err != nil || len(changed) != 0 {
		t.Errorf("RecoverInterrupted in the second process = %v, %v; want nothing changed", changed, err)
	}
	if _, err := eb.MarkExited(ctx, id); !errors.Is(err, workrun.ErrRunActive) {
		t.Errorf("MarkExited of a run another process runs = %v, want ErrRunActive", err)
	}
	close(release)
	r, err := ea.Wait(ctx, id)
	if err != nil || r.Status != workrun.RunSucceeded {
		t.Fatalf("run in the first process = %s, %v (%s)", r.Status, err, r.Reason)
	}
}
