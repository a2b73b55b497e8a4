package workrun_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/nodes/askhuman"
	"workrun/nodes/condition"
	"workrun/nodes/humanreview"
	"workrun/nodes/join"
	"workrun/nodes/output"
	"workrun/nodes/process"
	"workrun/nodes/set"
	"workrun/nodes/start"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// fakeStep is a node whose behaviour each test sets.
type fakeStep struct {
	reads, writes []string
	run           func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error)
	starts        atomic.Int32
}

func (s *fakeStep) Reads() []string  { return s.reads }
func (s *fakeStep) Writes() []string { return s.writes }
func (s *fakeStep) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	s.starts.Add(1)
	if s.run == nil {
		return nil, nil
	}
	return s.run(ctx, nc)
}

// fakeKind compiles node "fake" by node id from its map.
type fakeKind map[string]*fakeStep

func (fakeKind) Type() string { return "fake" }
func (k fakeKind) Compile(spec workrun.NodeSpec, wf workrun.Workflow) (workrun.Step, error) {
	s, ok := k[spec.ID]
	if !ok {
		return nil, fmt.Errorf("no fake step for %s", spec.ID)
	}
	return s, nil
}

func allKinds(fk fakeKind) []workrun.Kind {
	return []workrun.Kind{start.Kind{}, set.Kind{}, condition.Kind{}, join.Kind{}, output.Kind{},
		humanreview.Kind{}, askhuman.Kind{}, process.Kind{}, fk}
}

func node(id, typ string, config string) workrun.NodeSpec {
	n := workrun.NodeSpec{ID: id, Type: typ}
	if config != "" {
		n.Config = json.RawMessage(config)
	}
	return n
}

func edges(pairs ...string) []workrun.Edge {
	var out []workrun.Edge
	for _, p := range pairs {
		from, to, _ := strings.Cut(p, ">")
		to, when, _ := strings.Cut(to, ":")
		out = append(out, workrun.Edge{From: from, To: to, When: when})
	}
	return out
}

func newEngine(t testing.TB, fk fakeKind) (*workrun.Engine, *workruntest.MemStore) {
	t.Helper()
	st := workruntest.NewMemStore()
	e := workrun.NewEngine(st, nil, allKinds(fk)...)
	e.AbortTimeout = 3 * time.Second
	e.SaveRetryFor = 300 * time.Millisecond // a refused final status: a few tries, not seconds
	return e, st
}

func run(t *testing.T, e *workrun.Engine, wf workrun.Workflow, in workrun.Values) workrun.Run {
	t.Helper()
	id, err := e.Start(t.Context(), "", wf, in)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	r, err := e.Wait(ctx, id)
	if err != nil {
		t.Fatalf("Wait: %v", err)
	}
	return r
}

// recorded reports whether node is saved succeeded in run runID.
func recorded(ctx context.Context, st *workruntest.MemStore, runID, node string) bool {
	recs, err := st.NodeRuns(ctx, runID)
	return err == nil && slices.ContainsFunc(recs, func(n workrun.NodeRun) bool {
		return n.NodeID == node && n.Status == workrun.NodeSucceeded
	})
}

func nodeStatuses(t *testing.T, st *workruntest.MemStore, runID string) map[string]workrun.NodeStatus {
	t.Helper()
	recs, err := st.NodeRuns(t.Context(), runID)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]workrun.NodeStatus{}
	for _, n := range recs {
		out[n.NodeID] = n.Status
	}
	return out
}

// barrier returns a function that blocks until n callers arrived, or fails
// the test after a timeout: proof that the callers ran concurrently.
func barrier(t *testing.T, n int) func() error {
	var mu sync.Mutex
	arrived := 0
	all := make(chan struct{})
	return func() error {
		mu.Lock()
		arrived++
		if arrived == n {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
			return nil
		case <-time.After(5 * time.Second):
			return errors.New("barrier: the others never arrived (not concurrent)")
		}
	}
}

func TestParallelBranchesRunConcurrentlyAndJoinWaits(t *testing.T) {
	meet := barrier(t, 2)
	var joinSaw atomic.Int32
	var aDone, bDone atomic.Bool
	fk := fakeKind{
		"a": {writes: []string{"x"}, run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			if err := meet(); err != nil {
				return nil, err
			}
			aDone.Store(true)
			return workrun.Values{"x": "from a"}, nil
		}},
		"b": {writes: []string{"y"}, run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			if err := meet(); err != nil {
				return nil, err
			}
			bDone.Store(true)
			return workrun.Values{"y": 2}, nil
		}},
		"after": {reads: []string{"x", "y"}, run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			if aDone.Load() && bDone.Load() {
				joinSaw.Store(1)
			}
			if diff := cmp.Diff(workrun.Values{"x": "from a", "y": 2.0}, nc.Inputs()); diff != "" {
				return nil, fmt.Errorf("inputs (-want +got):\n%s", diff)
			}
			return nil, nil
		}},
	}
	e, st := newEngine(t, fk)
	wf := workrun.Workflow{
		Name:  "parallel",
		State: map[string]workrun.FieldType{"x": "text", "y": "number"},
		Nodes: []workrun.NodeSpec{node("start", "start", ""), node("a", "fake", ""), node("b", "fake", ""),
			node("j", "join", ""), node("after", "fake", "")},
		Edges: edges("start>a", "start>b", "a>j", "b>j", "j>after"),
	}
	r := run(t, e, wf, nil)
	if r.Status != workrun.RunSucceeded {
		t.Fatalf("status %s (%s)", r.Status, r.Reason)
	}
	if joinSaw.Load() != 1 {
		t.Error("the node after the join started before both branches finished")
	}
	want := map[string]workrun.NodeStatus{"start": "succeeded", "a": "succeeded", "b": "succeeded", "j": "succeeded", "after": "succeeded"}
	if diff := cmp.Diff(want, nodeStatuses(t, st, r.ID)); diff != "" {
		t.Errorf("node statuses (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(workrun.Values{"x": "from a", "y": 2.0}, r.State); diff != "" {
		t.Errorf("final state (-want +got):\n%s", diff)
	}
}

func TestConditionPicksBranchAndSkipsTheOther(t *testing.T) {
	for _, tc := range []struct {
		n         float64
		wantTaken string
		wantSkip  string
	}{{5, "big", "small"}, {1, "small", "big"}} {
		t.Run(fmt.Sprint(tc.n), func(t *testing.T) {
			e, st := newEngine(t, fakeKind{})
			wf := workrun.Workflow{
				State: map[string]workrun.FieldType{"n": "number", "msg": "text"},
				Nodes: []workrun.NodeSpec{node("start", "start", ""),
					node("cond", "condition", `{"field":"n","op":"gt","value":3}`),
					node("big", "set", `{"values":{"msg":"big {{n}}"}}`),
					node("small", "set", `{"values":{"msg":"small {{n}}"}}`),
					node("after-small", "output", `{"fields":["msg"]}`),
					node("j", "join", ""),
					node("out", "output", `{"fields":["msg"]}`)},
				Edges: edges("start>cond", "cond>big:true", "cond>small:false", "small>after-small", "big>j", "after-small>j", "j>out"),
			}
			r := run(t, e, wf, workrun.Values{"n": tc.n})
			if r.Status != workrun.RunSucceeded {
				t.Fatalf("status %s (%s)", r.Status, r.Reason)
			}
			got := nodeStatuses(t, st, r.ID)
			if got[tc.wantTaken] != workrun.NodeSucceeded || got[tc.wantSkip] != workrun.NodeSkipped {
				t.Errorf("statuses %v: want %s succeeded, %s skipped", got, tc.wantTaken, tc.wantSkip)
			}
			if tc.wantSkip == "small" && got["after-small"] != workrun.NodeSkipped {
				t.Errorf("skip did not propagate: after-small is %s", got["after-small"])
			}
			if got["j"] != workrun.NodeSucceeded {
				t.Errorf("join with a skipped input: %s, want succeeded", got["j"])
			}
			if want := fmt.Sprintf("%s %v", tc.wantTaken, tc.n); r.State["msg"] != want {
				t.Errorf("msg = %v, want %q", r.State["msg"], want)
			}
		})
	}
}

func TestNodeSeesOnlyDeclaredReadsAndMayWriteOnlyDeclaredWrites(t *testing.T) {
	fk := fakeKind{
		"reader": {reads: []string{"a"}, writes: []string{"b"}, run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			if diff := cmp.Diff(workrun.Values{"a": "A"}, nc.Inputs()); diff != "" {
				return nil, fmt.Errorf("inputs (-want +got):\n%s", diff)
			}
			return workrun.Values{"b": "B", "secret": "stolen"}, nil
		}},
	}
	e, st := newEngine(t, fk)
	wf := workrun.Workflow{
		State: map[string]workrun.FieldType{"a": "text", "b": "text", "secret": "text"},
		Nodes: []workrun.NodeSpec{node("start", "start", ""), node("reader", "fake", "")},
		Edges: edges("start>reader"),
	}
	r := run(t, e, wf, workrun.Values{"a": "A", "secret": "s3"})
	if r.Status != workrun.RunFailed || r.FailedNode != "reader" || !strings.Contains(r.Reason, `wrote field "secret"`) {
		t.Fatalf("got %s at %q: %q; want failed at reader for the undeclared write", r.Status, r.FailedNode, r.Reason)
	}
	if r.State["secret"] != "s3" {
		t.Errorf("the undeclared write reached State: %v", r.State["secret"])
	}
	if got := nodeStatuses(t, st, r.ID)["reader"]; got != workrun.NodeFailed {
		t.Errorf("reader %s, want failed", got)
	}

	// A value of the wrong type is refused too.
	fk["reader"].run = func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		return workrun.Values{"b": 42}, nil
	}
	r = run(t, e, wf, nil)
	if r.Status != workrun.RunFailed || !errorsIsText(r.Reason, workrun.ErrUndeclaredWrite) {
		t.Errorf("wrong type: %s %q", r.Status, r.Reason)
	}
}

func errorsIsText(reason string, err error) bool { return strings.Contains(reason, err.Error()) }

// TestFailureWhileBranchesRun: one branch fails while two others are running
// and one already finished (docs/remote-agent.md R2, R9): every abort hook is called exactly
// once and all concurrently; no node starts after the failure; the failure
// reason and node are kept whatever the hooks do.
func TestFailureWhileBranchesRun(t *testing.T) {
	const hooks = 3 // slow1, slow2, finished
	meet := barrier(t, hooks)
	var calls sync.Map // node → *atomic.Int32
	hook := func(id string) func(context.Context) {
		c, _ := calls.LoadOrStore(id, new(atomic.Int32))
		return func(ctx context.Context) {
			c.(*atomic.Int32).Add(1)
			if _, ok := ctx.Deadline(); !ok {
				t.Errorf("hook %s: context has no bound", id)
			}
			if ctx.Err() != nil {
				t.Errorf("hook %s: context already canceled: %v", id, ctx.Err())
			}
			if err := meet(); err != nil {
				t.Errorf("hook %s: %v", id, err)
			}
		}
	}
	var st *workruntest.MemStore // set before the run starts
	slowStarted := make(chan struct{}, 2)
	finishedDone := make(chan struct{})
	slow := func(id string) *fakeStep {
		return &fakeStep{run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			nc.OnAbort(hook(id))
			slowStarted <- struct{}{}
			<-ctx.Done()
			return nil, ctx.Err()
		}}
	}
	fk := fakeKind{
		"slow1": slow("slow1"),
		"slow2": slow("slow2"),
		"finished": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			nc.OnAbort(hook("finished"))
			close(finishedDone)
			return nil, nil
		}},
		"fail": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			<-slowStarted
			<-slowStarted
			<-finishedDone
			// Fail once "finished" is recorded succeeded.
			for deadline := time.Now().Add(5 * time.Second); !recorded(ctx, st, nc.RunID(), "finished"); time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					return nil, errors.New("finished was never recorded")
				}
			}
			return nil, errors.New("disk full")
		}},
		"after-slow1": {},
		"after-fail":  {},
	}
	var e *workrun.Engine
	e, st = newEngine(t, fk)
	var statuses []workrun.RunStatus
	events, cancel := e.Subscribe()
	defer cancel()
	wf := workrun.Workflow{
		State: map[string]workrun.FieldType{},
		Nodes: []workrun.NodeSpec{node("start", "start", ""), node("slow1", "fake", ""), node("slow2", "fake", ""),
			node("finished", "fake", ""), node("fail", "fake", ""), node("after-slow1", "fake", ""), node("after-fail", "fake", "")},
		Edges: edges("start>slow1", "start>slow2", "start>finished", "start>fail", "slow1>after-slow1", "fail>after-fail"),
	}
	r := run(t, e, wf, nil)
	if r.Status != workrun.RunFailed || r.FailedNode != "fail" || r.Reason != "disk full" {
		t.Fatalf("run %s at %q: %q; want failed at fail: disk full", r.Status, r.FailedNode, r.Reason)
	}
	for _, id := range []string{"slow1", "slow2", "finished"} {
		c, _ := calls.Load(id)
		if n := c.(*atomic.Int32).Load(); n != 1 {
			t.Errorf("hook of %s called %d times, want 1", id, n)
		}
	}
	for _, id := range []string{"after-slow1", "after-fail"} {
		if n := fk[id].starts.Load(); n != 0 {
			t.Errorf("%s started %d times after the failure", id, n)
		}
	}
	got := nodeStatuses(t, st, r.ID)
	want := map[string]workrun.NodeStatus{"start": "succeeded", "slow1": "stopped", "slow2": "stopped", "finished": "succeeded", "fail": "failed"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("node statuses (-want +got):\n%s", diff)
	}
	// The run was "stopping" while hooks ran, then failed.
	for _, h := range st.RunHistory(r.ID) {
		statuses = append(statuses, h.Status)
	}
	if diff := cmp.Diff([]workrun.RunStatus{"running", "stopping", "failed"}, statuses); diff != "" {
		t.Errorf("saved run statuses (-want +got):\n%s", diff)
	}
	// Published run events follow the same order, each after its save.
	var published []workrun.RunStatus
	timeout := time.After(5 * time.Second)
	for len(published) < 3 {
		select {
		case ev := <-events:
			if ev.Type == workrun.EventRun && ev.RunID == r.ID {
				published = append(published, ev.Run.Status)
			}
		case <-timeout:
			t.Fatalf("published run statuses so far: %v", published)
		}
	}
	if diff := cmp.Diff([]workrun.RunStatus{"running", "stopping", "failed"}, published); diff != "" {
		t.Errorf("published run statuses (-want +got):\n%s", diff)
	}
}

func TestHooksCannotChangeTheOutcome(t *testing.T) {
	fk := fakeKind{
		"a": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			nc.OnAbort(func(ctx context.Context) { panic("hook panics") })
			nc.OnAbort(func(ctx context.Context) { <-ctx.Done() }) // hangs until its bound
			return nil, nil
		}},
		"b": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			return nil, errors.New("boom")
		}},
	}
	e, _ := newEngine(t, fk)
	e.AbortTimeout = 200 * time.Millisecond
	wf := workrun.Workflow{
		Nodes: []workrun.NodeSpec{node("start", "start", ""), node("a", "fake", ""), node("b", "fake", "")},
		Edges: edges("start>a", "a>b"),
	}
	began := time.Now()
	r := run(t, e, wf, nil)
	if r.Status != workrun.RunFailed || r.Reason != "boom" || r.FailedNode != "b" {
		t.Fatalf("got %s %q %q", r.Status, r.FailedNode, r.Reason)
	}
	if d := time.Since(began); d > 3*time.Second {
		t.Errorf("a hanging hook held the run %s (bound 200ms + grace)", d)
	}
}

func TestStop(t *testing.T) {
	var hookCalls atomic.Int32
	running := make(chan struct{})
	fk := fakeKind{
		"work": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			nc.OnAbort(func(context.Context) { hookCalls.Add(1) })
			close(running)
			<-ctx.Done()
			return nil, ctx.Err()
		}},
		"next": {},
	}
	e, st := newEngine(t, fk)
	wf := workrun.Workflow{
		Nodes: []workrun.NodeSpec{node("start", "start", ""), node("work", "fake", ""), node("next", "fake", "")},
		Edges: edges("start>work", "work>next"),
	}
	id, err := e.Start(t.Context(), "", wf, nil)
	if err != nil {
		t.Fatal(err)
	}
	<-running
	if err := e.Stop(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	r, err := e.Wait(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != workrun.RunStopped || r.FailedNode != "" {
		t.Fatalf("got %s (failed node %q)", r.Status, r.FailedNode)
	}
	if n := hookCalls.Load(); n != 1 {
		t.Errorf("hook called %d times", n)
	}
	if n := fk["next"].starts.Load(); n != 0 {
		t.Error("a node started after Stop")
	}
	if got := nodeStatuses(t, st, id)["work"]; got != workrun.NodeStopped {
		t.Errorf("work is %s, want stopped", got)
	}
	// A stopped run cannot be continued (docs/remote-agent.md R12).
	if err := e.Resume(t.Context(), id); !errors.Is(err, workrun.ErrNotResumable) {
		t.Errorf("Resume of a stopped run: %v, want ErrNotResumable", err)
	}
}

func reviewFlow() workrun.Workflow {
	return workrun.Workflow{
		State: map[string]workrun.FieldType{"draft": "text", "reply": "text"},
		Nodes: []workrun.NodeSpec{node("start", "start", ""),
			node("review", "human_review", `{"prompt":"Publish the draft?","fields":["draft"]}`),
			node("ask", "ask_human", `{"prompt":"Any note?","field":"reply"}`),
			node("out", "output", `{"fields":["reply"]}`)},
		Edges: edges("start>review", "review>ask", "ask>out"),
	}
}

func TestHumanReviewApproveThenAskHumanAnswered(t *testing.T) {
	e, st := newEngine(t, fakeKind{})
	r := run(t, e, reviewFlow(), workrun.Values{"draft": "hello"})
	if r.Status != workrun.RunInterrupted || r.Interruption != workrun.InterruptedByHuman {
		t.Fatalf("got %s/%s, want interrupted by human", r.Status, r.Interruption)
	}
	if err := e.Decide(t.Context(), workrun.Decision{RunID: r.ID, NodeID: "ask", Text: "x"}); !errors.Is(err, workrun.ErrNoDecisionPending) {
		t.Errorf("decision for a node not waiting: %v", err)
	}
	if err := e.Decide(t.Context(), workrun.Decision{RunID: r.ID, NodeID: "review", Approved: true}); err != nil {
		t.Fatal(err)
	}
	r, _ = e.Wait(t.Context(), r.ID)
	if r.Status != workrun.RunInterrupted || nodeStatuses(t, st, r.ID)["ask"] != workrun.NodeInterrupted {
		t.Fatalf("after approve: %s, ask %s", r.Status, nodeStatuses(t, st, r.ID)["ask"])
	}
	if err := e.Decide(t.Context(), workrun.Decision{RunID: r.ID, NodeID: "ask", Text: "ship it"}); err != nil {
		t.Fatal(err)
	}
	r, _ = e.Wait(t.Context(), r.ID)
	if r.Status != workrun.RunSucceeded || r.State["reply"] != "ship it" {
		t.Fatalf("after answer: %s reply=%v (%s)", r.Status, r.State["reply"], r.Reason)
	}
	msgs, _ := st.Messages(t.Context(), r.ID)
	var texts []string
	for _, m := range msgs {
		texts = append(texts, m.NodeID+": "+m.Text)
	}
	for _, want := range []string{"review: Waiting for review: Publish the draft?", "review: draft: hello", "review: Approved", "out: reply: ship it"} {
		if !slices.Contains(texts, want) {
			t.Errorf("messages %q lack %q", texts, want)
		}
	}
}

func TestHumanReviewRejectFailsTheRun(t *testing.T) {
	e, _ := newEngine(t, fakeKind{})
	r := run(t, e, reviewFlow(), workrun.Values{"draft": "hello"})
	if err := e.Decide(t.Context(), workrun.Decision{RunID: r.ID, NodeID: "review", Approved: false, Text: "too long"}); err != nil {
		t.Fatal(err)
	}
	r, _ = e.Wait(t.Context(), r.ID)
	if r.Status != workrun.RunFailed || r.FailedNode != "review" || r.Reason != "rejected by the reviewer: too long" {
		t.Fatalf("got %s at %q: %q", r.Status, r.FailedNode, r.Reason)
	}
	if err := e.Decide(t.Context(), workrun.Decision{RunID: r.ID, NodeID: "review", Approved: true}); !errors.Is(err, workrun.ErrNoDecisionPending) {
		t.Errorf("a decision after the run failed: %v", err)
	}
}

// TestDecisionWhileOtherBranchRuns: a person answers while another branch is
// still going; the node is re-entered at once in the same execution.
func TestDecisionWhileOtherBranchRuns(t *testing.T) {
	release := make(chan struct{})
	fk := fakeKind{"slow": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		<-release
		return nil, nil
	}}}
	e, st := newEngine(t, fk)
	wf := workrun.Workflow{
		State: map[string]workrun.FieldType{"reply": "text"},
		Nodes: []workrun.NodeSpec{node("start", "start", ""), node("slow", "fake", ""),
			node("ask", "ask_human", `{"prompt":"?","field":"reply"}`), node("j", "join", "")},
		Edges: edges("start>slow", "start>ask", "slow>j", "ask>j"),
	}
	id, err := e.Start(t.Context(), "", wf, nil)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for nodeStatuses(t, st, id)["ask"] != workrun.NodeInterrupted {
		if time.Now().After(deadline) {
			t.Fatal("ask never waited")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := e.Decide(t.Context(), workrun.Decision{RunID: id, NodeID: "ask", Text: "yes"}); err != nil {
		t.Fatal(err)
	}
	close(release)
	r, _ := e.Wait(t.Context(), id)
	if r.Status != workrun.RunSucceeded || r.State["reply"] != "yes" {
		t.Fatalf("got %s %v (%s)", r.Status, r.State, r.Reason)
	}
}

func TestProcessCleanupRunsOnceOnFailureNeverOnSuccess(t *testing.T) {
	dir := t.TempDir()
	marker := dir + "/cleanup"
	flow := func(secondOK bool) workrun.Workflow {
		second := `{"command":["sh","-c","echo bad >&2; exit 1"]}`
		if secondOK {
			second = `{"command":["true"]}`
		}
		return workrun.Workflow{
			State: map[string]workrun.FieldType{"out": "text"},
			Nodes: []workrun.NodeSpec{node("start", "start", ""),
				node("make", "process", fmt.Sprintf(`{"command":["sh","-c","echo made"],"stdout":"out","cleanup":["sh","-c","echo x >> %s"],"timeout_seconds":10}`, marker)),
				node("second", "process", second)},
			Edges: edges("start>make", "make>second"),
		}
	}
	e, st := newEngine(t, fakeKind{})

	r := run(t, e, flow(true), nil)
	if r.Status != workrun.RunSucceeded || r.State["out"] != "made" {
		t.Fatalf("success flow: %s %v (%s)", r.Status, r.State, r.Reason)
	}
	if n := countLines(t, marker); n != 0 {
		t.Fatalf("cleanup ran %d times on success", n)
	}

	r = run(t, e, flow(false), nil)
	if r.Status != workrun.RunFailed || r.FailedNode != "second" || !strings.Contains(r.Reason, "exit status 1: bad") {
		t.Fatalf("failure flow: %s at %q: %q", r.Status, r.FailedNode, r.Reason)
	}
	if n := countLines(t, marker); n != 1 {
		t.Fatalf("cleanup ran %d times on failure, want 1", n)
	}
	msgs, _ := st.Messages(t.Context(), r.ID)
	var makeMsgs []string
	for _, m := range msgs {
		if m.NodeID == "make" {
			makeMsgs = append(makeMsgs, m.Text)
		}
	}
	if !slices.Contains(makeMsgs, "Cleanup finished") {
		t.Errorf("make's messages %q lack the cleanup outcome", makeMsgs)
	}
}

func countLines(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	return strings.Count(string(b), "\n")
}

// TestCloseInterruptsAndResumeReentersOnlyUnfinished is the in-process form
// of exit and resume: Close interrupts (no hooks), Resume runs only what had
// not finished, with Resumed() true for the node that was running.
func TestCloseInterruptsAndResumeReentersOnlyUnfinished(t *testing.T) {
	running := make(chan struct{}, 1)
	var resumedSeen atomic.Bool
	var hookCalls atomic.Int32
	fk := fakeKind{
		"first": {writes: []string{"a"}, run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			return workrun.Values{"a": "A"}, nil
		}},
		"long": {reads: []string{"a"}, writes: []string{"b"}, run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			nc.OnAbort(func(context.Context) { hookCalls.Add(1) })
			if nc.Resumed() {
				resumedSeen.Store(true)
				return workrun.Values{"b": nc.Inputs()["a"].(string) + "B"}, nil
			}
			running <- struct{}{}
			<-ctx.Done()
			return nil, ctx.Err()
		}},
		"last": {reads: []string{"b"}},
	}
	e, st := newEngine(t, fk)
	wf := workrun.Workflow{
		State: map[string]workrun.FieldType{"a": "text", "b": "text"},
		Nodes: []workrun.NodeSpec{node("start", "start", ""), node("first", "fake", ""), node("long", "fake", ""), node("last", "fake", "")},
		Edges: edges("start>first", "first>long", "long>last"),
	}
	id, err := e.Start(t.Context(), "", wf, nil)
	if err != nil {
		t.Fatal(err)
	}
	<-running
	if err := e.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	r, _ := e.Wait(t.Context(), id)
	if r.Status != workrun.RunInterrupted || r.Interruption != workrun.InterruptedByExit {
		t.Fatalf("after Close: %s/%s", r.Status, r.Interruption)
	}
	if hookCalls.Load() != 0 {
		t.Error("exiting called an abort hook (docs/remote-agent.md R13)")
	}

	e2 := workrun.NewEngine(st, nil, allKinds(fk)...) // "the next start"
	if err := e2.Resume(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	r, _ = e2.Wait(t.Context(), id)
	if r.Status != workrun.RunSucceeded || r.State["b"] != "AB" {
		t.Fatalf("after resume: %s %v (%s)", r.Status, r.State, r.Reason)
	}
	if !resumedSeen.Load() {
		t.Error("the re-entered node did not see Resumed()")
	}
	if n := fk["first"].starts.Load(); n != 1 {
		t.Errorf("finished node ran %d times", n)
	}
}

func TestRecoverInterruptedUsesStatusIndexOnly(t *testing.T) {
	st := workruntest.NewMemStore()
	ctx := t.Context()
	for _, r := range []workrun.Run{
		{ID: "died", Status: workrun.RunRunning},
		{ID: "stopping-failed", Status: workrun.RunStopping, FailedNode: "x", Reason: "boom"},
		{ID: "stopping-stopped", Status: workrun.RunStopping, Reason: "stopped by the user"},
		{ID: "old-failure", Status: workrun.RunFailed, Reason: "old"},
	} {
		if err := st.CreateRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	var asked []workrun.RunStatus
	counting := &statusCountingStore{MemStore: st, asked: &asked}
	e := workrun.NewEngine(counting, nil)
	changed, err := e.RecoverInterrupted(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]workrun.RunStatus{}
	for _, r := range changed {
		got[r.ID] = r.Status
	}
	want := map[string]workrun.RunStatus{"died": "interrupted", "stopping-failed": "failed", "stopping-stopped": "stopped"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("recovered (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]workrun.RunStatus{"running", "stopping"}, asked); diff != "" {
		t.Errorf("status queries (-want +got):\n%s", diff)
	}
	r, _ := st.GetRun(ctx, "died")
	if r.Interruption != workrun.InterruptedByExit {
		t.Errorf("interruption %q", r.Interruption)
	}
	if r, _ := st.GetRun(ctx, "stopping-failed"); r.Reason != "boom" {
		t.Errorf("reason changed to %q", r.Reason)
	}
}

// statusCountingStore refuses history scans: start-up may only ask by status.
type statusCountingStore struct {
	*workruntest.MemStore
	asked *[]workrun.RunStatus
}

func (s *statusCountingStore) RunsWithStatus(ctx context.Context, st workrun.RunStatus) ([]workrun.Run, error) {
	*s.asked = append(*s.asked, st)
	return s.MemStore.RunsWithStatus(ctx, st)
}

func (s *statusCountingStore) ListRuns(ctx context.Context, f workrun.RunFilter) ([]workrun.Run, error) {
	return nil, errors.New("start-up must not list run history")
}

func TestEveryChangeIsSavedBeforePublished(t *testing.T) {
	st := workruntest.NewMemStore()
	fk := fakeKind{"talk": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		for i := range 20 {
			nc.Log(workrun.Plain(fmt.Sprint("line ", i)))
		}
		return nil, nil
	}}}
	e := workrun.NewEngine(st, nil, allKinds(fk)...)
	events, cancel := e.Subscribe()
	defer cancel()
	wf := workrun.Workflow{
		Nodes: []workrun.NodeSpec{node("start", "start", ""), node("talk", "fake", ""), node("j", "join", "")},
		Edges: edges("start>talk", "talk>j"),
	}
	id, err := e.Start(t.Context(), "", wf, nil)
	if err != nil {
		t.Fatal(err)
	}
	var lines int
	for ev := range events {
		switch ev.Type {
		case workrun.EventRun:
			if !slices.ContainsFunc(st.RunHistory(id), func(r workrun.Run) bool { return r.Status == ev.Run.Status }) {
				t.Errorf("run status %s published before it was saved", ev.Run.Status)
			}
		case workrun.EventNode:
			recs, _ := st.NodeRuns(t.Context(), id)
			if !slices.ContainsFunc(recs, func(n workrun.NodeRun) bool { return n.NodeID == ev.NodeID }) {
				t.Errorf("node %s published before it was saved", ev.NodeID)
			}
		case workrun.EventMessage:
			lines++
			if ev.Message.Seq == 0 {
				t.Errorf("message %q published without its store sequence", ev.Message.Text)
			}
		}
		if ev.Type == workrun.EventRun && ev.Run.Status.Terminal() {
			break
		}
	}
	if lines < 20 {
		t.Errorf("saw %d messages, want ≥ 20", lines)
	}
}

func TestSlowSubscriberNeverBlocksTheEngine(t *testing.T) {
	e, _ := newEngine(t, fakeKind{})
	_, cancel := e.Subscribe() // never read
	defer cancel()
	wf := workrun.Workflow{
		State: map[string]workrun.FieldType{"msg": "text"},
		Nodes: []workrun.NodeSpec{node("start", "start", ""), node("s", "set", `{"values":{"msg":"hi"}}`)},
		Edges: edges("start>s"),
	}
	for range 20 {
		if r := run(t, e, wf, nil); r.Status != workrun.RunSucceeded {
			t.Fatal(r.Status)
		}
	}
}

func TestStartRefusesBadInputs(t *testing.T) {
	e, _ := newEngine(t, fakeKind{})
	wf := workrun.Workflow{
		State: map[string]workrun.FieldType{"n": "number"},
		Nodes: []workrun.NodeSpec{node("start", "start", "")},
	}
	for _, in := range []workrun.Values{{"n": "three"}, {"m": 1.0}} {
		if _, err := e.Start(t.Context(), "", wf, in); !errors.Is(err, workrun.ErrBadInput) {
			t.Errorf("inputs %v: %v, want ErrBadInput", in, err)
		}
	}
}

// rearmStep registers a hook on Run and again on Rearm.
type rearmStep struct {
	fakeStep
	rearmed atomic.Int32
	hook    func(ctx context.Context)
}

func (s *rearmStep) Rearm(nc workrun.NodeContext, saved workrun.NodeRun) {
	s.rearmed.Add(1)
	nc.OnAbort(s.hook)
}

type rearmKind struct{ s *rearmStep }

func (rearmKind) Type() string { return "rearm" }
func (k rearmKind) Compile(workrun.NodeSpec, workrun.Workflow) (workrun.Step, error) {
	return k.s, nil
}

// TestStopOfAWaitingRunInAnotherProcessCallsRearmedHooks: the hooks of a
// run waiting for a person are called once when it is stopped, whether the
// engine that ran it is still there or a new one stops it.
func TestStopOfAWaitingRunInAnotherProcessCallsRearmedHooks(t *testing.T) {
	for _, sameEngine := range []bool{true, false} {
		t.Run(fmt.Sprint("same engine ", sameEngine), func(t *testing.T) {
			var calls atomic.Int32
			rs := &rearmStep{hook: func(context.Context) { calls.Add(1) }}
			rs.run = func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
				nc.OnAbort(rs.hook)
				return nil, nil
			}
			st := workruntest.NewMemStore()
			e := workrun.NewEngine(st, nil, append(allKinds(fakeKind{}), rearmKind{rs})...)
			wf := reviewFlow()
			wf.Nodes = append(wf.Nodes[:1], append([]workrun.NodeSpec{node("made", "rearm", "")}, wf.Nodes[1:]...)...)
			wf.Edges = edges("start>made", "made>review", "review>ask", "ask>out")
			r := run(t, e, wf, nil)
			if r.Status != workrun.RunInterrupted {
				t.Fatalf("status %s (%s)", r.Status, r.Reason)
			}
			stopper := e
			if !sameEngine {
				stopper = workrun.NewEngine(st, nil, append(allKinds(fakeKind{}), rearmKind{rs})...)
			}
			if err := stopper.Stop(t.Context(), r.ID); err != nil {
				t.Fatal(err)
			}
			r, _ = st.GetRun(t.Context(), r.ID)
			if r.Status != workrun.RunStopped {
				t.Errorf("status %s", r.Status)
			}
			if n := calls.Load(); n != 1 {
				t.Errorf("hook called %d times, want 1", n)
			}
			wantRearm := int32(0)
			if !sameEngine {
				wantRearm = 1
			}
			if n := rs.rearmed.Load(); n != wantRearm {
				t.Errorf("rearmed %d times, want %d", n, wantRearm)
			}
		})
	}
}

// branchlessStore forgets NodeRun.Branch, like a store that keeps no column
// for it: a resumed run must still follow the branch the condition picked.
type branchlessStore struct{ *workruntest.MemStore }

func (s branchlessStore) SaveNodeRun(ctx context.Context, n workrun.NodeRun) error {
	n.Branch = ""
	return s.MemStore.SaveNodeRun(ctx, n)
}

func TestResumeWithoutSavedBranchReentersTheCondition(t *testing.T) {
	running := make(chan struct{}, 1)
	fk := fakeKind{
		"wait": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			if nc.Resumed() {
				return nil, nil
			}
			running <- struct{}{}
			<-ctx.Done()
			return nil, ctx.Err()
		}},
		"yes": {}, "no": {},
	}
	st := branchlessStore{workruntest.NewMemStore()}
	e := workrun.NewEngine(st, nil, allKinds(fk)...)
	wf := workrun.Workflow{
		State: map[string]workrun.FieldType{"n": "number"},
		Nodes: []workrun.NodeSpec{node("start", "start", ""), node("cond", "condition", `{"field":"n","op":"eq","value":1}`),
			node("wait", "fake", ""), node("yes", "fake", ""), node("no", "fake", ""), node("j", "join", "")},
		Edges: edges("start>cond", "start>wait", "cond>yes:true", "cond>no:false", "wait>j", "yes>j", "no>j"),
	}
	id, err := e.Start(t.Context(), "", wf, workrun.Values{"n": 1.0})
	if err != nil {
		t.Fatal(err)
	}
	<-running
	// Let cond and yes finish before the exit.
	deadline := time.Now().Add(5 * time.Second)
	for nodeStatuses(t, st.MemStore, id)["yes"] != workrun.NodeSucceeded {
		if time.Now().After(deadline) {
			t.Fatal("yes never finished")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := e.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	e2 := workrun.NewEngine(st, nil, allKinds(fk)...)
	if err := e2.Resume(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	r, _ := e2.Wait(t.Context(), id)
	if r.Status != workrun.RunSucceeded {
		t.Fatalf("status %s (%s)", r.Status, r.Reason)
	}
	if fk["yes"].starts.Load() != 1 || fk["no"].starts.Load() != 0 {
		t.Errorf("yes ran %d times, no %d times", fk["yes"].starts.Load(), fk["no"].starts.Load())
	}
	if got := nodeStatuses(t, st.MemStore, id); got["no"] != workrun.NodeSkipped || got["cond"] != workrun.NodeSucceeded {
		t.Errorf("statuses %v", got)
	}
}
