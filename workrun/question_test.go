package workrun_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// fakeRemote is a remote that asks a node's step its questions one round
// after the other and counts the answers it receives per round: the
// proof that an answer is delivered at most once.
type fakeRemote struct {
	mu        sync.Mutex
	questions []workrun.Question // round i+1 is questions[i]
	got       map[int][]workrun.Decision
}

func newFakeRemote(qs ...workrun.Question) *fakeRemote {
	for i := range qs {
		qs[i].Round = i + 1
	}
	return &fakeRemote{questions: qs, got: map[int][]workrun.Decision{}}
}

// open is the round the remote waits on, 0 when it has all its answers.
func (r *fakeRemote) open() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range r.questions {
		if len(r.got[i+1]) == 0 {
			return i + 1
		}
	}
	return 0
}

// deliver is the answer arriving at the remote.
func (r *fakeRemote) deliver(d workrun.Decision) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got[d.Round] = append(r.got[d.Round], d)
}

func (r *fakeRemote) answers(round int) []workrun.Decision {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got[round])
}

// askingStep is a remote step that is asked: it sends the answer to the
// open round when one was taken (AnswerTo), else waits for the person.
// beforeSend, when set, runs between reading the answer and sending it.
type askingStep struct {
	remote     *fakeRemote
	beforeSend func(ctx context.Context, d workrun.Decision) error
}

func (s *askingStep) Reads() []string  { return nil }
func (s *askingStep) Writes() []string { return []string{"reply"} }
func (s *askingStep) TakesDecisions()  {}
func (s *askingStep) RemoteCalls()     {}
func (s *askingStep) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	for round := s.remote.open(); round > 0; round = s.remote.open() {
		d, ok, err := workrun.AnswerTo(ctx, nc, round)
		if err != nil {
			return nil, err
		}
		if !ok {
			q := s.remote.questions[round-1]
			return nil, &workrun.InterruptError{Cause: workrun.InterruptedByHuman, Reason: "the agent asks: " + q.Message, Question: &q}
		}
		if s.beforeSend != nil {
			if err := s.beforeSend(ctx, d); err != nil {
				return nil, err
			}
		}
		s.remote.deliver(d)
	}
	return workrun.Values{"reply": "thanks"}, nil
}

// askingKind is kind "asking": every node of it is s.
type askingKind struct{ s *askingStep }

func (askingKind) Type() string { return "asking" }
func (k askingKind) Compile(workrun.NodeSpec, workrun.Workflow) (workrun.Step, error) {
	return k.s, nil
}

const portSchema = `{"type":"object","properties":{
	"host":{"type":"string","title":"Host","minLength":1},
	"port":{"type":"integer","minimum":1,"maximum":65535,"default":8080},
	"token":{"type":"string","format":"password"}},"required":["host","port"]}`

func twoRounds() *fakeRemote {
	return newFakeRemote(
		workrun.Question{Kind: workrun.QuestionText, From: "Travel agent", Message: "Which city?"},
		workrun.Question{Kind: workrun.QuestionForm, From: "Travel agent", Message: "Where is the proxy?", Schema: json.RawMessage(portSchema)},
	)
}

func askingWorkflow(extra ...workrun.NodeSpec) workrun.Workflow {
	wf := workrun.Workflow{
		State: map[string]workrun.FieldType{"reply": workrun.FieldText},
		Nodes: append([]workrun.NodeSpec{node("start", "start", ""), node("ask", "asking", "")}, extra...),
		Edges: edges("start>ask"),
	}
	for _, n := range extra {
		wf.Edges = append(wf.Edges, workrun.Edge{From: "start", To: n.ID})
	}
	return wf
}

func questionEngine(st *workruntest.MemStore, s *askingStep, fk fakeKind) *workrun.Engine {
	e := workrun.NewEngine(st, nil, append(allKinds(fk), askingKind{s})...)
	e.AbortTimeout = 3 * time.Second
	return e
}

func waitAsked(t *testing.T, e *workrun.Engine, id string) workrun.Run {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	r, err := e.Wait(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// startAsked starts the asking workflow on a new store and waits until its
// run is interrupted by the remote's first question.
func startAsked(t *testing.T, remote *fakeRemote) (*workruntest.MemStore, *askingStep, *workrun.Engine, string) {
	t.Helper()
	st := workruntest.NewMemStore()
	s := &askingStep{remote: remote}
	e := questionEngine(st, s, fakeKind{})
	id, err := e.Start(t.Context(), "", askingWorkflow(), nil)
	if err != nil {
		t.Fatal(err)
	}
	waitAsked(t, e, id)
	return st, s, e, id
}

// waitQuestion waits until node ask of run id waits on round.
func waitQuestion(t *testing.T, st *workruntest.MemStore, id string, round int) workrun.NodeRun {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		recs, err := st.NodeRuns(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range recs {
			if rec.NodeID == "ask" && rec.Status == workrun.NodeInterrupted && rec.Question != nil && rec.Question.Round == round {
				return rec
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("node ask never waited on round %d", round)
	return workrun.NodeRun{}
}

// TestQuestion_TwoRounds: the remote asks twice (text, then a form); each
// question is saved in the node's record and shown in its messages in both
// languages; bad answers are refused with their reason and lose nothing;
// each round's answer reaches the remote exactly once; the run succeeds.
func TestQuestion_TwoRounds(t *testing.T) {
	remote := twoRounds()
	st, _, e, id := startAsked(t, remote)
	r, err := st.GetRun(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != workrun.RunInterrupted || r.Interruption != workrun.InterruptedByHuman {
		t.Fatalf("run %s (%s), want interrupted by human", r.Status, r.Interruption)
	}
	rec := waitQuestion(t, st, id, 1)
	if rec.Question.Kind != workrun.QuestionText || rec.Question.Message != "Which city?" {
		t.Fatalf("saved question %+v", rec.Question)
	}

	// Refused answers: empty text, a form action on a text question.
	for _, bad := range []workrun.Decision{
		{RunID: id, NodeID: "ask", Text: "  "},
		{RunID: id, NodeID: "ask", Action: workrun.AnswerDecline},
	} {
		if err := e.Decide(t.Context(), bad); !errors.Is(err, workrun.ErrBadAnswer) {
			t.Errorf("Decide(%+v) = %v, want ErrBadAnswer", bad, err)
		}
	}
	if err := e.Decide(t.Context(), workrun.Decision{RunID: id, NodeID: "ask", Text: "Lisbon"}); err != nil {
		t.Fatal(err)
	}
	waitAsked(t, e, id)
	rec = waitQuestion(t, st, id, 2)
	if rec.Question.Kind != workrun.QuestionForm {
		t.Fatalf("round 2 question %+v", rec.Question)
	}
	// A late answer to round 1 is not taken.
	if err := e.Decide(t.Context(), workrun.Decision{RunID: id, NodeID: "ask", Round: 1, Text: "Porto"}); !errors.Is(err, workrun.ErrNoDecisionPending) {
		t.Errorf("late round-1 answer: %v, want ErrNoDecisionPending", err)
	}
	// A form answer missing a required field is refused, in both languages.
	err = e.Decide(t.Context(), workrun.Decision{RunID: id, NodeID: "ask", Content: json.RawMessage(`{"port":99999}`)})
	var te *workrun.TextError
	if !errors.Is(err, workrun.ErrBadAnswer) || !errors.As(err, &te) {
		t.Fatalf("bad form answer: %v", err)
	}
	if !strings.Contains(err.Error(), "Host: a value is required") || !strings.Contains(err.Error(), "port: at most 65535") {
		t.Errorf("English reasons: %v", err)
	}
	if zh := te.Text.In("zh"); !strings.Contains(zh, "必须填写") {
		t.Errorf("Chinese reason: %q", zh)
	}
	if err := e.Decide(t.Context(), workrun.Decision{RunID: id, NodeID: "ask", Content: json.RawMessage(`{"host":"proxy.example","port":3128}`)}); err != nil {
		t.Fatal(err)
	}
	if r := waitAsked(t, e, id); r.Status != workrun.RunSucceeded {
		t.Fatalf("run %s: %s", r.Status, r.Reason)
	}
	if n := len(remote.answers(1)); n != 1 || remote.answers(1)[0].Text != "Lisbon" {
		t.Errorf("round 1 delivered %d times: %+v", n, remote.answers(1))
	}
	if got := remote.answers(2); len(got) != 1 || string(got[0].Content) != `{"host":"proxy.example","port":3128}` {
		t.Errorf("round 2 delivered: %+v", got)
	}
	if rec := workruntest.NodeRecord(t, st, id, "ask"); rec.Question != nil || rec.Status != workrun.NodeSucceeded {
		t.Errorf("finished node keeps question %+v (%s)", rec.Question, rec.Status)
	}
	en := strings.Join(workruntest.NodeMessages(t, st, id, "ask", "en"), "\n")
	for _, want := range []string{"Travel agent asks (round 1): Which city?", "answered (round 1): Lisbon",
		"Travel agent asks you to fill in a form (round 2): Where is the proxy?", "answered (round 2): host: proxy.example; port: 3128"} {
		if !strings.Contains(en, want) {
			t.Errorf("messages lack %q:\n%s", want, en)
		}
	}
	zh := strings.Join(workruntest.NodeMessages(t, st, id, "ask", "zh"), "\n")
	for _, want := range []string{"Travel agent 提问（第 1 轮）：Which city?", "已回答（第 1 轮）：Lisbon"} {
		if !strings.Contains(zh, want) {
			t.Errorf("Chinese messages lack %q:\n%s", want, zh)
		}
	}
}

// TestQuestion_ConcurrentAnswersOneTaken: several processes (engines on
// one store) and several callers in one process answer the same round at
// once: exactly one answer is taken and reaches the remote; the others are
// told why (claimed, already answered, or no longer asked).
func TestQuestion_ConcurrentAnswersOneTaken(t *testing.T) {
	for i := range 10 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			remote := twoRounds()
			st, s, e, id := startAsked(t, remote)
			const n = 6
			engines := make([]*workrun.Engine, n)
			for j := range n {
				engines[j] = e // half in this process, half in "other processes"
				if j%2 == 1 {
					engines[j] = questionEngine(st, s, fakeKind{})
				}
			}
			meet := barrier(t, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			for j := range n {
				wg.Go(func() {
					if errs[j] = meet(); errs[j] != nil {
						return
					}
					errs[j] = engines[j].Decide(t.Context(), workrun.Decision{RunID: id, NodeID: "ask", Round: 1, Text: fmt.Sprint("answer ", j)})
				})
			}
			wg.Wait()
			taken := -1
			for j, err := range errs {
				switch {
				case err == nil:
					if taken >= 0 {
						t.Fatalf("answers %d and %d both taken", taken, j)
					}
					taken = j
				case errors.Is(err, workrun.ErrRunClaimed), errors.Is(err, workrun.ErrAlreadyAnswered),
					errors.Is(err, workrun.ErrNoDecisionPending), errors.Is(err, workrun.ErrRunActive):
				default:
					t.Fatalf("answer %d: %v", j, err)
				}
			}
			if taken < 0 {
				t.Fatal("no answer was taken")
			}
			waitQuestion(t, st, id, 2)
			for _, eng := range engines {
				waitAsked(t, eng, id)
			}
			got := remote.answers(1)
			if len(got) != 1 || got[0].Text != fmt.Sprint("answer ", taken) {
				t.Fatalf("the remote got %+v, want only answer %d", got, taken)
			}
		})
	}
}

// TestQuestion_AnswerWhileOtherBranchesGoOn: the asked node waits for the
// person while a parallel branch is still running (the run is not
// interrupted yet); the answer is taken at once and the node finishes
// before the other branch does.
func TestQuestion_AnswerWhileOtherBranchesGoOn(t *testing.T) {
	st := workruntest.NewMemStore()
	remote := newFakeRemote(workrun.Question{Kind: workrun.QuestionText, Message: "Which city?"})
	release := make(chan struct{})
	fk := fakeKind{"slow": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		select {
		case <-release:
			return nil, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}}}
	e := questionEngine(st, &askingStep{remote: remote}, fk)
	id, err := e.Start(t.Context(), "", askingWorkflow(node("slow", "fake", "")), nil)
	if err != nil {
		t.Fatal(err)
	}
	waitQuestion(t, st, id, 1)
	if r, err := st.GetRun(t.Context(), id); err != nil || r.Status != workrun.RunRunning {
		t.Fatalf("run %s %v, want still running", r.Status, err)
	}
	if err := e.Decide(t.Context(), workrun.Decision{RunID: id, NodeID: "ask", Text: "Lisbon"}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for workruntest.NodeRecord(t, st, id, "ask").Status != workrun.NodeSucceeded {
		if time.Now().After(deadline) {
			t.Fatal("the answered node did not finish while the other branch ran")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if s := workruntest.NodeRecord(t, st, id, "slow").Status; s != workrun.NodeRunning {
		t.Fatalf("slow is %s, want still running", s)
	}
	close(release)
	if r := waitAsked(t, e, id); r.Status != workrun.RunSucceeded {
		t.Fatalf("run %s: %s", r.Status, r.Reason)
	}
	if len(remote.answers(1)) != 1 {
		t.Errorf("delivered %d times", len(remote.answers(1)))
	}
}

// TestQuestion_RestartBetween: the process that was asked exits; another
// shows the saved question and takes the answer (claiming the run); the
// remote asks again and a third process answers. Then a process exits
// between taking an answer and sending it: resume sends it once.
func TestQuestion_RestartBetween(t *testing.T) {
	remote := twoRounds()
	st, s, e1, id := startAsked(t, remote)
	if err := e1.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	e2 := questionEngine(st, s, fakeKind{})
	if q := workruntest.NodeRecord(t, st, id, "ask").Question; q == nil || q.Message != "Which city?" {
		t.Fatalf("after restart the question is %+v", q)
	}
	if err := e2.Decide(t.Context(), workrun.Decision{RunID: id, NodeID: "ask", Text: "Lisbon"}); err != nil {
		t.Fatal(err)
	}
	waitAsked(t, e2, id)
	waitQuestion(t, st, id, 2)

	// Exit between taking the round-2 answer and sending it.
	sending := make(chan struct{})
	s.beforeSend = func(ctx context.Context, d workrun.Decision) error {
		if d.Round != 2 {
			return nil
		}
		close(sending)
		<-ctx.Done()
		return ctx.Err()
	}
	if err := e2.Decide(t.Context(), workrun.Decision{RunID: id, NodeID: "ask", Content: json.RawMessage(`{"host":"h","port":1}`)}); err != nil {
		t.Fatal(err)
	}
	<-sending
	if err := e2.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if r, _ := st.GetRun(t.Context(), id); r.Interruption != workrun.InterruptedByExit {
		t.Fatalf("after exit: %s (%s)", r.Status, r.Interruption)
	}
	s.beforeSend = nil
	e3 := questionEngine(st, s, fakeKind{})
	// Not waiting on a question now: an answer is refused, Resume goes on.
	if err := e3.Decide(t.Context(), workrun.Decision{RunID: id, NodeID: "ask", Text: "x"}); !errors.Is(err, workrun.ErrNoDecisionPending) {
		t.Errorf("answer after exit mid-send: %v, want ErrNoDecisionPending", err)
	}
	if err := e3.Resume(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	if r := waitAsked(t, e3, id); r.Status != workrun.RunSucceeded {
		t.Fatalf("run %s: %s", r.Status, r.Reason)
	}
	if len(remote.answers(1)) != 1 || len(remote.answers(2)) != 1 {
		t.Errorf("delivered round 1 ×%d, round 2 ×%d, want once each", len(remote.answers(1)), len(remote.answers(2)))
	}
}

// TestQuestion_SecretsAreNotSaved: a form's password field and an answer
// the person marked secret reach the node but never the store or the
// messages; after a restart before sending, the node asks the same round
// again and the new answer is taken.
func TestQuestion_SecretsAreNotSaved(t *testing.T) {
	const token, phrase = "tok-9f8e7d6c", "open sesame 42"
	remote := newFakeRemote(
		workrun.Question{Kind: workrun.QuestionForm, Message: "Proxy?", Schema: json.RawMessage(portSchema)},
		workrun.Question{Kind: workrun.QuestionText, Message: "Pass phrase?"},
	)
	st, s, e, id := startAsked(t, remote)
	form := json.RawMessage(`{"host":"h","port":2,"token":"` + token + `"}`)

	// Exit after the answer was taken, before it was sent.
	sending := make(chan struct{})
	s.beforeSend = func(ctx context.Context, d workrun.Decision) error {
		close(sending)
		<-ctx.Done()
		return ctx.Err()
	}
	if err := e.Decide(t.Context(), workrun.Decision{RunID: id, NodeID: "ask", Content: form}); err != nil {
		t.Fatal(err)
	}
	<-sending
	saved, err := st.GetDecision(t.Context(), id, "ask")
	if err != nil || !saved.Withheld || strings.Contains(string(saved.Content), token) || !strings.Contains(string(saved.Content), `"host":"h"`) {
		t.Fatalf("saved answer %+v %v: want the token withheld, the rest kept", saved, err)
	}
	if err := e.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	s.beforeSend = nil
	e2 := questionEngine(st, s, fakeKind{})
	if err := e2.Resume(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	waitAsked(t, e2, id)
	waitQuestion(t, st, id, 1) // asked again: the token was not kept
	if err := e2.Decide(t.Context(), workrun.Decision{RunID: id, NodeID: "ask", Content: form}); err != nil {
		t.Fatalf("answering the same round again: %v", err)
	}
	waitAsked(t, e2, id)
	waitQuestion(t, st, id, 2)
	if err := e2.Decide(t.Context(), workrun.Decision{RunID: id, NodeID: "ask", Text: phrase, Secret: true}); err != nil {
		t.Fatal(err)
	}
	if r := waitAsked(t, e2, id); r.Status != workrun.RunSucceeded {
		t.Fatalf("run %s: %s", r.Status, r.Reason)
	}
	if got := remote.answers(1); len(got) != 1 || !strings.Contains(string(got[0].Content), token) {
		t.Errorf("the remote got %+v, want the token once", got)
	}
	if got := remote.answers(2); len(got) != 1 || got[0].Text != phrase {
		t.Errorf("the remote got %+v, want the phrase", got)
	}
	saved, _ = st.GetDecision(t.Context(), id, "ask")
	if saved.Text != "" || !saved.Withheld {
		t.Errorf("saved secret answer %+v", saved)
	}
	for _, lang := range []string{"en", "zh"} {
		msgs := strings.Join(workruntest.NodeMessages(t, st, id, "ask", lang), "\n")
		if strings.Contains(msgs, token) || strings.Contains(msgs, phrase) {
			t.Errorf("a secret is in the messages:\n%s", msgs)
		}
		if lang == "en" && !strings.Contains(msgs, "token: •••") {
			t.Errorf("messages do not show the withheld field:\n%s", msgs)
		}
	}
}
