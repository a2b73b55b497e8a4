package remoteagent

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync/atomic"
	"testing"

	"workrun/a2a"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// TestAnswer_DeliveredOnce: the stream of an answer breaks before any
// event. When the task's history holds the answer's messageId, the agent
// took it though it still shows the question: nothing is sent again, the
// node subscribes and takes the result. When it does not, the answer never
// reached the agent: it is sent again, once, with the same messageId
// (docs/remote-agent.md R8).
func TestAnswer_DeliveredOnce(t *testing.T) {
	for _, taken := range []bool{true, false} {
		name := map[bool]string{true: "taken", false: "not taken"}[taken]
		t.Run(name, func(t *testing.T) {
			question := func() *a2a.Task {
				tk := task("t1", a2a.TaskStateInputRequired, "which colour?")
				tk.Status.Message.MessageID = "q1"
				return tk
			}
			done := func(yield func(a2a.StreamEvent, error) bool) {
				_ = yield(statusEv("t1", a2a.TaskStateWorking, ""), nil) &&
					yield(artifactEv("t1", "a", "blue it is", false), nil) &&
					yield(statusEv("t1", a2a.TaskStateCompleted, ""), nil)
			}
			var answers []string
			var reads atomic.Int32
			agent := &fakeAgent{streaming: true}
			agent.SendStreamingMessageFunc = func(_ context.Context, r a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
				if r.Message.TaskID == "" {
					return events(nil, a2a.StreamEvent{Task: question()})
				}
				if r.Message.TaskID != "t1" || r.Message.ContextID != "ctx-t1" || partsText(r.Message.Parts) != "blue" {
					t.Errorf("answer %+v", r.Message)
				}
				answers = append(answers, r.Message.MessageID)
				if len(answers) == 1 {
					return events(a2a.ErrStreamBroken) // the connection drops before the reply
				}
				return done
			}
			agent.GetTaskFunc = func(context.Context, string) (*a2a.Task, error) {
				tk := question()
				if reads.Add(1) > 1 && taken {
					tk.History = []a2a.Message{{MessageID: answers[0], Role: a2a.RoleUser}}
				}
				return tk, nil
			}
			agent.SubscribeToTaskFunc = func(context.Context, string) iter.Seq2[a2a.StreamEvent, error] {
				return func(yield func(a2a.StreamEvent, error) bool) {
					if yield(a2a.StreamEvent{Task: question()}, nil) { // the agent has not moved on yet
						done(yield)
					}
				}
			}
			calls := newMemCalls()
			step := compile(t, Deps{Calls: calls, Connect: connectTo(agent), Follow: fastFollow}, baseCfg)
			_, err := step.Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "x"}))
			var ie *workrun.InterruptError
			if !errors.As(err, &ie) || ie.Question == nil || ie.Question.Round != 1 || ie.Question.Message != "which colour?" {
				t.Fatalf("first run: %v", err)
			}
			nc := newNC("r", "ra", workrun.Values{"prompt": "x"})
			nc.IsResumed = true
			nc.DecisionFunc = func(context.Context) (workrun.Decision, bool, error) {
				return workrun.Decision{RunID: "r", NodeID: "ra", Round: 1, Text: "blue", Action: workrun.AnswerAccept}, true, nil
			}
			out, err := step.Run(t.Context(), nc)
			if err != nil || out["answer"] != "blue it is" {
				t.Fatalf("after the answer: %v %v\n%q", out, err, msgsOf(nc))
			}
			want := 1
			if !taken {
				want = 2
			}
			if len(answers) != want || answers[0] != MessageID("r", "ra", "send/answer-1") || answers[len(answers)-1] != answers[0] {
				t.Errorf("answers sent %q, want %d with round 1's messageId", answers, want)
			}
		})
	}
}

// TestAnswer_SecretIsNeverSaved: an answer the person marked secret goes
// to the agent as typed, but nothing the node saves or returns holds it —
// not even when the agent echoes it in its status and its result.
func TestAnswer_SecretIsNeverSaved(t *testing.T) {
	const pin = "pin-4471-secret"
	agent := &fakeAgent{streaming: true}
	var sent string
	agent.SendStreamingMessageFunc = func(_ context.Context, r a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
		if r.Message.TaskID == "" {
			return events(nil, taskEv("t1", a2a.TaskStateInputRequired, "your PIN?"))
		}
		sent = partsText(r.Message.Parts)
		return events(nil, statusEv("t1", a2a.TaskStateWorking, "checking "+pin),
			artifactEv("t1", "a", pin+" accepted", false), statusEv("t1", a2a.TaskStateCompleted, "got "+pin))
	}
	agent.GetTaskFunc = func(context.Context, string) (*a2a.Task, error) {
		return task("t1", a2a.TaskStateInputRequired, "your PIN?"), nil
	}
	calls := newMemCalls()
	step := compile(t, Deps{Calls: calls, Connect: connectTo(agent), Follow: fastFollow}, baseCfg)
	if _, err := step.Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "x"})); err == nil {
		t.Fatal("the agent's question did not stop the node")
	}
	nc := newNC("r", "ra", workrun.Values{"prompt": "x"})
	nc.IsResumed = true
	nc.DecisionFunc = func(context.Context) (workrun.Decision, bool, error) {
		return workrun.Decision{RunID: "r", NodeID: "ra", Round: 1, Text: pin, Secret: true, Action: workrun.AnswerAccept}, true, nil
	}
	out, err := step.Run(t.Context(), nc)
	if err != nil {
		t.Fatalf("after the answer: %v\n%q", err, msgsOf(nc))
	}
	if sent != pin {
		t.Errorf("the agent got %q, want the answer as typed", sent)
	}
	var saved []string
	for _, key := range []string{"send", "send/ask"} {
		rec, ok := calls.Get("r", "ra", key)
		if !ok {
			t.Fatalf("no %s record", key)
		}
		saved = append(saved, fmt.Sprintf("%+v %s", rec, rec.Result))
	}
	saved = append(saved, fmt.Sprint(out))
	saved = append(saved, msgsOf(nc)...)
	saved = append(saved, progressIn(nc, "en")...)
	for _, s := range saved {
		if strings.Contains(s, pin) {
			t.Errorf("the secret answer was kept: %s", s)
		}
	}
}

// TestAnswer_TakenBeforeTheExit: the process exits while the answer's
// reply is on its way; the agent took the answer but still shows the
// question. The resumed node's first read finds the answer in the task's
// history: it sends nothing again and follows the task to its result
// (docs/remote-agent.md R8).
func TestAnswer_TakenBeforeTheExit(t *testing.T) {
	question := func() *a2a.Task {
		tk := task("t1", a2a.TaskStateInputRequired, "which colour?")
		tk.Status.Message.MessageID = "q1"
		return tk
	}
	var answers []string
	sent := make(chan struct{}, 1)
	agent := &fakeAgent{streaming: true}
	agent.SendStreamingMessageFunc = func(ctx context.Context, r a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
		if r.Message.TaskID == "" {
			return events(nil, a2a.StreamEvent{Task: question()})
		}
		answers = append(answers, r.Message.MessageID)
		sent <- struct{}{}
		return func(yield func(a2a.StreamEvent, error) bool) {
			<-ctx.Done() // the reply never comes: the process exits
			yield(a2a.StreamEvent{}, ctx.Err())
		}
	}
	agent.GetTaskFunc = func(context.Context, string) (*a2a.Task, error) {
		tk := question()
		if len(answers) > 0 {
			tk.History = []a2a.Message{{MessageID: answers[0], Role: a2a.RoleUser}}
		}
		return tk, nil
	}
	agent.SubscribeToTaskFunc = func(context.Context, string) iter.Seq2[a2a.StreamEvent, error] {
		return events(nil, a2a.StreamEvent{Task: question()}, statusEv("t1", a2a.TaskStateWorking, ""),
			artifactEv("t1", "a", "blue it is", false), statusEv("t1", a2a.TaskStateCompleted, ""))
	}
	calls := newMemCalls()
	step := compile(t, Deps{Calls: calls, Connect: connectTo(agent), Follow: fastFollow}, baseCfg)
	if _, err := step.Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "x"})); err == nil {
		t.Fatal("the agent's question did not stop the node")
	}
	answered := func() *workruntest.NodeContext {
		nc := newNC("r", "ra", workrun.Values{"prompt": "x"})
		nc.IsResumed = true
		nc.DecisionFunc = func(context.Context) (workrun.Decision, bool, error) {
			return workrun.Decision{RunID: "r", NodeID: "ra", Round: 1, Text: "blue", Action: workrun.AnswerAccept}, true, nil
		}
		return nc
	}
	ctx, exit := context.WithCancel(t.Context())
	go func() {
		<-sent
		exit()
	}()
	if _, err := step.Run(ctx, answered()); err == nil {
		t.Fatal("the exit did not end the node")
	}
	nc := answered()
	out, err := step.Run(t.Context(), nc)
	if err != nil || out["answer"] != "blue it is" {
		t.Fatalf("resumed: %v %v\n%q", out, err, msgsOf(nc))
	}
	if len(answers) != 1 {
		t.Errorf("answers sent %q, want exactly one", answers)
	}
}
