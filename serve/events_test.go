package serve_test

import (
	"sync"
	"testing"

	"workrun/serve"
	"workrun/workrun"
)

// messagesOf follows the task with EventsSince(0) and returns the texts of
// the messages it yielded.
func messagesOf(t *testing.T, svc *serve.Service, id string) []string {
	t.Helper()
	var got []string
	for ev, err := range svc.EventsSince(t.Context(), "a", id, 0) {
		if err != nil {
			t.Error(err)
			return got
		}
		if ev.Message != nil {
			got = append(got, ev.Message.NodeID+": "+ev.Message.In("en"))
		}
	}
	return got
}

// TestEventsSinceMissesNoMessage is the cause of the progress flake of
// TestServeMCPConformance (tools-call-with-progress, "got 2, want 3"): a
// run logs its first message before the call that started it subscribes,
// and a status read on the poll tick overtakes messages still queued for
// the subscriber. EventsSince yields every message of the run exactly once,
// in order, however late it subscribes; Events (the A2A front's) yields
// none of a task already ended.
func TestEventsSinceMissesNoMessage(t *testing.T) {
	f := newService(t, "", helloJSON)
	task, _, err := f.svc.Start(t.Context(), serve.StartRequest{Caller: "a", Publication: "hello", Key: "late", Inputs: workrun.Values{"name": "Ada"}})
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, f.svc, "a", task.ID)
	saved, err := f.st.Messages(t.Context(), task.RunID)
	if err != nil || len(saved) < 2 {
		t.Fatalf("saved messages %v %v", saved, err)
	}
	var want []string
	for _, m := range saved {
		want = append(want, m.NodeID+": "+m.In("en"))
	}
	if got := messagesOf(t, f.svc, task.ID); !equal(got, want) {
		t.Fatalf("after the end: got %q, want %q", got, want)
	}
	for ev := range f.svc.Events(t.Context(), "a", task.ID) {
		if ev.Message != nil {
			t.Fatalf("Events yielded an old message: %+v", ev.Message)
		}
	}
	// Subscribing right after Start, many times at once, races the run's
	// first message and its end: every follower gets every message once.
	for i := range 20 {
		task, _, err := f.svc.Start(t.Context(), serve.StartRequest{Caller: "a", Publication: "hello", Key: "race-" + string(rune('a'+i)), Inputs: workrun.Values{"name": "Ada"}})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		got := make([][]string, 4)
		for j := range got {
			wg.Go(func() { got[j] = messagesOf(t, f.svc, task.ID) })
		}
		wg.Wait()
		for _, g := range got {
			if !equal(g, want) {
				t.Fatalf("run %d: got %q, want %q", i, g, want)
			}
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
