package remoteagent_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"workrun/nodes/remoteagent"
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
