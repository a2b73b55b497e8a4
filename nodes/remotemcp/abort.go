package remotemcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"workrun/mcp"
	"workrun/workrun"
)

// Cancel outcomes saved in the call record (the same words as the Remote
// Agent's).
const (
	CancelRequested         = "requested"
	CancelCanceled          = "canceled"
	CancelStillWorking      = "still_working"
	CancelAlreadyCompleted  = "completed"
	CancelAlreadyEnded      = "ended"
	CancelNotCancelable     = "not_cancelable"
	CancelNotFound          = "not_found"
	CancelUnconfirmed       = "unconfirmed"
	CancelSubmissionUnknown = "submission_unknown"
)

// abort is the node's OnAbort hook: the Remote Agent's cancel table applied
// to this call, from what was saved. A task gets exactly one tasks/cancel
// (a legacy job one cancel_job, when the server offers it), with no status
// read first and no retry, bounded by timeout_seconds; a call without a
// handle shows "submission result unknown"; an ended call gets nothing. The
// engine runs all hooks concurrently, so one slow cancel never holds back
// another.
func (c *call) abort(ctx context.Context) {
	c.mu.Lock()
	if c.aborted {
		c.mu.Unlock()
		return
	}
	c.aborted = true
	rec, saved, srv := c.rec, c.saved, c.srv
	c.mu.Unlock()

	switch {
	case !saved:
		return // the key was never committed, so nothing was sent
	case rec.Ended || mcp.Terminal(rec.RemoteState):
		return
	case rec.CancelOutcome != "":
		return // an earlier process already sent (or tried) its one cancel
	case rec.TaskID == "":
		msg := texts.Msg(msgSubmissionUnknown)
		c.nc.Log(msg)
		c.saveCancel(ctx, CancelSubmissionUnknown, msg.String(), "")
		return
	}
	l := parseLink(rec.ContextID)
	// The cancel goes out at once; the "requesting" line and outcome are
	// committed while it travels, and the answer is shown after that line.
	logged := make(chan struct{})
	go func() {
		defer close(logged)
		msg := texts.Msg(msgCancelRequesting)
		c.nc.Log(msg)
		c.saveCancel(ctx, CancelRequested, msg.String(), "")
	}()
	cctx, cancel := context.WithTimeout(ctx, c.s.timeout)
	defer cancel()
	var (
		t   *mcp.Task
		err error
	)
	if srv == nil {
		// Resumed or rearmed: attach to the saved session (a new session
		// could not see the task).
		srv, err = c.dial(cctx)
		if err == nil {
			srv.Attach(l.Session, l.Protocol)
		}
	}
	if err == nil {
		if l.Handle == handleJob {
			t, err = cancelJob(cctx, srv, rec.TaskID)
		} else {
			t, err = srv.CancelTask(cctx, rec.TaskID)
		}
	}
	<-logged
	outcome, msg, state := cancelAnswer(t, err)
	c.nc.Log(msg)
	if outcome == CancelUnconfirmed && err != nil {
		c.nc.Log(texts.Msg(msgCancelError, clip(err.Error(), 300)))
	}
	c.saveCancel(ctx, outcome, msg.String(), state)
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
func cancelAnswer(t *mcp.Task, err error) (string, workrun.Text, string) {
	var rpc *mcp.RPCError
	switch {
	case errors.Is(err, mcp.ErrTaskNotFound), errors.Is(err, mcp.ErrSessionNotFound):
		return CancelNotFound, texts.Msg(msgCancelNotFound), ""
	case errors.Is(err, errNoJobCancel):
		return CancelNotCancelable, texts.Msg(msgCancelNotCancelable, err.Error()), ""
	case errors.As(err, &rpc) && strings.Contains(strings.ToLower(rpc.Message), "terminal"):
		return CancelAlreadyEnded, texts.Msg(msgCancelAlreadyEnded, clip(rpc.Message, 200)), ""
	case errors.As(err, &rpc):
		return CancelNotCancelable, texts.Msg(msgCancelNotCancelable, clip(rpc.Message, 200)), ""
	case err != nil || t == nil:
		return CancelUnconfirmed, texts.Msg(msgCancelUnconfirmed), ""
	}
	switch t.Status {
	case mcp.StatusCancelled:
		return CancelCanceled, texts.Msg(msgCanceled), t.Status
	case mcp.StatusCompleted:
		return CancelAlreadyCompleted, texts.Msg(msgCancelAlreadyCompleted), t.Status
	case mcp.StatusFailed:
		return CancelAlreadyEnded, texts.Msg(msgCancelAlreadyEnded, t.Status), t.Status
	}
	return CancelStillWorking, texts.Msg(msgCancelStillWorking, display(t.Status)), t.Status
}

// saveCancel commits the cancel outcome; the snapshot is frozen, so this is
// the only write after the hook started. A failed save is shown.
func (c *call) saveCancel(ctx context.Context, outcome, text, state string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	err := c.commitLocked(ctx, func(r *workrun.RemoteCall) {
		r.CancelOutcome, r.CancelText = outcome, text
		if state != "" {
			r.RemoteState = state
			r.Ended = mcp.Terminal(state)
		}
	})
	if err != nil {
		c.nc.Log(workrun.Plain(err.Error()))
	}
}

var _ workrun.RearmableStep = (*step)(nil)

// Rearm implements workrun.RearmableStep: a process that does not hold the
// run's hooks (the app after a restart, the CLI after `workrun run` exited)
// registers the hook again; it reads the saved record when the abort begins
// and applies the same table, so a call that already holds a cancel outcome
// gets nothing. Nothing is sent here.
func (s *step) Rearm(nc workrun.NodeContext, _ workrun.NodeRun) {
	nc.OnAbort(func(ctx context.Context) {
		rec, err := s.kind.deps.Calls.GetRemoteCall(ctx, nc.RunID(), nc.NodeID(), callKey)
		if errors.Is(err, workrun.ErrNotFound) {
			return
		}
		if err != nil {
			nc.Log(workrun.Plain(fmt.Sprintf("read remote call record: %v; no cancel sent", err)))
			return
		}
		c := &call{s: s, nc: nc, rec: rec, saved: true}
		c.abort(ctx)
	})
}
