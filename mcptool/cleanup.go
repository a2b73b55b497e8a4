package mcptool

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"workrun/mcp"
	"workrun/remotecall"
	"workrun/workrun"
)

// CleanupKey is the call key of the cleanup's record (beside a node's
// "call" record).
const CleanupKey = "cleanup"

// Cleanup outcomes saved in the cleanup record's CancelOutcome.
const (
	CleanupRequested  = "requested" // committed before the call went out
	CleanupDone       = "completed"
	CleanupToolError  = "tool_error"
	CleanupFailed     = "failed"
	CleanupTimedOut   = "unconfirmed"
	stopBound         = 15 * time.Second // closing the client (stopping a program) after the call
	cleanupAnswerClip = 500
)

// Caller is what a cleanup needs of an MCP client.
type Caller interface {
	CallTool(ctx context.Context, p mcp.CallParams) (*mcp.CallResult, error)
}

// Cleanup is a node's compensating tool: cleanup_tool with
// cleanup_arguments, called once if the run fails or is stopped after the
// node finished.
type Cleanup struct {
	Tool      string
	Arguments Arguments
	// Types are the workflow's State field types (file arguments).
	Types   map[string]workrun.FieldType
	Timeout time.Duration
	Store   remotecall.Store
	// Connect opens a client for the cleanup (dials the server, starts the
	// program; values are what the node ran with); close ends it. ctx
	// carries Timeout.
	Connect func(ctx context.Context, nc workrun.NodeContext, values workrun.Values) (c Caller, close func(context.Context), err error)
	// Redact, when set, is applied to what the tool answered before it is
	// shown or saved.
	Redact func(string) string
}

// Register makes the cleanup nc's abort hook for a node that finished
// with inputs in and outputs out, which its arguments may name. Call it
// only once the node succeeded (and from Rearm after a restart).
func (c *Cleanup) Register(nc workrun.NodeContext, in, out workrun.Values) {
	if c == nil || c.Tool == "" {
		return
	}
	values := maps.Clone(in)
	if values == nil {
		values = workrun.Values{}
	}
	maps.Copy(values, out)
	workrun.OnAbortWithin(nc, c.Timeout+stopBound+5*time.Second, func(ctx context.Context) { c.run(ctx, nc, values) })
}

func (c *Cleanup) redact(s string) string {
	if c.Redact == nil {
		return s
	}
	return c.Redact(s)
}

// run calls the cleanup tool once: its record is committed first, so no
// other hook and no later process calls it again.
func (c *Cleanup) run(ctx context.Context, nc workrun.NodeContext, values workrun.Values) {
	rec, err := c.Store.GetRemoteCall(ctx, nc.RunID(), nc.NodeID(), CleanupKey)
	switch {
	case err == nil:
		nc.Log(texts.Msg(msgCleanupAlready, rec.StatusText, rec.CancelText))
		return
	case !errors.Is(err, workrun.ErrNotFound):
		nc.Log(texts.Msg(msgCleanupFailed, c.Tool, fmt.Sprintf("read the cleanup record: %v; the cleanup tool was not called", err)))
		return
	}
	rec = workrun.RemoteCall{RunID: nc.RunID(), NodeID: nc.NodeID(), CallKey: CleanupKey,
		StatusText: c.Tool, CancelOutcome: CleanupRequested, CancelText: "requested"}
	if err := c.Store.SaveRemoteCall(ctx, rec); err != nil {
		nc.Log(texts.Msg(msgCleanupFailed, c.Tool, fmt.Sprintf("save the cleanup record: %v; the cleanup tool was not called", err)))
		return
	}
	nc.Log(texts.Msg(msgCleanupCalling, c.Tool))
	outcome, msg := c.call(ctx, nc, values)
	nc.Log(msg)
	rec.Ended, rec.CancelOutcome, rec.CancelText = true, outcome, msg.String()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := c.Store.SaveRemoteCall(sctx, rec); err != nil {
		nc.Log(workrun.Plain(fmt.Sprintf("save cleanup outcome: %v", err)))
	}
}

// call makes the one cleanup call, bounded by Timeout.
func (c *Cleanup) call(ctx context.Context, nc workrun.NodeContext, values workrun.Values) (string, workrun.Text) {
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	fail := func(err error) (string, workrun.Text) {
		if ctx.Err() != nil {
			return CleanupTimedOut, texts.Msg(msgCleanupTimedOut, c.Tool, c.Timeout)
		}
		return CleanupFailed, texts.Msg(msgCleanupFailed, c.Tool, Clip(c.redact(err.Error()), cleanupAnswerClip))
	}
	args, _, err := c.Arguments.Build(ctx, values, c.Types, nc.Artifacts())
	if err != nil {
		return fail(err)
	}
	client, closeFn, err := c.Connect(ctx, nc, values)
	if err != nil {
		return fail(err)
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), stopBound)
		defer cancel()
		closeFn(sctx)
	}()
	res, err := client.CallTool(ctx, mcp.CallParams{Name: c.Tool, Arguments: args})
	switch {
	case err != nil:
		return fail(err)
	case res.Result == nil:
		return CleanupFailed, texts.Msg(msgCleanupFailed, c.Tool, "it answered with a task; a cleanup tool must answer at once")
	case res.Result.IsError:
		return CleanupToolError, texts.Msg(msgCleanupToolError, c.Tool, display(Clip(c.redact(res.Result.Text()), cleanupAnswerClip)))
	}
	return CleanupDone, texts.Msg(msgCleanupDone, c.Tool, display(Clip(c.redact(res.Result.Text()), cleanupAnswerClip)))
}

func display(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// CleanupReads are the State fields cleanup arguments read: those they name
// that are not the node's own outputs.
func CleanupReads(args Arguments, o Outputs) []string {
	var r []string
	for _, f := range args.Reads() {
		if f != o.Output && f != o.OutputJSON && f != o.OutputFiles {
			r = append(r, f)
		}
	}
	return r
}
