package toolapp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"workrun/mcp"
	"workrun/mcptool"
	"workrun/remotecall"
	"workrun/workrun"
)

// Errors a caller (or a test) can branch on.
var (
	// ErrResultUnknown: Workrun stopped (exited, was killed) while the call
	// was under way, and the program with it; the tool is not called again
	// unless it is annotated idempotentHint: true.
	ErrResultUnknown = errors.New("the tool program was stopped with Workrun; result unknown")
	// ErrToolError: the tool answered isError.
	ErrToolError = errors.New("tool error")
	// ErrNoTool: the program does not list the configured tool.
	ErrNoTool = errors.New("no such tool")
	// ErrTaskFailed: the tool's task ended failed or cancelled.
	ErrTaskFailed = errors.New("task did not complete")
)

// taskTTL is how long a task's result is asked to be kept (core form).
const taskTTL = time.Hour

// Poll interval bounds for a task: the server's, at least 1 s, at most 60 s.
const (
	minPoll = time.Second
	maxPoll = time.Minute
)

// call is one node execution's call; the embedded remotecall.Call mirrors
// its record.
type call struct {
	s  *step
	nc workrun.NodeContext
	*remotecall.Call[MCPClient]
	red   redactor
	shown string
}

func (c *call) log(id msgID, args ...any) { c.nc.Log(texts.Msg(id, args...)) }

// Run implements workrun.Step.
func (s *step) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	c := &call{s: s, nc: nc}
	var err error
	c.Call, err = remotecall.Load[MCPClient](ctx, s.kind.deps.Calls, nc, callKey, nil, func() (workrun.RemoteCall, error) {
		return workrun.RemoteCall{RunID: nc.RunID(), NodeID: nc.NodeID(), CallKey: callKey,
			MessageID: idempotencyKey(nc.RunID(), nc.NodeID())}, nil
	})
	if err != nil {
		return nil, err
	}
	if c.Saved() {
		r := c.Record()
		switch {
		case r.Ended && len(r.Result) > 0:
			c.log(msgReused, s.cfg.Tool)
			return s.finished(nc, r.Result)
		case r.Ended:
			return nil, texts.Error(ErrTaskFailed, msgEndedBefore, s.cfg.Tool, display(r.StatusText))
		case !parseLink(r.ContextID).Idempotent:
			err := texts.Error(ErrResultUnknown, msgResultUnknown, s.cfg.Tool)
			if uerr := c.Update(ctx, func(r *workrun.RemoteCall) { r.Ended, r.StatusText = true, err.Error() }); uerr != nil {
				return nil, uerr
			}
			return nil, err
		}
		c.log(msgRecalling, s.cfg.Tool)
	}
	return c.submit(ctx)
}

// finished returns a saved result's values and registers the cleanup.
func (s *step) finished(nc workrun.NodeContext, result json.RawMessage) (workrun.Values, error) {
	v, err := s.outputs().Values(result)
	if err != nil {
		return nil, err
	}
	s.cleanup().Register(nc, nc.Inputs(), v)
	return v, nil
}

// submit starts the program, finds the tool, commits the call, calls the
// tool once and stops the program when the call ends.
func (c *call) submit(ctx context.Context) (workrun.Values, error) {
	s := c.s
	args, summary, err := s.args.Build(ctx, c.nc.Inputs(), s.types, c.nc.Artifacts())
	if err != nil {
		return nil, err
	}
	secrets, red, err := s.secrets(ctx)
	if err != nil {
		return nil, err
	}
	c.red = red
	c.log(msgStarting, s.cfg.Command[0])
	p, err := s.start(ctx, c.nc.Inputs(), red, secrets, c.stderr, c.notification)
	if err != nil {
		return nil, texts.Error(err, msgStartFailed, c.redact(err))
	}
	defer func() {
		if err := p.stop(ctx); err != nil {
			c.nc.Log(workrun.Plain(err.Error()))
		}
	}()
	c.SetClient(p.client)
	ictx, cancel := context.WithTimeout(ctx, s.timeout)
	init, err := p.client.Connect(ictx)
	var tools []mcp.Tool
	if err == nil {
		tools, err = p.client.ListTools(ictx)
	}
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, texts.Error(err, msgConnectFailed, p.argv0, c.redact(err))
	}
	var tool *mcp.Tool
	var names []string
	for i := range tools {
		names = append(names, tools[i].Name)
		if tools[i].Name == s.cfg.Tool {
			tool = &tools[i]
		}
	}
	if tool == nil {
		return nil, texts.Error(ErrNoTool, msgNoTool, s.cfg.Tool, mcptool.Clip(strings.Join(names, ", "), 300))
	}
	form := taskForm(init, *tool, p.client.Version())
	l := link{Program: p.argv0, Tool: s.cfg.Tool, Idempotent: idempotent(*tool), Form: form}
	// What identifies the call is committed before it goes out.
	if err := c.Update(ctx, func(r *workrun.RemoteCall) { r.ContextID, r.TaskID, r.RemoteState = l.String(), "", "" }); err != nil {
		return nil, err
	}
	c.log(msgStarted, p.argv0, p.stdio.PID(), p.client.Version())
	mode := "plain call"
	if form != mcp.FormNone {
		mode = "task"
	}
	c.log(msgCalling, s.cfg.Tool, mode, summary)
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	res, err := p.client.CallTool(cctx, mcp.CallParams{Name: s.cfg.Tool, Arguments: args, Task: form,
		TTLMillis: taskTTL.Milliseconds(), IdempotencyKey: c.Record().MessageID})
	timedOut := cctx.Err() != nil
	cancel()
	if err != nil {
		return nil, c.failed(ctx, err, timedOut)
	}
	if res.Task != nil {
		t := res.Task
		if err := c.Update(ctx, func(r *workrun.RemoteCall) {
			r.TaskID, r.RemoteState, r.StatusText = t.TaskID, t.Status, mcptool.Clip(c.red.string(t.StatusMessage), 2000)
		}); err != nil {
			return nil, err
		}
		c.log(msgTaskAccepted, t.TaskID)
		c.status(t.Status, t.StatusMessage)
		r, err := c.follow(ctx, p.client, t, res.Form)
		if err != nil {
			return nil, err
		}
		return c.finish(ctx, r)
	}
	return c.finish(ctx, res.Result)
}

// failed ends a call whose request got no result: the node's context ended
// (Stop, exit: the record stays open, so a resume says the result is
// unknown), the program exited or broke the framing, or the request timed
// out (the program is stopped with the call, so nothing is left running).
func (c *call) failed(ctx context.Context, err error, timedOut bool) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if timedOut {
		err = texts.Error(err, msgNoAnswer, c.s.cfg.Tool, c.s.timeout)
	} else {
		err = texts.Error(err, msgCallFailed, c.redact(err))
	}
	if uerr := c.Update(ctx, func(r *workrun.RemoteCall) { r.Ended, r.StatusText = true, mcptool.Clip(err.Error(), 2000) }); uerr != nil {
		return uerr
	}
	return err
}

func (c *call) redact(err error) string { return mcptool.Clip(c.red.string(err.Error()), 2000) }

// finish turns the tool's result into the node's outputs and commits it;
// isError fails the node with the tool's own text. The cleanup is
// registered only now that the node finished.
func (c *call) finish(ctx context.Context, r *mcp.ToolResult) (workrun.Values, error) {
	if r == nil {
		return nil, c.failed(ctx, fmt.Errorf("%w: no result", mcp.ErrProtocol), false)
	}
	redactResult(r, c.red)
	if r.IsError {
		text := mcptool.Clip(r.Text(), 2000)
		if err := c.Update(ctx, func(rec *workrun.RemoteCall) { rec.Ended, rec.StatusText = true, text }); err != nil {
			return nil, err
		}
		return nil, texts.Error(ErrToolError, msgToolError, c.s.cfg.Tool, display(text))
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
	return c.s.finished(c.nc, res)
}

// redactResult hides secrets the program may have echoed in its result.
func redactResult(r *mcp.ToolResult, red redactor) {
	if red.r == nil {
		return
	}
	for i := range r.Content {
		r.Content[i].Text = red.string(r.Content[i].Text)
	}
	if len(r.StructuredContent) > 0 {
		r.StructuredContent = json.RawMessage(red.string(string(r.StructuredContent)))
	}
}

// taskForm: a task when the program offers tasks and the tool's
// execution.taskSupport allows one (a tool that requires one gets one).
func taskForm(init *mcp.InitializeResult, tool mcp.Tool, version string) string {
	form := init.Capabilities.TaskFormFor(version)
	if mcp.IsModern(version) {
		return form
	}
	if form == mcp.FormNone && tool.TaskSupport() == mcp.TaskRequired {
		return mcp.FormCore
	}
	if tool.TaskSupport() == mcp.TaskForbidden {
		return mcp.FormNone
	}
	return form
}

// idempotent reports the tool's idempotentHint annotation.
func idempotent(t mcp.Tool) bool {
	return t.Annotations != nil && t.Annotations.IdempotentHint != nil && *t.Annotations.IdempotentHint
}

// stderr shows one line of the program's stderr as a node message.
func (c *call) stderr(line string) { c.nc.Progress(texts.Msg(msgStderr, line)) }

// notification shows progress and task status notifications.
func (c *call) notification(n mcp.Notification) {
	switch n.Method {
	case "notifications/progress":
		if line := c.red.string(mcptool.ProgressLine(n.Params)); line != "" {
			c.nc.Progress(texts.Msg(msgProgress, line))
		}
	case "notifications/tasks/status":
		var t mcp.Task
		if json.Unmarshal(n.Params, &t) == nil && t.TaskID != "" && t.TaskID == c.Record().TaskID && !mcp.Terminal(t.Status) {
			c.status(t.Status, t.StatusMessage)
		}
	}
}

// status shows a task status line when it differs from the last one.
func (c *call) status(status, message string) {
	suffix := ""
	if m := mcptool.Clip(strings.TrimSpace(c.red.string(message)), 300); m != "" {
		suffix = " — " + m
	}
	if line := status + suffix; line != c.shown && status != "" {
		c.shown = line
		c.nc.Progress(texts.Msg(msgTaskStatus, status, suffix))
	}
}

func display(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
