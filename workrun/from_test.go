package workrun_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// chain is start → a → cond → (true) b → c, (false) other; a writes x, b
// reads x and writes y, c reads y.
func chain() (fakeKind, workrun.Workflow) {
	var seq atomic.Int32
	fk := fakeKind{
		"a":     {writes: []string{"x"}},
		"b":     {reads: []string{"x"}, writes: []string{"y"}},
		"c":     {reads: []string{"y"}},
		"other": {},
	}
	fk["a"].run = func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		return workrun.Values{"x": "a" + string(rune('0'+seq.Add(1)))}, nil
	}
	fk["b"].run = func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		x, _ := nc.Inputs()["x"].(string)
		return workrun.Values{"y": "b(" + x + ")"}, nil
	}
	fk["c"].run = func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		if nc.Inputs()["y"] == nil {
			return nil, errors.New("c read no y")
		}
		return nil, nil
	}
	wf := workrun.Workflow{Name: "chain", State: map[string]workrun.FieldType{"x": "text", "y": "text", "n": "number"},
		Nodes: []workrun.NodeSpec{node("start", "start", ""), node("a", "fake", ""), node("cond", "condition", `{"field":"n","op":"gt","value":1}`),
			node("b", "fake", ""), node("c", "fake", ""), node("other", "fake", "")},
		Edges: edges("start>a", "a>cond", "cond>b:true", "cond>other:false", "b>c")}
	return fk, wf
}

func startFrom(t *testing.T, e *workrun.Engine, wf workrun.Workflow, from workrun.RunFrom) workrun.Run {
	t.Helper()
	id, err := e.StartFrom(t.Context(), "", wf, nil, from)
	if err != nil {
		t.Fatalf("StartFrom: %v", err)
	}
	return waitRun(t, e, id)
}

func TestRunFrom_PinsTheNodesBeforeAndRunsTheRestFresh(t *testing.T) {
	fk, wf := chain()
	e, st := newPolicyEngine(t, fk, nil)
	first := run(t, e, wf, workrun.Values{"n": 5})
	if first.Status != workrun.RunSucceeded {
		t.Fatalf("first run %s %s", first.Status, first.Reason)
	}
	r := startFrom(t, e, wf, workrun.RunFrom{Node: "b", PinRun: first.ID})
	if r.Status != workrun.RunSucceeded || r.PinnedFrom != first.ID {
		t.Fatalf("run %s (%s), pinned from %q", r.Status, r.Reason, r.PinnedFrom)
	}
	if n := fk["a"].starts.Load(); n != 1 {
		t.Errorf("a ran %d times, want once (pinned in the second run)", n)
	}
	if n := fk["b"].starts.Load(); n != 2 {
		t.Errorf("b ran %d times, want 2", n)
	}
	if diff := cmp.Diff(workrun.Values{"n": 5.0, "x": "a1", "y": "b(a1)"}, r.State); diff != "" {
		t.Errorf("state (-want +got):\n%s", diff)
	}
	for _, id := range []string{"start", "a", "cond", "other"} {
		rec := workruntest.NodeRecord(t, st, r.ID, id)
		if rec.PinnedFrom != first.ID {
			t.Errorf("%s: pinned from %q", id, rec.PinnedFrom)
		}
	}
	if rec := workruntest.NodeRecord(t, st, r.ID, "cond"); rec.Branch != "true" {
		t.Errorf("pinned condition kept branch %q", rec.Branch)
	}
	if rec := workruntest.NodeRecord(t, st, r.ID, "other"); rec.Status != workrun.NodeSkipped {
		t.Errorf("other: %s", rec.Status)
	}
	for _, id := range []string{"b", "c"} {
		if rec := workruntest.NodeRecord(t, st, r.ID, id); rec.PinnedFrom != "" || rec.Status != workrun.NodeSucceeded {
			t.Errorf("%s: %s pinned %q", id, rec.Status, rec.PinnedFrom)
		}
	}
	msgs := workruntest.NodeMessages(t, st, r.ID, "a", "en")
	if diff := cmp.Diff([]string{"Not run: outputs pinned from run " + first.ID}, msgs); diff != "" {
		t.Errorf("a's messages (-want +got):\n%s", diff)
	}
	if zh := workruntest.NodeMessages(t, st, r.ID, "a", "zh"); len(zh) != 1 || !strings.Contains(zh[0], "已固定") {
		t.Errorf("Chinese: %q", zh)
	}
}

func TestRunFrom_TestThisNodeOnly(t *testing.T) {
	fk, wf := chain()
	e, st := newPolicyEngine(t, fk, nil)
	first := run(t, e, wf, workrun.Values{"n": 5})
	r := startFrom(t, e, wf, workrun.RunFrom{Node: "b", Only: true, PinRun: first.ID})
	if r.Status != workrun.RunSucceeded {
		t.Fatalf("run %s (%s)", r.Status, r.Reason)
	}
	if n := fk["c"].starts.Load(); n != 1 {
		t.Errorf("c ran %d times, want 1 (only b is tested)", n)
	}
	rec := workruntest.NodeRecord(t, st, r.ID, "c")
	if rec.Status != workrun.NodeSkipped || rec.Error != "not run: only b is being tested" {
		t.Errorf("c: %s %q", rec.Status, rec.Error)
	}
}

// Pinned values typed by hand stand in for a node that never ran; they are
// checked against what the node writes and its field types.
func TestRunFrom_HandTypedPins(t *testing.T) {
	fk, wf := chain()
	fk["a"].run = func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		return nil, errors.New("a is broken")
	}
	e, st := newPolicyEngine(t, fk, nil)
	failed := run(t, e, wf, workrun.Values{"n": 5})
	if failed.Status != workrun.RunFailed {
		t.Fatalf("first run %s", failed.Status)
	}
	_, err := e.StartFrom(t.Context(), "", wf, nil, workrun.RunFrom{Node: "b", PinRun: failed.ID})
	if !errors.Is(err, workrun.ErrPin) || !strings.Contains(err.Error(), `node "a" did not finish in run`) {
		t.Errorf("a node before without outputs: %v", err)
	}
	bad := []struct {
		pins map[string]workrun.Values
		want string
	}{
		{map[string]workrun.Values{"a": {"y": "no"}}, `pinned outputs of node "a": it does not write field "y"`},
		{map[string]workrun.Values{"a": {"x": 3}}, `pinned outputs of node "a", field "x"`},
		{map[string]workrun.Values{"b": {"y": "z"}}, `node "b" runs in this run`},
		{map[string]workrun.Values{"c": {}}, `node "c" runs in this run (it comes after b)`},
		{map[string]workrun.Values{"nope": {}}, `the workflow has no node "nope"`},
	}
	for _, c := range bad {
		_, err := e.StartFrom(t.Context(), "", wf, nil, workrun.RunFrom{Node: "b", PinRun: failed.ID, Pins: c.pins})
		if !errors.Is(err, workrun.ErrPin) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("pins %v: %v, want %q", c.pins, err, c.want)
		}
	}
	// Typed values for a and the condition; no earlier run at all.
	r := startFrom(t, e, wf, workrun.RunFrom{Node: "b", Pins: map[string]workrun.Values{"a": {"x": "typed"}, "cond": {}}})
	if r.Status != workrun.RunSucceeded {
		t.Fatalf("run %s (%s)", r.Status, r.Reason)
	}
	if r.State["y"] != "b(typed)" {
		t.Errorf("b read %v", r.State)
	}
	if rec := workruntest.NodeRecord(t, st, r.ID, "a"); rec.PinnedFrom != workrun.PinnedByHand {
		t.Errorf("a pinned from %q", rec.PinnedFrom)
	}
	if msgs := workruntest.NodeMessages(t, st, r.ID, "a", "en"); len(msgs) != 1 || msgs[0] != "Not run: outputs typed by hand" {
		t.Errorf("a's messages %q", msgs)
	}
	if n := fk["a"].starts.Load(); n != 1 {
		t.Errorf("a ran %d times, want 1", n)
	}
}

// A run from a node is a new run: a remote node that runs gets a new run
// id (so a new identity); a pinned remote node is not called at all.
func TestRunFrom_RemoteNodesPinnedAreNotCalled(t *testing.T) {
	var runIDs []string
	rk := remoteKind{"up": {writes: []string{"x"}}, "down": {reads: []string{"x"}}}
	rk["up"].run = func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		return workrun.Values{"x": "from up"}, nil
	}
	rk["down"].run = func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		runIDs = append(runIDs, nc.RunID()+"/"+workrun.AttemptCallKey("call", nc))
		return nil, nil
	}
	e, _ := newPolicyEngine(t, fakeKind{}, rk)
	wf := workrun.Workflow{Name: "w", State: map[string]workrun.FieldType{"x": "text"},
		Nodes: []workrun.NodeSpec{node("start", "start", ""), node("up", "remote", ""), node("down", "remote", "")},
		Edges: edges("start>up", "up>down")}
	first := run(t, e, wf, nil)
	r := startFrom(t, e, wf, workrun.RunFrom{Node: "down", PinRun: first.ID})
	if r.Status != workrun.RunSucceeded {
		t.Fatalf("%s %s", r.Status, r.Reason)
	}
	if n := rk["up"].starts.Load(); n != 1 {
		t.Errorf("the pinned remote node was called %d times in all, want 1 (the first run)", n)
	}
	if len(runIDs) != 2 || runIDs[0] == runIDs[1] {
		t.Errorf("downstream identities %q: want two different", runIDs)
	}
}
