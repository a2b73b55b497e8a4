package remotemcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sync"

	"github.com/google/uuid"

	"workrun/mcp"
	"workrun/remotecall"
	"workrun/workrun"
)

// Answering what the server asks (docs/remote-mcp.md M15). The server's
// input requests of one server round are answered one by one — from the
// node's "answers" in the first round, else by the person, one question
// (one Workrun round) per request — and sent together once all are in:
// MRTR re-issues the call with inputResponses and the exact requestState;
// a 2026-07-28 task gets tasks/update; a 2025-11-25 stream request gets its
// JSON-RPC response. Every step is committed in the node's input record
// (call key "<call key>/input") before it is taken, so an answer is sent at
// most once per round.

// How the server asked.
const (
	viaMRTR   = "mrtr"   // an input_required result: the call is re-issued
	viaTask   = "task"   // a 2026-07-28 task in input_required: tasks/update
	viaStream = "stream" // a 2025-11-25 request on a stream: a response
)

// inputState is the input record's saved state (its Result).
type inputState struct {
	Via string `json:"via"`
	// ServerRound counts the server's rounds (1: the first; "answers"
	// pre-answer only that one); Round is the Workrun question round last
	// asked (workrun.Question.Round).
	ServerRound int `json:"server_round"`
	Round       int `json:"round"`
	// Asking is the request key of the open question (round Round).
	Asking       string                      `json:"asking,omitempty"`
	Requests     map[string]mcp.InputRequest `json:"requests"`
	RequestState *string                     `json:"request_state,omitempty"`
	StreamID     json.RawMessage             `json:"stream_id,omitempty"`
	// Answers holds the answers of this server round by key (wire form),
	// without the values of secret fields (Withheld lists those keys:
	// their full answer is held in memory only).
	Answers  map[string]json.RawMessage `json:"answers,omitempty"`
	Withheld []string                   `json:"withheld,omitempty"`
	// Sent: this server round's answers were committed as sent (and may
	// have reached the server).
	Sent bool `json:"sent,omitempty"`
	// Done lists a task's request keys already answered (keys are unique
	// over a task's life): a later poll showing one again is not asked.
	Done []string `json:"done,omitempty"`
}

// inputSide names the input record beside the call (remotecall.SideKey).
const inputSide = "input"

// heldAnswers are full answers whose secret values are not saved, by run,
// node and request key; a process that lost them asks again.
var heldAnswers sync.Map // string → json.RawMessage

func heldKey(nc workrun.NodeContext, key string) string {
	return nc.RunID() + "\x00" + nc.NodeID() + "\x00" + key
}

// loadInput reads the node's input state (ok false: the server never
// asked).
func (c *call) loadInput(ctx context.Context) (*inputState, bool, error) {
	var st inputState
	ok, err := remotecall.LoadSide(ctx, c.s.kind.deps.Calls, c.Record(), inputSide, &st)
	if !ok || err != nil {
		return nil, false, err
	}
	if st.Answers == nil {
		st.Answers = map[string]json.RawMessage{}
	}
	return &st, true, nil
}

// saveInput commits st; the record is a side record (remotecall.SaveSide:
// bookkeeping, not remote work — nothing cancels or follows it).
func (c *call) saveInput(ctx context.Context, st *inputState, status string) error {
	return remotecall.SaveSide(ctx, c.s.kind.deps.Calls, c.Record(), inputSide, status, st, c.red)
}

// newServerRound starts the state of a server round.
func newServerRound(prev *inputState, via string, ask *mcp.InputRequiredError) *inputState {
	st := &inputState{Via: via, ServerRound: 1, Requests: ask.Requests, RequestState: ask.RequestState,
		StreamID: ask.StreamID, Answers: map[string]json.RawMessage{}}
	if prev != nil {
		st.ServerRound, st.Round, st.Done = prev.ServerRound+1, prev.Round, prev.Done
	}
	return st
}

// gather answers every request of st that has no answer yet: a
// pre-answer (first server round), the person's answer to the open
// question, else a new question. It returns nil once all are answered
// (st committed, Sent still false), or the *workrun.InterruptError asking
// the person.
func (c *call) gather(ctx context.Context, st *inputState) error {
	if st.Round == 0 && !st.Sent {
		// Rounds go on across the node's attempts in a run: the engine
		// refuses a round already answered.
		d, ok, err := c.nc.Decision(ctx)
		if err != nil {
			return err
		}
		if ok {
			st.Round = d.Round
		}
	}
	if st.Asking != "" {
		d, ok, err := workrun.AnswerTo(ctx, c.nc, st.Round)
		if err != nil {
			return err
		}
		if !ok {
			return c.ask(ctx, st, st.Asking, "")
		}
		res, err := c.answerOf(st.Requests[st.Asking], d)
		if err != nil {
			// Not an answer the form takes: ask again, saying why.
			key := st.Asking
			st.Round++
			return c.ask(ctx, st, key, err.Error())
		}
		c.keep(st, st.Asking, res, d.Secret)
		st.Asking = ""
	}
	for _, key := range slices.Sorted(keysOf(st.Requests)) {
		if _, ok := st.Answers[key]; ok {
			if !slices.Contains(st.Withheld, key) {
				continue
			}
			if _, held := heldAnswers.Load(heldKey(c.nc, key)); held {
				continue
			}
			// Its secret values are gone with the process that held them.
			delete(st.Answers, key)
		}
		r := st.Requests[key]
		if r.Method != mcp.MethodElicit {
			return reason(nil, msgAskedUnsupported, clip(r.Method, 60), clip(key, 60))
		}
		if res, ok, err := c.preAnswer(st, key); err != nil || ok {
			if err != nil {
				return err
			}
			c.keep(st, key, res, false)
			continue
		}
		st.Round++
		return c.ask(ctx, st, key, "")
	}
	return c.saveInput(ctx, st, "answered")
}

// keep records one answer: saved without its secret fields (all of them
// when the person marked the answer secret), held whole in memory when it
// had any.
func (c *call) keep(st *inputState, key string, res mcp.ElicitResult, secret bool) {
	saved := res
	if form, ok := formOf(st.Requests[key]); ok && res.Content != nil {
		saved.Content = map[string]any{}
		for k, v := range res.Content {
			if fd, _ := form.Field(k); secret || fd.Secret {
				continue
			}
			saved.Content[k] = v
		}
		if len(saved.Content) != len(res.Content) {
			heldAnswers.Store(heldKey(c.nc, key), res.JSON())
			st.Withheld = append(st.Withheld, key)
		}
	}
	st.Answers[key] = saved.JSON()
}

// responses are the answers to send, secrets restored from memory.
func (c *call) responses(st *inputState) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for k, v := range st.Answers {
		if slices.Contains(st.Withheld, k) {
			if full, ok := heldAnswers.Load(heldKey(c.nc, k)); ok {
				v = full.(json.RawMessage)
			}
		}
		out[k] = v
	}
	return out
}

// forget drops the secret answers held for st once they were sent.
func (c *call) forget(st *inputState) {
	for _, k := range st.Withheld {
		heldAnswers.Delete(heldKey(c.nc, k))
	}
}

// ask commits the open question and returns the interrupt that shows it:
// the node waits for the person (workrun.InterruptedByHuman).
func (c *call) ask(ctx context.Context, st *inputState, key, why string) error {
	q, err := c.question(st.Requests[key], key, st.Round)
	if err != nil {
		return err
	}
	if why != "" {
		q.Message = clip(q.Message+" ("+why+")", 4000)
	}
	st.Asking = key
	if err := c.saveInput(ctx, st, "waiting"); err != nil {
		return err
	}
	reason := texts.Text(msgWaitingForYou, q.Message)
	return &workrun.InterruptError{Cause: workrun.InterruptedByHuman, Reason: reason, Question: &q}
}

// question is the elicitation r (key) as the person sees it in round.
func (c *call) question(r mcp.InputRequest, key string, round int) (workrun.Question, error) {
	e, err := r.Elicitation()
	if err != nil {
		return workrun.Question{}, reason([]error{err}, msgBadInputRequest, clip(key, 60), why(err))
	}
	q := workrun.Question{Round: round, Kind: workrun.QuestionForm, From: c.from(),
		Message: clip(e.Message, 4000), Schema: e.RequestedSchema, RequestID: key}
	if e.Mode == mcp.ElicitURL {
		q.Kind, q.URL, q.Schema = workrun.QuestionSignIn, e.URL, nil
		q.Actions = []workrun.AnswerAction{workrun.AnswerAccept, workrun.AnswerDecline, workrun.AnswerCancel}
	}
	return q, nil
}

// preAnswer answers request key of st from the node's answers when it is
// the node's first question (round 1; workrun.PreAnswer logs it). That
// round is then used up. An answers config that does not fit the form
// fails the node before anything is sent.
func (c *call) preAnswer(st *inputState, key string) (mcp.ElicitResult, bool, error) {
	if st.Round != 0 || !c.s.cfg.Answers.IsSet() {
		return mcp.ElicitResult{}, false, nil
	}
	r := st.Requests[key]
	q, err := c.question(r, key, 1)
	if err != nil {
		return mcp.ElicitResult{}, false, err
	}
	d, ok, err := workrun.PreAnswer(c.nc, q, c.s.cfg.Answers)
	if err != nil || !ok {
		return mcp.ElicitResult{}, false, err
	}
	res, err := c.answerOf(r, d)
	if err != nil {
		return mcp.ElicitResult{}, false, err
	}
	st.Round = 1
	return res, true, nil
}

// from names the server that asks: its host.
func (c *call) from() string {
	if u, err := url.Parse(c.s.cfg.URL); err == nil && u.Host != "" {
		return u.Host
	}
	return c.s.cfg.URL
}

// answerOf turns the person's decision into the elicitation's answer:
// decline and cancel as they are; accept with the form's values and its
// defaults for the fields the person left empty (SEP-1034), checked.
func (c *call) answerOf(r mcp.InputRequest, d workrun.Decision) (mcp.ElicitResult, error) {
	action := string(d.Action)
	if action == "" {
		action = mcp.ActionAccept
	}
	switch action {
	case mcp.ActionDecline, mcp.ActionCancel:
		return mcp.ElicitResult{Action: action}, nil
	case mcp.ActionAccept:
	default:
		return mcp.ElicitResult{}, fmt.Errorf("%w: action %q", workrun.ErrBadAnswer, clip(action, 20))
	}
	e, err := r.Elicitation()
	if err != nil {
		return mcp.ElicitResult{}, err
	}
	if e.Mode == mcp.ElicitURL {
		return mcp.ElicitResult{Action: mcp.ActionAccept}, nil
	}
	form, err := workrun.ParseForm(e.RequestedSchema)
	if err != nil {
		return mcp.ElicitResult{}, err
	}
	values := map[string]any{}
	if len(d.Content) > 0 {
		if err := json.Unmarshal(d.Content, &values); err != nil {
			return mcp.ElicitResult{}, fmt.Errorf("%w: %v", workrun.ErrBadAnswer, err)
		}
	}
	content, err := form.Answer(values)
	if err != nil {
		return mcp.ElicitResult{}, err
	}
	return mcp.ElicitResult{Action: mcp.ActionAccept, Content: content}, nil
}

// formOf is the form a request asks to fill (ok false for any other
// request, or a schema the form cannot read).
func formOf(r mcp.InputRequest) (workrun.Form, bool) {
	e, err := r.Elicitation()
	if err != nil || e.Mode != mcp.ElicitForm {
		return workrun.Form{}, false
	}
	f, err := workrun.ParseForm(e.RequestedSchema)
	return f, err == nil
}

func keysOf[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// roundKey is the idempotency key of the MRTR retry of server round n: its
// own, derived from the call's key, so a server that remembers keys does
// not answer the retry with the first answer.
func roundKey(callKey string, n int) string {
	return uuid.NewSHA1(keyNamespace, []byte(fmt.Sprintf("%s|input-round|%d", callKey, n))).String()
}

// answerMRTR answers an input_required result: gather, commit as sent,
// re-issue the call with the answers and the exact requestState. It
// returns the retry's answer (another input_required comes back as its
// *mcp.InputRequiredError for the caller's loop).
// answerMRTR's stop is an error of Workrun's own (the person must answer,
// a save failed, the server asked what Workrun does not do): nothing was
// sent. p is the first call's parameters.
func (c *call) answerMRTR(ctx context.Context, srv MCPClient, st *inputState, p mcp.CallParams) (res *mcp.CallResult, timedOut bool, err, stop error) {
	if st.ServerRound > maxServerRounds {
		return nil, false, nil, reason(nil, msgTooManyRounds, maxServerRounds)
	}
	if err := c.gather(ctx, st); err != nil {
		return nil, false, nil, err
	}
	st.Sent = true
	if err := c.saveInput(ctx, st, "sent"); err != nil {
		return nil, false, nil, err
	}
	c.log(msgAnswersSent, st.ServerRound, len(st.Answers))
	p.InputResponses, p.RequestState = c.responses(st), st.RequestState
	p.IdempotencyKey = roundKey(p.IdempotencyKey, st.ServerRound)
	res, timedOut, err = c.sendCall(ctx, srv, p)
	c.forget(st)
	return res, timedOut, err, nil
}

// maxServerRounds bounds how often one call may come back input_required
// (a server that asks forever, or sheds load with requestState alone).
const maxServerRounds = 20

// mrtr answers input_required results round after round until the call
// has another answer (a result, a task, an error) or Workrun must stop.
func (c *call) mrtr(ctx context.Context, srv MCPClient, p mcp.CallParams, st *inputState) (*mcp.CallResult, bool, error, error) {
	for {
		res, timedOut, err, stop := c.answerMRTR(ctx, srv, st, p)
		var ask *mcp.InputRequiredError
		if stop != nil || err == nil || timedOut || !errors.As(err, &ask) || len(ask.StreamID) > 0 || ask.TaskID != "" {
			return res, timedOut, err, stop
		}
		st = newServerRound(st, viaMRTR, ask)
	}
}

// streamAsked takes a 2025-11-25 request the handler could not answer
// (it needs the person): the question is committed and shown.
func (c *call) streamAsked(ctx context.Context, ask *mcp.InputRequiredError) error {
	prev, _, err := c.loadInput(ctx)
	if err != nil {
		return err
	}
	st := newServerRound(prev, viaStream, ask)
	if err := c.gather(ctx, st); err != nil {
		return err
	}
	return fmt.Errorf("%w: the server's request was answered by none", mcp.ErrProtocol)
}

// answerStream sends the answer to a 2025-11-25 stream request once the
// person gave it (committed as sent first), then goes on following the
// task; a call without a task lost its reply with the stream Workrun
// closed to wait (docs/remote-mcp.md M15).
func (c *call) answerStream(ctx context.Context, srv MCPClient, st *inputState) (workrun.Values, error) {
	if st.Sent {
		return nil, texts.Error(ErrSubmissionUnknown, msgSubmissionUnknownErr,
			texts.Text(msgUnknownAnswerSent, clip(string(st.StreamID), 64)))
	}
	if err := c.gather(ctx, st); err != nil {
		return nil, err
	}
	st.Sent = true
	if err := c.saveInput(ctx, st, "sent"); err != nil {
		return nil, err
	}
	c.log(msgAnswersSent, st.ServerRound, len(st.Answers))
	var res json.RawMessage
	for _, v := range c.responses(st) {
		res = v
	}
	rctx, cancel := context.WithTimeout(ctx, c.s.timeout)
	err := srv.Respond(rctx, st.StreamID, res, nil)
	cancel()
	c.forget(st)
	if err != nil {
		return nil, reason([]error{err}, msgAnswerFailed, why(err))
	}
	if r := c.Record(); r.TaskID != "" {
		return c.followTask(ctx, srv, &mcp.Task{TaskID: r.TaskID, Status: r.RemoteState}, false)
	}
	return nil, texts.Error(ErrSubmissionUnknown, msgSubmissionUnknownErr,
		texts.Text(msgUnknownReplyLost))
}

// answerTask answers a 2026-07-28 task's outstanding input requests with
// tasks/update. Keys already answered are not asked again; answers
// committed as sent whose keys are still outstanding (the exit came
// before the server took them) are sent again — the server ignores keys
// it no longer waits for.
func (c *call) answerTask(ctx context.Context, srv MCPClient, t *mcp.Task, prev *inputState) (*inputState, error) {
	pending := map[string]mcp.InputRequest{}
	for k, r := range t.InputRequests {
		if prev == nil || !slices.Contains(prev.Done, k) {
			pending[k] = r
		}
	}
	var st *inputState
	switch {
	case len(pending) == 0:
		return prev, nil // answered; the server has not shown it yet
	case prev != nil && prev.Via == viaTask && (prev.Asking != "" || prev.Sent) && subset(prev.Requests, pending):
		st = prev // the open question, or answers that may not have arrived
	default:
		st = newServerRound(prev, viaTask, &mcp.InputRequiredError{Requests: pending, TaskID: t.TaskID})
	}
	if !st.Sent {
		if err := c.gather(ctx, st); err != nil {
			return st, err
		}
		st.Sent = true
		if err := c.saveInput(ctx, st, "sent"); err != nil {
			return st, err
		}
		c.log(msgAnswersSent, st.ServerRound, len(st.Answers))
	} else if slices.ContainsFunc(st.Withheld, func(k string) bool { _, ok := heldAnswers.Load(heldKey(c.nc, k)); return !ok }) {
		st.Sent = false // a secret answer was lost with its process: ask again
		return c.answerTask(ctx, srv, t, st)
	} else {
		c.log(msgAnswersResent, st.ServerRound)
	}
	uctx, cancel := context.WithTimeout(ctx, c.s.timeout)
	err := srv.UpdateTask(uctx, t.TaskID, c.responses(st))
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return st, ctx.Err()
		}
		c.log(msgReadAgain, t.TaskID, clip(err.Error(), 300))
		return st, nil // sent again at the next read that still shows them
	}
	c.forget(st)
	for k := range st.Requests {
		st.Done = append(st.Done, k)
	}
	st.Sent, st.Answers, st.Withheld = false, map[string]json.RawMessage{}, nil
	st.Requests = map[string]mcp.InputRequest{}
	return st, c.saveInput(ctx, st, "delivered")
}

func subset(have, of map[string]mcp.InputRequest) bool {
	for k := range have {
		if _, ok := of[k]; !ok {
			return false
		}
	}
	return len(have) > 0
}

// onRequest answers a 2025-11-25 server's elicitation on a stream while
// the call is open: the node's first question from its answers when they
// fit; anything else is the person's (mcp.ErrAskPerson: the call stops and
// asks).
func (c *call) onRequest(ctx context.Context, r mcp.InputRequest) (json.RawMessage, error) {
	first := !c.asked.Swap(true)
	if !first || !c.s.cfg.Answers.IsSet() {
		return nil, mcp.ErrAskPerson
	}
	prev, _, err := c.loadInput(ctx)
	if err != nil {
		return nil, err
	}
	st := newServerRound(prev, viaStream, &mcp.InputRequiredError{Requests: map[string]mcp.InputRequest{"stream": r}})
	res, ok, err := c.preAnswer(st, "stream")
	if err != nil || !ok {
		return nil, mcp.ErrAskPerson // the call stops; gather says why
	}
	c.keep(st, "stream", res, false)
	st.Sent = true
	if err := c.saveInput(ctx, st, "sent"); err != nil {
		return nil, err
	}
	c.forget(st)
	return res.JSON(), nil
}
