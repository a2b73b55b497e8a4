package remotemcp

import (
	"context"
	"encoding/json"
	"net/http"
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
		return nil, reason([]error{mcp.ErrProtocol}, msgNoResult, c.s.cfg.Tool)
	}
	defer r.Release() //nolint:errcheck // the spool is removed; nothing to report
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
		c.progress(texts.Msg(msgSessionEndError, clip(err.Error(), 300)))
	}
}

func (s *step) valuesFromResult(raw json.RawMessage) (workrun.Values, error) {
	return s.outputs().Values(raw)
}

// transport resolves the node's credential and builds the call's
// credential-bound transport (remotecall): bound to the URL's origin even
// without a credential, so a legacy session id never leaves it; red learns
// every secret it sends.
func (s *step) transport(ctx context.Context, red *remotecall.Redactor) (*http.Client, error) {
	b, err := bind(ctx, s.kind.deps.Credentials, s.cfg.Credential, s.cfg.URL)
	if err != nil {
		return nil, err
	}
	b.Redactor, b.Base = red, s.kind.deps.Base
	tr, err := remotecall.NewTransport(b)
	if err != nil {
		return nil, reason([]error{err}, msgCredentialFailed, s.cfg.Credential, why(err))
	}
	return tr.Client(), nil
}

// bind is remotecall.BindNamed, bound to the origin of url even without a
// credential.
func bind(ctx context.Context, src CredentialSource, name, url string) (remotecall.Binding, error) {
	b, err := remotecall.BindNamed(ctx, src, name, url)
	if err == nil && b.Origin.IsZero() {
		b.Origin, err = remotecall.ParseOrigin(url)
	}
	return b, err
}
