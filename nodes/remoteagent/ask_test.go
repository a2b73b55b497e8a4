package remoteagent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"workrun/nodes/remoteagent"
	"workrun/store/storetest"
	"workrun/workrun"
)

// answerID is the messageId of the answer to round of a node's first call.
func answerID(runID, node string, round int) string {
	return remoteagent.MessageID(runID, node, fmt.Sprintf("send/answer-%d", round))
}

// waitAsked waits until run id waits for the person on node and returns
// the question.
func waitAsked(t *testing.T, e *env, id, node string) workrun.Question {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	r, err := e.eng.Wait(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != workrun.RunInterrupted || r.Interruption != workrun.InterruptedByHuman {
		t.Fatalf("run = %s (%s): %s\n%q", r.Status, r.Interruption, r.Reason, e.messages(t, id, node))
	}
	recs, err := e.st.NodeRuns(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range recs {
		if n.NodeID == node && n.Question != nil {
			return *n.Question
		}
	}
	t.Fatalf("node %s has no question; records %+v", node, recs)
	return workrun.Question{}
}

// answer gives the person's answer to round and waits for the run's end
// or its next question.
func answer(t *testing.T, e *env, id, node string, d workrun.Decision) {
	t.Helper()
	d.RunID, d.NodeID = id, node
	if err := e.eng.Decide(t.Context(), d); err != nil {
		t.Fatalf("decide round %d: %v", d.Round, err)
	}
}

// TestServers_AnswerInPlace, against both SDK servers: the agent's
// INPUT_REQUIRED makes the node wait for the person with the agent's
// words (round 1); the answer goes to the same task as a new message with
// its own messageId, and the task completes with it. "input 2" asks
// twice: round 1 is answered by the node's `answers` config, round 2 by
// the person. AUTH_REQUIRED is a sign-in question; "done" continues it.
// Each answer reaches the agent exactly once; nothing is cancelled.
func TestServers_AnswerInPlace(t *testing.T) {
	for _, srv := range bothServers(t, true) {
		t.Run(srv.name, func(t *testing.T) {
			e := newEnv(t, "", "en")

			// one question, the person answers
			wf := flow([]workrun.NodeSpec{raNode("ra", srv.base, "")})
			id, err := e.eng.Start(t.Context(), "", wf, workrun.Values{"prompt_ra": "input"})
			if err != nil {
				t.Fatal(err)
			}
			q := waitAsked(t, e, id, "ra")
			if q.Round != 1 || q.Kind != workrun.QuestionText || !strings.Contains(q.Message, "more input required") || q.From == "" {
				t.Errorf("question = %+v", q)
			}
			answer(t, e, id, "ra", workrun.Decision{Round: 1, Text: "blue"})
			r := storetestWait(t, e, id)
			if r.Status != workrun.RunSucceeded || r.State["answer_ra"] != "blue" {
				t.Fatalf("run = %s: %s (answer %v)\n%q", r.Status, r.Reason, r.State["answer_ra"], e.messages(t, id, "ra"))
			}
			stats := srv.stats(t)
			if stats.Submissions[remoteagent.MessageID(id, "ra", "send")] != 1 || stats.Submissions[answerID(id, "ra", 1)] != 1 || stats.totalCancels() != 0 {
				t.Errorf("submissions %v cancels %v", stats.Submissions, stats.Cancels)
			}

			// two questions: round 1 from the answers config, round 2 by the person
			node := raNode("rb", srv.base, `,"answers":"colour {{prompt_rb}}"`)
			id, err = e.eng.Start(t.Context(), "", flow([]workrun.NodeSpec{node}), workrun.Values{"prompt_rb": "input 2"})
			if err != nil {
				t.Fatal(err)
			}
			q = waitAsked(t, e, id, "rb")
			if q.Round != 2 || !strings.Contains(q.Message, "(question 2 of 2)") {
				t.Errorf("question = %+v\n%q", q, e.messages(t, id, "rb"))
			}
			answer(t, e, id, "rb", workrun.Decision{Round: 2, Text: "large"})
			r = storetestWait(t, e, id)
			if want := "colour input 2 | large"; r.Status != workrun.RunSucceeded || r.State["answer_rb"] != want {
				t.Fatalf("run = %s: %s (answer %q, want %q)\n%q", r.Status, r.Reason, r.State["answer_rb"], want, e.messages(t, id, "rb"))
			}
			stats = srv.stats(t)
			for round := 1; round <= 2; round++ {
				if n := stats.Submissions[answerID(id, "rb", round)]; n != 1 {
					t.Errorf("round %d's answer reached the agent %d times", round, n)
				}
			}

			// sign-in
			id, err = e.eng.Start(t.Context(), "", flow([]workrun.NodeSpec{raNode("rc", srv.base, "")}), workrun.Values{"prompt_rc": "auth"})
			if err != nil {
				t.Fatal(err)
			}
			q = waitAsked(t, e, id, "rc")
			if q.Kind != workrun.QuestionSignIn || !strings.Contains(q.Message, "authorization required") {
				t.Errorf("question = %+v", q)
			}
			answer(t, e, id, "rc", workrun.Decision{Round: 1, Action: workrun.AnswerAccept})
			r = storetestWait(t, e, id)
			if r.Status != workrun.RunSucceeded || r.State["answer_rc"] != "done" {
				t.Fatalf("run = %s: %s (answer %v)\n%q", r.Status, r.Reason, r.State["answer_rc"], e.messages(t, id, "rc"))
			}
			if n := srv.stats(t).totalCancels(); n != 0 {
				t.Errorf("%d cancels", n)
			}
		})
	}
}

// storetestWait waits for run id's end.
func storetestWait(t *testing.T, e *env, id string) workrun.Run {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	r, err := e.eng.Wait(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// answerGate is a proxy in front of an agent that stops an answer (a
// SendStreamingMessage on a known task) where the crash test says: before
// the agent sees it, or after the agent took it but before its reply
// reaches Workrun. It signals held and keeps the request open until the
// runner dies; later requests pass through.
func answerGate(t *testing.T, target string, afterAgent bool) (url string, held <-chan struct{}) {
	t.Helper()
	var once sync.Once
	ch := make(chan struct{})
	url = startProxy(t, &proxy{target: target, fault: func(w http.ResponseWriter, r *http.Request, method string, body []byte, forward func() (*http.Response, error)) bool {
		if method != "SendStreamingMessage" || !bytes.Contains(body, []byte(`"taskId"`)) {
			return false
		}
		first := false
		once.Do(func() { first = true })
		if !first {
			return false
		}
		if afterAgent {
			resp, err := forward()
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return true
			}
			defer resp.Body.Close()
			// The agent took it: its reply stream has begun.
			if _, err := resp.Body.Read(make([]byte, 1)); err != nil {
				t.Errorf("answer's reply: %v", err)
			}
		}
		close(ch)
		<-r.Context().Done() // the runner was killed
		return true
	}})
	return url, ch
}

// TestServers_AnswerCrashThenResume, against both SDK servers, with the
// runner a real process SIGKILLed while it sends round 1's answer (its
// `answers` config answers it):
//   - after committing the answer and before it reached the agent: the
//     resumed node reads the task first, finds it still waiting on round 1
//     with the answer not in its history, and sends it again with the same
//     messageId — the agent sees it once, and the task completes;
//   - after the agent took it, before its reply: the resumed node finds the
//     agent asking round 2 ("input 2") and waits for the person, without
//     sending round 1 again; the person's answer completes the task.
//
// Each answer reaches the agent exactly once; nothing is cancelled.
func TestServers_AnswerCrashThenResume(t *testing.T) {
	for _, srv := range bothServers(t, true) {
		for _, tc := range []struct {
			name       string
			afterAgent bool
			prompt     string
		}{{"before the agent", false, "input"}, {"after the agent", true, "input 2"}} {
			t.Run(srv.name+"/"+tc.name, func(t *testing.T) {
				url, held := answerGate(t, srv.base, tc.afterAgent)
				dir := t.TempDir()
				cmd, runID := storetest.StartChild(t, "WORKRUN_RA_CHILD_DIR="+dir, "WORKRUN_RA_CHILD_URL="+url,
					"WORKRUN_RA_CHILD_PROMPT="+tc.prompt, `WORKRUN_RA_CHILD_CFG=,"answers":"blue"`)
				select {
				case <-held:
				case <-time.After(time.Minute):
					t.Fatal("the answer never went out")
				}
				storetest.Kill(t, cmd)
				e := newEnv(t, dir, "en")
				var st struct {
					Round  int    `json:"round"`
					Answer string `json:"answer"`
				}
				side := storetest.Call(t, e.st, runID, "ra", "send/ask")
				if err := json.Unmarshal(side.Result, &st); err != nil || st.Round != 1 || st.Answer != answerID(runID, "ra", 1) {
					t.Fatalf("question record before the send = %s (%v); want round 1's answer committed", side.Result, err)
				}
				want := 0
				if tc.afterAgent {
					want = 1
				}
				if n := srv.stats(t).Submissions[st.Answer]; n != want {
					t.Fatalf("before the resume the agent saw the answer %d times, want %d", n, want)
				}

				if _, err := e.eng.RecoverInterrupted(t.Context()); err != nil {
					t.Fatal(err)
				}
				if err := e.eng.Resume(t.Context(), runID); err != nil {
					t.Fatal(err)
				}
				wantAnswer := "blue"
				if tc.afterAgent {
					q := waitAsked(t, e, runID, "ra")
					if q.Round != 2 {
						t.Fatalf("question = %+v, want round 2", q)
					}
					answer(t, e, runID, "ra", workrun.Decision{Round: 2, Text: "large"})
					wantAnswer = "blue | large"
				}
				r := storetestWait(t, e, runID)
				if r.Status != workrun.RunSucceeded || r.State["answer_ra"] != wantAnswer {
					t.Fatalf("run = %s: %s (answer %q, want %q)\n%q", r.Status, r.Reason, r.State["answer_ra"], wantAnswer, e.messages(t, runID, "ra"))
				}
				stats := srv.stats(t)
				if n := stats.Submissions[answerID(runID, "ra", 1)]; n != 1 {
					t.Errorf("round 1's answer reached the agent %d times, want exactly 1", n)
				}
				if tc.afterAgent && stats.Submissions[answerID(runID, "ra", 2)] != 1 {
					t.Errorf("round 2's answer: %d", stats.Submissions[answerID(runID, "ra", 2)])
				}
				if stats.Submissions[remoteagent.MessageID(runID, "ra", "send")] != 1 || stats.totalCancels() != 0 {
					t.Errorf("submissions %v cancels %v", stats.Submissions, stats.Cancels)
				}
				if resent := contains(e.messages(t, runID, "ra"), "had not reached the agent"); resent == tc.afterAgent {
					t.Errorf("resent = %v; messages %q", resent, e.messages(t, runID, "ra"))
				}
			})
		}
	}
}

// TestServers_AnswerNonStreaming: an agent that does not stream gets the
// answer as one blocking SendMessage on the same task, whose reply is the
// final result (docs/remote-agent.md R7, R8).
func TestServers_AnswerNonStreaming(t *testing.T) {
	for _, srv := range bothServers(t, false) {
		t.Run(srv.name, func(t *testing.T) {
			e := newEnv(t, "", "en")
			id, err := e.eng.Start(t.Context(), "", flow([]workrun.NodeSpec{raNode("ra", srv.base, "")}), workrun.Values{"prompt_ra": "input"})
			if err != nil {
				t.Fatal(err)
			}
			if q := waitAsked(t, e, id, "ra"); q.Round != 1 {
				t.Fatalf("question = %+v", q)
			}
			answer(t, e, id, "ra", workrun.Decision{Round: 1, Text: "green"})
			r := storetestWait(t, e, id)
			if r.Status != workrun.RunSucceeded || r.State["answer_ra"] != "green" {
				t.Fatalf("run = %s: %s (answer %v)\n%q", r.Status, r.Reason, r.State["answer_ra"], e.messages(t, id, "ra"))
			}
			stats := srv.stats(t)
			if stats.Submissions[answerID(id, "ra", 1)] != 1 || stats.Methods["SendStreamingMessage"] != 0 || stats.totalCancels() != 0 {
				t.Errorf("methods %v submissions %v cancels %v", stats.Methods, stats.Submissions, stats.Cancels)
			}
		})
	}
}
