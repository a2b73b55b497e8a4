package workrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Remote questions (docs/engine.md "Remote questions"): a remote agent or
// MCP tool may ask the person something half way through its work. The
// node's step saves its remote state, then returns an *InterruptError with
// Cause InterruptedByHuman and a Question; the engine keeps the question in
// the node's record (NodeRun.Question), so the window, `workrun show` and a
// restarted process show who asks what. Engine.Decide takes the person's
// answer (a Decision for that Round), once per round, and re-enters the
// node, which reads it with AnswerTo and sends it.

// QuestionKind says what a remote asks for, and so how it is answered.
type QuestionKind string

const (
	// QuestionText: a remote agent's message (A2A input-required), answered
	// with text.
	QuestionText QuestionKind = "text"
	// QuestionForm: an MCP form elicitation, answered with values for the
	// fields of its Schema (Form), or declined or cancelled.
	QuestionForm QuestionKind = "form"
	// QuestionSignIn: the person is asked to sign in somewhere (A2A
	// auth-required, MCP URL elicitation): the link is shown, never opened
	// by itself, and the answer says it is done (AnswerAccept).
	QuestionSignIn QuestionKind = "sign_in"
)

// Question is what a remote asked a node's step, as shown to the person.
type Question struct {
	// Round counts the questions of one node's remote work: 1 for the first,
	// 2 when the remote asks again after an answer. An answer is for one
	// round and is taken at most once.
	Round int          `json:"round"`
	Kind  QuestionKind `json:"kind"`
	// From names who asks (the agent's or server's name, else its URL).
	From string `json:"from,omitempty"`
	// Message is the remote's own words, shown verbatim.
	Message string `json:"message,omitempty"`
	// Parts are the other parts of an A2A message (data, files).
	Parts []QuestionPart `json:"parts,omitempty"`
	// Schema is an MCP elicitation's requestedSchema (ParseForm).
	Schema json.RawMessage `json:"schema,omitempty"`
	// URL is the sign-in link of a QuestionSignIn.
	URL string `json:"url,omitempty"`
	// RequestID is the key the protocol answers by (an MCP inputRequests
	// key or elicitation id); the engine does not read it.
	RequestID string `json:"request_id,omitempty"`
	// Actions lists the answers the remote takes; empty means the kind's
	// default (Allowed).
	Actions []AnswerAction `json:"actions,omitempty"`
}

// QuestionPart is one non-text part of a remote's question.
type QuestionPart struct {
	Kind      string          `json:"kind"` // "text", "data" or "file"
	Text      string          `json:"text,omitempty"`
	Data      json.RawMessage `json:"data,omitempty"`
	Name      string          `json:"name,omitempty"`
	MediaType string          `json:"media_type,omitempty"`
	URL       string          `json:"url,omitempty"`
}

// AnswerAction is what the person does with a question (MCP's elicitation
// actions; a text or sign-in answer is always an accept).
type AnswerAction string

const (
	AnswerAccept  AnswerAction = "accept"  // answered (or, for sign-in: done)
	AnswerDecline AnswerAction = "decline" // the person says no
	AnswerCancel  AnswerAction = "cancel"  // the person dismissed the request
)

// Allowed lists the actions q takes: its Actions, else accept for text and
// sign-in and all three for a form.
func (q Question) Allowed() []AnswerAction {
	switch {
	case len(q.Actions) > 0:
		return q.Actions
	case q.Kind == QuestionForm:
		return []AnswerAction{AnswerAccept, AnswerDecline, AnswerCancel}
	default:
		return []AnswerAction{AnswerAccept}
	}
}

// SecretFields lists the form fields whose values are secret (a "password"
// format or writeOnly in the schema): they are never saved.
func (q Question) SecretFields() []string {
	if q.Kind != QuestionForm {
		return nil
	}
	f, err := ParseForm(q.Schema)
	if err != nil {
		return nil
	}
	var out []string
	for _, fd := range f.Fields {
		if fd.Secret {
			out = append(out, fd.Name)
		}
	}
	return out
}

// Errors of answering.
var (
	// ErrAlreadyAnswered: this round of the question was answered already
	// (by another window or command); the answer was not taken.
	ErrAlreadyAnswered = errors.New("the question was already answered")
	// ErrBadAnswer: the answer does not fit the question (a missing or
	// invalid form value, an action the remote does not take). Errors
	// wrapping it are *TextError (rendered in the reader's language).
	ErrBadAnswer = errors.New("bad answer")
)

// AnswerTo returns the answer to round of the node's question, when one
// was taken: a remote step calls it on re-entry with the round it is
// waiting on. A decision of another round (an earlier one) is not it. An
// answer whose secret values this process no longer holds (it was given
// before a restart) is not returned either: the step asks again.
func AnswerTo(ctx context.Context, nc NodeContext, round int) (Decision, bool, error) {
	d, ok, err := nc.Decision(ctx)
	if err != nil || !ok || d.Round != round || d.Withheld {
		return Decision{}, false, err
	}
	return d, true, nil
}

// CheckAnswer fills d's round and action from q and says whether d answers
// q: the action is one q takes; a text answer is not empty; a form answer's
// Content is an object that fits the schema (Form.Validate); a decline or
// cancel carries nothing. Errors wrap ErrBadAnswer, or ErrNoDecisionPending
// when d is for another round.
func CheckAnswer(q Question, d Decision) (Decision, error) {
	if d.Round == 0 {
		d.Round = q.Round
	}
	if d.Round != q.Round {
		return d, fmt.Errorf("%w: the answer is for round %d, the open question is round %d", ErrNoDecisionPending, d.Round, q.Round)
	}
	if d.Action == "" {
		d.Action = AnswerAccept
	}
	if !slices.Contains(q.Allowed(), d.Action) {
		return d, questionTexts.Fail(ErrBadAnswer, msgActionNotTaken, d.Action, actionList(q.Allowed()))
	}
	if d.Action != AnswerAccept {
		if d.Text != "" || len(d.Content) > 0 {
			return d, questionTexts.Fail(ErrBadAnswer, msgNothingWithAction, d.Action)
		}
		return d, nil
	}
	switch q.Kind {
	case QuestionText:
		if strings.TrimSpace(d.Text) == "" {
			return d, questionTexts.Fail(ErrBadAnswer, msgEmptyAnswer)
		}
	case QuestionForm:
		f, err := ParseForm(q.Schema)
		if err != nil {
			return d, err
		}
		vals, err := decodeObject(d.Content)
		if err != nil {
			return d, err
		}
		if err := f.Validate(vals); err != nil {
			return d, err
		}
	}
	return d, nil
}

// ErrorLines renders err for a person in lang, a line per error: each
// *TextError of a joined error (a form's problems) in its catalogue text,
// any other by its Error text.
func ErrorLines(err error, lang string) []string {
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		var te *TextError
		if errors.As(e, &te) {
			out = append(out, te.Text.In(lang))
		} else {
			out = append(out, e.Error())
		}
	}
	return out
}

func actionList(as []AnswerAction) string {
	s := make([]string, len(as))
	for i, a := range as {
		s[i] = string(a)
	}
	return strings.Join(s, ", ")
}

// decodeObject reads a form answer's Content: a JSON object (nil or empty
// is the empty object).
func decodeObject(raw json.RawMessage) (map[string]any, error) {
	vals := map[string]any{}
	if len(raw) == 0 {
		return vals, nil
	}
	if err := json.Unmarshal(raw, &vals); err != nil || vals == nil {
		return nil, questionTexts.Fail(ErrBadAnswer, msgNotAnObject)
	}
	return vals, nil
}

// withheld is d as it is saved: the secret values (Text of a secret answer,
// secret fields of a form) taken out, Withheld set. ok is false when d has
// no secret value.
func (d Decision) withheld(secretFields []string) (Decision, bool) {
	kept := d
	switch {
	case d.Secret && (d.Text != "" || len(d.Content) > 0):
		kept.Text, kept.Content = "", nil
	case len(secretFields) > 0 && len(d.Content) > 0:
		vals := map[string]json.RawMessage{}
		if json.Unmarshal(d.Content, &vals) != nil {
			kept.Content = nil // not an object: nothing of it is kept
			break
		}
		n := len(vals)
		for _, f := range secretFields {
			delete(vals, f)
		}
		if len(vals) == n {
			return d, false
		}
		b, err := json.Marshal(vals)
		if err != nil {
			kept.Content = nil
			break
		}
		kept.Content = b
	default:
		return d, false
	}
	kept.Withheld = true
	return kept, true
}

// answerKey names one round of one node's question, for the secret answers
// this process holds in memory only.
type answerKey struct {
	run, node string
	round     int
}

// takeAnswer saves d as the answer to q (round d.Round), unless that round
// was answered already (ErrAlreadyAnswered): of concurrent answers exactly
// one is taken. A secret answer is saved without its secret values and
// held in memory for the node; a withheld answer this process does not
// hold (its process ended) can be replaced — the node asked again.
// Callers hold the run: it is going on here, or they claimed it.
func (e *Engine) takeAnswer(ctx context.Context, q *Question, d Decision) error {
	if q == nil {
		return e.runs.SaveDecision(ctx, d)
	}
	if d.Round != q.Round {
		return ErrAlreadyAnswered // the remote asked again meanwhile
	}
	e.answerMu.Lock()
	defer e.answerMu.Unlock()
	prev, err := e.runs.GetDecision(ctx, d.RunID, d.NodeID)
	switch {
	case errors.Is(err, ErrNotFound):
	case err != nil:
		return err
	case prev.Round > d.Round:
		return ErrAlreadyAnswered
	case prev.Round == d.Round:
		_, held := e.secrets[answerKey{d.RunID, d.NodeID, d.Round}]
		if !prev.Withheld || held {
			return ErrAlreadyAnswered
		}
	}
	saved, secret := d.withheld(q.SecretFields())
	if err := e.runs.SaveDecision(ctx, saved); err != nil {
		return err
	}
	if secret {
		e.secrets[answerKey{d.RunID, d.NodeID, d.Round}] = d
	}
	e.logLine(e.line(d.RunID, d.NodeID, answerLine(*q, d)))
	return nil
}

// heldAnswer completes a withheld decision with the secret values this
// process holds; ok is false when it holds none (the answer was given
// before a restart, or in another process).
func (e *Engine) heldAnswer(d Decision) (Decision, bool) {
	e.answerMu.Lock()
	defer e.answerMu.Unlock()
	full, ok := e.secrets[answerKey{d.RunID, d.NodeID, d.Round}]
	return full, ok
}

// dropAnswers forgets the secret answers held for run: its execution ended,
// and a node that needs one again asks again.
func (e *Engine) dropAnswers(runID string) {
	e.answerMu.Lock()
	defer e.answerMu.Unlock()
	for k := range e.secrets {
		if k.run == runID {
			delete(e.secrets, k)
		}
	}
}

// questionLine is the node message that says who asks what.
func questionLine(q Question) Text {
	from := q.From
	if from == "" {
		from = questionTexts.Text(msgTheRemote)
	}
	round := strconv.Itoa(q.Round)
	switch q.Kind {
	case QuestionSignIn:
		return questionTexts.Msg(msgAsksSignIn, from, round, q.Message, q.URL)
	case QuestionForm:
		return questionTexts.Msg(msgAsksForm, from, round, q.Message)
	default:
		return questionTexts.Msg(msgAsks, from, round, q.Message)
	}
}

// answerLine is the node message that says what the person answered; a
// secret value is never in it.
func answerLine(q Question, d Decision) Text {
	round := strconv.Itoa(d.Round)
	switch {
	case d.Action == AnswerDecline:
		return questionTexts.Msg(msgDeclined, round)
	case d.Action == AnswerCancel:
		return questionTexts.Msg(msgCancelled, round)
	case q.Kind == QuestionSignIn:
		return questionTexts.Msg(msgSignedIn, round)
	case d.Secret:
		return questionTexts.Msg(msgAnsweredSecret, round)
	case q.Kind == QuestionForm:
		return questionTexts.Msg(msgAnswered, round, FormSummary(q, d.Content))
	default:
		return questionTexts.Msg(msgAnswered, round, d.Text)
	}
}

// FormSummary writes a form answer as "name: value; …" in the schema's
// order, each secret field as "•••".
func FormSummary(q Question, content json.RawMessage) string {
	vals, err := decodeObject(content)
	if err != nil {
		return string(content)
	}
	f, err := ParseForm(q.Schema)
	if err != nil {
		return string(content)
	}
	var parts []string
	for _, fd := range f.Fields {
		v, ok := vals[fd.Name]
		switch {
		case !ok:
			continue
		case fd.Secret:
			parts = append(parts, fd.Name+": •••")
		default:
			parts = append(parts, fd.Name+": "+FormatValue(v))
		}
	}
	return strings.Join(parts, "; ")
}

const (
	msgTheRemote         msgID = "workrun.question_the_remote"
	msgAsks              msgID = "workrun.question_asks"
	msgAsksForm          msgID = "workrun.question_asks_form"
	msgAsksSignIn        msgID = "workrun.question_asks_sign_in"
	msgAnswered          msgID = "workrun.question_answered"
	msgAnsweredSecret    msgID = "workrun.question_answered_secret"
	msgDeclined          msgID = "workrun.question_declined"
	msgCancelled         msgID = "workrun.question_cancelled"
	msgSignedIn          msgID = "workrun.question_signed_in"
	msgActionNotTaken    msgID = "workrun.answer_action_not_taken"
	msgNothingWithAction msgID = "workrun.answer_nothing_with_action"
	msgEmptyAnswer       msgID = "workrun.answer_empty"
	msgNotAnObject       msgID = "workrun.answer_not_an_object"
)

var questionTexts = NewCatalog(map[msgID][2]string{
	msgTheRemote:         {"the remote", "远程方"},
	msgAsks:              {"%s asks (round %s): %s", "%s 提问（第 %s 轮）：%s"},
	msgAsksForm:          {"%s asks you to fill in a form (round %s): %s", "%s 请你填写表单（第 %s 轮）：%s"},
	msgAsksSignIn:        {"%s asks you to sign in (round %s): %s %s", "%s 请你登录（第 %s 轮）：%s %s"},
	msgAnswered:          {"answered (round %s): %s", "已回答（第 %s 轮）：%s"},
	msgAnsweredSecret:    {"answered (round %s) with a secret value, which is not saved", "已回答（第 %s 轮），答案为保密值，不会保存"},
	msgDeclined:          {"declined the request (round %s)", "已拒绝该请求（第 %s 轮）"},
	msgCancelled:         {"cancelled the request (round %s)", "已取消该请求（第 %s 轮）"},
	msgSignedIn:          {"said the sign-in is done (round %s)", "已确认登录完成（第 %s 轮）"},
	msgActionNotTaken:    {"the remote does not take %q here (it takes: %s)", "远程方此处不接受 %q（可用：%s）"},
	msgNothingWithAction: {"%s carries no answer: leave the text and the fields empty", "%s 不带答案：请让文本和字段留空"},
	msgEmptyAnswer:       {"the answer is empty", "答案为空"},
	msgNotAnObject:       {"a form answer is a JSON object of field values", "表单答案应为由字段值组成的 JSON 对象"},
})
