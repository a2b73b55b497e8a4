package workrun_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// remoteFake is a fake step of a kind that makes remote calls
// (workrun.RemoteStep): the engine retries it only after a known failure.
type remoteFake struct{ *fakeStep }

func (remoteFake) RemoteCalls() {}

// remoteKind compiles node type "remote" by node id.
type remoteKind map[string]*fakeStep

func (remoteKind) Type() string { return "remote" }
func (k remoteKind) Compile(spec workrun.NodeSpec, wf workrun.Workflow) (workrun.Step, error) {
	s, ok := k[spec.ID]
	if !ok {
		return nil, errors.New("no remote fake for " + spec.ID)
	}
	return remoteFake{s}, nil
}

func newPolicyEngine(t testing.TB, fk fakeKind, rk remoteKind) (*workrun.Engine, *workruntest.MemStore) {
	t.Helper()
	st := workruntest.NewMemStore()
	e := workrun.NewEngine(st, nil, append(allKinds(fk), rk)...)
	e.AbortTimeout = 3 * time.Second
	return e, st
}

func waitRun(t *testing.T, e *workrun.Engine, id string) workrun.Run {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	r, err := e.Wait(ctx, id)
	if err != nil {
		t.Fatalf("Wait: %v", err)
	}
	return r
}

// attemptLog records the attempt of each start of a step.
type attemptLog struct {
	mu       sync.Mutex
	attempts []int
	keys     []string
	at       []time.Time
}

func (l *attemptLog) add(nc workrun.NodeContext) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.attempts = append(l.attempts, nc.Attempt())
	l.keys = append(l.keys, workrun.AttemptCallKey("call", nc))
	l.at = append(l.at, time.Now())
	return nc.Attempt()
}

func (l *attemptLog) seen() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.attempts)
}

func line(from, to string) workrun.Workflow {
	return workrun.Workflow{Name: "w", Nodes: []workrun.NodeSpec{node("start", "start", ""), node(from, "fake", "")}, Edges: edges("start>" + from)}
}

func TestRetry_LocalNodeRetriesUntilItSucceeds(t *testing.T) {
	var log attemptLog
	fk := fakeKind{"flaky": {writes: []string{"out"}, run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		if n := log.add(nc); n < 3 {
			return nil, errors.New("flaky failure " + string(rune('0'+n)))
		}
		return workrun.Values{"out": "third time"}, nil
	}}}
	e, st := newPolicyEngine(t, fk, nil)
	wf := line("flaky", "")
	wf.State = map[string]workrun.FieldType{"out": "text"}
	wf.Nodes[1].Retry = &workrun.RetryPolicy{MaxAttempts: 3}
	r := run(t, e, wf, nil)
	if r.Status != workrun.RunSucceeded {
		t.Fatalf("status %s (%s)", r.Status, r.Reason)
	}
	if diff := cmp.Diff([]int{1, 2, 3}, log.seen()); diff != "" {
		t.Errorf("attempts (-want +got):\n%s", diff)
	}
	rec := workruntest.NodeRecord(t, st, r.ID, "flaky")
	if rec.Attempt != 3 || rec.LastError != "flaky failure 2" || rec.Status != workrun.NodeSucceeded {
		t.Errorf("record: attempt %d, last error %q, status %s", rec.Attempt, rec.LastError, rec.Status)
	}
	msgs := workruntest.NodeMessages(t, st, r.ID, "flaky", "en")
	want := []string{"Attempt 1 of 3 failed: flaky failure 1 — trying again now", "Attempt 2 of 3 failed: flaky failure 2 — trying again now"}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	zh := workruntest.NodeMessages(t, st, r.ID, "flaky", "zh")
	if len(zh) != 2 || !strings.Contains(zh[1], "第 2 次尝试（共 3 次）失败") {
		t.Errorf("Chinese messages: %q", zh)
	}
}

func TestRetry_ExhaustedFailsTheRunAsBefore(t *testing.T) {
	var hooks atomic.Int32
	fk := fakeKind{
		"bad": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			nc.OnAbort(func(context.Context) { hooks.Add(1) })
			return nil, errors.New("always")
		}},
	}
	e, st := newPolicyEngine(t, fk, nil)
	wf := line("bad", "")
	wf.Nodes[1].Retry = &workrun.RetryPolicy{MaxAttempts: 2}
	r := run(t, e, wf, nil)
	if r.Status != workrun.RunFailed || r.FailedNode != "bad" || r.Reason != "always" {
		t.Fatalf("run %s, node %q, reason %q", r.Status, r.FailedNode, r.Reason)
	}
	if n := fk["bad"].starts.Load(); n != 2 {
		t.Errorf("%d attempts, want 2", n)
	}
	if rec := workruntest.NodeRecord(t, st, r.ID, "bad"); rec.Attempt != 2 || rec.Status != workrun.NodeFailed {
		t.Errorf("record attempt %d status %s", rec.Attempt, rec.Status)
	}
	// Both attempts' hooks are called once each when the run fails.
	if n := hooks.Load(); n != 2 {
		t.Errorf("abort hooks called %d times, want 2", n)
	}
}

func TestRetry_WaitsBetweenAttemptsWithBackoff(t *testing.T) {
	p := workrun.RetryPolicy{MaxAttempts: 4, WaitSeconds: 1, Backoff: workrun.BackoffExponential}
	if got := []time.Duration{p.Wait(2), p.Wait(3), p.Wait(4)}; !slices.Equal(got, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}) {
		t.Errorf("exponential waits %v", got)
	}
	p.Backoff = ""
	if got := p.Wait(4); got != time.Second {
		t.Errorf("fixed wait %v", got)
	}
	if got := (workrun.RetryPolicy{WaitSeconds: 3000, Backoff: workrun.BackoffExponential}).Wait(5); got != time.Hour {
		t.Errorf("wait is capped at an hour, got %v", got)
	}

	var log attemptLog
	fk := fakeKind{"slow": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		if log.add(nc) == 1 {
			return nil, errors.New("first")
		}
		return nil, nil
	}}}
	e, _ := newPolicyEngine(t, fk, nil)
	wf := line("slow", "")
	wf.Nodes[1].Retry = &workrun.RetryPolicy{MaxAttempts: 2, WaitSeconds: 0.3}
	if r := run(t, e, wf, nil); r.Status != workrun.RunSucceeded {
		t.Fatalf("status %s", r.Status)
	}
	if gap := log.at[1].Sub(log.at[0]); gap < 300*time.Millisecond {
		t.Errorf("second attempt started %v after the first, want ≥ 300ms", gap)
	}
}

// A remote node is retried only after a known terminal failure; each
// attempt is a new call (its own call key, hence messageId). An unknown
// outcome — a timeout, a broken stream, submission unknown — is never
// retried, whatever the policy says.
func TestRetry_RemoteOnlyAfterAKnownFailure(t *testing.T) {
	cases := []struct {
		name     string
		err      error
		attempts []int
		keys     []string
		msg      string
	}{
		{"task failed", workrun.KnownFailure(errors.New("remote task did not complete: FAILED")), []int{1, 2, 3}, []string{"call", "call#2", "call#3"},
			"Attempt 1 of 3 failed: remote task did not complete: FAILED — trying again now"},
		{"timeout", errors.New("the remote agent stopped answering: timeout"), []int{1}, []string{"call"},
			"Attempt 1 of 3 failed and is not retried: the remote outcome is unknown (the remote agent stopped answering: timeout)"},
		{"deadline", workrun.KnownFailure(workrun.ErrDeadlinePassed), []int{1}, []string{"call"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var log attemptLog
			rk := remoteKind{"ask": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
				log.add(nc)
				return nil, c.err
			}}}
			e, st := newPolicyEngine(t, fakeKind{}, rk)
			wf := workrun.Workflow{Name: "w", Nodes: []workrun.NodeSpec{node("start", "start", ""), node("ask", "remote", "")}, Edges: edges("start>ask")}
			wf.Nodes[1].Retry = &workrun.RetryPolicy{MaxAttempts: 3}
			r := run(t, e, wf, nil)
			if r.Status != workrun.RunFailed {
				t.Fatalf("status %s", r.Status)
			}
			if diff := cmp.Diff(c.attempts, log.seen()); diff != "" {
				t.Errorf("attempts (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.keys, log.keys); diff != "" {
				t.Errorf("call keys (-want +got):\n%s", diff)
			}
			if msgs := workruntest.NodeMessages(t, st, r.ID, "ask", "en"); c.msg != "" && (len(msgs) == 0 || msgs[0] != c.msg) {
				t.Errorf("messages %q, want first %q", msgs, c.msg)
			}
		})
	}
}

func TestOnError_ContinueWritesTheErrorAndGoesOn(t *testing.T) {
	var got atomic.Value
	var hooks atomic.Int32
	fk := fakeKind{
		"tool": {writes: []string{"result"}, run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			nc.OnAbort(func(context.Context) { hooks.Add(1) })
			// A tool that answered isError: its content and a known failure.
			return workrun.Values{"result": "quota exceeded"}, workrun.KnownFailure(errors.New("tool error: quota exceeded"))
		}},
		"next": {reads: []string{"why", "result"}, run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			got.Store(nc.Inputs())
			return nil, nil
		}},
	}
	e, st := newPolicyEngine(t, fk, nil)
	wf := workrun.Workflow{Name: "w", State: map[string]workrun.FieldType{"why": "text", "result": "text"},
		Nodes: []workrun.NodeSpec{node("start", "start", ""), node("tool", "fake", ""), node("next", "fake", "")},
		Edges: edges("start>tool", "tool>next")}
	wf.Nodes[1].OnError, wf.Nodes[1].ErrorField = workrun.OnErrorContinue, "why"
	r := run(t, e, wf, nil)
	if r.Status != workrun.RunSucceeded {
		t.Fatalf("status %s (%s)", r.Status, r.Reason)
	}
	want := workrun.Values{"why": "tool error: quota exceeded", "result": "quota exceeded"}
	if diff := cmp.Diff(want, got.Load()); diff != "" {
		t.Errorf("the next node read (-want +got):\n%s", diff)
	}
	if rec := workruntest.NodeRecord(t, st, r.ID, "tool"); rec.Status != workrun.NodeHandled || rec.Error != "tool error: quota exceeded" {
		t.Errorf("record %s %q", rec.Status, rec.Error)
	}
	if n := hooks.Load(); n != 0 {
		t.Errorf("a handled failure called %d abort hooks", n)
	}
	if msgs := workruntest.NodeMessages(t, st, r.ID, "tool", "en"); len(msgs) != 1 ||
		msgs[0] != "Failed (handled by on_error: continue), the run goes on: tool error: quota exceeded" {
		t.Errorf("messages %q", msgs)
	}
}

// An error branch: the handler runs only when the node failed, the normal
// path only when it succeeded; a join after both runs when one of them did
// (inputs any) or is skipped unless both did (inputs all). A handled failure
// cancels nothing of the branches still running.
func TestOnError_BranchTakesTheErrorEdges(t *testing.T) {
	for _, fail := range []bool{true, false} {
		t.Run(map[bool]string{true: "failed", false: "succeeded"}[fail], func(t *testing.T) {
			var parallelHook atomic.Int32
			release := make(chan struct{})
			fk := fakeKind{
				"work": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
					if fail {
						return nil, errors.New("work failed")
					}
					return nil, nil
				}},
				"parallel": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
					nc.OnAbort(func(context.Context) { parallelHook.Add(1) })
					select {
					case <-release:
						return nil, nil
					case <-ctx.Done():
						return nil, ctx.Err()
					}
				}},
				"handler": {reads: []string{"why"}},
				"normal":  {},
			}
			fk["handler"].run = func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
				close(release) // the parallel branch was still going on
				if nc.Inputs()["why"] != "work failed" {
					return nil, errors.New("handler read no error")
				}
				return nil, nil
			}
			fk["normal"].run = func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
				close(release)
				return nil, nil
			}
			e, st := newPolicyEngine(t, fk, nil)
			wf := workrun.Workflow{Name: "w", State: map[string]workrun.FieldType{"why": "text"},
				Nodes: []workrun.NodeSpec{node("start", "start", ""), node("work", "fake", ""), node("parallel", "fake", ""),
					node("handler", "fake", ""), node("normal", "fake", ""),
					node("any", "join", ""), node("all", "join", `{"inputs":"all"}`)},
				Edges: append(edges("start>work", "start>parallel", "work>normal", "handler>any", "normal>any", "handler>all", "normal>all"),
					workrun.Edge{From: "work", To: "handler", Port: workrun.PortError})}
			wf.Nodes[1].OnError, wf.Nodes[1].ErrorField = workrun.OnErrorBranch, "why"
			if probs := e.Validate(wf); len(probs) > 0 {
				t.Fatal(probs)
			}
			r := run(t, e, wf, nil)
			if r.Status != workrun.RunSucceeded {
				t.Fatalf("status %s (%s)", r.Status, r.Reason)
			}
			want := map[string]workrun.NodeStatus{"start": "succeeded", "work": "handled", "parallel": "succeeded",
				"handler": "succeeded", "normal": "skipped", "any": "succeeded", "all": "skipped"}
			if !fail {
				want["work"], want["handler"], want["normal"] = "succeeded", "skipped", "succeeded"
			}
			if diff := cmp.Diff(want, nodeStatuses(t, st, r.ID)); diff != "" {
				t.Errorf("node statuses (-want +got):\n%s", diff)
			}
			if n := parallelHook.Load(); n != 0 {
				t.Errorf("the parallel branch's abort hook was called %d times", n)
			}
		})
	}
}

// Without on_error a failure does what it always did: the run fails and
// every hook is called once.
func TestOnError_FailIsTheDefault(t *testing.T) {
	var hooks atomic.Int32
	fk := fakeKind{
		"work": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			return nil, errors.New("work failed")
		}},
		"parallel": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			nc.OnAbort(func(context.Context) { hooks.Add(1) })
			<-ctx.Done()
			return nil, ctx.Err()
		}},
	}
	for _, onError := range []workrun.OnError{"", workrun.OnErrorFail} {
		hooks.Store(0)
		e, _ := newPolicyEngine(t, fk, nil)
		wf := workrun.Workflow{Name: "w", Nodes: []workrun.NodeSpec{node("start", "start", ""), node("work", "fake", ""), node("parallel", "fake", "")},
			Edges: edges("start>work", "start>parallel")}
		wf.Nodes[1].OnError = onError
		r := run(t, e, wf, nil)
		if r.Status != workrun.RunFailed || r.FailedNode != "work" {
			t.Errorf("on_error %q: run %s node %q", onError, r.Status, r.FailedNode)
		}
		if n := hooks.Load(); n != 1 {
			t.Errorf("on_error %q: %d hooks called, want 1", onError, n)
		}
	}
}

// blockUntilDeadline starts the node's deadline and waits for its context.
func blockUntilDeadline(started chan<- struct{}) func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	return func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		workrun.StartDeadline(nc) // the task id was saved
		if started != nil {
			started <- struct{}{}
		}
		<-ctx.Done()
		return nil, errors.New("remote agent: " + ctx.Err().Error())
	}
}

func TestDeadline_FailsTheNodeAndTheNormalCancelFollows(t *testing.T) {
	var hooks atomic.Int32
	rk := remoteKind{"ask": {}}
	rk["ask"].run = func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		nc.OnAbort(func(context.Context) { hooks.Add(1) })
		return blockUntilDeadline(nil)(ctx, nc)
	}
	e, st := newPolicyEngine(t, fakeKind{}, rk)
	wf := workrun.Workflow{Name: "w", Nodes: []workrun.NodeSpec{node("start", "start", ""), node("ask", "remote", "")}, Edges: edges("start>ask")}
	wf.Nodes[1].DeadlineSeconds = 1
	wf.Nodes[1].Retry = &workrun.RetryPolicy{MaxAttempts: 3} // a passed deadline is never retried
	began := time.Now()
	r := run(t, e, wf, nil)
	if r.Status != workrun.RunFailed || !strings.HasPrefix(r.Reason, "deadline passed: the remote task did not end within 1s") {
		t.Fatalf("run %s reason %q", r.Status, r.Reason)
	}
	if took := time.Since(began); took < time.Second {
		t.Errorf("failed after %v, before the deadline", took)
	}
	if n := rk["ask"].starts.Load(); n != 1 {
		t.Errorf("%d attempts, want 1", n)
	}
	if n := hooks.Load(); n != 1 {
		t.Errorf("abort hook (the cancel) called %d times, want 1", n)
	}
	rec := workruntest.NodeRecord(t, st, r.ID, "ask")
	if rec.DeadlineAt.IsZero() || rec.DeadlineAt.Before(began.Add(time.Second)) {
		t.Errorf("saved deadline %v, want ≥ %v", rec.DeadlineAt, began.Add(time.Second))
	}
}

// The deadline is a saved instant: the application exits after the task id
// (and so the deadline) was saved; a new engine resumes the run and the
// node fails at the same instant, not a full deadline after the restart.
func TestDeadline_SurvivesARestart(t *testing.T) {
	started := make(chan struct{}, 2)
	rk := remoteKind{"ask": {run: blockUntilDeadline(started)}}
	st := workruntest.NewMemStore()
	e1 := workrun.NewEngine(st, nil, append(allKinds(fakeKind{}), rk)...)
	wf := workrun.Workflow{Name: "w", Nodes: []workrun.NodeSpec{node("start", "start", ""), node("ask", "remote", "")}, Edges: edges("start>ask")}
	wf.Nodes[1].DeadlineSeconds = 3
	id, err := e1.Start(t.Context(), "", wf, nil)
	if err != nil {
		t.Fatal(err)
	}
	<-started
	saved := workruntest.NodeRecord(t, st, id, "ask").DeadlineAt
	if saved.IsZero() {
		t.Fatal("deadline not saved before StartDeadline returned")
	}
	if err := e1.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if r, _ := st.GetRun(t.Context(), id); r.Status != workrun.RunInterrupted {
		t.Fatalf("after exit: %s", r.Status)
	}

	e2 := workrun.NewEngine(st, nil, append(allKinds(fakeKind{}), rk)...)
	if err := e2.Resume(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	<-started
	r := waitRun(t, e2, id)
	ended := time.Now()
	if r.Status != workrun.RunFailed || !strings.HasPrefix(r.Reason, "deadline passed") {
		t.Fatalf("run %s %q", r.Status, r.Reason)
	}
	if got := workruntest.NodeRecord(t, st, id, "ask").DeadlineAt; !got.Equal(saved) {
		t.Errorf("deadline moved from %v to %v", saved, got)
	}
	if ended.Before(saved) {
		t.Errorf("failed at %v, before the saved deadline %v", ended, saved)
	}
	if ended.After(saved.Add(2 * time.Second)) {
		t.Errorf("failed at %v, long after the saved deadline %v (restarted from the resume?)", ended, saved)
	}
}

// A run that exits during attempt 2 resumes attempt 2 — same call key, so
// the same remote identity — and never starts an attempt 3 on its own.
func TestRetry_ResumeContinuesTheSameAttempt(t *testing.T) {
	var log attemptLog
	started := make(chan int, 4)
	rk := remoteKind{"ask": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		n := log.add(nc)
		started <- n
		if n == 1 {
			return nil, workrun.KnownFailure(errors.New("REJECTED"))
		}
		if !nc.Resumed() {
			<-ctx.Done() // the application exits during attempt 2
			return nil, ctx.Err()
		}
		return nil, nil
	}}}
	st := workruntest.NewMemStore()
	e1 := workrun.NewEngine(st, nil, append(allKinds(fakeKind{}), rk)...)
	wf := workrun.Workflow{Name: "w", Nodes: []workrun.NodeSpec{node("start", "start", ""), node("ask", "remote", "")}, Edges: edges("start>ask")}
	wf.Nodes[1].Retry = &workrun.RetryPolicy{MaxAttempts: 3}
	id, err := e1.Start(t.Context(), "", wf, nil)
	if err != nil {
		t.Fatal(err)
	}
	<-started
	<-started
	if err := e1.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if rec := workruntest.NodeRecord(t, st, id, "ask"); rec.Attempt != 2 || rec.Status != workrun.NodeInterrupted {
		t.Fatalf("after exit: attempt %d status %s", rec.Attempt, rec.Status)
	}
	e2 := workrun.NewEngine(st, nil, append(allKinds(fakeKind{}), rk)...)
	if err := e2.Resume(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	if r := waitRun(t, e2, id); r.Status != workrun.RunSucceeded {
		t.Fatalf("status %s (%s)", r.Status, r.Reason)
	}
	if diff := cmp.Diff([]int{1, 2, 2}, log.seen()); diff != "" {
		t.Errorf("attempts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"call", "call#2", "call#2"}, log.keys); diff != "" {
		t.Errorf("call keys (-want +got):\n%s", diff)
	}
	if rec := workruntest.NodeRecord(t, st, id, "ask"); rec.Attempt != 2 || rec.LastError != "REJECTED" {
		t.Errorf("record attempt %d last error %q", rec.Attempt, rec.LastError)
	}
}
