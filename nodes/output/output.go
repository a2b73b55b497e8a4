package output

import (
	"context"
	"workrun/workrun"
)

// Kind is the "output" node kind.
type Kind struct{}

func (Kind) Type() string { return "output" }

type config struct {
	Fields []string `json:"fields"`
}

// Compile checks that config.fields names declared State fields.
func (Kind) Compile(spec workrun.NodeSpec, wf workrun.Workflow) (workrun.Step, error) {
	var c config
	if err := workrun.DecodeConfig(spec, &c); err != nil {
		return nil, err
	}
	if len(c.Fields) == 0 {
		return nil, texts.Fail(nil, msgCfgFieldsEmpty)
	}
	for _, f := range c.Fields {
		if _, ok := wf.State[f]; !ok {
			return nil, texts.Fail(nil, msgCfgFieldUndeclared, f)
		}
	}
	return step{fields: c.Fields}, nil
}

type step struct{ fields []string }

func (s step) Reads() []string { return s.fields }
func (step) Writes() []string  { return nil }

func (s step) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	in := nc.Inputs()
	for _, f := range s.fields {
		v, ok := in[f]
		if !ok {
			nc.Log(texts.Msg(msgNotSet, f))
			continue
		}
		nc.Log(texts.Msg(msgValue, f, workrun.FormatValue(v)))
	}
	return nil, nil
}
