package remoteagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"workrun/a2a"
	"workrun/remotecall"
	"workrun/workrun"
)

// Errors a caller (or a test) can branch on.
var (
	// ErrSubmissionUnknown: the request may have reached the agent but no
	// taskId came back; the call is not resubmitted (docs/remote-agent.md R6, R9).
	ErrSubmissionUnknown = errors.New("submission result unknown")
	// ErrNotSubmitted: the submission was refused before it was accepted
	// (a 4xx answer, a JSON-RPC error, or the remote layer refusing to send
	// it); nothing runs at the agent.
	ErrNotSubmitted = errors.New("not submitted")
	// ErrUnfinished: a blocking SendMessage answered with a task that has not
	// ended (docs/remote-agent.md R7).
	ErrUnfinished = errors.New("agent returned an unfinished task")
	// ErrRemoteFailed: the remote task ended failed, rejected or canceled.
	ErrRemoteFailed = errors.New("remote task did not complete")
	// ErrAttachments: the attachments exceed the per-request limits (docs/remote-agent.md R14).
	ErrAttachments = errors.New("attachments over the limit")
	// errStrayMessage: a message without a taskId arrived in the stream of a
	// known task; the stream is left and the task read instead.
	errStrayMessage = errors.New("a message without a taskId arrived in the stream of a known task")
	// errIdle cancels a stream whose first event did not come within the
	// timeout.
	errIdle = errors.New("no answer within the timeout")
)

// call is one logical remote call of a node execution; the embedded
// remotecall.Call mirrors its saved record and orders saves against the
// abort hook's snapshot.
type call struct {
	s  *step
	nc workrun.NodeContext
	*remotecall.Call[AgentClient]
	// red knows every secret the call's transport has sent; the abort hook
	// may add one concurrently with the node.
	red *remotecall.Redactor

	// Owned by the goroutine running the node.
	res   *results
	reply *a2a.Message // a message answer instead of a task
	feed  progressFeed
	// shownDurable is textKey of the last committed status line.
	shownDurable string
	// lastStatus is the text of the last status the agent sent.
	lastStatus string
	// reconnectLines counts the reconnect lines saved (logBounded).
	reconnectLines int
	// The agent's question (ask.go): the question record, read once; the
	// last interrupted status; whether the agent took the answer in flight
	// (an event arrived on its request); the history of the last snapshot.
	ask         *askState
	askedStatus a2a.TaskStatus
	acked       bool
	history     []a2a.Message
}

// log commits a node message after the pending progress line; progress
// shows one that may be batched. Both run on the node's goroutine; the abort
// hook uses hookLog.
func (c *call) log(id msgID, args ...any) { c.logText(texts.Msg(id, args...)) }

func (c *call) logText(t workrun.Text) {
	c.flushProgress()
	c.nc.Log(c.red.Text(t))
}

func (c *call) progress(t workrun.Text) { c.nc.Progress(c.red.Text(t)) }

// hookLog commits a node message from the abort hook.
func (c *call) hookLog(t workrun.Text) { c.nc.Log(c.red.Text(t)) }

// redactRecord removes the secrets from a record before it is saved.
func (c *call) redactRecord(r workrun.RemoteCall) workrun.RemoteCall { return c.red.Record(r) }

// Run implements workrun.Step. What it returns is redacted: an agent may
// echo the credential's secret into an answer or an error.
func (s *step) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	c := &call{s: s, nc: nc, red: remotecall.NewRedactor(), res: newResults(spoolFiles(nc.Artifacts(), s.kind.deps.SpoolDir), s.kind.deps.MaxResultBytes)}
	out, err := c.run(ctx)
	c.flushProgress()
	return c.red.Values(out), c.red.Err(err)
}

func (c *call) run(ctx context.Context) (workrun.Values, error) {
	s, nc := c.s, c.nc
	defer func() {
		if err := c.res.close(); err != nil {
			c.log(msgTempFileNotRemoved, err)
		}
	}()
	var err error
	// Each attempt of the node is a new call with its own messageId
	// (docs/engine.md "Failure handling"); attempt 1 keeps the old key.
	key := workrun.AttemptCallKey(callKey, nc)
	c.Call, err = remotecall.Load[AgentClient](ctx, s.kind.deps.Calls, nc, key, c.redactRecord, func() (workrun.RemoteCall, error) {
		origin, err := remotecall.ParseOrigin(s.cfg.URL)
		return workrun.RemoteCall{
			RunID: nc.RunID(), NodeID: nc.NodeID(), CallKey: key,
			AgentURL: s.cfg.URL, Origin: origin.String(),
			MessageID: MessageID(nc.RunID(), nc.NodeID(), key),
		}, err
	})
	if err != nil {
		return nil, err
	}
	// From here on the abort hook may write the record: read it only
	// through c.Record().
	saved := c.Saved()
	workrun.OnAbortWithin(nc, s.abortBound(), c.abort)
	var out workrun.Values
	if saved {
		// An answer committed before an exit decides what the first
		// snapshot means (ask.go), so the question record is read first.
		if _, err := c.askState(ctx); err != nil {
			return nil, err
		}
		out, err = c.resume(ctx)
	} else {
		out, err = c.submit(ctx)
	}
	// The agent asked and an answer is at hand: send it and follow the
	// task again, round after round (ask.go).
	for {
		var a *answerNow
		if !errors.As(err, &a) {
			return out, err
		}
		out, err = c.sendAnswer(ctx, a)
	}
}

// submit sends the business message once (docs/remote-agent.md R5).
func (c *call) submit(ctx context.Context) (workrun.Values, error) {
	parts, n, err := c.s.buildParts(ctx, c.nc) // limits are checked before anything is sent
	if err != nil {
		return nil, err
	}
	agent, err := c.connect(ctx)
	if se := remotecall.SignInNeeded(err); se != nil {
		return nil, se // nothing was sent
	}
	if err != nil {
		return nil, err
	}
	c.SetClient(agent)
	name := agent.Endpoint()
	cardName := ""
	if card := agent.Card(); card != nil && card.Name != "" {
		name, cardName = card.Name, card.Name
	}
	// The messageId is committed before the request goes out
	// (docs/remote-agent.md R5), with the agent's name for the Remote
	// tasks tab (the record's redaction covers it).
	if err := c.Update(ctx, func(r *workrun.RemoteCall) { r.AgentName = cardName }); err != nil {
		return nil, err
	}
	// A run that began failing or stopping while the messageId was being
	// committed sends nothing: its abort already reported the call.
	if c.Aborted() {
		return nil, remotecall.ErrAborted
	}
	c.log(msgSendingParts, name, agent.Endpoint(), n.texts, n.data, n.files, n.bytes)
	req := a2a.SendMessageRequest{Message: a2a.Message{
		MessageID: c.Record().MessageID, Role: a2a.RoleUser, Parts: parts,
	}}
	if url, ok := c.pushEndpoint(agent); ok {
		return c.submitPush(ctx, agent, req, url) // docs/triggers.md P1
	}
	if !agent.Streaming() {
		return c.sendBlocking(ctx, agent, req)
	}
	res, ended, out, err := c.followToEnd(ctx, func(sctx context.Context) iter.Seq2[a2a.StreamEvent, error] {
		return agent.SendStreamingMessage(sctx, req)
	})
	if ended {
		return out, err
	}
	if c.Record().TaskID == "" {
		if se := remotecall.SignInNeeded(res.err); se != nil {
			return nil, c.signInFailed(ctx, se)
		}
		if notSubmitted(res.err) {
			return nil, c.refused(ctx, res.err)
		}
		return nil, reason([]error{ErrSubmissionUnknown, res.err}, msgErrSubmissionUnknown, why(res.err))
	}
	c.log(msgStreamLost, res.err)
	return c.recoverTask(ctx, agent, res.quiet)
}

// sendBlocking is the non-streaming path: SendMessage waits for the final
// answer; an unfinished task in it fails the node (docs/remote-agent.md R7).
func (c *call) sendBlocking(ctx context.Context, agent AgentClient, req a2a.SendMessageRequest) (workrun.Values, error) {
	done, err := c.sendOnce(ctx, agent, req)
	if err != nil {
		return nil, err
	}
	if !done {
		r := c.Record()
		return nil, reason([]error{ErrUnfinished}, msgErrUnfinishedBlock, r.TaskID, stateIn(a2a.TaskState(r.RemoteState)))
	}
	return c.finish(ctx)
}

// sendOnce sends one SendMessage and handles its answer; done: the task
// has ended or asks (or a message answered).
func (c *call) sendOnce(ctx context.Context, agent AgentClient, req a2a.SendMessageRequest) (bool, error) {
	rctx, cancel := context.WithTimeout(ctx, c.s.timeout)
	defer cancel()
	res, err := agent.SendMessage(rctx, req)
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		if rctx.Err() != nil {
			return false, reason([]error{ErrSubmissionUnknown}, msgErrSubmissionTimeout, c.s.timeout)
		}
		if se := remotecall.SignInNeeded(err); se != nil {
			return false, c.signInFailed(ctx, se)
		}
		if notSubmitted(err) {
			return false, c.refused(ctx, err)
		}
		return false, reason([]error{ErrSubmissionUnknown, err}, msgErrSubmissionUnknown, why(err))
	}
	var ev a2a.StreamEvent
	switch {
	case res.Task != nil:
		ev.Task = res.Task
	case res.Message != nil:
		ev.Message = res.Message
	default:
		return false, fmt.Errorf("send to remote agent: %w: empty answer", a2a.ErrProtocol)
	}
	return c.handle(ctx, ev)
}

// notSubmitted reports errors that prove no task was created: the request
// was refused before it was sent, or answered with an error instead of a task.
func notSubmitted(err error) bool {
	var rpc *a2a.RPCError
	var h *a2a.HTTPError
	return errors.Is(err, a2a.ErrRequestTooLarge) || errors.Is(err, a2a.ErrPayloadTooLarge) ||
		errors.Is(err, a2a.ErrUnauthorized) || errors.As(err, &rpc) ||
		(errors.As(err, &h) && h.StatusCode >= 400 && h.StatusCode <= 499) ||
		// refused by the remote layer before anything was sent
		errors.Is(err, remotecall.ErrOtherOrigin) || errors.Is(err, remotecall.ErrInsecureCredential) ||
		errors.Is(err, remotecall.ErrRequestTooLarge) || errors.Is(err, remotecall.ErrBadCredential)
}

// refused ends a call the agent (or the remote layer) refused, so the abort
// pass does not report a submission whose result is in fact known: it was
// not accepted.
func (c *call) refused(ctx context.Context, err error) error {
	err = refusal(err)
	if uerr := c.Update(ctx, func(r *workrun.RemoteCall) { r.Ended, r.StatusText = true, err.Error() }); uerr != nil {
		return uerr
	}
	// Refused before it was accepted: a known failure, which a retry
	// policy may try again as a new call (docs/engine.md).
	return workrun.KnownFailure(err)
}

// signInFailed ends a call whose credential needs the person before
// anything was accepted: the server was never sent the message, or refused
// it with 401/403, so the node fails with "sign in to ORIGIN again" and the
// call is closed, not reported as unknown (docs/oauth.md O9).
func (c *call) signInFailed(ctx context.Context, se *remotecall.SignInError) error {
	if uerr := c.Update(ctx, func(r *workrun.RemoteCall) { r.Ended, r.StatusText = true, se.Error() }); uerr != nil {
		return uerr
	}
	return se
}

// refusal is the error of a submission known not to have been accepted.
func refusal(err error) error {
	var h *a2a.HTTPError
	if errors.As(err, &h) {
		return reason([]error{ErrNotSubmitted, err}, msgErrRefusedHTTP, h.StatusCode, why(err))
	}
	return reason([]error{ErrNotSubmitted, err}, msgErrRefused, why(err))
}

// resume re-enters a call whose record was saved by an earlier execution of
// this node (the application exited): reuse a saved result, or follow the
// original task; never resubmit (docs/remote-agent.md R6, R7, R12, R13).
func (c *call) resume(ctx context.Context) (workrun.Values, error) {
	r := c.Record()
	state := a2a.TaskState(r.RemoteState)
	if r.CancelOutcome != "" {
		return nil, remotecall.AlreadyCanceled(r)
	}
	if r.Ended && len(r.Result) > 0 {
		c.log(msgReused, displayID(r.TaskID))
		return c.s.valuesFromResult(r.Result)
	}
	if state.Terminal() && state != a2a.TaskStateCompleted {
		return nil, c.remoteFailed(r)
	}
	if r.TaskID == "" {
		return nil, reason([]error{ErrSubmissionUnknown}, msgErrNoTaskSaved, r.MessageID)
	}
	agent, err := c.connect(ctx)
	if se := remotecall.SignInNeeded(err); se != nil {
		return nil, remotecall.SignInInterrupt(se, r.TaskID)
	}
	if err != nil {
		return nil, err
	}
	c.SetClient(agent)
	push, err := c.pushWaiting(ctx)
	if err != nil {
		return nil, err
	}
	if push {
		// P4: one read of a task that waits by push, never a subscription.
		c.log(msgPushChecking, r.TaskID)
		return c.recoverTask(ctx, agent, true)
	}
	c.log(msgResuming, r.TaskID)
	return c.recoverTask(ctx, agent, false)
}

// recoverTask follows a task whose id is known, by the remote layer's
// follow skeleton (remotecall.FollowPolicy.Follow): GetTask, then
// SubscribeToTask while it has not ended, then GetTask again after each
// break, with capped exponential backoff and jitter before every reconnect
// (docs/remote-agent.md R6, R7). No timer re-reads a quiet task: a live
// stream stays open however long the task takes.
//
// Unreachable is not failed: a GetTask that fails or times out is retried;
// past the policy's bound the node is interrupted ("the agent has not
// answered since T"), nothing is cancelled, and a resume follows the same
// task. An agent that keeps ending streams without the task changing
// interrupts the node the same way, naming what it kept doing. Only an
// answer that the task is not found ends the call as "remote task status
// unknown".
//
// byPush (docs/triggers.md P4): the task waits by push; a read that finds
// it unsettled waits by push again instead of subscribing.
func (c *call) recoverTask(ctx context.Context, agent AgentClient, byPush bool) (workrun.Values, error) {
	taskID := c.Record().TaskID
	var (
		out    workrun.Values
		outErr error
	)
	done, err := c.s.kind.deps.Follow.Follow(ctx, remotecall.Steps{
		Read: func(ctx context.Context) (bool, error, error) {
			c.logBounded(texts.Msg(msgReadingTask, taskID))
			gctx, cancel := context.WithTimeout(ctx, c.s.timeout)
			t, err := agent.GetTask(gctx, taskID)
			timedOut := gctx.Err() != nil
			cancel()
			switch {
			case err != nil && (errors.Is(err, remotecall.ErrCallBytes) || remotecall.SignInNeeded(err) != nil):
				return false, nil, err
			case err != nil && timedOut && ctx.Err() == nil:
				return false, reason([]error{err}, msgErrGetTaskTimeout, c.s.timeout, why(err)), nil
			case err != nil:
				return false, err, nil
			}
			d, herr := c.handle(ctx, a2a.StreamEvent{Task: t})
			if herr != nil {
				return false, nil, herr
			}
			if d && byPush {
				out, outErr = c.settlePush(ctx)
				return true, nil, nil
			}
			if d {
				out, outErr = c.finish(ctx)
				return true, nil, nil
			}
			if byPush {
				return false, nil, errPushWait
			}
			if !agent.Streaming() {
				return false, nil, reason([]error{ErrUnfinished}, msgErrUnfinishedNoPoll, taskID, stateIn(t.Status.State))
			}
			return false, nil, nil
		},
		Subscribe: func(ctx context.Context) (bool, error, error) {
			c.logBounded(texts.Msg(msgSubscribing, taskID))
			res, ended, o, err := c.followToEnd(ctx, func(sctx context.Context) iter.Seq2[a2a.StreamEvent, error] {
				return agent.SubscribeToTask(sctx, taskID)
			})
			if ended {
				out, outErr = o, err
				return true, nil, nil
			}
			if errors.Is(res.err, remotecall.ErrCallBytes) || remotecall.SignInNeeded(res.err) != nil {
				return false, nil, res.err
			}
			return false, res.err, nil
		},
		Fingerprint: c.fingerprint,
		Gone:        func(err error) bool { return errors.Is(err, a2a.ErrTaskNotFound) },
		Unreachable: func(since time.Time, err error) {
			c.log(msgUnreachable, since.UTC().Format(time.RFC3339), err)
		},
		Reconnecting: func(broke error, wait time.Duration) {
			c.logBounded(texts.Msg(msgStreamLost, broke))
		},
	})
	if done {
		return out, outErr
	}
	var unreachable *remotecall.UnreachableError
	var loop *remotecall.NoProgressError
	switch {
	case errors.Is(err, errPushWait):
		return nil, c.waitByPush()
	case errors.As(err, &unreachable):
		return nil, &workrun.InterruptError{Cause: workrun.InterruptedByUnreachable,
			Reason: texts.Text(msgNotAnswered, unreachable.Since.UTC().Format(time.RFC3339), c.red.String(fmt.Sprint(unreachable.Last)))}
	case errors.As(err, &loop):
		return nil, &workrun.InterruptError{Cause: workrun.InterruptedByUnreachable,
			Reason: texts.Text(msgKeptReconnecting, taskID, loop.Times, c.red.String(fmt.Sprint(loop.Last)))}
	case errors.Is(err, remotecall.ErrCallBytes):
		return nil, &workrun.InterruptError{Cause: workrun.InterruptedByUnreachable, Reason: texts.Text(msgTooMuch, taskID, c.red.String(err.Error()))}
	case remotecall.SignInNeeded(err) != nil:
		// The task is kept: sign in, then Resume follows it (docs/oauth.md O9).
		return nil, remotecall.SignInInterrupt(remotecall.SignInNeeded(err), taskID)
	}
	return nil, err
}

// fingerprint is what the task is now, as far as progress goes: its state,
// its status text and its results. A reconnect that leaves it unchanged
// counts towards the follow loop's bound.
func (c *call) fingerprint() string {
	r := c.Record()
	return fmt.Sprintf("%s\x00%s\x00%d\x00%d", r.RemoteState, c.lastStatus, c.res.count(), c.res.size())
}

// maxReconnectLines bounds the reading/following/stream-lost lines one call
// saves: a long outage or a looping server adds no more after them.
const maxReconnectLines = 30

// logBounded commits a reconnect line, at most maxReconnectLines per call;
// the last one says that further ones are left out.
func (c *call) logBounded(t workrun.Text) {
	switch {
	case c.reconnectLines < maxReconnectLines:
		c.logText(t)
	case c.reconnectLines == maxReconnectLines:
		c.log(msgReconnectLinesCut, maxReconnectLines)
	}
	c.reconnectLines++
}

// followed is how one stream ended.
type followed struct {
	done   bool  // a final event arrived
	quiet  bool  // nothing arrived for timeout_seconds
	events int   // events handled
	err    error // why a stream that is not done ended
}

// followToEnd follows one stream (follow) and says whether that ended the
// call — a failure, a final event (the result is finished), or ctx done —
// and if so with what to return; otherwise res says how the stream ended.
func (c *call) followToEnd(ctx context.Context, open func(context.Context) iter.Seq2[a2a.StreamEvent, error]) (res followed, ended bool, out workrun.Values, err error) {
	res, err = c.follow(ctx, open)
	switch {
	case err != nil:
		return res, true, nil, err
	case res.done:
		out, err = c.finish(ctx)
		return res, true, out, err
	case ctx.Err() != nil:
		return res, true, nil, ctx.Err()
	}
	return res, false, nil, nil
}

// follow reads one stream until a final event or the stream's end.
// timeout_seconds bounds only the wait for the stream's answer — its first
// event; after that a quiet stream is not a request awaiting its answer,
// so it stays open however long the task is silent (dead connections are
// found by the transport's TCP keep-alive, remotecall.DeadPeerDetection).
// err is a failure that must fail the node.
func (c *call) follow(ctx context.Context, open func(context.Context) iter.Seq2[a2a.StreamEvent, error]) (followed, error) {
	sctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	timer := time.AfterFunc(c.s.timeout, func() { cancel(errIdle) })
	defer timer.Stop()
	res := followed{err: a2a.ErrStreamBroken}
	for ev, e := range open(sctx) {
		if e != nil {
			res.err = e
			break
		}
		timer.Stop()
		res.events++
		c.acked = true // the agent took the request (ask.go: an answer in flight)
		d, herr := c.handle(ctx, ev)
		if errors.Is(herr, errStrayMessage) {
			res.err = herr // the task is read instead
			break
		}
		if herr != nil {
			return res, herr
		}
		if d {
			res.done = true
			return res, nil
		}
	}
	if errors.Is(context.Cause(sctx), errIdle) {
		res.quiet = true
		res.err = fmt.Errorf("%w (%v)", errIdle, c.s.timeout)
	}
	return res, nil
}

// handle applies one event. The taskId and contextId are committed before it
// returns, so before the next event is read (docs/remote-agent.md R5).
func (c *call) handle(ctx context.Context, ev a2a.StreamEvent) (done bool, err error) {
	r := c.Record()
	tid := ev.TaskID()
	if tid != "" && r.TaskID != "" && tid != r.TaskID {
		return false, fmt.Errorf("remote agent: %w: event for task %s while following %s", a2a.ErrProtocol, tid, r.TaskID)
	}
	if tid != "" && r.TaskID == "" {
		ctxID := eventContextID(ev)
		if c.red.String(tid) != tid || c.red.String(ctxID) != ctxID {
			// An id is kept as is to follow the task, so it cannot be
			// redacted; refusing it keeps the secret out of the record.
			return false, fmt.Errorf("remote agent: %w: the task or context id carries the credential's secret", a2a.ErrProtocol)
		}
		state := ev.State()
		if err := c.Update(ctx, func(r *workrun.RemoteCall) {
			r.TaskID, r.ContextID = tid, ctxID
			if state != "" {
				r.RemoteState = string(state)
			}
		}); err != nil {
			return false, err
		}
		c.log(msgTaskAccepted, tid, displayID(ctxID))
	} else if c.Aborted() {
		return false, remotecall.ErrAborted
	}
	switch {
	case ev.Task != nil:
		c.history = ev.Task.History
		// A snapshot holds every artifact so far: it replaces what the
		// stream sent.
		if err := c.res.reset(); err != nil {
			return false, fmt.Errorf("keep remote result: %w", err)
		}
		for _, a := range ev.Task.Artifacts {
			if err := c.res.apply(a, false); err != nil {
				return false, err
			}
		}
		return c.status(ctx, ev.Task.Status)
	case ev.StatusUpdate != nil:
		return c.status(ctx, ev.StatusUpdate.Status)
	case ev.ArtifactUpdate != nil:
		return false, c.applyArtifact(ev.ArtifactUpdate)
	case ev.Message != nil:
		if tid == "" {
			if r.TaskID != "" {
				// Once a task is fixed its stream carries only that task's
				// events; a stray message is no answer to it.
				return false, fmt.Errorf("%w: %w", errStrayMessage, a2a.ErrProtocol)
			}
			c.reply = ev.Message
			return true, nil
		}
		if t := messageText(ev.Message); t != "" {
			c.addProgress(progressLine{kind: progressMessage, text: cutText(c.red.String(t))})
		}
		return false, nil
	}
	return false, nil
}

// status records and shows a task status; terminal and interrupted states end
// the stream. The record is committed only when the state is final
// (terminal or interrupted) or new to this call — identity and outcome, not
// every status text — and the first line of each state is a committed
// message; the other status lines are progress, throttled (progressEvery).
func (c *call) status(ctx context.Context, st a2a.TaskStatus) (bool, error) {
	text := cutText(c.red.String(messageText(st.Message)))
	c.lastStatus = string(st.State) + "\x00" + text
	final := st.State.Terminal() || st.State.Interrupted()
	if st.State.Interrupted() {
		// The question of a round already answered, the answer delivered:
		// the agent has not moved on yet (ask.go).
		final = !c.answered(st, c.history)
		c.askedStatus = st
	}
	c.history = nil
	if c.feed.repeat(st.State, text) && !final {
		return false, nil
	}
	durable := c.feed.firstOf(st.State) || final
	if !durable {
		c.addProgress(progressLine{kind: progressStatus, state: st.State, text: text})
		return false, nil
	}
	if r := c.Record(); string(st.State) != r.RemoteState || text != r.StatusText {
		if err := c.Update(ctx, func(r *workrun.RemoteCall) {
			if st.State != "" {
				r.RemoteState = string(st.State)
			}
			r.StatusText = text
		}); err != nil {
			return false, err
		}
	}
	line := stateMsg("status", st.State)
	if text != "" {
		line = stateMsg("status_text", st.State, text)
	}
	if key := textKey(line); key != c.shownDurable {
		c.shownDurable = key
		c.logText(line)
	}
	return final, nil
}

// applyArtifact keeps a chunk with the artifacts received so far and shows
// it as a progress line.
func (c *call) applyArtifact(u *a2a.TaskArtifactUpdateEvent) error {
	a := u.Artifact
	var prev string
	if u.Append {
		prev = c.res.textTail(a.ArtifactID)
	}
	if err := c.res.apply(a, u.Append); err != nil {
		return err
	}
	name := a.Name
	if name == "" {
		name = a.ArtifactID
	}
	if desc := describeParts(chunkEdges(c.red, prev, a.Parts)); desc != "" {
		c.addProgress(progressLine{kind: progressArtifact, artifactID: name, text: desc})
	}
	return nil
}

// finish turns the final state into the node's result: outputs for a
// completed task or a message answer, an error for a failed one, an
// interruption for INPUT_REQUIRED / AUTH_REQUIRED (docs/remote-agent.md R5, R8, R15).
func (c *call) finish(ctx context.Context) (workrun.Values, error) {
	r := c.Record()
	state := a2a.TaskState(r.RemoteState)
	switch {
	case c.reply != nil || state == a2a.TaskStateCompleted:
		var (
			text  string
			ref   *workrun.ValueRef
			parts []resultFile
		)
		switch {
		case c.reply != nil:
			text, parts = partsText(c.reply.Parts), messageFiles(c.reply.Parts)
		case c.res.textSize() > workrun.InlineValueLimit && c.s.cfg.Output == "":
			parts = c.res.files() // nobody asked for the text: not kept
		case c.res.textSize() > workrun.InlineValueLimit:
			// Kept once, streamed from the spool and redacted on the way
			// (a secret split across two appends included): the record,
			// the output and State hold its reference (docs/engine.md
			// "Large values").
			v, err := workrun.PutValue(ctx, c.nc.Artifacts(), workrun.FieldText, c.red.Reader(io.NopCloser(c.res.textReader())), c.nc.RunID(), c.nc.NodeID())
			if err != nil {
				return nil, err
			}
			ref, parts = &v, c.res.files()
		default:
			var err error
			if text, err = c.res.text(); err != nil {
				return nil, err
			}
			parts = c.res.files()
		}
		files, err := c.saveFiles(ctx, parts)
		if err != nil {
			return nil, err
		}
		res, err := json.Marshal(savedResult{Text: text, TextRef: ref, Files: files})
		if err != nil {
			return nil, err
		}
		if err := c.Update(ctx, func(r *workrun.RemoteCall) { r.Result, r.Ended = res, true }); err != nil {
			return nil, err
		}
		// The agent's COMPLETED status without a message was already shown
		// as "Remote task: completed"; saying it again adds nothing. A
		// status that carried a message, or a message answer, still gets
		// the closing line.
		if c.shownDurable != textKey(stateMsg("status", a2a.TaskStateCompleted)) {
			c.log(msgCompleted)
		}
		return c.s.values(text, ref, files), nil
	case state.Terminal():
		if err := c.Update(ctx, func(r *workrun.RemoteCall) { r.Ended = true }); err != nil {
			return nil, err
		}
		return nil, c.remoteFailed(c.Record())
	case state.Interrupted():
		return c.asked(ctx, state)
	}
	return nil, reason([]error{ErrUnfinished}, msgErrUnfinished, r.TaskID, stateIn(state))
}

// remoteFailed is the error of a task that ended without completing; one
// that ended FAILED or REJECTED is a known failure (workrun.KnownFailure),
// which a retry policy may try again as a new call.
func (c *call) remoteFailed(r workrun.RemoteCall) error {
	err := reason([]error{ErrRemoteFailed}, msgErrRemoteFailed, r.TaskID, stateIn(a2a.TaskState(r.RemoteState)))
	if r.StatusText != "" {
		err = reason([]error{ErrRemoteFailed}, msgErrRemoteFailedText, r.TaskID, stateIn(a2a.TaskState(r.RemoteState)), r.StatusText)
	}
	if s := a2a.TaskState(r.RemoteState); s == a2a.TaskStateFailed || s == a2a.TaskStateRejected {
		return workrun.KnownFailure(err)
	}
	return err
}

// savedResult is what a call commits on success, reused on resume (docs/remote-agent.md R6).
type savedResult struct {
	Text string `json:"text"`
	// TextRef holds a text longer than workrun.InlineValueLimit, kept once
	// as an artifact; Text is then empty.
	TextRef *workrun.ValueRef `json:"text_ref,omitempty"`
	Files   []string          `json:"files,omitempty"` // local artifact ids
}

// UnmarshalJSON reads TextRef in its {"$ref": …} form.
func (r *savedResult) UnmarshalJSON(b []byte) error {
	var raw struct {
		Text    string   `json:"text"`
		TextRef any      `json:"text_ref"`
		Files   []string `json:"files"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*r = savedResult{Text: raw.Text, Files: raw.Files}
	if ref, ok := workrun.RefOf(raw.TextRef); ok {
		r.TextRef = &ref
	}
	return nil
}

func (s *step) valuesFromResult(raw json.RawMessage) (workrun.Values, error) {
	var r savedResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("read saved result: %w", err)
	}
	return s.values(r.Text, r.TextRef, r.Files), nil
}

func (s *step) values(text string, ref *workrun.ValueRef, files []string) workrun.Values {
	v := workrun.Values{}
	if s.cfg.Output != "" {
		v[s.cfg.Output] = text
		if ref != nil {
			v[s.cfg.Output] = *ref
		}
	}
	if s.cfg.OutputFiles != "" {
		ids := make([]any, len(files))
		for i, f := range files {
			ids[i] = f
		}
		v[s.cfg.OutputFiles] = ids
	}
	return v
}

func eventContextID(ev a2a.StreamEvent) string {
	switch {
	case ev.Task != nil:
		return ev.Task.ContextID
	case ev.StatusUpdate != nil:
		return ev.StatusUpdate.ContextID
	case ev.ArtifactUpdate != nil:
		return ev.ArtifactUpdate.ContextID
	case ev.Message != nil:
		return ev.Message.ContextID
	}
	return ""
}

// stateName shows TASK_STATE_WORKING as "working".
func stateName(s a2a.TaskState) string {
	if s == "" {
		return "unknown"
	}
	return strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(string(s), "TASK_STATE_"), "_", "-"))
}

func displayID(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func messageText(m *a2a.Message) string {
	if m == nil {
		return ""
	}
	return partsText(m.Parts)
}

// partsText concatenates the text parts: chunks of one artifact join without
// a separator.
func partsText(parts []a2a.Part) string {
	var b strings.Builder
	for _, p := range parts {
		if !p.IsRaw() && p.URL == "" && p.Data == nil {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// describeParts summarises a chunk for a progress line, bounded in length.
func describeParts(parts []a2a.Part) string {
	var out []string
	for _, p := range parts {
		switch {
		case p.IsRaw():
			out = append(out, fmt.Sprintf("[file %s, %d bytes]", p.Filename, len(p.Raw)))
		case p.URL != "":
			out = append(out, fmt.Sprintf("[link %s]", redactURL(p.URL)))
		case p.Data != nil:
			out = append(out, "[data]")
		case p.Text != "":
			// Cut before joining: a chunk may be megabytes, and its runes
			// four times that.
			out = append(out, p.Text[:min(len(p.Text), 4*301)])
		}
	}
	s := strings.Join(out, " ")
	if r := []rune(s); len(r) > 300 {
		s = string(r[:300]) + "…"
	}
	return s
}

// redactURL drops query and user info from a remote link before showing it:
// links often carry access tokens.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(invalid link)"
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}

// textKey identifies a message by key and arguments, to compare two lines.
func textKey(t workrun.Text) string {
	return t.Key + "\x00" + strings.Join(t.Args, "\x00")
}

// maxStatusText bounds an agent's status text as the call keeps, saves and
// shows it; a longer one is cut with a marker saying how much.
const maxStatusText = 16 << 10

func cutText(s string) string {
	if len(s) <= maxStatusText {
		return s
	}
	n := maxStatusText
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return fmt.Sprintf("%s …[%d more bytes cut]", s[:n], len(s)-n)
}
