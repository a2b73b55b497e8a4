package humanreview

import (
	"context"
	"errors"
	"strings"

	"workrun/workrun"
)

// ErrRejected is the failure of a rejected review.
var ErrRejected = errors.New("rejected by the reviewer")

// Kind is the "human_review" node kind.
type Kind struct{}

func (Kind) Type() string { return "human_review" }

type config struct {
	Prompt string `json:"prompt"`
	// Fields are State fields shown to the reviewer (read by the node).
	Fields []string `json:"fields,omitempty"`
}

// Compile requires a prompt.
func (Kind) Compile(spec workrun.NodeSpec, wf workrun.Workflow) (workrun.Step, error) {
	var c config
	if err := workrun.DecodeConfig(spec, &c); err != nil {
		return nil, err
	}
	if strings.TrimSpace(c.Prompt) == "" {
		return nil, texts.Fail(nil, msgCfgPromptRequired)
	}
	for _, f := range c.Fields {
		if _, ok := wf.State[f]; !ok {
			return nil, texts.Fail(nil, msgCfgFieldUndeclared, f)
		}
	}
	return &step{prompt: c.Prompt, fields: c.Fields}, nil
}

type step struct {
	prompt string
	fields []string
}

func (s *step) Reads() []string  { return s.fields }
func (s *step) Writes() []string { return nil }

// TakesDecisions: it waits for a person's decision (workrun.DecidingStep).
func (s *step) TakesDecisions() {}

func (s *step) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	d, ok, err := nc.Decision(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		nc.Log(texts.Msg(msgWaiting, s.prompt))
		in := nc.Inputs()
		for _, f := range s.fields {
			nc.Log(texts.Msg(msgValue, f, workrun.FormatValue(in[f])))
		}
		return nil, &workrun.InterruptError{Cause: workrun.InterruptedByHuman, Reason: texts.Text(msgWaitingReason, s.prompt)}
	}
	if !d.Approved {
		if d.Text != "" {
			nc.Log(texts.Msg(msgRejectedWhy, d.Text))
			return nil, texts.Error(ErrRejected, msgRejectedErrWhy, d.Text)
		}
		nc.Log(texts.Msg(msgRejected))
		return nil, texts.Error(ErrRejected, msgRejectedErr)
	}
	if d.Text != "" {
		nc.Log(texts.Msg(msgApprovedWhy, d.Text))
	} else {
		nc.Log(texts.Msg(msgApproved))
	}
	return nil, nil
}
