package remoteagent_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"workrun/nodes/remoteagent"
	"workrun/remotecall"
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

// `hang` with a retry policy, and the agent's answers lost: the outcome is
// unknown, so no new attempt is ever submitted (docs/engine.md). Two
// losses:
//   - the task id arrived, then the stream broke and no read (GetTask,
//     SubscribeToTask) is answered within timeout_seconds: the agent is
//     unreachable, so the run is interrupted (resumable, nothing
//     cancelled) — not failed, and not retried;
//   - the answer to the submission itself never comes (timeout_seconds
//     passes before a task id): "submission result unknown", the run fails
//     and is not retried.
//
// Either way the agent saw one logical submission: one messageId.
func TestRetry_HangWithTimeoutLossIsNotRetried(t *testing.T) {
	policy := remotecall.FollowPolicy{BackoffMin: 20 * time.Millisecond, BackoffMax: 100 * time.Millisecond, UnreachableFor: 700 * time.Millisecond}
	for _, srv := range bothServers(t, true) {
		t.Run(srv.name, func(t *testing.T) {
			for _, tc := range []struct {
				name    string
				taskID  bool // the task id reached Workrun before the loss
				status  workrun.RunStatus
				message string
			}{
				{"reads lost after the task id", true, workrun.RunInterrupted, "unreachable since"},
				{"submission answer lost", false, workrun.RunFailed, "failed and is not retried: the remote outcome is unknown"},
			} {
				t.Run(tc.name, func(t *testing.T) {
					url := startProxy(t, &proxy{target: srv.base, fault: func(w http.ResponseWriter, r *http.Request, method string, _ []byte, forward func() (*http.Response, error)) bool {
						switch method {
						case "SendStreamingMessage":
							resp, err := forward() // the agent accepts: the task runs there
							if err != nil {
								http.Error(w, err.Error(), http.StatusBadGateway)
								return true
							}
							defer resp.Body.Close()
							if tc.taskID {
								copyResponse(w, resp, cut{after: 1}) // the task id arrives, then the stream breaks
							} else {
								<-r.Context().Done() // the answer is lost
							}
							return true
						case "GetTask", "SubscribeToTask":
							<-r.Context().Done() // the agent stopped answering
							return true
						}
						return false
					}})
					e := newEnvFollow(t, "", "en", policy)
					n := raNode("h", url, `,"timeout_seconds":1`)
					n.Retry = &workrun.RetryPolicy{MaxAttempts: 3}
					r := e.run(t, flow([]workrun.NodeSpec{n}), workrun.Values{"prompt_h": "hang"})
					msgs := e.messages(t, r.ID, "h")
					if r.Status != tc.status || !contains(msgs, tc.message) {
						t.Fatalf("run %s (%s), want %s with %q\n%q", r.Status, r.Reason, tc.status, tc.message, msgs)
					}
					st := srv.stats(t) // the server is shared: count this run's messageIds
					one, two := remoteagent.MessageID(r.ID, "h", "send"), remoteagent.MessageID(r.ID, "h", "send#2")
					if st.Submissions[one] != 1 || st.Submissions[two] != 0 {
						t.Errorf("submissions of attempt 1: %d, of attempt 2: %d (all: %v); want attempt 1 once: an unknown outcome is never retried",
							st.Submissions[one], st.Submissions[two], st.Submissions)
					}
					if _, err := e.st.GetRemoteCall(t.Context(), r.ID, "h", "send#2"); err == nil {
						t.Error("an attempt 2 was recorded")
					}
					if rec := workruntest.NodeRecord(t, e.st, r.ID, "h"); rec.AttemptNo() != 1 {
						t.Errorf("node record attempt %d, want 1", rec.AttemptNo())
					}
				})
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
