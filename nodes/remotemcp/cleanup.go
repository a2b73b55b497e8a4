package remotemcp

import (
	"context"
	"encoding/json"
	"time"

	"workrun/mcp"
	"workrun/mcptool"
	"workrun/remotecall"
	"workrun/workrun"
)

// finished returns a saved result's values and registers the cleanup tool:
// the node has finished (docs/remote-mcp.md M14).
func (s *step) finished(nc workrun.NodeContext, result json.RawMessage) (workrun.Values, error) {
	v, err := s.valuesFromResult(result)
	if err != nil {
		return nil, err
	}
	s.cleanup().Register(nc, nc.Inputs(), v)
	return v, nil
}

// cleanup is the node's cleanup tool on the same server (nil without
// cleanup_tool), called once by mcptool.Cleanup in a new connection, which
// is ended when the tool answered.
func (s *step) cleanup() *mcptool.Cleanup {
	if s.cfg.CleanupTool == "" {
		return nil
	}
	return &mcptool.Cleanup{Tool: s.cfg.CleanupTool, Arguments: s.cleanupArgs, Types: s.types, Timeout: s.timeout, Store: s.kind.deps.Calls,
		Connect: func(ctx context.Context, nc workrun.NodeContext, _ workrun.Values) (mcptool.Caller, func(context.Context), error) {
			hc, err := s.transport(ctx, remotecall.NewRedactor())
			if err != nil {
				return nil, nil, err
			}
			srv, err := s.kind.deps.Dial(s.cfg.URL, hc, mcp.Options{ClientInfo: mcp.Implementation{Name: "workrun", Version: "1"}})
			if err != nil {
				return nil, nil, err
			}
			end := func(ctx context.Context) {
				cctx, cancel := context.WithTimeout(ctx, min(s.timeout, 10*time.Second))
				defer cancel()
				if err := srv.Close(cctx); err != nil {
					nc.Progress(texts.Msg(msgSessionEndError, clip(err.Error(), 300)))
				}
			}
			if _, err := srv.Connect(ctx); err != nil {
				return nil, nil, err
			}
			return srv, end, nil
		}}
}
