package remoteagent

import (
	"context"
	"errors"
	"time"

	"workrun/a2a"
	"workrun/workrun"
)

// saveBound bounds one save of a cancel outcome; it is the hook's own bound,
// independent of how long the engine waits for the hooks.
const saveBound = 30 * time.Second

// abortBound is this node's bound on its abort hook, given to the engine in
// place of its own: discovery (after a restart) and the CancelTask, each
// bounded by timeout_seconds, then the save of the outcome.
func (s *step) abortBound() time.Duration { return 2*s.timeout + saveBound }

// Cancel outcomes saved in the call record (docs/remote-agent.md R9–R11, R13).
const (
	CancelRequested         = "requested" // sent; no answer recorded (yet)
	CancelCanceled          = "canceled"
	CancelStillWorking      = "still_working"
	CancelAlreadyCompleted  = "completed"
	CancelAlreadyEnded      = "ended"
	CancelNotCancelable     = "not_cancelable"
	CancelNotFound          = "not_found"
	CancelUnconfirmed       = "unconfirmed"
	CancelSubmissionUnknown = "submission_unknown"
)

// abort is the node's OnAbort hook: the R9 table applied to this call, from
// what was saved. It sends at most one CancelTask, without a status query
// first, and never retries; what the agent answers is shown and saved, never
// acted on. The engine runs the hooks of all nodes concurrently, so one slow
// or failing cancel never holds back another (docs/remote-agent.md R10).
func (c *call) abort(hookCtx context.Context) {
	// The engine's bound on the hook may be shorter than this node's own
	// timeout; the cancel has the node's bound and its outcome is always
	// saved, so both run on a context detached from the engine's.
	ctx := context.WithoutCancel(hookCtx)
	c.mu.Lock()
	if c.aborted {
		c.mu.Unlock()
		return
	}
	c.aborted = true
	rec, saved, agent := c.rec, c.saved, c.agent
	c.mu.Unlock()

	state := a2a.TaskState(rec.RemoteState)
	switch {
	case !saved:
		// The messageId was never committed, so the request never went out.
		return
	case rec.Ended || state.Terminal():
		return // completed, failed, canceled or rejected: no cancel
	case rec.CancelOutcome != "":
		return // an earlier process already sent (or tried) its one cancel (docs/remote-agent.md R13)
	case rec.TaskID == "":
		msg := texts.Msg(msgSubmissionUnknown)
		c.hookLog(msg)
		c.saveCancel(ctx, CancelSubmissionUnknown, msg, "")
		return
	}

	// The cancel goes out at once; the "requesting" line and the "requested"
	// outcome are committed while it travels, and the answer is shown only
	// after that line (R11 order). Nothing waits for a commit before sending:
	// one slow disk must not hold back a cancel. A resumed call that finds
	// "requested" saved is never continued, and nothing sends it again (docs/remote-agent.md R13).
	logged := make(chan struct{})
	go func() {
		defer close(logged)
		msg := texts.Msg(msgCancelRequesting)
		c.hookLog(msg)
		c.saveCancel(ctx, CancelRequested, msg, "")
	}()
	cctx, cancel := context.WithTimeout(ctx, c.s.timeout)
	defer cancel()
	var (
		t   *a2a.Task
		err error
	)
	if agent == nil {
		// Resumed before it could connect: discovery is not a status query.
		agent, err = c.connect(cctx)
	}
	if err == nil {
		t, err = agent.CancelTask(cctx, rec.TaskID)
	}
	<-logged
	outcome, msg, newState := cancelAnswer(t, err)
	c.hookLog(msg)
	if outcome == CancelUnconfirmed && err != nil {
		c.hookLog(texts.Msg(msgCancelError, err))
	}
	c.saveCancel(ctx, outcome, msg, newState)
}

var _ workrun.RearmableStep = (*step)(nil)

// Rearm implements workrun.RearmableStep. A process that does not hold the
// run's hooks — the app after a restart, the CLI after `workrun run` exited —
// calls it on Resume or Stop for the nodes saved succeeded or interrupted (by
// the agent's INPUT_REQUIRED / AUTH_REQUIRED, or by the application's exit),
// so that Stop still applies the R9 table to their unfinished calls (docs/remote-agent.md R2, R9).
// Nothing is sent here: the hook reads the saved call record when the abort
// begins and applies the same table as a live call's hook, so a call whose
// record already holds a cancel outcome — a cancel sent, or only requested,
// before the restart — gets nothing: it is neither continued nor retried
// (docs/remote-agent.md R13). A node that never saved a call has nothing to cancel.
func (s *step) Rearm(nc workrun.NodeContext, _ workrun.NodeRun) {
	workrun.OnAbortWithin(nc, s.abortBound(), func(ctx context.Context) {
		rec, err := s.kind.deps.Calls.GetRemoteCall(ctx, nc.RunID(), nc.NodeID(), callKey)
		if errors.Is(err, workrun.ErrNotFound) {
			return
		}
		if err != nil {
			nc.Log(texts.Msg(msgCallRecordUnreadable, err))
			return
		}
		c := &call{s: s, nc: nc, rec: rec, saved: true}
		c.abort(ctx)
	})
}

// cancelAnswer maps what CancelTask returned to the outcome and the line shown
// (docs/remote-agent.md R10: sending a cancel is not the same as being canceled).
func cancelAnswer(t *a2a.Task, err error) (outcome string, msg workrun.Text, state a2a.TaskState) {
	switch {
	case errors.Is(err, a2a.ErrTaskNotCancelable):
		return CancelNotCancelable, texts.Msg(msgCancelNotCancelable, err), ""
	case errors.Is(err, a2a.ErrTaskNotFound):
		return CancelNotFound, texts.Msg(msgCancelNotFound), ""
	case err != nil || t == nil:
		return CancelUnconfirmed, texts.Msg(msgCancelUnconfirmed), ""
	}
	switch s := t.Status.State; {
	case s == a2a.TaskStateCanceled:
		return CancelCanceled, texts.Msg(msgCanceled), s
	case s == a2a.TaskStateCompleted:
		return CancelAlreadyCompleted, texts.Msg(msgCancelAlreadyCompleted), s
	case s.Terminal():
		return CancelAlreadyEnded, stateMsg("cancel_already_ended", s), s
	default:
		return CancelStillWorking, stateMsg("cancel_still_working", s), s
	}
}

// saveCancel commits the cancel outcome; the snapshot is frozen, so this is
// the only write after the hook started. A failed save is shown, not retried.
// The record keeps the line as rendered now (a record field is text).
func (c *call) saveCancel(ctx context.Context, outcome string, msg workrun.Text, state a2a.TaskState) {
	text := msg.String()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), saveBound)
	defer cancel()
	c.mu.Lock()
	defer c.mu.Unlock()
	err := c.commitLocked(ctx, func(r *workrun.RemoteCall) {
		r.CancelOutcome, r.CancelText = outcome, text
		if state != "" {
			r.RemoteState = string(state)
			r.Ended = state.Terminal()
		}
	})
	if err != nil {
		c.hookLog(texts.Msg(msgSaveFailed, err))
	}
}
