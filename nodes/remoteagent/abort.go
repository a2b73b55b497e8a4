package remoteagent

import (
	"context"
	"errors"
	"time"

	"workrun/a2a"
	"workrun/remotecall"
	"workrun/workrun"
)

// saveBound bounds one save of a cancel outcome; it is the hook's own bound,
// independent of how long the engine waits for the hooks.
const saveBound = 30 * time.Second

// abortBound is this node's bound on its abort hook, given to the engine in
// place of its own: discovery (after a restart) and the CancelTask, each
// bounded by timeout_seconds, then the save of the outcome.
func (s *step) abortBound() time.Duration { return 2*s.timeout + saveBound }

// abort is the node's OnAbort hook: the cancel table of
// docs/remote-agent.md R9 applied to this call by remotecall, with one
// CancelTask as the cancel; what the agent answers is shown and saved, never
// acted on.
func (c *call) abort(hookCtx context.Context) {
	// The engine's bound on the hook may be shorter than this node's own
	// timeout; the cancel has the node's bound and its outcome is always
	// saved, so both run on a context detached from the engine's.
	c.Abort(context.WithoutCancel(hookCtx), remotecall.Canceler[AgentClient]{
		Ended:             func(state string) bool { return a2a.TaskState(state).Terminal() },
		Cancel:            c.cancelTask,
		Timeout:           c.s.timeout,
		SaveBound:         saveBound,
		Log:               c.hookLog,
		SubmissionUnknown: texts.Msg(msgSubmissionUnknown),
		Requesting:        texts.Msg(msgCancelRequesting),
		CancelError:       func(err error) workrun.Text { return texts.Msg(msgCancelError, err) },
		SaveFailed:        func(err error) workrun.Text { return texts.Msg(msgSaveFailed, err) },
	})
}

// cancelTask sends the one CancelTask, connecting first when the call was
// resumed before it could connect (discovery is not a status query).
func (c *call) cancelTask(ctx context.Context, agent AgentClient, rec workrun.RemoteCall) remotecall.Answer {
	var (
		t   *a2a.Task
		err error
	)
	if agent == nil {
		agent, err = c.connect(ctx)
	}
	if err == nil {
		t, err = agent.CancelTask(ctx, rec.TaskID)
	}
	return cancelAnswer(t, err)
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
	remotecall.Rearm(nc, s.kind.deps.Calls, workrun.AttemptCallKey(callKey, nc), s.abortBound(),
		func(err error) workrun.Text { return texts.Msg(msgCallRecordUnreadable, err) },
		func(ctx context.Context, rec workrun.RemoteCall) {
			c := &call{s: s, nc: nc, red: remotecall.NewRedactor()}
			c.Call = remotecall.NewSaved[AgentClient](s.kind.deps.Calls, rec, nil, c.redactRecord)
			c.abort(ctx)
		})
}

// cancelAnswer maps what CancelTask returned to the outcome and the line shown
// (docs/remote-agent.md R10: sending a cancel is not the same as being canceled).
func cancelAnswer(t *a2a.Task, err error) remotecall.Answer {
	switch {
	case errors.Is(err, a2a.ErrTaskNotCancelable):
		return remotecall.Answer{Outcome: remotecall.CancelNotCancelable, Msg: texts.Msg(msgCancelNotCancelable, err)}
	case errors.Is(err, a2a.ErrTaskNotFound):
		return remotecall.Answer{Outcome: remotecall.CancelNotFound, Msg: texts.Msg(msgCancelNotFound)}
	case err != nil || t == nil:
		return remotecall.Answer{Outcome: remotecall.CancelUnconfirmed, Msg: texts.Msg(msgCancelUnconfirmed), Err: err}
	}
	a := remotecall.Answer{State: string(t.Status.State), Ended: t.Status.State.Terminal()}
	switch s := t.Status.State; {
	case s == a2a.TaskStateCanceled:
		a.Outcome, a.Msg = remotecall.CancelCanceled, texts.Msg(msgCanceled)
	case s == a2a.TaskStateCompleted:
		a.Outcome, a.Msg = remotecall.CancelAlreadyCompleted, texts.Msg(msgCancelAlreadyCompleted)
	case s.Terminal():
		a.Outcome, a.Msg = remotecall.CancelAlreadyEnded, stateMsg("cancel_already_ended", s)
	default:
		a.Outcome, a.Msg = remotecall.CancelStillWorking, stateMsg("cancel_still_working", s)
	}
	return a
}
