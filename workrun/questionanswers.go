package workrun

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
)

// Answers is a remote node's optional `answers` config
// (docs/workflow-format.md "answers"): what to answer the remote's first
// question with, so an unattended run goes on without asking anyone. It is
// a template over the node's readable fields (a text answer, A2A), or an
// object of form field → template (an MCP form; a template that is exactly
// one "{{field}}" passes that field's value as it is, any other is
// rendered to text and read by the form field's kind, FormField.Parse).
type Answers struct {
	Text   string
	Fields map[string]string
	set    bool
}

// IsSet reports whether the node has an `answers` config.
func (a Answers) IsSet() bool { return a.set }

// UnmarshalJSON reads a string or an object of strings.
func (a *Answers) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*a = Answers{}
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		*a = Answers{set: true}
		return json.Unmarshal(b, &a.Text)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return questionTexts.Fail(ErrBadAnswer, msgAnswersShape)
	}
	*a = Answers{Fields: m, set: true}
	return nil
}

// MarshalJSON writes what UnmarshalJSON reads (null when not set).
func (a Answers) MarshalJSON() ([]byte, error) {
	switch {
	case !a.set:
		return []byte("null"), nil
	case a.Fields != nil:
		return json.Marshal(a.Fields)
	default:
		return json.Marshal(a.Text)
	}
}

// Reads lists the State fields the templates name, for the step's Reads.
func (a Answers) Reads() []string {
	out := TemplateFields(a.Text)
	for _, k := range slices.Sorted(maps.Keys(a.Fields)) {
		for _, f := range TemplateFields(a.Fields[k]) {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// PreAnswer is the answer a's config gives q, for the first round only
// (ok false for a later round, a sign-in, or no config): rendered from the
// node's inputs and checked like a person's answer (CheckAnswer; a form
// answer that does not fit fails the node with the reason). It writes
// that it answered, and the answer, in the node's messages. The
// step sends it exactly as it sends a person's answer (committed first).
func PreAnswer(nc NodeContext, q Question, a Answers) (d Decision, ok bool, err error) {
	if !a.set || q.Round != 1 || q.Kind == QuestionSignIn {
		return Decision{}, false, nil
	}
	in := nc.Inputs()
	d = Decision{RunID: nc.RunID(), NodeID: nc.NodeID(), Round: q.Round, Action: AnswerAccept}
	switch {
	case q.Kind == QuestionText:
		d.Text = ExpandTemplate(a.Text, in)
	case a.Fields == nil:
		return Decision{}, false, questionTexts.Fail(ErrBadAnswer, msgAnswersWantFields)
	default:
		form, err := ParseForm(q.Schema)
		if err != nil {
			return Decision{}, false, err
		}
		vals := map[string]any{}
		for name, tmpl := range a.Fields {
			fd, known := form.Field(name)
			if f, single := TemplateSingleField(tmpl); single && known && fd.Kind != FormString {
				if v, set := in[f]; set {
					if s, isText := v.(string); !isText {
						vals[name] = v
						continue
					} else {
						tmpl = s
					}
				}
			}
			text := ExpandTemplate(tmpl, in)
			if !known {
				vals[name] = text // Check names it
				continue
			}
			v, err := fd.Parse(text)
			if err != nil {
				return Decision{}, false, err
			}
			if v != nil {
				vals[name] = v
			}
		}
		if d.Content, err = json.Marshal(form.Fill(vals)); err != nil {
			return Decision{}, false, err
		}
	}
	if d, err = CheckAnswer(q, d); err != nil {
		return Decision{}, false, err
	}
	nc.Log(questionTexts.Msg(msgPreAnswered, strconv.Itoa(q.Round)))
	nc.Log(answerLine(q, d))
	return d, true, nil
}

const (
	msgAnswersShape      msgID = "workrun.answers_shape"
	msgAnswersWantFields msgID = "workrun.answers_want_fields"
	msgPreAnswered       msgID = "workrun.question_pre_answered"
)

var _ = NewCatalog(map[msgID][2]string{
	msgAnswersShape:      {"answers: want a template (text) or an object of field → template", "answers：应为模板（文本），或由字段 → 模板组成的对象"},
	msgAnswersWantFields: {"answers: the remote asks for a form; give an object of field → template", "answers：远程方要求填写表单，请给出由字段 → 模板组成的对象"},
	msgPreAnswered:       {"the workflow's answers config answers round %s; nobody is asked", "由工作流的 answers 配置回答第 %s 轮，不询问任何人"},
})
