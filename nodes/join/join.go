package join

import (
	"context"
	"encoding/json"

	"workrun/workrun"
)

// Kind is the "join" node kind.
type Kind struct{}

func (Kind) Type() string { return "join" }

// Input policies (the "inputs" key): how a join treats a branch not taken.
const (
	InputsAny = "any" // the default: runs when at least one input was followed
	InputsAll = "all" // runs only when every input was followed, else is skipped
)

type config struct {
	Inputs string `json:"inputs"`
}

// Compile accepts {} or {"inputs": "any"|"all"}.
func (Kind) Compile(spec workrun.NodeSpec, wf workrun.Workflow) (workrun.Step, error) {
	var keys map[string]json.RawMessage
	if err := workrun.DecodeConfig(spec, &keys); err != nil {
		return nil, err
	}
	for k := range keys {
		if k != "inputs" {
			return nil, texts.Fail(nil, msgCfgUnknown, k)
		}
	}
	var c config
	if err := workrun.DecodeConfig(spec, &c); err != nil {
		return nil, err
	}
	switch c.Inputs {
	case "", InputsAny:
		return step{}, nil
	case InputsAll:
		return step{all: true}, nil
	}
	return nil, texts.Fail(nil, msgCfgInputs, c.Inputs)
}

type step struct{ all bool }

func (step) Reads() []string  { return nil }
func (step) Writes() []string { return nil }

// NeedsAllInputs implements workrun.AllInputsStep.
func (s step) NeedsAllInputs() bool { return s.all }

func (step) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	return nil, nil
}

// Pure implements workrun.PureStep: the node has no effect outside the
// process, so its record and lines are written behind (docs/engine.md).
func (step) Pure() {}
