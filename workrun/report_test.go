package workrun_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// syncBuffer is an io.Writer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func messageTexts(t *testing.T, st *workruntest.MemStore, runID, nodeID string) []string {
	return workruntest.NodeMessages(t, st, runID, nodeID, "en")
}

func containsLine(lines []string, part string) bool {
	for _, l := range lines {
		if strings.Contains(l, part) {
			return true
		}
	}
	return false
}

// TestMessagesArePublishedInCommitOrder: parallel nodes log at once
// through a store whose calls return late and out of order after their
// commit; subscribers still see each run's lines in Seq order.
func TestMessagesArePublishedInCommitOrder(t *testing.T) {
	st := workruntest.NewMemStore()
	st.AppendMessageFunc = func(ctx context.Context, m workrun.Message) (workrun.Message, error) {
		saved := st.StoreMessage(m) // committed: Seq set in commit order
		time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond)
		return saved, nil
	}
	const branches, lines = 8, 40
	fk := fakeKind{}
	wf := workrun.Workflow{Nodes: []workrun.NodeSpec{node("start", "start", "")}}
	for i := range branches {
		id := fmt.Sprintf("n%d", i)
		fk[id] = &fakeStep{run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			for j := range lines {
				nc.Log(workrun.Plain(fmt.Sprintf("%s line %d", id, j)))
			}
			return nil, nil
		}}
		wf.Nodes = append(wf.Nodes, node(id, "fake", ""))
		wf.Edges = append(wf.Edges, workrun.Edge{From: "start", To: id})
	}
	e := workrun.NewEngine(st, nil, allKinds(fk)...)
	events, cancel := e.Subscribe()
	defer cancel()
	r := run(t, e, wf, nil)
	if r.Status != workrun.RunSucceeded {
		t.Fatalf("status %s", r.Status)
	}
	var last int64
	seen := 0
	timeout := time.After(10 * time.Second)
	for seen < branches*lines {
		select {
		case ev := <-events:
			if ev.Type != workrun.EventMessage || ev.RunID != r.ID {
				continue
			}
			if ev.Message.Seq <= last {
				t.Fatalf("line %d (%q) published after line %d", ev.Message.Seq, ev.Message.In("en"), last)
			}
			last = ev.Message.Seq
			seen++
		case <-timeout:
			t.Fatalf("saw %d of %d lines", seen, branches*lines)
		}
	}
}

// TestAbortHookPanicIsReported: a hook that panics does not change the
// run's outcome, and its panic value is a message on its node.
func TestAbortHookPanicIsReported(t *testing.T) {
	fk := fakeKind{
		"arm": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			nc.OnAbort(func(context.Context) { panic("boom in the hook") })
			return nil, nil
		}},
		"bad": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			return nil, errors.New("broken")
		}},
	}
	e, st := newEngine(t, fk)
	wf := workrun.Workflow{Nodes: []workrun.NodeSpec{node("start", "start", ""), node("arm", "fake", ""), node("bad", "fake", "")},
		Edges: edges("start>arm", "arm>bad")}
	r := run(t, e, wf, nil)
	if r.Status != workrun.RunFailed || r.FailedNode != "bad" {
		t.Fatalf("status %s at %q", r.Status, r.FailedNode)
	}
	if got := messageTexts(t, st, r.ID, "arm"); !containsLine(got, "the abort work panicked: boom in the hook") {
		t.Errorf("messages of arm: %q", got)
	}
}

// TestFailedSavesAreReported: the final status that cannot be saved, and a
// node message the store refuses, are not dropped: each becomes a line in
// the run's record, or — when the store takes nothing — goes to Errors and
// to subscribers unsaved.
func TestFailedSavesAreReported(t *testing.T) {
	t.Run("final status", func(t *testing.T) {
		var fails atomic.Int32
		fk := fakeKind{"a": {}}
		e, st := newEngine(t, fk)
		st.UpdateRunFunc = func(ctx context.Context, r workrun.Run) error {
			if r.Status == workrun.RunSucceeded {
				fails.Add(1)
				return errors.New("disk full")
			}
			return nil
		}
		var errs syncBuffer
		e.Errors = &errs
		wf := workrun.Workflow{Nodes: []workrun.NodeSpec{node("start", "start", ""), node("a", "fake", "")}, Edges: edges("start>a")}
		r := run(t, e, wf, nil)
		if got := messageTexts(t, st, r.ID, ""); !containsLine(got, "saving the run as succeeded failed: disk full") {
			t.Errorf("run messages %q", got)
		}
		if fails.Load() < 3 {
			t.Errorf("the save was tried %d times, want it tried again within SaveRetryFor", fails.Load())
		}
		if errs.String() != "" {
			t.Errorf("Errors got %q although the report was saved", errs.String())
		}
	})
	t.Run("message refused", func(t *testing.T) {
		fk := fakeKind{"a": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			nc.Log(workrun.Plain("doomed line"))
			nc.Log(workrun.Plain("fine line"))
			return nil, nil
		}}}
		e, st := newEngine(t, fk)
		st.AppendMessageFunc = func(ctx context.Context, m workrun.Message) (workrun.Message, error) {
			if strings.Contains(m.Text, "doomed") {
				return workrun.Message{}, errors.New("constraint failed")
			}
			return st.StoreMessage(m), nil
		}
		var errs syncBuffer
		e.Errors = &errs
		events, cancel := e.Subscribe()
		defer cancel()
		wf := workrun.Workflow{Nodes: []workrun.NodeSpec{node("start", "start", ""), node("a", "fake", "")}, Edges: edges("start>a")}
		r := run(t, e, wf, nil)
		got := messageTexts(t, st, r.ID, "a")
		if !containsLine(got, "saving a message of this node failed: constraint failed") || !containsLine(got, "fine line") {
			t.Errorf("messages of a: %q", got)
		}
		if !strings.Contains(errs.String(), "doomed line") || !strings.Contains(errs.String(), "constraint failed") {
			t.Errorf("Errors: %q", errs.String())
		}
		if !sawUnsaved(events, r.ID, "doomed line") {
			t.Error("subscribers never saw the unsaved line")
		}
	})
	t.Run("store takes nothing", func(t *testing.T) {
		fk := fakeKind{"a": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			nc.Log(workrun.Plain("lost line\x1b]0;retitled\x07"))
			return nil, nil
		}}}
		e, st := newEngine(t, fk)
		st.AppendMessageFunc = func(ctx context.Context, m workrun.Message) (workrun.Message, error) {
			return workrun.Message{}, errors.New("database is locked")
		}
		var errs syncBuffer
		e.Errors = &errs
		wf := workrun.Workflow{Nodes: []workrun.NodeSpec{node("start", "start", ""), node("a", "fake", "")}, Edges: edges("start>a")}
		run(t, e, wf, nil)
		for _, want := range []string{"lost line", "saving a message of this node failed: database is locked"} {
			if !strings.Contains(errs.String(), want) {
				t.Errorf("Errors %q lacks %q", errs.String(), want)
			}
		}
		if strings.ContainsAny(errs.String(), "\x1b\x07") {
			t.Errorf("Errors got the line's control characters raw: %q", errs.String())
		}
	})
}

func sawUnsaved(events <-chan workrun.Event, runID, text string) bool {
	timeout := time.After(5 * time.Second)
	for {
		select {
		case ev := <-events:
			if ev.Type == workrun.EventMessage && ev.RunID == runID && ev.Message.Seq == 0 && strings.Contains(ev.Message.Text, text) {
				return true
			}
		case <-timeout:
			return false
		}
	}
}

// TestHookKeepsItsOwnBound: a hook registered with a bound longer than the
// engine's AbortTimeout is not cut at AbortTimeout — on a failure and on
// Stop of an interrupted run — and the final status waits for it.
func TestHookKeepsItsOwnBound(t *testing.T) {
	for _, how := range []string{"failure", "stop while interrupted"} {
		t.Run(how, func(t *testing.T) {
			var finished atomic.Bool
			var ctxErr atomic.Value
			fk := fakeKind{
				"ra": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
					workrun.OnAbortWithin(nc, 3*time.Second, func(ctx context.Context) {
						time.Sleep(600 * time.Millisecond) // longer than AbortTimeout + grace? no: than AbortTimeout
						ctxErr.Store(fmt.Sprint(ctx.Err()))
						finished.Store(true)
					})
					if how == "failure" {
						return nil, nil
					}
					return nil, &workrun.InterruptError{Cause: workrun.InterruptedByRemote, Reason: "input"}
				}},
				"bad": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
					return nil, errors.New("broken")
				}},
			}
			e, st := newEngine(t, fk)
			e.AbortTimeout = 100 * time.Millisecond
			wf := workrun.Workflow{Nodes: []workrun.NodeSpec{node("start", "start", ""), node("ra", "fake", ""), node("bad", "fake", "")},
				Edges: edges("start>ra", "ra>bad")}
			r := run(t, e, wf, nil)
			if how != "failure" {
				if r.Status != workrun.RunInterrupted {
					t.Fatalf("status %s", r.Status)
				}
				if err := e.Stop(t.Context(), r.ID); err != nil {
					t.Fatal(err)
				}
				r, _ = st.GetRun(t.Context(), r.ID)
			}
			if !finished.Load() {
				t.Fatalf("the run ended %s before its hook finished", r.Status)
			}
			if got := ctxErr.Load(); got != "<nil>" {
				t.Errorf("the hook's context was cut: %v", got)
			}
		})
	}
}

// TestLongMessageIsCut: one 60 MB message is stored as at most
// MaxMessageBytes with a visible marker, and the 60 MB is not kept.
func TestLongMessageIsCut(t *testing.T) {
	const size = 60 << 20
	fk := fakeKind{"a": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		big := strings.Repeat("x", size)
		nc.Log(workrun.Plain(big))
		nc.Progress(workrun.Plain(big))
		return nil, nil
	}}}
	e, st := newEngine(t, fk)
	wf := workrun.Workflow{Nodes: []workrun.NodeSpec{node("start", "start", ""), node("a", "fake", "")}, Edges: edges("start>a")}
	r := run(t, e, wf, nil)
	all, err := st.Messages(t.Context(), r.ID)
	if err != nil {
		t.Fatal(err)
	}
	var ms []workrun.Message
	for _, m := range all {
		if m.NodeID == "a" {
			ms = append(ms, m)
		}
	}
	if len(ms) != 2 {
		t.Fatalf("node a has %d messages, want 2", len(ms))
	}
	wantTail := fmt.Sprintf("… [cut: %d bytes]", size-workrun.MaxMessageBytes)
	for _, m := range ms {
		stored := len(m.Text)
		for _, a := range m.Args {
			stored += len(a)
		}
		if stored > 2*workrun.MaxMessageBytes+100 {
			t.Errorf("a stored message holds %d bytes", stored)
		}
		if !strings.HasSuffix(m.In("en"), wantTail) {
			t.Errorf("message ends %q, want the marker %q", m.In("en")[max(0, len(m.In("en"))-40):], wantTail)
		}
	}
	runtime.GC()
	var mem runtime.MemStats
	runtime.ReadMemStats(&mem)
	if mem.HeapAlloc > 30<<20 {
		t.Errorf("heap holds %d MB after the run: the 60 MB message was kept", mem.HeapAlloc>>20)
	}
	runtime.KeepAlive(st)
}
