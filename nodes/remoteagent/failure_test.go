package remoteagent_test

import (
	"strings"
	"testing"
	"time"

	"workrun/store/storetest"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// Failure handling against the real A2A servers (the a2a-go demo agent and
// the @a2a-js/sdk server), docs/engine.md "Failure handling": a retry is a
// new submission only after a known failure, an unknown outcome is never
// retried, a handled failure cancels nothing, a deadline ends in one cancel.

func submissions(s serverStats) int {
	n := 0
	for _, c := range s.Submissions {
		n += c
	}
	return n
}

// `fail` with max_attempts 2: exactly two submissions, with different
// messageIds, recorded as attempts 1 and 2.
func TestRetry_FailIsSubmittedTwiceWithNewMessageIDs(t *testing.T) {
	for _, srv := range bothServers(t, true) {
		t.Run(srv.name, func(t *testing.T) {
			e := newEnv(t, "", "en")
			n := raNode("f", srv.base, "")
			n.Retry = &workrun.RetryPolicy{MaxAttempts: 2}
			r := e.run(t, flow([]workrun.NodeSpec{n}), workrun.Values{"prompt_f": "fail"})
			if r.Status != workrun.RunFailed {
				t.Fatalf("run %s (%s)", r.Status, r.Reason)
			}
			st := srv.stats(t)
			if len(st.Submissions) != 2 || submissions(st) != 2 {
				t.Errorf("submissions %v: want two messageIds, once each", st.Submissions)
			}
			first, second := e.call(t, r.ID, "f"), storeCall(t, e, r.ID, "f", "send#2")
			if first.MessageID == second.MessageID || st.Submissions[first.MessageID] != 1 || st.Submissions[second.MessageID] != 1 {
				t.Errorf("attempt identities %s, %s; agent saw %v", first.MessageID, second.MessageID, st.Submissions)
			}
			if !contains(e.messages(t, r.ID, "f"), "Attempt 1 of 2 failed: remote task did not complete") {
				t.Errorf("messages %q", e.messages(t, r.ID, "f"))
			}
			if rec := workruntest.NodeRecord(t, e.st, r.ID, "f"); rec.Attempt != 2 {
				t.Errorf("node record attempt %d, want 2", rec.Attempt)
			}
		})
	}
}

func storeCall(t *testing.T, e *env, runID, node, key string) workrun.RemoteCall {
	t.Helper()
	c, err := e.st.GetRemoteCall(t.Context(), runID, node, key)
	if err != nil {
		t.Fatalf("call %s/%s: %v", node, key, err)
	}
	return c
}

func TestOnError_BranchAfterFailCancelsNothing(t *testing.T) {
	for _, srv := range bothServers(t, true) {
		t.Run(srv.name, func(t *testing.T) {
			e := newEnv(t, "", "en")
			f := raNode("f", srv.base, "")
			f.OnError, f.ErrorField = workrun.OnErrorBranch, "why"
			h := raNode("h", srv.base, "")
			h.OnError, h.DeadlineSeconds = workrun.OnErrorContinue, 2
			handler := workrun.NodeSpec{ID: "handler", Type: "output", Config: []byte(`{"fields":["why"]}`)}
			wf := flow([]workrun.NodeSpec{f, h, handler}, workrun.Edge{From: "f", To: "handler", Port: workrun.PortError})
			wf.State["why"] = workrun.FieldText
			r := e.run(t, wf, workrun.Values{"prompt_f": "fail", "prompt_h": "hang"})
			if r.Status != workrun.RunSucceeded {
				t.Fatalf("run %s (%s)", r.Status, r.Reason)
			}
			if msgs := e.messages(t, r.ID, "handler"); !contains(msgs, "why: remote task did not complete") {
				t.Errorf("the handler read %q", msgs)
			}
			if rec := workruntest.NodeRecord(t, e.st, r.ID, "h"); rec.Status != workrun.NodeHandled || !strings.HasPrefix(rec.Error, "deadline passed") {
				t.Errorf("hang node: %s %q", rec.Status, rec.Error)
			}
			if st := srv.stats(t); st.totalCancels() != 0 || submissions(st) != 2 {
				t.Errorf("cancels %v, submissions %v: want no cancel, two submissions", st.Cancels, st.Submissions)
			}
		})
	}
}

// deadline_seconds 2 on `hang`: the node fails "deadline passed" about 2 s
// after the task was accepted, and the normal abort sends one CancelTask.
func TestDeadline_HangGetsOneCancel(t *testing.T) {
	for _, srv := range bothServers(t, true) {
		t.Run(srv.name, func(t *testing.T) {
			e := newEnv(t, "", "en")
			h := raNode("h", srv.base, "")
			h.DeadlineSeconds = 2
			began := time.Now()
			r := e.run(t, flow([]workrun.NodeSpec{h}), workrun.Values{"prompt_h": "hang"})
			if r.Status != workrun.RunFailed || r.FailedNode != "h" || !strings.HasPrefix(r.Reason, "deadline passed: the remote task did not end within 2s") {
				t.Fatalf("run %s node %q reason %q", r.Status, r.FailedNode, r.Reason)
			}
			if took := time.Since(began); took < 2*time.Second {
				t.Errorf("ended after %v, before the deadline", took)
			}
			c := e.call(t, r.ID, "h")
			st := srv.stats(t)
			if st.totalCancels() != 1 || st.Cancels[c.TaskID] != 1 {
				t.Errorf("cancels %v, want one for task %s", st.Cancels, c.TaskID)
			}
			msgs := e.messages(t, r.ID, "h")
			if !contains(msgs, "Deadline: the remote task must end by") || !contains(msgs, "Remote task: requesting cancellation…") {
				t.Errorf("messages %q", msgs)
			}
			if rec := workruntest.NodeRecord(t, e.st, r.ID, "h"); rec.DeadlineAt.IsZero() {
				t.Error("the deadline instant was not saved")
			}
		})
	}
}

// Run from here: the pinned upstream Remote Agent gets no request in the
// new run; the downstream one is submitted once, with a new messageId.
func TestRunFrom_PinnedRemoteNodeIsNotCalled(t *testing.T) {
	for _, srv := range bothServers(t, true) {
		t.Run(srv.name, func(t *testing.T) {
			e := newEnv(t, "", "en")
			wf := flow([]workrun.NodeSpec{raNode("up", srv.base, ""), raNode("down", srv.base, "")}, workrun.Edge{From: "up", To: "down"})
			in := workrun.Values{"prompt_up": "echo up", "prompt_down": "echo down"}
			first := e.run(t, wf, in)
			if first.Status != workrun.RunSucceeded {
				t.Fatalf("first run %s (%s)", first.Status, first.Reason)
			}
			up1, down1 := e.call(t, first.ID, "up"), e.call(t, first.ID, "down")
			id, err := e.eng.StartFrom(t.Context(), "", wf, nil, workrun.RunFrom{Node: "down", PinRun: first.ID})
			if err != nil {
				t.Fatal(err)
			}
			r := storetest.Wait(t, e.eng, id, time.Minute)
			if r.Status != workrun.RunSucceeded || r.State["answer_up"] != first.State["answer_up"] {
				t.Fatalf("run %s (%s), state %v", r.Status, r.Reason, r.State)
			}
			if _, err := e.st.GetRemoteCall(t.Context(), r.ID, "up", "send"); err == nil {
				t.Error("the pinned node has a call record in the new run")
			}
			down2 := e.call(t, r.ID, "down")
			st := srv.stats(t)
			if st.Submissions[up1.MessageID] != 1 || len(st.Submissions) != 3 {
				t.Errorf("submissions %v: up's %s once (the first run), 3 messageIds in all", st.Submissions, up1.MessageID)
			}
			if down2.MessageID == down1.MessageID || st.Submissions[down2.MessageID] != 1 {
				t.Errorf("downstream identity %s (first run %s), agent saw %v", down2.MessageID, down1.MessageID, st.Submissions)
			}
			if rec := workruntest.NodeRecord(t, e.st, r.ID, "up"); rec.PinnedFrom != first.ID {
				t.Errorf("up pinned from %q", rec.PinnedFrom)
			}
		})
	}
}
