package remotecall

import (
	"context"
	"errors"
	"time"

	"workrun/workrun"
)

// Cancel outcomes saved in the call record (docs/remote-agent.md R9–R11,
// R13); both remote kinds save the same words.
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

// Answer is what a cancel came to: the outcome to save, the line shown,
// and, when the answer named one, the remote state with whether it has ended.
type Answer struct {
	Outcome string
	Msg     workrun.Text
	State   string // "" when the answer named none
	Ended   bool
	// Err is the cancel request's error, shown after an "unconfirmed" line.
	Err error
}

// Canceler is what a kind passes to Abort: its cancel request, its
// messages, and its bounds.
type Canceler[C any] struct {
	// Ended reports whether a saved remote state has ended (no cancel then).
	Ended func(state string) bool
	// Cancel sends the one cancel for rec through client (the zero value
	// when the call never connected in this process: Cancel connects
	// first) and reads the answer. ctx carries the Timeout.
	Cancel func(ctx context.Context, client C, rec workrun.RemoteCall) Answer
	// Timeout bounds the cancel (timeout_seconds).
	Timeout time.Duration
	// SaveBound, when not zero, is the save's own bound, on a context
	// detached from the hook's; zero saves on the hook's context.
	SaveBound time.Duration
	// Log commits a node message.
	Log func(workrun.Text)
	// The lines: a call without a task id, the cancel being sent, the
	// cancel request's error, a failed save of the outcome.
	SubmissionUnknown workrun.Text
	Requesting        workrun.Text
	CancelError       func(err error) workrun.Text
	SaveFailed        func(err error) workrun.Text
}

// Abort is the node's abort hook: the cancel table applied to this call,
// from what was saved (see the package doc). It takes the snapshot once; a
// second call does nothing. The engine runs the hooks of all nodes
// concurrently, so one slow or failing cancel never holds back another
// (docs/remote-agent.md R10).
func (c *Call[C]) Abort(ctx context.Context, k Canceler[C]) {
	c.mu.Lock()
	if c.aborted {
		c.mu.Unlock()
		return
	}
	c.aborted = true
	rec, saved, client := c.rec, c.saved, c.client
	c.mu.Unlock()

	switch {
	case !saved:
		return // the request key was never committed, so nothing was sent
	case rec.Ended || k.Ended(rec.RemoteState):
		return // completed, failed, canceled or rejected: no cancel
	case rec.CancelOutcome != "":
		return // an earlier process already sent (or tried) its one cancel (docs/remote-agent.md R13)
	case rec.TaskID == "":
		k.Log(k.SubmissionUnknown)
		c.saveCancel(ctx, k, Answer{Outcome: CancelSubmissionUnknown, Msg: k.SubmissionUnknown})
		return
	}

	// The cancel goes out at once; the "requesting" line and the
	// "requested" outcome are committed while it travels, and the answer is
	// shown only after that line (R11 order). Nothing waits for a commit
	// before sending: one slow disk must not hold back a cancel. A resumed
	// call that finds "requested" saved is never continued, and nothing
	// sends it again (docs/remote-agent.md R13).
	logged := make(chan struct{})
	go func() {
		defer close(logged)
		k.Log(k.Requesting)
		c.saveCancel(ctx, k, Answer{Outcome: CancelRequested, Msg: k.Requesting})
	}()
	cctx, cancel := context.WithTimeout(ctx, k.Timeout)
	defer cancel()
	a := k.Cancel(cctx, client, rec)
	<-logged
	k.Log(a.Msg)
	if a.Outcome == CancelUnconfirmed && a.Err != nil {
		k.Log(k.CancelError(a.Err))
	}
	c.saveCancel(ctx, k, a)
}

// saveCancel commits the cancel outcome; the snapshot is frozen, so this is
// the only write after the hook started. A failed save is shown, not
// retried. The record keeps the line as rendered now (a record field is
// text).
func (c *Call[C]) saveCancel(ctx context.Context, k Canceler[C], a Answer) {
	if k.SaveBound > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), k.SaveBound)
		defer cancel()
	}
	text := a.Msg.String()
	c.mu.Lock()
	defer c.mu.Unlock()
	err := c.commitLocked(ctx, func(r *workrun.RemoteCall) {
		r.CancelOutcome, r.CancelText = a.Outcome, text
		if a.State != "" {
			r.RemoteState, r.Ended = a.State, a.Ended
		}
	})
	if err != nil {
		k.Log(k.SaveFailed(err))
	}
}

// Rearm registers the abort hook again in a process that does not hold the
// run's hooks — the app after a restart, the CLI after `workrun run` exited
// (workrun.RearmableStep). Nothing is sent here: when the abort begins, the
// hook reads the saved record (key names the call) and hands it to abort,
// which applies the same table as a live call's hook, so a call whose record
// already holds a cancel outcome gets nothing (docs/remote-agent.md R2, R9,
// R13). A node that never saved a call has nothing to cancel; a record that
// cannot be read is reported with unreadable. bound is the hook's own bound
// (workrun.OnAbortWithin); zero leaves the engine's.
func Rearm(nc workrun.NodeContext, st Store, key string, bound time.Duration, unreadable func(error) workrun.Text, abort func(ctx context.Context, rec workrun.RemoteCall)) {
	hook := func(ctx context.Context) {
		rec, err := st.GetRemoteCall(ctx, nc.RunID(), nc.NodeID(), key)
		if errors.Is(err, workrun.ErrNotFound) {
			return
		}
		if err != nil {
			nc.Log(unreadable(err))
			return
		}
		abort(ctx, rec)
	}
	if bound > 0 {
		workrun.OnAbortWithin(nc, bound, hook)
		return
	}
	nc.OnAbort(hook)
}
