package remotemcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"workrun/mcp"
	"workrun/mcptool"
	"workrun/remotecall"
	"workrun/workrun"
)

// maxReadFailures bounds how often in a row reading a legacy job may fail
// (a broken connection, a server error) before the node fails, and how
// often a core task may read as completed without its result.
const maxReadFailures = 5

// Poll interval bounds: the server's interval, at least 1 s; a longer one
// is honoured (docs/remote-mcp.md M5), up to a day.
const (
	minPoll = time.Second
	maxPoll = 24 * time.Hour
)

// taskTTL is how long a task's result is asked to be kept (core form).
const taskTTL = 24 * time.Hour

// Errors a caller (or a test) can branch on.
var (
	// ErrSubmissionUnknown: the call may have reached the server but no
	// answer came back; it is not sent again.
	ErrSubmissionUnknown = errors.New("submission result unknown")
	// ErrStatusUnknown: the server no longer knows the session or the task.
	ErrStatusUnknown = errors.New("remote task status unknown")
	// ErrToolError: the tool answered isError.
	ErrToolError = errors.New("tool error")
	// ErrRemoteFailed: the remote task ended failed or cancelled.
	ErrRemoteFailed = errors.New("remote task did not complete")
	// ErrFiles: the file arguments exceed the per-call limits.
	ErrFiles = mcptool.ErrFiles
	// ErrNoTool: the server does not list the configured tool.
	ErrNoTool = errors.New("no such tool")
	// ErrTaskMode: the task setting and the tool's task support disagree.
	ErrTaskMode = errors.New("task mode not possible")
)

// call is one logical remote call of a node execution; the embedded
// remotecall.Call mirrors its saved record and orders saves against the
// abort hook's snapshot.
type call struct {
	s  *step
	nc workrun.NodeContext
	*remotecall.Call[MCPClient]
	// red knows every secret the call's transport sent; what the node
	// saves, shows or returns passes through it (docs/remote-mcp.md M11).
	red *remotecall.Redactor

	shown string // last status line shown (key + suffix)
	// asked: the server sent this execution a stream request (only the
	// first may be pre-answered). The GET stream's reader sets it too.
	asked atomic.Bool
}

func (c *call) log(id msgID, args ...any) { c.logText(texts.Msg(id, args...)) }

func (c *call) logText(t workrun.Text) { c.nc.Log(c.red.Text(t)) }

func (c *call) progress(t workrun.Text) { c.nc.Progress(c.red.Text(t)) }

// Run implements workrun.Step.
func (s *step) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	c := &call{s: s, nc: nc, red: remotecall.NewRedactor()}
	out, err := c.run(ctx)
	return c.red.Values(out), c.red.Err(err)
}

func (c *call) run(ctx context.Context) (workrun.Values, error) {
	s, nc := c.s, c.nc
	var err error
	// Each attempt of the node is a new call with its own idempotency key
	// (docs/engine.md "Failure handling"); attempt 1 keeps the old key.
	key := workrun.AttemptCallKey(callKey, nc)
	c.Call, err = remotecall.Load[MCPClient](ctx, s.kind.deps.Calls, nc, key, c.red.Record, func() (workrun.RemoteCall, error) {
		u, err := remotecall.ParseOrigin(s.cfg.URL)
		return workrun.RemoteCall{RunID: nc.RunID(), NodeID: nc.NodeID(), CallKey: key,
			AgentURL: s.cfg.URL, Origin: u.String(), MessageID: AttemptKey(nc.RunID(), nc.NodeID(), key)}, err
	})
	if err != nil {
		return nil, err
	}
	saved := c.Saved()
	nc.OnAbort(c.abort)
	if saved {
		return c.resume(ctx)
	}
	return c.submit(ctx)
}

// dial makes a client for the node's URL over the call's credential-bound
// transport; progress and task status notifications become node messages.
func (c *call) dial(ctx context.Context) (MCPClient, error) {
	hc, err := c.s.transport(ctx, c.red)
	if err != nil {
		return nil, err
	}
	o := connectOptions()
	o.OnNotification, o.OnRequest = c.notification, c.onRequest
	if sp, ok := c.nc.Artifacts().(workrun.Spooler); ok {
		// A long result waits in the artifact store's spool, not in
		// memory (docs/remote-mcp.md "Large results").
		o.Spool = func() (mcp.SpoolFile, error) { return sp.Spool() }
	}
	srv, err := c.s.kind.deps.Dial(c.s.cfg.URL, hc, o)
	if err != nil {
		return nil, reason([]error{err}, msgConnectFailed, c.s.cfg.URL, why(err))
	}
	return srv, nil
}

// submit calls the tool once: arguments and file limits are checked first,
// then the session is opened and the idempotency key and session committed,
// then the call goes out; a task or job id is committed before anything else
// is handled.
func (c *call) submit(ctx context.Context) (workrun.Values, error) {
	args, summary, err := c.s.buildArguments(ctx, c.nc)
	if err != nil {
		return nil, err
	}
	srv, err := c.dial(ctx)
	if err != nil {
		return nil, err
	}
	c.SetClient(srv)
	ictx, cancel := context.WithTimeout(ctx, c.s.timeout)
	init, err := srv.Connect(ictx)
	if err == nil {
		var tools []mcp.Tool
		tools, err = srv.ListTools(ictx)
		if err == nil {
			cancel()
			return c.callTool(ctx, srv, init, tools, args, summary)
		}
		if ctx.Err() == nil {
			c.closeSession(ctx, srv) // nothing was called in it
		}
	}
	cancel()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if serr := c.signInStop(ctx, err); serr != nil {
		return nil, serr
	}
	return nil, reason([]error{err}, msgConnectFailed, c.s.cfg.URL, why(err))
}

// taskForm decides how the tool is called (task setting, server capability,
// tool's execution.taskSupport); an impossible combination fails before
// anything is called. On 2026-07-28 the server decides per call: the
// extension is declared whenever the server offers it and the setting is
// not never (docs/remote-mcp.md M5).
func (c *call) taskForm(init *mcp.InitializeResult, tool mcp.Tool, version string) (string, error) {
	form := init.Capabilities.TaskFormFor(version)
	if mcp.IsModern(version) {
		switch {
		case c.s.cfg.Task == TaskNever:
			return mcp.FormNone, nil
		case c.s.cfg.Task == TaskAlways && form == mcp.FormNone:
			return "", reason([]error{ErrTaskMode}, msgModeNoExtension, mcp.TasksExtension)
		}
		return form, nil
	}
	support := tool.TaskSupport()
	switch c.s.cfg.Task {
	case TaskNever:
		if support == mcp.TaskRequired {
			return "", reason([]error{ErrTaskMode}, msgModeTaskRequired, tool.Name)
		}
		return mcp.FormNone, nil
	case TaskAlways:
		if support == mcp.TaskForbidden {
			return "", reason([]error{ErrTaskMode}, msgModeTaskForbidden, tool.Name, support)
		}
		if form == mcp.FormNone {
			return "", reason([]error{ErrTaskMode}, msgModeNoTasks)
		}
		return form, nil
	}
	if support == mcp.TaskForbidden || form == mcp.FormNone {
		if support == mcp.TaskRequired {
			return mcp.FormCore, nil
		}
		return mcp.FormNone, nil
	}
	return form, nil
}

func (c *call) callTool(ctx context.Context, srv MCPClient, init *mcp.InitializeResult, tools []mcp.Tool, args json.RawMessage, summary string) (workrun.Values, error) {
	var tool *mcp.Tool
	var names []string
	for i := range tools {
		names = append(names, tools[i].Name)
		if tools[i].Name == c.s.cfg.Tool {
			tool = &tools[i]
		}
	}
	if tool == nil {
		c.closeSession(ctx, srv)
		return nil, texts.Error(ErrNoTool, msgNoTool, c.s.cfg.Tool, clip(strings.Join(names, ", "), 300))
	}
	form, err := c.taskForm(init, *tool, srv.Version())
	if err != nil {
		c.closeSession(ctx, srv)
		return nil, err
	}
	hasJobs := false
	for _, n := range names {
		hasJobs = hasJobs || n == "get_job_result"
	}
	// The idempotency key and the session are committed before the call.
	l := link{Protocol: srv.Version(), Form: form, Session: srv.Session()}
	if err := c.Update(ctx, func(r *workrun.RemoteCall) { r.ContextID = l.String() }); err != nil {
		return nil, err
	}
	if mcp.IsModern(srv.Version()) {
		c.log(msgConnectedStateless, c.s.cfg.URL, srv.Version())
	} else {
		c.log(msgConnected, c.s.cfg.URL, srv.Version(), display(srv.Session()))
	}
	mode := texts.Text(msgModePlain) // in the writer's language, as a message argument
	if form != mcp.FormNone {
		mode = texts.Text(msgModeTask)
	}
	c.log(msgCalling, c.s.cfg.Tool, mode, summary)
	key := c.Record().MessageID
	params := mcp.CallParams{Name: c.s.cfg.Tool, Arguments: args, Task: form,
		TTLMillis: taskTTL.Milliseconds(), IdempotencyKey: key, ProgressToken: key}
	// A legacy server may ask outside the call's reply, on the GET stream
	// (docs/remote-mcp.md M15 "Side streams"): it gets a bounded head start
	// — the call is sent once the server has answered the GET, or after at
	// most 2 s without an answer — and nothing else waits on the stream. A
	// request there that needs the person stops the call's wait;
	// a stream that cannot open (or breaks) is given up once, with one
	// message, and the call goes on.
	cctx, cut := context.WithCancel(ctx)
	defer cut()
	var onGET atomic.Pointer[mcp.InputRequiredError]
	if !mcp.IsModern(srv.Version()) {
		err := srv.Listen(cctx, func(a *mcp.InputRequiredError) { onGET.Store(a); cut() }, c.sideStreamGivenUp)
		if err != nil && !errors.Is(err, mcp.ErrNoListenStream) {
			return nil, err
		}
	}
	res, timedOut, err := c.sendCall(cctx, srv, params)
	if a := onGET.Load(); a != nil && ctx.Err() == nil {
		return nil, c.stopped(ctx, c.streamAsked(ctx, a))
	}
	if err != nil && errors.Is(err, mcp.ErrStreamBroken) && mcp.IsModern(srv.Version()) && !timedOut && ctx.Err() == nil {
		// docs/remote-mcp.md M6: on 2026-07-28 a broken reply stream is a
		// request the server cancelled; before any task id is known the
		// call is re-issued once, with the same idempotency key.
		c.log(msgReissue, clip(err.Error(), 300), key)
		res, timedOut, err = c.sendCall(ctx, srv, params)
	}
	return c.answered(ctx, srv, params, l, hasJobs, res, timedOut, err)
}

// answered handles the answer to tools/call (or to its MRTR retry): input
// requests, errors, a task, a job or the result.
func (c *call) answered(ctx context.Context, srv MCPClient, params mcp.CallParams, l link, hasJobs bool, res *mcp.CallResult, timedOut bool, err error) (workrun.Values, error) {
	var ask *mcp.InputRequiredError
	if err != nil && !timedOut && errors.As(err, &ask) && len(ask.StreamID) == 0 && ask.TaskID == "" && (len(ask.Requests) > 0 || ask.RequestState != nil) {
		// MRTR (docs/remote-mcp.md M15): answer and call again.
		var stop error
		prev, _, lerr := c.loadInput(ctx)
		if lerr != nil {
			return nil, lerr
		}
		res, timedOut, err, stop = c.mrtr(ctx, srv, params, newServerRound(prev, viaMRTR, ask))
		if stop != nil {
			return nil, c.stopped(ctx, stop)
		}
	}
	if err != nil && !timedOut && errors.As(err, &ask) && len(ask.StreamID) > 0 {
		return nil, c.stopped(ctx, c.streamAsked(ctx, ask))
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(err, mcp.ErrInputRequired) && !timedOut {
			return nil, c.inputRequired(ctx, err)
		}
		if serr := c.signInStop(ctx, err); serr != nil {
			return nil, serr
		}
		if notSubmitted(err) && !timedOut {
			if uerr := c.Update(ctx, func(r *workrun.RemoteCall) { r.Ended, r.StatusText = true, clip(why(err), 500) }); uerr != nil {
				return nil, uerr
			}
			c.closeSession(ctx, srv)
			// Refused before the tool ran: a known failure (docs/engine.md).
			return nil, workrun.KnownFailure(reason([]error{err}, msgCallFailed, c.s.cfg.Tool, why(err)))
		}
		if timedOut {
			err = reason(nil, msgNoAnswerWithin, c.s.timeout)
		}
		return nil, texts.Error(ErrSubmissionUnknown, msgSubmissionUnknownErr, clip(why(err), 500))
	}
	switch {
	case res.Task != nil:
		l.Handle, l.Form = handleTask, res.Form
		t := res.Task
		if err := c.Update(ctx, func(r *workrun.RemoteCall) {
			r.TaskID, r.ContextID, r.RemoteState, r.StatusText = t.TaskID, l.String(), t.Status, clip(t.StatusMessage, 2000)
		}); err != nil {
			return nil, err
		}
		c.log(msgTaskAccepted, t.TaskID, display(l.Session))
		c.status(t.Status, t.StatusMessage)
		return c.followTask(ctx, srv, t, false)
	case hasJobs && jobOf(res.Result) != "":
		id := jobOf(res.Result)
		l.Handle = handleJob
		if err := c.Update(ctx, func(r *workrun.RemoteCall) {
			r.TaskID, r.ContextID, r.RemoteState = id, l.String(), mcp.StatusWorking
		}); err != nil {
			return nil, err
		}
		c.log(msgJobAccepted, id)
		return c.followJob(ctx, srv)
	}
	return c.finish(ctx, srv, res.Result)
}

// sendCall makes one tools/call bounded by timeout_seconds.
func (c *call) sendCall(ctx context.Context, srv MCPClient, p mcp.CallParams) (*mcp.CallResult, bool, error) {
	cctx, cancel := context.WithTimeout(ctx, c.s.timeout)
	defer cancel()
	res, err := srv.CallTool(cctx, p)
	return res, cctx.Err() != nil, err
}

// inputRequired ends a call whose server asked for input before it ran the
// tool (an input_required result, or a legacy request on the reply stream):
// Workrun answers no input requests yet, so the node is interrupted, and the
// record says so (ended, no handle: nothing to cancel, nothing to resume).
func (c *call) inputRequired(ctx context.Context, err error) error {
	why := clip(err.Error(), 500)
	if uerr := c.Update(ctx, func(r *workrun.RemoteCall) {
		r.Ended, r.RemoteState, r.StatusText = true, mcp.StatusInputRequired, why
	}); uerr != nil {
		return uerr
	}
	return &workrun.InterruptError{Cause: workrun.InterruptedByRemote, Reason: texts.Text(msgInterrupted, why)}
}

// stopped ends a call that Workrun stopped before sending the answers:
// waiting for the person (the interrupt as it is), or a failure of its
// own — then the tool did not run (the server was still asking), which is
// a known failure.
func (c *call) stopped(ctx context.Context, err error) error {
	var ie *workrun.InterruptError
	if errors.As(err, &ie) || ctx.Err() != nil || errors.Is(err, remotecall.ErrAborted) {
		return err
	}
	if uerr := c.Update(ctx, func(r *workrun.RemoteCall) { r.Ended, r.StatusText = true, clip(c.red.String(why(err)), 500) }); uerr != nil {
		return uerr
	}
	return workrun.KnownFailure(reason([]error{err}, msgCallFailed, c.s.cfg.Tool, why(err)))
}

// notSubmitted reports errors that prove the tool did not run: an error
// answer instead of a result, or a refusal of the request.
func notSubmitted(err error) bool {
	var rpc *mcp.RPCError
	var h *mcp.HTTPError
	return errors.As(err, &rpc) || (errors.As(err, &h) && h.StatusCode >= 400 && h.StatusCode < 500 && h.StatusCode != 408)
}

// resume re-enters a call saved by an earlier execution of this node (the
// application exited): reuse a saved result, or follow the saved handle in
// the saved session; never call the tool again.
func (c *call) resume(ctx context.Context) (workrun.Values, error) {
	r := c.Record()
	l := parseLink(r.ContextID)
	switch {
	case r.CancelOutcome != "":
		return nil, remotecall.AlreadyCanceled(r)
	case r.Ended && len(r.Result) > 0:
		c.log(msgReused, display(r.TaskID))
		return c.s.finished(c.nc, r.Result)
	case r.Ended && r.RemoteState == mcp.StatusInputRequired:
		return nil, &workrun.InterruptError{Cause: workrun.InterruptedByRemote, Reason: texts.Text(msgInterrupted, display(r.StatusText))}
	case r.Ended:
		return nil, c.remoteFailed(r)
	}
	in, asked, err := c.loadInput(ctx)
	if err != nil {
		return nil, err
	}
	if asked && r.TaskID == "" && in.Via == viaMRTR {
		return c.resumeMRTR(ctx, in)
	}
	if asked && in.Via == viaStream && ((in.Asking != "" && !in.Sent) || (in.Sent && r.TaskID == "")) {
		srv, err := c.dial(ctx)
		if err != nil {
			return nil, err
		}
		srv.Attach(l.Session, l.Protocol)
		c.SetClient(srv)
		return c.answerStream(ctx, srv, in)
	}
	switch {
	case r.TaskID == "":
		return nil, texts.Error(ErrSubmissionUnknown, msgSubmissionUnknownErr,
			texts.Text(msgUnknownExited, r.MessageID))
	}
	srv, err := c.dial(ctx)
	if err != nil {
		return nil, err
	}
	srv.Attach(l.Session, l.Protocol)
	c.SetClient(srv)
	c.log(msgResuming, r.TaskID, display(l.Session))
	if l.Handle == handleJob {
		return c.followJob(ctx, srv)
	}
	return c.followTask(ctx, srv, &mcp.Task{TaskID: r.TaskID, Status: r.RemoteState}, true)
}

// followTask follows a task until it ends. In the core form it waits with
// tasks/result; whenever that wait times out it reads the task with
// tasks/get instead. In the extension form it reads the task with tasks/get
// at the server's poll interval (or when a status notification comes). A
// read that fails is a break: from there remotecall's follow skeleton
// takes over (docs/remote-mcp.md M5) — tasks/get again with backoff, the
// node saying the server is unreachable, and past the bound the node is
// interrupted (unreachable, resumable), never failed; only an answer that
// the task or session is gone ends it as "remote task status unknown". The
// tool is never called again.
func (c *call) followTask(ctx context.Context, srv MCPClient, t *mcp.Task, readFirst bool) (workrun.Values, error) {
	l := parseLink(c.Record().ContextID)
	f := &taskFollow{c: c, srv: srv, l: l, id: t.TaskID, poll: pollOf(t), pollOnly: l.Form == mcp.FormExtension}
	// notes: the task's status notifications (subscriptions/listen), so a
	// finished task is noticed at once rather than at the next poll.
	if f.pollOnly && mcp.IsModern(l.Protocol) {
		lctx, stop := context.WithCancel(ctx)
		defer stop()
		f.notes = listen(lctx, srv, f.id, func(err error) {
			if !errors.Is(err, mcp.ErrMethodNotFound) && lctx.Err() == nil {
				c.log(msgNoWatch, clip(c.red.String(err.Error()), 300))
			}
		})
	}
	var err error
	// in: what the server asked so far (docs/remote-mcp.md M15).
	if f.in, _, err = c.loadInput(ctx); err != nil {
		return nil, err
	}
	if !readFirst {
		done, broke, err := f.subscribe(ctx)
		if done || err != nil {
			return f.result(err)
		}
		c.log(msgReadAgain, f.id, clip(c.red.String(broke.Error()), 300))
	}
	done, err := c.s.kind.deps.Follow.Follow(ctx, remotecall.Steps{
		Read:        f.read,
		Subscribe:   f.subscribe,
		Fingerprint: func() string { r := c.Record(); return r.RemoteState + "\x00" + r.StatusText },
		Gone:        gone,
		Unreachable: func(since time.Time, err error) {
			c.log(msgUnreachable, since.UTC().Format(time.RFC3339), clip(c.red.String(err.Error()), 300))
		},
		Reconnecting: func(broke error, _ time.Duration) {
			c.log(msgReadAgain, f.id, clip(c.red.String(fmt.Sprint(broke)), 300))
		},
	})
	if done {
		return f.result(nil)
	}
	var unreachable *remotecall.UnreachableError
	var loop *remotecall.NoProgressError
	switch {
	case errors.As(err, &unreachable):
		return nil, &workrun.InterruptError{Cause: workrun.InterruptedByUnreachable,
			Reason: texts.Text(msgNotAnswered, unreachable.Since.UTC().Format(time.RFC3339), clip(c.red.String(fmt.Sprint(unreachable.Last)), 300))}
	case errors.As(err, &loop):
		return nil, &workrun.InterruptError{Cause: workrun.InterruptedByUnreachable,
			Reason: texts.Text(msgKeptBreaking, f.id, loop.Times, clip(c.red.String(fmt.Sprint(loop.Last)), 300))}
	case errors.Is(err, remotecall.ErrTaskGone):
		return nil, c.statusUnknown(ctx, l.Session)
	}
	return nil, err
}

// taskFollow is one following of a task: what the loop keeps between
// the skeleton's steps.
type taskFollow struct {
	c   *call
	srv MCPClient
	l   link
	id  string

	poll time.Duration
	// pollOnly: tasks/result is not offered (method not found, or the
	// extension form), so the task is read at the poll interval. pause:
	// the last tasks/result ended early, so the next waits a poll first.
	pollOnly, pause bool
	// inputErr: the server asked for input while tasks/result waited.
	inputErr error
	// completedReads: reads that found the task completed without its
	// result.
	completedReads int
	notes          <-chan *mcp.Task
	in             *inputState

	out    workrun.Values
	outErr error
}

func (f *taskFollow) result(err error) (workrun.Values, error) {
	if err != nil {
		return nil, err
	}
	return f.out, f.outErr
}

// read is the skeleton's Read: tasks/get once, bounded by timeout_seconds.
func (f *taskFollow) read(ctx context.Context) (bool, error, error) {
	if f.c.Aborted() {
		return false, nil, remotecall.ErrAborted
	}
	gctx, cancel := context.WithTimeout(ctx, f.c.s.timeout)
	got, err := f.srv.GetTask(gctx, f.id)
	timedOut := gctx.Err() != nil
	cancel()
	switch {
	case err != nil && ctx.Err() != nil:
		return false, nil, ctx.Err()
	case err != nil && remotecall.SignInNeeded(err) != nil:
		return false, nil, f.c.signInStop(ctx, err)
	case err != nil && timedOut:
		return false, reason([]error{err}, msgGetNoAnswer, f.c.s.timeout, why(err)), nil
	case err != nil:
		return false, err, nil
	}
	done, err := f.handle(ctx, got)
	return done, nil, err
}

// subscribe is the skeleton's Subscribe: the normal following (tasks/result
// in the core form, the poll otherwise) until the task ends (done), a read
// fails (broke) or Workrun must stop (err).
func (f *taskFollow) subscribe(ctx context.Context) (bool, error, error) {
	c := f.c
	var noted *mcp.Task // a status notification that ended the wait
	for {
		if c.Aborted() {
			return false, nil, remotecall.ErrAborted
		}
		if !f.pollOnly {
			if f.pause {
				if err := sleep(ctx, f.poll); err != nil {
					return false, nil, err
				}
				f.pause = false
			}
			rctx, cancel := context.WithTimeout(ctx, c.s.timeout)
			res, err := f.srv.TaskResult(rctx, f.id)
			timedOut := rctx.Err() != nil
			cancel()
			if err == nil {
				if err := c.Update(ctx, func(r *workrun.RemoteCall) { r.RemoteState = mcp.StatusCompleted }); err != nil {
					return false, nil, err
				}
				f.out, f.outErr = c.finish(ctx, f.srv, res)
				return true, nil, nil
			}
			if ctx.Err() != nil {
				return false, nil, ctx.Err()
			}
			if gone(err) {
				return false, err, nil // the read that follows says so
			}
			var ask *mcp.InputRequiredError
			if errors.As(err, &ask) && len(ask.StreamID) > 0 {
				return false, nil, c.streamAsked(ctx, ask)
			}
			if serr := c.signInStop(ctx, err); serr != nil {
				return false, nil, serr
			}
			why := clip(err.Error(), 300)
			switch {
			case timedOut:
				why = fmt.Sprintf("no result within %v", c.s.timeout)
			case errors.Is(err, mcp.ErrMethodNotFound):
				f.pollOnly = true
			default:
				f.pause = true
			}
			if errors.Is(err, mcp.ErrInputRequired) {
				f.inputErr = err
			} else {
				c.log(msgReadAgain, f.id, why)
			}
		} else {
			var err error
			if noted, f.notes, err = waitNote(ctx, f.poll, f.notes); err != nil {
				return false, nil, err
			}
		}
		var got *mcp.Task
		if noted != nil && mcp.Terminal(noted.Status) && (noted.Status != mcp.StatusCompleted || noted.Result != nil) {
			got = noted // a terminal notification carries what tasks/get would
		} else {
			gctx, cancel := context.WithTimeout(ctx, c.s.timeout)
			var err error
			got, err = f.srv.GetTask(gctx, f.id)
			cancel()
			if err != nil {
				if ctx.Err() != nil {
					return false, nil, ctx.Err()
				}
				if serr := c.signInStop(ctx, err); serr != nil {
					return false, nil, serr
				}
				return false, err, nil // a break: the skeleton reads again
			}
		}
		noted = nil
		if done, err := f.handle(ctx, got); done || err != nil {
			return done, nil, err
		}
	}
}

// handle applies a task state read from the server; done when the call
// is settled (f.out, f.outErr hold its outcome).
func (f *taskFollow) handle(ctx context.Context, got *mcp.Task) (bool, error) {
	c := f.c
	f.poll = pollOf(got)
	if err := c.applyTask(ctx, got); err != nil {
		return false, err
	}
	settle := func(out workrun.Values, err error) (bool, error) {
		f.out, f.outErr = out, err
		return true, nil
	}
	switch got.Status {
	case mcp.StatusCompleted:
		if got.Result != nil {
			return settle(c.finish(ctx, f.srv, got.Result))
		}
		f.completedReads++
		if f.pollOnly || f.completedReads >= maxReadFailures {
			// The completed task did not carry its result (an extension
			// task should; a core task's is read with tasks/result):
			// ask tasks/result once more, then give up rather than loop.
			rctx, cancel := context.WithTimeout(ctx, c.s.timeout)
			res, err := f.srv.TaskResult(rctx, f.id)
			cancel()
			if serr := c.signInStop(ctx, err); serr != nil {
				return false, serr
			}
			if err != nil {
				return settle(nil, reason([]error{err}, msgReadResultFailed, f.id, why(err)))
			}
			return settle(c.finish(ctx, f.srv, res))
		}
	case mcp.StatusFailed, mcp.StatusCancelled:
		if got.Error != nil && got.StatusMessage == "" {
			if err := c.Update(ctx, func(r *workrun.RemoteCall) { r.StatusText = clip(got.Error.Message, 2000) }); err != nil {
				return false, err
			}
		}
		return settle(nil, c.remoteFailed(c.Record()))
	case mcp.StatusInputRequired:
		if len(got.InputRequests) > 0 {
			// A 2026-07-28 task asks: answer with tasks/update and go on
			// following it.
			var err error
			f.in, err = c.answerTask(ctx, f.srv, got, f.in)
			return false, err
		}
		return settle(nil, &workrun.InterruptError{Cause: workrun.InterruptedByRemote, Reason: texts.Text(msgInterrupted, display(got.StatusMessage))})
	case mcp.StatusWorking:
		if f.inputErr != nil {
			// The server asked this client something while the task still
			// reads as working: it waits for an answer Workrun does not
			// give.
			return settle(nil, &workrun.InterruptError{Cause: workrun.InterruptedByRemote, Reason: texts.Text(msgInterrupted, clip(f.inputErr.Error(), 500))})
		}
	}
	return false, nil
}

// applyTask commits a task's status and shows it when it changed.
func (c *call) applyTask(ctx context.Context, t *mcp.Task) error {
	if t.Status == "" {
		return nil
	}
	ended := mcp.Terminal(t.Status) && t.Status != mcp.StatusCompleted
	r := c.Record()
	if t.Status != r.RemoteState || clip(t.StatusMessage, 2000) != r.StatusText || ended != r.Ended {
		if err := c.Update(ctx, func(r *workrun.RemoteCall) {
			r.RemoteState, r.StatusText = t.Status, clip(t.StatusMessage, 2000)
			if ended {
				r.Ended = true
			}
		}); err != nil {
			return err
		}
	}
	c.status(t.Status, t.StatusMessage)
	return nil
}

// status shows a status line when it differs from the last one.
func (c *call) status(status, message string) {
	id, ok := statusMsg(status)
	if !ok {
		return
	}
	suffix := ""
	if m := clip(strings.TrimSpace(message), 300); m != "" {
		suffix = " — " + m
	}
	if line := string(id) + suffix; line != c.shown {
		c.shown = line
		c.log(id, suffix)
	}
}

// notification shows the server's progress and task status notifications.
func (c *call) notification(n mcp.Notification) {
	switch n.Method {
	case "notifications/progress":
		if line := mcptool.ProgressLine(n.Params); line != "" {
			c.progress(texts.Msg(msgProgress, line))
		}
	case "notifications/tasks/status", "notifications/tasks":
		var t mcp.Task
		if json.Unmarshal(n.Params, &t) != nil || t.TaskID == "" || t.TaskID != c.Record().TaskID {
			return
		}
		if mcp.Terminal(t.Status) {
			return // the answer that follows settles it
		}
		// The notification arrives on the goroutine waiting for the answer,
		// so the node's own context is not at hand; the save is still
		// ordered against the abort snapshot by update.
		if err := c.applyTask(context.Background(), &t); err != nil && !errors.Is(err, remotecall.ErrAborted) {
			c.logText(workrun.Plain(err.Error()))
		}
	}
}

func (c *call) statusUnknown(ctx context.Context, session string) error {
	err := texts.Error(ErrStatusUnknown, msgStatusUnknown, display(session))
	if uerr := c.Update(ctx, func(r *workrun.RemoteCall) { r.StatusText = err.Error() }); uerr != nil {
		return uerr
	}
	return err
}

// gone reports that the server no longer knows the session or the task.
func gone(err error) bool {
	return errors.Is(err, mcp.ErrSessionNotFound) || errors.Is(err, mcp.ErrTaskNotFound)
}

func (c *call) remoteFailed(r workrun.RemoteCall) error {
	text := r.StatusText
	if text == "" {
		text = "-"
	}
	err := texts.Error(ErrRemoteFailed, msgRemoteFailed, display(r.TaskID), display(r.RemoteState), text)
	if r.RemoteState == mcp.StatusFailed {
		return workrun.KnownFailure(err) // ended: a retry policy may try again
	}
	return err
}

// sideStreamGivenUp says once, in one message, that the legacy GET stream
// could not be opened (or broke) and the call goes on without it; a server
// that offers none (405) is no news.
func (c *call) sideStreamGivenUp(err error) {
	if errors.Is(err, mcp.ErrNoListenStream) || errors.Is(err, mcp.ErrMethodNotFound) {
		return
	}
	c.log(msgNoListen, clip(c.red.String(err.Error()), 300))
}

// listen follows the task's status notifications in the background; the
// channel closes when the stream ends (or the server offers none: then the
// poll alone follows the task). The stream is optional and gates nothing
// (docs/remote-mcp.md M15 "Side streams"): the poll goes on whatever it
// does, and a stream that fails is given up once, told to onGiveUp.
func listen(ctx context.Context, srv MCPClient, id string, onGiveUp func(error)) <-chan *mcp.Task {
	ch := make(chan *mcp.Task, 1)
	go func() {
		defer close(ch)
		for t, err := range srv.WatchTask(ctx, id) {
			if err != nil {
				onGiveUp(err)
				return
			}
			select {
			case ch <- t:
			case <-ctx.Done():
				return
			}
		}
	}()
	return ch
}

// waitNote waits one poll interval or until a status notification comes;
// a closed channel is dropped (nil) so the next waits are plain sleeps.
func waitNote(ctx context.Context, d time.Duration, notes <-chan *mcp.Task) (*mcp.Task, <-chan *mcp.Task, error) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return nil, notes, ctx.Err()
	case <-t.C:
		return nil, notes, nil
	case n, ok := <-notes:
		if !ok {
			return nil, nil, nil
		}
		return n, notes, nil
	}
}

func pollOf(t *mcp.Task) time.Duration {
	d := time.Duration(t.PollMillis()) * time.Millisecond
	return min(max(d, minPoll), maxPoll)
}

func sleep(ctx context.Context, d time.Duration) error { return mcptool.Sleep(ctx, d) }

func display(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// clip shortens server text before it is shown or saved.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// resumeMRTR re-enters a call the server answered with input_required:
// with the person's answer it re-issues the call (docs/remote-mcp.md
// M15); answers committed as sent before an exit are never sent again.
func (c *call) resumeMRTR(ctx context.Context, in *inputState) (workrun.Values, error) {
	r := c.Record()
	l := parseLink(r.ContextID)
	if in.Sent {
		return nil, texts.Error(ErrSubmissionUnknown, msgSubmissionUnknownErr,
			texts.Text(msgUnknownRoundSent, in.ServerRound))
	}
	args, _, err := c.s.buildArguments(ctx, c.nc)
	if err != nil {
		return nil, err
	}
	srv, err := c.dial(ctx)
	if err != nil {
		return nil, err
	}
	srv.Attach(l.Session, l.Protocol)
	c.SetClient(srv)
	ictx, cancel := context.WithTimeout(ctx, c.s.timeout)
	tools, err := srv.ListTools(ictx) // the tool's Mcp-Param-* headers
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, reason([]error{err}, msgConnectFailed, c.s.cfg.URL, why(err))
	}
	hasJobs := slices.ContainsFunc(tools, func(t mcp.Tool) bool { return t.Name == "get_job_result" })
	params := mcp.CallParams{Name: c.s.cfg.Tool, Arguments: args, Task: l.Form,
		TTLMillis: taskTTL.Milliseconds(), IdempotencyKey: r.MessageID, ProgressToken: r.MessageID}
	res, timedOut, err, stop := c.mrtr(ctx, srv, params, in)
	if stop != nil {
		return nil, c.stopped(ctx, stop)
	}
	return c.answered(ctx, srv, params, l, hasJobs, res, timedOut, err)
}
