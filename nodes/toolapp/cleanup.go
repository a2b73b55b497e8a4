package toolapp

import (
	"context"

	"workrun/mcp"
	"workrun/mcptool"
	"workrun/workrun"
)

// cleanup is the node's cleanup tool (nil without cleanup_tool): the
// program is started again for it, and stopped when it answered.
func (s *step) cleanup() *mcptool.Cleanup {
	if s.cfg.CleanupTool == "" {
		return nil
	}
	cl := &mcptool.Cleanup{Tool: s.cfg.CleanupTool, Arguments: s.cleanupArgs, Types: s.types, Timeout: s.timeout, Store: s.kind.deps.Calls}
	var red redactor
	cl.Redact = func(t string) string { return red.string(t) }
	cl.Connect = func(ctx context.Context, nc workrun.NodeContext, values workrun.Values) (mcptool.Caller, func(context.Context), error) {
		secrets, r, err := s.secrets(ctx)
		if err != nil {
			return nil, nil, err
		}
		red = r
		p, err := s.start(ctx, values, red, secrets, func(line string) { nc.Progress(texts.Msg(msgStderr, line)) }, func(mcp.Notification) {})
		if err != nil {
			return nil, nil, err
		}
		stop := func(ctx context.Context) {
			if err := p.stop(ctx); err != nil {
				nc.Log(workrun.Plain(err.Error()))
			}
		}
		if _, err := p.client.Connect(ctx); err != nil {
			stop(ctx)
			return nil, nil, err
		}
		return p.client, stop, nil
	}
	return cl
}

// Rearm implements workrun.RearmableStep: a process that did not run the
// node (after a restart, or the CLI after `workrun run` exited) registers
// the cleanup of a node that finished, from its saved inputs and outputs.
// The cleanup record keeps it from being called twice.
func (s *step) Rearm(nc workrun.NodeContext, saved workrun.NodeRun) {
	if saved.Status != workrun.NodeSucceeded {
		return
	}
	s.cleanup().Register(nc, saved.Inputs, saved.Outputs)
}
