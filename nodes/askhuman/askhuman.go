package askhuman

import (
	"context"
	"strings"

	"workrun/workrun"
)

// Kind is the "ask_human" node kind.
type Kind struct{}

func (Kind) Type() string { return "ask_human" }

type config struct {
	Prompt string `json:"prompt"`
	Field  string `json:"field"`
}

// Compile requires a prompt and a text field for the answer.
func (Kind) Compile(spec workrun.NodeSpec, wf workrun.Workflow) (workrun.Step, error) {
	var c config
	if err := workrun.DecodeConfig(spec, &c); err != nil {
		return nil, err
	}
	if strings.TrimSpace(c.Prompt) == "" {
		return nil, texts.Fail(nil, msgCfgPromptRequired)
	}
	if c.Field == "" {
		return nil, texts.Fail(nil, msgCfgFieldRequired)
	}
	t, ok := wf.State[c.Field]
	if !ok {
		return nil, texts.Fail(nil, msgCfgFieldUndeclared, c.Field)
	}
	if t != workrun.FieldText {
		return nil, texts.Fail(nil, msgCfgFieldType, c.Field, t)
	}
	return &step{prompt: c.Prompt, field: c.Field}, nil
}

type step struct {
	prompt string
	field  string
}

func (s *step) Reads() []string  { return nil }
func (s *step) Writes() []string { return []string{s.field} }

// TakesDecisions: it waits for a person's answer (workrun.DecidingStep).
func (s *step) TakesDecisions() {}

func (s *step) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	d, ok, err := nc.Decision(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		nc.Log(texts.Msg(msgWaiting, s.prompt))
		return nil, &workrun.InterruptError{Cause: workrun.InterruptedByHuman, Reason: texts.Text(msgWaitingReason, s.prompt)}
	}
	nc.Log(texts.Msg(msgAnswered))
	return workrun.Values{s.field: d.Text}, nil
}
