package remoteagent

import (
	"context"
	"errors"
	"iter"
	"regexp"
	"strconv"
	"time"

	"workrun/a2a"
	"workrun/remotecall"
	"workrun/workrun"
)

// An agent's question (docs/remote-agent.md R8): a task in INPUT_REQUIRED
// or AUTH_REQUIRED makes the node wait for the person with the agent's
// message as a workrun.Question. The answer is a new message on the same
// task (same taskId and contextId) whose messageId is derived from run,
// node, call key and round, and which is committed in the question record
// before it is sent. A resumed node reads the task first; it sends a
// committed answer again only if the task still waits on that round's
// question and its history does not hold the answer, so the agent gets
// each round's answer at most once. Then it follows the task as after the
// first message.

// askSide names the question record beside the call (remotecall.SideKey).
const askSide = "ask"

// askState is the question record's state.
type askState struct {
	// Round is the question round last asked (workrun.Question.Round); it
	// goes on across the node's attempts in a run.
	Round int `json:"round"`
	// Asked identifies the agent's message that asked Round: its
	// messageId, or its time and text when it has none.
	Asked string `json:"asked"`
	// Answer is the messageId of the answer to Round, committed before it
	// is sent; empty until then.
	Answer string `json:"answer,omitempty"`
}

// answerNow is the error a step returns inside the node when an answer to
// the open round is at hand (the person's, a pre-answer, or one committed
// before an exit that never reached the agent); run sends it.
type answerNow struct{ d workrun.Decision }

func (*answerNow) Error() string { return "remote agent: an answer is ready to be sent" }

// TakesDecisions implements workrun.DecidingStep: Engine.Decide takes the
// person's answer to the agent's question.
func (s *step) TakesDecisions() {}

// askState returns the question record's state, read once per execution.
func (c *call) askState(ctx context.Context) (*askState, error) {
	if c.ask != nil {
		return c.ask, nil
	}
	st := &askState{}
	if _, err := remotecall.LoadSide(ctx, c.s.kind.deps.Calls, c.Record(), askSide, st); err != nil {
		return nil, err
	}
	c.ask = st
	return st, nil
}

// saveAsk commits the question record.
func (c *call) saveAsk(ctx context.Context, st *askState) error {
	return remotecall.SaveSide(ctx, c.s.kind.deps.Calls, c.Record(), askSide, c.Record().RemoteState, st, c.red)
}

// earlierRounds is the last round asked in the node's earlier attempts of
// this run (a retry is a new call, but the rounds go on: the engine takes
// one answer per round).
func (c *call) earlierRounds(ctx context.Context) (int, error) {
	last := 0
	for i := 1; i < c.nc.Attempt(); i++ {
		key := callKey
		if i > 1 {
			key += "#" + strconv.Itoa(i)
		}
		var st askState
		main := c.Record()
		main.CallKey = key
		if _, err := remotecall.LoadSide(ctx, c.s.kind.deps.Calls, main, askSide, &st); err != nil {
			return 0, err
		}
		last = max(last, st.Round)
	}
	return last, nil
}

// askedBy identifies the agent message of an interrupted status.
func askedBy(st a2a.TaskStatus) string {
	if st.Message != nil && st.Message.MessageID != "" {
		return "message:" + st.Message.MessageID
	}
	ts := ""
	if st.Timestamp != nil {
		ts = st.Timestamp.UTC().Format(time.RFC3339Nano)
	}
	return "status:" + string(st.State) + "|" + ts + "|" + messageText(st.Message)
}

// answered reports whether an interrupted status is the question of the
// round already answered, with the answer delivered: the agent took the
// answer (an event arrived on its request) or the task's history holds
// it. Such a status is stale — the agent has not moved on yet — and does
// not end the stream.
func (c *call) answered(st a2a.TaskStatus, history []a2a.Message) bool {
	a := c.ask
	if a == nil || a.Answer == "" || askedBy(st) != a.Asked {
		return false
	}
	if c.acked {
		return true
	}
	for _, m := range history {
		if m.MessageID == a.Answer {
			return true
		}
	}
	return false
}

// asked handles a task in INPUT_REQUIRED or AUTH_REQUIRED: a new round, the
// same round again, or the answered round whose answer did not reach the
// agent. With an answer at hand it returns *answerNow; else the node waits
// for the person with the question.
func (c *call) asked(ctx context.Context, state a2a.TaskState) (workrun.Values, error) {
	st, err := c.askState(ctx)
	if err != nil {
		return nil, err
	}
	by := askedBy(c.askedStatus)
	resend := false
	switch {
	case st.Round == 0:
		base, err := c.earlierRounds(ctx)
		if err != nil {
			return nil, err
		}
		*st = askState{Round: base + 1, Asked: by}
	case st.Answer != "" && by != st.Asked:
		*st = askState{Round: st.Round + 1, Asked: by} // the agent asks again
	case st.Answer != "":
		resend = true // committed, but the task still waits on it (answered)
	default:
		st.Asked = by // still unanswered: the same round
	}
	if err := c.saveAsk(ctx, st); err != nil {
		return nil, err
	}
	q := c.question(st.Round, state)
	d, ok, err := workrun.AnswerTo(ctx, c.nc, st.Round)
	if err != nil {
		return nil, err
	}
	if !ok {
		// The workflow's answers config answers round 1 (and again, the
		// same words, if that answer never reached the agent).
		if d, ok, err = workrun.PreAnswer(c.nc, q, c.s.cfg.Answers); err != nil {
			return nil, err
		}
	}
	if ok {
		if resend {
			c.log(msgAnswerResent, c.Record().TaskID, st.Round)
		}
		return nil, &answerNow{d: d}
	}
	id := msgNeedsInput
	if state == a2a.TaskStateAuthRequired {
		id = msgNeedsAuth
	}
	return nil, &workrun.InterruptError{Cause: workrun.InterruptedByHuman, Reason: texts.Text(id, c.Record().StatusText), Question: &q}
}

// question is the agent's interrupted status as the person sees it.
func (c *call) question(round int, state a2a.TaskState) workrun.Question {
	q := workrun.Question{Round: round, Kind: workrun.QuestionText, From: c.from()}
	var parts []a2a.Part
	if m := c.askedStatus.Message; m != nil {
		q.Message = c.red.String(messageText(m))
		parts = m.Parts
	}
	for _, p := range parts {
		switch {
		case p.Data != nil:
			q.Parts = append(q.Parts, workrun.QuestionPart{Kind: "data", Data: c.red.Bytes(p.Data), Name: p.Filename, MediaType: p.MediaType})
		case p.URL != "" || p.IsRaw():
			q.Parts = append(q.Parts, workrun.QuestionPart{Kind: "file", Name: c.red.String(p.Filename), MediaType: p.MediaType, URL: c.red.String(p.URL)})
		}
	}
	if state == a2a.TaskStateAuthRequired {
		q.Kind = workrun.QuestionSignIn
		q.URL = signInLink(q)
	}
	return q
}

// from names the agent: its card's name, else its endpoint, else the URL.
func (c *call) from() string {
	if agent := c.Client(); agent != nil {
		if card := agent.Card(); card != nil && card.Name != "" {
			return c.red.String(card.Name)
		}
		return agent.Endpoint()
	}
	return c.s.cfg.URL
}

var linkPattern = regexp.MustCompile(`https?://[^\s"'<>()]+`)

// signInLink is the link an AUTH_REQUIRED question points at: a file
// part's URL, else the first http(s) link in its text or data.
func signInLink(q workrun.Question) string {
	for _, p := range q.Parts {
		if p.URL != "" {
			return p.URL
		}
	}
	if l := linkPattern.FindString(q.Message); l != "" {
		return l
	}
	for _, p := range q.Parts {
		if l := linkPattern.FindString(string(p.Data)); l != "" {
			return l
		}
	}
	return ""
}

// answerText is what the answer message says: the person's text; a
// sign-in's "done" carries none, so the agent is told "done".
func answerText(d workrun.Decision) string {
	if d.Text == "" {
		return "done"
	}
	return d.Text
}

// sendAnswer commits the answer's messageId in the question record, sends
// it on the task, and follows the task as after the first message
// (docs/remote-agent.md R8).
func (c *call) sendAnswer(ctx context.Context, a *answerNow) (workrun.Values, error) {
	st, err := c.askState(ctx)
	if err != nil {
		return nil, err
	}
	r := c.Record()
	if st.Answer == "" {
		st.Answer = MessageID(r.RunID, r.NodeID, r.CallKey+"/answer-"+strconv.Itoa(st.Round))
		if err := c.saveAsk(ctx, st); err != nil { // committed before it is sent
			return nil, err
		}
	}
	if c.Aborted() {
		return nil, remotecall.ErrAborted
	}
	agent := c.Client()
	text := answerText(a.d)
	if a.d.Secret {
		c.red.Add(text) // never saved; an echo of it is redacted too
	}
	req := a2a.SendMessageRequest{Message: a2a.Message{
		MessageID: st.Answer, Role: a2a.RoleUser, TaskID: r.TaskID, ContextID: r.ContextID,
		Parts: []a2a.Part{{Text: text}},
	}}
	c.log(msgAnswerSending, r.TaskID, st.Round)
	c.acked = false
	if !agent.Streaming() {
		rctx, cancel := context.WithTimeout(ctx, c.s.timeout)
		defer cancel()
		res, err := agent.SendMessage(rctx, req)
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil && notSubmitted(err):
			return nil, c.answerRefused(err)
		case err != nil:
			c.log(msgStreamLost, err)
			return c.recoverTask(ctx, agent, false)
		}
		c.acked = true
		ev := a2a.StreamEvent{Task: res.Task, Message: res.Message}
		done, err := c.handle(ctx, ev)
		if err != nil {
			return nil, err
		}
		if !done {
			return c.recoverTask(ctx, agent, false)
		}
		return c.finish(ctx)
	}
	res, ended, out, err := c.followToEnd(ctx, func(sctx context.Context) iter.Seq2[a2a.StreamEvent, error] {
		return agent.SendStreamingMessage(sctx, req)
	})
	if ended {
		return out, err
	}
	if res.events == 0 && notSubmitted(res.err) {
		return nil, c.answerRefused(res.err)
	}
	c.log(msgStreamLost, res.err)
	return c.recoverTask(ctx, agent, res.quiet)
}

// answerRefused is the failure of an answer the agent refused before
// taking it (HTTP 4xx, a JSON-RPC error): the task still waits; the run's
// failure sends its one cancel (docs/remote-agent.md R2).
func (c *call) answerRefused(err error) error {
	var h *a2a.HTTPError
	if errors.As(err, &h) {
		return reason([]error{ErrNotSubmitted, err}, msgErrAnswerRefusedHTTP, h.StatusCode, why(err))
	}
	return reason([]error{ErrNotSubmitted, err}, msgErrAnswerRefused, why(err))
}
