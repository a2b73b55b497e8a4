package remotemcp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"workrun/mcp"
	"workrun/mcptool"
	"workrun/remotecall"
	"workrun/workrun"
)

// buildArguments builds the tool's arguments object (mcptool.Arguments:
// file limits checked before anything is sent).
func (s *step) buildArguments(ctx context.Context, nc workrun.NodeContext) (json.RawMessage, string, error) {
	return s.args.Build(ctx, nc.Inputs(), s.types, nc.Artifacts())
}

// outputs are the fields the result goes into.
func (s *step) outputs() mcptool.Outputs {
	return mcptool.Outputs{Output: s.cfg.Output, OutputJSON: s.cfg.OutputJSON, OutputFiles: s.cfg.OutputFiles}
}

// finish turns a tool result into the node's outputs: text blocks to output,
// structuredContent to output_json, images, audio and embedded resources to
// artifacts; resource links are listed, never downloaded. isError fails the
// node with the tool's own text. The result is committed before returning.
func (c *call) finish(ctx context.Context, srv MCPClient, r *mcp.ToolResult) (workrun.Values, error) {
	if r == nil {
		return nil, fmt.Errorf("call tool %s: %w: no result", c.s.cfg.Tool, mcp.ErrProtocol)
	}
	if r.IsError {
		text := clip(r.Text(), 2000)
		if err := c.Update(ctx, func(rec *workrun.RemoteCall) {
			rec.Ended, rec.StatusText = true, text
			if rec.RemoteState == "" {
				rec.RemoteState = mcp.StatusCompleted
			}
		}); err != nil {
			return nil, err
		}
		c.closeSession(ctx, srv)
		// isError is a known failure; the tool's text goes to the output
		// field too, kept when on_error handles the failure (docs/engine.md).
		var out workrun.Values
		if c.s.cfg.Output != "" {
			out = workrun.Values{c.s.cfg.Output: text}
		}
		return out, workrun.KnownFailure(texts.Error(ErrToolError, msgToolError, c.s.cfg.Tool, display(text)))
	}
	res, err := c.s.outputs().Save(ctx, c.nc, r)
	if err != nil {
		return nil, err
	}
	if err := c.Update(ctx, func(rec *workrun.RemoteCall) {
		rec.Result, rec.Ended = res, true
		if rec.TaskID != "" {
			rec.RemoteState = mcp.StatusCompleted
		}
	}); err != nil {
		return nil, err
	}
	c.log(msgCompleted, c.s.cfg.Tool)
	c.closeSession(ctx, srv)
	return c.s.finished(c.nc, res)
}

// closeSession ends the MCP session after the call is settled (never on an
// exit or failure: a resume or the abort's cancel still needs it).
func (c *call) closeSession(ctx context.Context, srv MCPClient) {
	if srv == nil || srv.Session() == "" {
		return
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), min(c.s.timeout, 10*time.Second))
	defer cancel()
	if err := srv.Close(cctx); err != nil {
		c.nc.Progress(texts.Msg(msgSessionEndError, clip(err.Error(), 300)))
	}
}

func (s *step) valuesFromResult(raw json.RawMessage) (workrun.Values, error) {
	return s.outputs().Values(raw)
}

// credential resolves the node's credential and checks it may go to the URL.
func (s *step) credential(ctx context.Context) (*mcp.Credential, error) {
	cred, err := remotecall.NamedCredential(ctx, s.kind.deps.Credentials, s.cfg.Credential)
	if cred == nil || err != nil {
		return nil, err
	}
	// mcp.New checks the origin binding and plain http again; checking here
	// gives the error before anything else happens.
	if _, err := mcp.New(s.cfg.URL, mcp.Options{Credential: cred}); err != nil {
		return nil, fmt.Errorf("credential %q: %w", s.cfg.Credential, err)
	}
	return cred, nil
}
