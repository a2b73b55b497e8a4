package start

import (
	"context"
	"slices"

	"workrun/workrun"
)

// Kind is the "start" node kind.
type Kind struct{}

func (Kind) Type() string { return "start" }

// Compile accepts an empty config or the workflow's triggers
// (workrun.ParseStartConfig, docs/triggers.md).
func (Kind) Compile(spec workrun.NodeSpec, wf workrun.Workflow) (workrun.Step, error) {
	if _, err := workrun.ParseStartConfig(spec.Config); err != nil {
		return nil, err
	}
	return step{}, nil
}

type step struct{}

func (step) Entry()           {}
func (step) Reads() []string  { return nil }
func (step) Writes() []string { return nil } // the engine counts start as writing every field

func (step) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	in := nc.Inputs()
	names := make([]string, 0, len(in))
	for k := range in {
		names = append(names, k)
	}
	slices.Sort(names)
	if len(names) == 0 {
		nc.Log(texts.Msg(msgNoInputs))
	} else {
		nc.Log(texts.Msg(msgInputs, workrun.JoinList(names)))
	}
	return in, nil
}

// Pure implements workrun.PureStep: the node has no effect outside the
// process, so its record and lines are written behind (docs/engine.md).
func (step) Pure() {}
