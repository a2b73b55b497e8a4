//go:build unix

package store

import (
	"sync/atomic"
	"testing"
	"time"

	"workrun/workrun"
)

// TestWriteBehind_ShownOnceCommitted runs a pure workflow on the real
// store: every node and message event is published only once what it
// shows is committed (a read at that moment finds it), lines keep their
// seq order, and the run costs a few commits instead of one per record.
func TestWriteBehind_ShownOnceCommitted(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	var sends atomic.Int32
	wf, k := wbWorkflow(s, false, false, &sends)
	e := workrun.NewEngine(s, nil, k)
	events, cancel := e.Subscribe()
	defer cancel()
	c0 := s.commits.Load()
	id, err := e.Start(ctx, "", wf, nil)
	if err != nil {
		t.Fatal(err)
	}
	var lastSeq int64
	nodeEvents, lines := 0, 0
	timeout := time.After(30 * time.Second)
	for done := false; !done; {
		select {
		case ev := <-events:
			if ev.RunID != id {
				continue
			}
			switch ev.Type {
			case workrun.EventNode:
				nodeEvents++
				ns, err := s.NodeRuns(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				found := false
				for _, n := range ns {
					found = found || n.NodeID == ev.NodeID
				}
				if !found {
					t.Errorf("node %s shown (%s) before its record was committed", ev.NodeID, ev.Node.Status)
				}
			case workrun.EventMessage:
				lines++
				if ev.Message.Seq <= lastSeq {
					t.Errorf("line %q shown with seq %d after seq %d", ev.Message.Text, ev.Message.Seq, lastSeq)
				}
				lastSeq = ev.Message.Seq
				ms, err := s.Messages(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				if len(ms) < int(ev.Message.Seq) {
					t.Errorf("line %d shown before its commit (%d committed)", ev.Message.Seq, len(ms))
				}
			case workrun.EventRun:
				done = ev.Run.Status.Terminal()
			}
		case <-timeout:
			t.Fatal("the run did not end")
		}
	}
	if nodeEvents != 8 || lines != 3 {
		t.Errorf("%d node events and %d lines shown, want 8 and 3", nodeEvents, lines)
	}
	r, err := e.Wait(ctx, id)
	if err != nil || r.Status != workrun.RunSucceeded {
		t.Fatalf("run = %s, %v", r.Status, err)
	}
	checkWhole(t, s, r, []string{"p1 computed a", "mid computed b", "b: xy"})
	// The run's record and its end, plus at most a timed commit or two
	// of a slow machine; one commit per record would be 12.
	if n := s.commits.Load() - c0; n > 4 {
		t.Errorf("%d commits for a run of 4 pure nodes, want at most 4", n)
	}
}

// TestWriteBehind_LaterRecordReplacesQueued: a node's running and
// succeeded records queued before one commit are written once, as the
// latest, and each caller is told, in the order queued.
func TestWriteBehind_LaterRecordReplacesQueued(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	if err := s.CreateRun(ctx, sampleRun("r1", t0)); err != nil {
		t.Fatal(err)
	}
	var told []string
	rec := workrun.NodeRun{RunID: "r1", NodeID: "a", Type: "t", Status: workrun.NodeRunning, StartedAt: t0}
	for _, st := range []workrun.NodeStatus{workrun.NodeRunning, workrun.NodeSucceeded} {
		rec.Status = st
		if err := s.QueueNodeRun(rec, func(err error) { told = append(told, string(st)+" "+errText(err)) }); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.QueueMessage(workrun.Message{RunID: "r1", NodeID: "a", Text: "line"}, func(m workrun.Message, err error) {
		told = append(told, "line "+errText(err))
	}); err != nil {
		t.Fatal(err)
	}
	if ns, _ := s.NodeRuns(ctx, "r1"); len(ns) != 0 {
		t.Fatalf("queued record visible before any commit: %+v", ns)
	}
	// A write that waits carries what was queued before it.
	if err := s.UpdateRun(ctx, workrun.Run{ID: "r1", Status: workrun.RunSucceeded}); err != nil {
		t.Fatal(err)
	}
	want := []string{"running ok", "succeeded ok", "line ok"}
	if len(told) != 3 || told[0] != want[0] || told[1] != want[1] || told[2] != want[2] {
		t.Errorf("told %v, want %v", told, want)
	}
	ns, err := s.NodeRuns(ctx, "r1")
	if err != nil || len(ns) != 1 || ns[0].Status != workrun.NodeSucceeded {
		t.Errorf("records = %+v, %v", ns, err)
	}
	ms, err := s.Messages(ctx, "r1")
	if err != nil || len(ms) != 1 || ms[0].Text != "line" {
		t.Errorf("lines = %+v, %v", ms, err)
	}
}

func errText(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}
