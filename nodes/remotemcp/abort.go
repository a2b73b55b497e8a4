package remotemcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"workrun/mcp"
	"workrun/remotecall"
	"workrun/workrun"
)

// abort is the node's OnAbort hook: the Remote Agent's cancel table applied
// to this call by remotecall. A task gets exactly one tasks/cancel (a legacy
// job one cancel_job, when the server offers it), bounded by
// timeout_seconds.
func (c *call) abort(ctx context.Context) {
	c.Abort(ctx, remotecall.Canceler[MCPClient]{
		Ended:             mcp.Terminal,
		Cancel:            c.cancel,
		Timeout:           c.s.timeout,
		Log:               c.logText,
		SubmissionUnknown: texts.Msg(msgSubmissionUnknown),
		Requesting:        texts.Msg(msgCancelRequesting),
		CancelError:       func(err error) workrun.Text { return texts.Msg(msgCancelError, clip(c.red.String(err.Error()), 300)) },
		SaveFailed:        func(err error) workrun.Text { return workrun.Plain(c.red.String(err.Error())) },
	})
}

// cancel sends the one cancel of rec's task or job. A call resumed or
// rearmed attaches to the saved session first (a new session could not see
// the task).
func (c *call) cancel(ctx context.Context, srv MCPClient, rec workrun.RemoteCall) remotecall.Answer {
	l := parseLink(rec.ContextID)
	var (
		t   *mcp.Task
		err error
	)
	if srv == nil {
		srv, err = c.dial(ctx)
		if err == nil {
			srv.Attach(l.Session, l.Protocol)
		}
	}
	if err == nil {
		if l.Handle == handleJob {
			t, err = cancelJob(ctx, srv, rec.TaskID)
		} else {
			t, err = srv.CancelTask(ctx, rec.TaskID)
		}
	}
	return cancelAnswer(t, err)
}

// errNoJobCancel: the server offers no way to cancel a legacy job.
var errNoJobCancel = errors.New("the server offers no cancel_job tool")

// cancelJob cancels a legacy job with the server's cancel_job tool, if the
// session lists one.
func cancelJob(ctx context.Context, srv MCPClient, id string) (*mcp.Task, error) {
	tools, err := srv.ListTools(ctx)
	if err != nil {
		return nil, err
	}
	found := false
	for _, t := range tools {
		found = found || t.Name == "cancel_job"
	}
	if !found {
		return nil, errNoJobCancel
	}
	args, _ := json.Marshal(map[string]string{"job_id": id})
	res, err := srv.CallTool(ctx, mcp.CallParams{Name: "cancel_job", Arguments: args})
	if err != nil {
		return nil, err
	}
	if res.Result == nil || res.Result.IsError {
		text := ""
		if res.Result != nil {
			text = res.Result.Text()
		}
		return nil, &mcp.RPCError{Code: -32602, Message: "cancel_job: " + text}
	}
	j, _ := readJob(res.Result)
	status := strings.ToLower(j.Status)
	switch {
	case strings.HasPrefix(status, "cancel"):
		status = mcp.StatusCancelled
	case status == "completed" || status == "done" || status == "finished":
		status = mcp.StatusCompleted
	case status == "failed":
	default:
		status = mcp.StatusWorking
	}
	return &mcp.Task{TaskID: id, Status: status, StatusMessage: j.Message}, nil
}

// cancelAnswer maps what the cancel returned to the outcome and the line
// shown: sending a cancel is not the same as being cancelled.
func cancelAnswer(t *mcp.Task, err error) remotecall.Answer {
	var rpc *mcp.RPCError
	switch {
	case errors.Is(err, mcp.ErrTaskNotFound), errors.Is(err, mcp.ErrSessionNotFound):
		return remotecall.Answer{Outcome: remotecall.CancelNotFound, Msg: texts.Msg(msgCancelNotFound)}
	case errors.Is(err, errNoJobCancel):
		return remotecall.Answer{Outcome: remotecall.CancelNotCancelable, Msg: texts.Msg(msgCancelNotCancelable, err.Error())}
	case errors.As(err, &rpc) && strings.Contains(strings.ToLower(rpc.Message), "terminal"):
		return remotecall.Answer{Outcome: remotecall.CancelAlreadyEnded, Msg: texts.Msg(msgCancelAlreadyEnded, clip(rpc.Message, 200))}
	case errors.As(err, &rpc):
		return remotecall.Answer{Outcome: remotecall.CancelNotCancelable, Msg: texts.Msg(msgCancelNotCancelable, clip(rpc.Message, 200))}
	case err != nil:
		return remotecall.Answer{Outcome: remotecall.CancelUnconfirmed, Msg: texts.Msg(msgCancelUnconfirmed), Err: err}
	case t == nil:
		// An empty acknowledgement (the Tasks extension's answer): the
		// server accepted the cancel (docs/remote-mcp.md M9).
		return remotecall.Answer{Outcome: remotecall.CancelCanceled, State: mcp.StatusCancelled, Ended: true, Msg: texts.Msg(msgCanceled)}
	}
	a := remotecall.Answer{State: t.Status, Ended: mcp.Terminal(t.Status)}
	switch t.Status {
	case mcp.StatusCancelled:
		a.Outcome, a.Msg = remotecall.CancelCanceled, texts.Msg(msgCanceled)
	case mcp.StatusCompleted:
		a.Outcome, a.Msg = remotecall.CancelAlreadyCompleted, texts.Msg(msgCancelAlreadyCompleted)
	case mcp.StatusFailed:
		a.Outcome, a.Msg = remotecall.CancelAlreadyEnded, texts.Msg(msgCancelAlreadyEnded, t.Status)
	default:
		a.Outcome, a.Msg = remotecall.CancelStillWorking, texts.Msg(msgCancelStillWorking, display(t.Status))
	}
	return a
}

var _ workrun.RearmableStep = (*step)(nil)

// Rearm implements workrun.RearmableStep: a process that does not hold the
// run's hooks (the app after a restart, the CLI after `workrun run` exited)
// registers the hook again; it reads the saved record when the abort begins
// and applies the same table, so a call that already holds a cancel outcome
// gets nothing. Nothing is sent here.
func (s *step) Rearm(nc workrun.NodeContext, saved workrun.NodeRun) {
	if saved.Status == workrun.NodeSucceeded {
		s.cleanup().Register(nc, saved.Inputs, saved.Outputs) // cleanup.go
	}
	remotecall.Rearm(nc, s.kind.deps.Calls, workrun.AttemptCallKey(callKey, nc), 0,
		func(err error) workrun.Text {
			return workrun.Plain(fmt.Sprintf("read remote call record: %v; no cancel sent", err))
		},
		func(ctx context.Context, rec workrun.RemoteCall) {
			c := &call{s: s, nc: nc, red: remotecall.NewRedactor()}
			c.Call = remotecall.NewSaved[MCPClient](s.kind.deps.Calls, rec, nil, c.red.Record)
			c.abort(ctx)
		})
}
