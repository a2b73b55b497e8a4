package join

import (
	"context"
	"strings"

	"workrun/workrun"
)

// Kind is the "join" node kind.
type Kind struct{}

func (Kind) Type() string { return "join" }

// Compile accepts an empty config.
func (Kind) Compile(spec workrun.NodeSpec, wf workrun.Workflow) (workrun.Step, error) {
	if c := strings.TrimSpace(string(spec.Config)); c != "" && c != "{}" && c != "null" {
		return nil, texts.Fail(nil, msgCfgNone, c)
	}
	return step{}, nil
}

type step struct{}

func (step) Reads() []string  { return nil }
func (step) Writes() []string { return nil }

func (step) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	return nil, nil
}
