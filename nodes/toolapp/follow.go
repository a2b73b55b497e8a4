package toolapp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"workrun/mcp"
	"workrun/mcptool"
	"workrun/workrun"
)

// maxReadFailures bounds how often in a row reading the task may fail.
const maxReadFailures = 5

// follow follows the program's task until it ends, while Workrun runs
// (docs/tool-app.md T5): in the core form it waits with tasks/result and,
// when that wait breaks or lasts timeout_seconds, reads the task with
// tasks/get; in the extension form it reads the task at the server's poll
// interval. The tool is never called again.
func (c *call) follow(ctx context.Context, srv MCPClient, t *mcp.Task, form string) (*mcp.ToolResult, error) {
	id := t.TaskID
	poll := pollOf(t)
	waitResult := form != mcp.FormExtension
	failures := 0
	for {
		if waitResult {
			rctx, cancel := context.WithTimeout(ctx, c.s.timeout)
			r, err := srv.TaskResult(rctx, id)
			cancel()
			switch {
			case err == nil:
				return r, nil
			case ctx.Err() != nil:
				return nil, ctx.Err()
			case errors.Is(err, mcp.ErrProgramExited), errors.Is(err, mcp.ErrProtocol), errors.Is(err, mcp.ErrLineTooLarge):
				return nil, c.failed(ctx, err, false)
			case errors.Is(err, mcp.ErrMethodNotFound):
				waitResult = false
			}
		} else if err := mcptool.Sleep(ctx, poll); err != nil {
			return nil, err
		}
		gctx, cancel := context.WithTimeout(ctx, c.s.timeout)
		got, err := srv.GetTask(gctx, id)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			failures++
			if failures >= maxReadFailures || errors.Is(err, mcp.ErrProgramExited) {
				return nil, c.failed(ctx, fmt.Errorf("follow task %s: %w", id, err), false)
			}
			if err := mcptool.Sleep(ctx, poll); err != nil {
				return nil, err
			}
			continue
		}
		failures = 0
		poll = pollOf(got)
		if err := c.Update(ctx, func(r *workrun.RemoteCall) {
			r.RemoteState, r.StatusText = got.Status, mcptool.Clip(c.red.string(got.StatusMessage), 2000)
		}); err != nil {
			return nil, err
		}
		c.status(got.Status, got.StatusMessage)
		switch got.Status {
		case mcp.StatusCompleted:
			if got.Result != nil {
				return got.Result, nil
			}
			rctx, cancel := context.WithTimeout(ctx, c.s.timeout)
			r, err := srv.TaskResult(rctx, id)
			cancel()
			if err != nil {
				return nil, c.failed(ctx, fmt.Errorf("read result of task %s: %w", id, err), false)
			}
			return r, nil
		case mcp.StatusFailed, mcp.StatusCancelled:
			why := got.StatusMessage
			if why == "" && got.Error != nil {
				why = got.Error.Message
			}
			err := texts.Error(ErrTaskFailed, msgTaskFailed, id, got.Status, display(mcptool.Clip(c.red.string(why), 2000)))
			if uerr := c.Update(ctx, func(r *workrun.RemoteCall) { r.Ended = true }); uerr != nil {
				return nil, uerr
			}
			return nil, err
		case mcp.StatusInputRequired:
			// Nothing in Workrun answers a local program's question; the
			// program stops with the node.
			return nil, c.failed(ctx, texts.Error(ErrTaskFailed, msgInputRequired, id, display(got.StatusMessage)), false)
		}
		if !waitResult {
			continue
		}
		if err := mcptool.Sleep(ctx, poll); err != nil {
			return nil, err
		}
	}
}

func pollOf(t *mcp.Task) time.Duration {
	d := time.Duration(t.PollMillis()) * time.Millisecond
	return min(max(d, minPoll), maxPoll)
}
