package workrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"
)

// Errors callers branch on.
var (
	// ErrInvalidWorkflow wraps a *ValidationError: the workflow has problems.
	ErrInvalidWorkflow = errors.New("invalid workflow")
	// ErrNotResumable: the run is not interrupted (a failed or stopped run can
	// never be continued; "run again" starts a new run, R12).
	ErrNotResumable = errors.New("run cannot be resumed")
	// ErrRunActive: the run is going on in this engine.
	ErrRunActive = errors.New("run is going on")
	// ErrNoDecisionPending: the node is not waiting for a person.
	ErrNoDecisionPending = errors.New("node is not waiting for a decision")
	// ErrBadInput: a run input names an unknown field or has the wrong type.
	ErrBadInput = errors.New("bad run input")
	// ErrRunClaimed: another caller — in this process or another — took the
	// run over first (resumed, stopped or answered it). errors.As gives a
	// *ClaimError naming the process.
	ErrRunClaimed = errors.New("run was taken over by another caller")
	// ErrRemoteInput: the run or node waits for a remote agent's requested
	// input or authentication, which Workrun cannot give (docs/remote-agent.md R8): neither a
	// decision nor Resume continues it; stop it or run it again.
	ErrRemoteInput = errors.New("a remote agent's request for input cannot be answered here; stop the run or run it again")
)

// ClaimError is the error of a caller whose claim on a run lost: the run is
// going on, being stopped or has ended meanwhile.
type ClaimError struct {
	RunID  string
	Status RunStatus // what the run was found in
	PID    int       // the process that has it; 0 when unknown
	// Stop is set when the caller wanted to stop the run.
	Stop bool
}

func (e *ClaimError) Error() string {
	by := "another caller"
	if e.PID > 0 {
		by = fmt.Sprintf("process %d", e.PID)
	}
	switch {
	case e.Status == RunRunning && e.Stop:
		return fmt.Sprintf("run %s is going on in %s: stop it there", e.RunID, by)
	case e.Status == RunRunning:
		return fmt.Sprintf("run %s is already being resumed by %s", e.RunID, by)
	case e.Status == RunStopping:
		return fmt.Sprintf("run %s is already being stopped by %s", e.RunID, by)
	case e.Status == RunInterrupted:
		return fmt.Sprintf("run %s was interrupted again by %s", e.RunID, by)
	}
	return fmt.Sprintf("run %s has already ended (%s)", e.RunID, e.Status)
}

func (e *ClaimError) Unwrap() error { return ErrRunClaimed }

// DefaultAbortTimeout bounds the abort hooks of a failed or stopped run.
const DefaultAbortTimeout = 15 * time.Second

// EventType says what changed.
type EventType string

const (
	EventRun     EventType = "run"     // Run is set: the run's status changed
	EventNode    EventType = "node"    // Node is set: a node's record changed
	EventMessage EventType = "message" // Message is set: a node message was added
)

// Event is one change, published after the store committed it (docs/product.md W4).
// Exactly one of Run, Node and Message is set, matching Type. Events of one
// run are delivered in the order they were committed.
type Event struct {
	Type    EventType `json:"type"`
	RunID   string    `json:"run_id"`
	NodeID  string    `json:"node_id,omitempty"`
	Run     *Run      `json:"run,omitempty"`
	Node    *NodeRun  `json:"node,omitempty"`
	Message *Message  `json:"message,omitempty"`
}

// Engine runs workflows. One Engine serves every run of a process (GUI or
// CLI); it is safe for concurrent use.
type Engine struct {
	runs  RunStore
	arts  ArtifactStore
	kinds map[string]Kind

	// AbortTimeout bounds the abort hooks of a failed or stopped run (and how
	// long the engine waits for canceled nodes to return). Set before use;
	// zero means DefaultAbortTimeout.
	AbortTimeout time.Duration

	// SaveRetryFor is how long a run's final status (or a Stop's
	// "stopping") that the store refuses is tried again before it is kept
	// (UnsavedKeeper); zero means DefaultSaveRetryFor. Set before use.
	SaveRetryFor time.Duration

	// StopWait bounds how long a Stop of a run another process executes
	// waits for it to end; zero means DefaultStopWait. Set before use.
	StopWait time.Duration

	// Errors receives what the engine cannot save (the store itself
	// failing); nil means os.Stderr. Set before use.
	Errors io.Writer

	mu      sync.Mutex
	claimMu sync.Mutex // claims with a store that is not a RunClaimer
	active  map[string]*execution
	parked  map[string][]abortHook // hooks of interrupted runs, for Stop and Resume
	subs    map[*subscriber]struct{}
	now     func() time.Time
	// watching says the goroutine reading stop requests runs (stopelsewhere.go).
	watching bool
	lines    lineOrder

	answerMu sync.Mutex             // one answer per question round (question.go)
	secrets  map[answerKey]Decision // secret answers, held in memory only
}

// NewEngine returns an engine that saves through runs, keeps files in arts and
// knows the given node kinds.
func NewEngine(runs RunStore, arts ArtifactStore, kinds ...Kind) *Engine {
	e := &Engine{
		runs:   runs,
		arts:   arts,
		kinds:  make(map[string]Kind, len(kinds)),
		active: make(map[string]*execution),
		parked: make(map[string][]abortHook),
		subs:   make(map[*subscriber]struct{}),
		now:    time.Now,

		secrets: make(map[answerKey]Decision),
	}
	for _, k := range kinds {
		e.kinds[k.Type()] = k
	}
	return e
}

// Kind returns the registered kind of a node type.
func (e *Engine) Kind(typ string) (Kind, bool) {
	k, ok := e.kinds[typ]
	return k, ok
}

func (e *Engine) abortTimeout() time.Duration {
	if e.AbortTimeout > 0 {
		return e.AbortTimeout
	}
	return DefaultAbortTimeout
}

// Start validates wf, saves a new run of it and starts it in the background.
// The run does not depend on ctx after Start returns (use Stop). It returns an
// error wrapping ErrInvalidWorkflow (errors.As a *ValidationError gives the
// problems) or ErrBadInput before anything is saved.
func (e *Engine) Start(ctx context.Context, workflowID string, wf Workflow, inputs Values) (string, error) {
	steps, probs := e.compile(wf)
	if len(probs) > 0 {
		return "", &ValidationError{Problems: probs}
	}
	in, err := CheckInputs(wf, inputs)
	if err != nil {
		return "", err
	}
	r := Run{
		ID:           uuid.NewString(),
		WorkflowID:   workflowID,
		WorkflowName: wf.Name,
		Workflow:     wf,
		Inputs:       in,
		State:        Values{},
		Status:       RunRunning,
		CreatedAt:    e.now().UTC(),
		StartedBy:    StartedByFrom(ctx),
	}
	if err := e.runs.CreateRun(ctx, r); err != nil {
		return "", fmt.Errorf("start run: %w", err)
	}
	x := newExecution(e, r, steps, nil)
	e.mu.Lock()
	e.active[r.ID] = x
	e.watchStopsLocked()
	e.mu.Unlock()
	e.publishRun(r)
	go x.loop()
	return r.ID, nil
}

// Stop asks a run to stop. A run going on in this engine becomes
// "stopping": no further node starts, running nodes' contexts are canceled,
// abort hooks run (each within its bound), then it is saved "stopped". A run
// nobody executes — interrupted (by exit, by a person, by a remote agent),
// or left running or stopping by a process that died — is claimed (one
// atomic step, RunClaimer) and stopped here: the abort hooks this process
// holds for it, or else those its saved nodes register again
// (RearmableStep), run before Stop returns, so every unfinished remote task
// gets its one cancel. A caller that loses the claim gets a *ClaimError
// (ErrRunClaimed). A run going on in another live process is asked to
// stop there and waited for, at most StopWait (StopRequester; a store
// without it gives a *ClaimError: stop it there). Stopping a run that
// already ended is a no-op.
func (e *Engine) Stop(ctx context.Context, runID string) error {
	return e.stop(ctx, runID, false)
}

// StopClaimed is Stop for a caller that must know whether it stopped the
// run itself (`workrun stop`): a run that already ended, or that another
// caller stopped first, gives a *ClaimError (ErrRunClaimed) instead of nil.
func (e *Engine) StopClaimed(ctx context.Context, runID string) error {
	return e.stop(ctx, runID, true)
}

func (e *Engine) stop(ctx context.Context, runID string, strict bool) error {
	e.mu.Lock()
	x := e.active[runID]
	e.mu.Unlock()
	if x != nil {
		x.requestStop()
		return nil
	}
	r, err := e.runs.GetRun(ctx, runID)
	if err != nil {
		return fmt.Errorf("stop run %s: %w", runID, err)
	}
	if sr, ok := e.runs.(StopRequester); ok && r.Status == RunRunning {
		// Going on in another live process: that process stops it.
		done, err := e.stopElsewhere(ctx, sr, r, strict)
		if err != nil {
			return fmt.Errorf("stop run %s: %w", runID, err)
		}
		if done {
			return nil
		}
		// Interrupted meanwhile, or its process ended: taken over here.
		if r, err = e.runs.GetRun(ctx, runID); err != nil {
			return fmt.Errorf("stop run %s: %w", runID, err)
		}
	}
	if r.Status.Terminal() {
		if strict {
			return fmt.Errorf("stop run %s: %w", runID, &ClaimError{RunID: runID, Status: r.Status, Stop: true})
		}
		return nil
	}
	from := []RunStatus{RunInterrupted}
	if _, owned := e.runs.(OwnedRunStore); owned {
		// Left by a process that died: nobody else will ever end it.
		from = append(from, RunRunning, RunStopping)
	}
	if !slices.Contains(from, r.Status) {
		return fmt.Errorf("stop run %s: %w", runID, stopping(e.holderError(ctx, runID, r.Status)))
	}
	if r.Status == RunStopping {
		// Its abort work is not continued (docs/remote-agent.md R13): only the final status.
		r.Status, r.EndedAt = RunStopped, e.now().UTC()
		if r.FailedNode != "" {
			r.Status = RunFailed
		}
		if _, err := e.claim(ctx, r, RunStopping); err != nil {
			return fmt.Errorf("stop run %s: %w", runID, stopping(err))
		}
		e.publishRun(r)
		return nil
	}
	r.Status, r.Interruption, r.Reason = RunStopping, "", texts.Text(msgStoppedByUser)
	found, err := e.claim(ctx, r, slices.DeleteFunc(from, func(s RunStatus) bool { return s == RunStopping })...)
	if err != nil {
		return fmt.Errorf("stop run %s: %w", runID, stopping(err))
	}
	e.publishRun(r)
	hooks, held := e.takeParked(runID, found)
	if !held {
		if rx := e.rearmForStop(ctx, r); rx != nil {
			hooks = rx.takeHooks()
		}
	}
	e.runHooks(ctx, runID, hooks)
	e.stopUnfinished(context.WithoutCancel(ctx), runID)
	r.Status, r.EndedAt = RunStopped, e.now().UTC()
	if err := e.saveRun(ctx, r); err != nil {
		return fmt.Errorf("stop run %s: %w", runID, err)
	}
	e.publishRun(r)
	return nil
}

// stopping marks a *ClaimError as the loss of a Stop.
func stopping(err error) error {
	var ce *ClaimError
	if errors.As(err, &ce) {
		ce.Stop = true
	}
	return err
}

// claim saves r, the run taken over, if it is still in one of the statuses
// from (and, with a RunClaimer, nobody alive executes it): one atomic step,
// so of concurrent callers exactly one wins. The others get a *ClaimError.
// It returns what the claim found before its write.
func (e *Engine) claim(ctx context.Context, r Run, from ...RunStatus) (RunClaim, error) {
	if c, ok := e.runs.(RunClaimer); ok {
		res, err := c.ClaimRun(ctx, r, from...)
		if err != nil {
			return res, err
		}
		if !res.OK {
			return res, &ClaimError{RunID: r.ID, Status: res.Status, PID: res.OwnerPID}
		}
		return res, nil
	}
	// A store without claims serves one process: the engine's lock makes
	// the read and the write one step.
	e.claimMu.Lock()
	defer e.claimMu.Unlock()
	cur, err := e.runs.GetRun(ctx, r.ID)
	if err != nil {
		return RunClaim{}, err
	}
	found := RunClaim{Status: cur.Status}
	if !slices.Contains(from, cur.Status) || (cur.Status == RunRunning || cur.Status == RunStopping) && e.Active(r.ID) {
		return found, &ClaimError{RunID: r.ID, Status: cur.Status}
	}
	found.OK = true
	return found, e.runs.UpdateRun(ctx, r)
}

// takeParked removes and returns the hooks this engine keeps for an
// interrupted run it just claimed; held says whether it keeps them. Hooks
// kept from before another process took the run over (it was last saved by
// a process other than this one) are stale — that process may have run more
// nodes — so they are dropped and the saved nodes register theirs again.
func (e *Engine) takeParked(runID string, found RunClaim) ([]abortHook, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	hooks, held := e.parked[runID]
	delete(e.parked, runID)
	if found.OwnerPID != 0 && found.OwnerPID != os.Getpid() {
		return nil, false
	}
	return hooks, held
}

// holderError explains why a run in status st, not going on here, cannot be
// taken over: who has it, as far as the store can tell.
func (e *Engine) holderError(ctx context.Context, runID string, st RunStatus) error {
	ce := &ClaimError{RunID: runID, Status: st}
	if c, ok := e.runs.(RunClaimer); ok {
		if h, err := c.RunHolder(ctx, runID); err == nil {
			ce.Status, ce.PID = h.Status, h.OwnerPID
		}
	}
	return ce
}

// Resume re-enters a run interrupted by exit (or by a person, whose node
// then waits again): nodes that finished (succeeded or skipped) are not run
// again; State is rebuilt from their saved outputs; the other nodes run,
// those that had started with NodeContext.Resumed() true. A run left
// "running" by a process that died is resumed the same way when the store
// records owners (OwnedRunStore); otherwise RecoverInterrupted must find it
// first. Taking the run over is one atomic claim (RunClaimer): of several
// callers, here or in other processes, exactly one resumes it and the others
// get a *ClaimError (ErrRunClaimed) naming the process that has it. A run
// interrupted by its remote agent gives ErrRemoteInput: what the agent asked
// for cannot be given here (docs/remote-agent.md R8). Resume returns once the run is going on
// again.
func (e *Engine) Resume(ctx context.Context, runID string) error {
	if err := e.resume(ctx, runID, nil); err != nil {
		return fmt.Errorf("resume run %s: %w", runID, err)
	}
	return nil
}

// resume claims the run and starts it again; with d, the decision is saved
// once the claim is won, before any node runs.
func (e *Engine) resume(ctx context.Context, runID string, d *Decision) error {
	if e.Active(runID) {
		return ErrRunActive
	}
	r, err := e.runs.GetRun(ctx, runID)
	if err != nil {
		return err
	}
	from := []RunStatus{RunInterrupted}
	if _, owned := e.runs.(OwnedRunStore); owned {
		from = append(from, RunRunning)
	}
	switch {
	case r.Status.Terminal() && d != nil:
		return &ClaimError{RunID: runID, Status: r.Status} // it ended since the node waited
	case r.Status.Terminal():
		return fmt.Errorf("status %s: %w", r.Status, ErrNotResumable)
	case r.Status == RunInterrupted && r.Interruption == InterruptedByUnsaved:
		return ErrUnsavedRun
	case r.Status == RunInterrupted && r.Interruption == InterruptedByRemote && d == nil:
		return fmt.Errorf("interrupted by its remote agent: %w", ErrRemoteInput)
	case !slices.Contains(from, r.Status):
		return e.holderError(ctx, runID, r.Status)
	}
	steps, probs := e.compile(r.Workflow)
	if len(probs) > 0 {
		return &ValidationError{Problems: probs}
	}
	prev := r
	r.Status, r.Interruption, r.Reason, r.EndedAt = RunRunning, "", "", time.Time{}
	found, err := e.claim(ctx, r, from...)
	if err != nil {
		return err
	}
	// The run is ours now: its node records are read after the claim, so
	// nodes another process finished before it are never run again.
	giveBack := func(err error) error {
		prev.Status = RunInterrupted
		if prev.Interruption == "" {
			prev.Interruption, prev.Reason = InterruptedByExit, texts.Text(msgAppExited)
		}
		if uerr := e.saveRun(context.WithoutCancel(ctx), prev); uerr != nil {
			err = errors.Join(err, uerr)
		}
		return err
	}
	recs, err := e.runs.NodeRuns(ctx, runID)
	if err != nil {
		return giveBack(err)
	}
	var answered error
	if d != nil {
		q := openQuestion(recs, d.NodeID)
		switch err := e.takeAnswer(ctx, q, *d); {
		case errors.Is(err, ErrAlreadyAnswered):
			answered = err // the run goes on with the answer taken first
		case err != nil:
			return giveBack(err)
		}
	}
	x := newExecution(e, r, steps, recs)

	// Hooks of nodes that finished stay registered; re-entered nodes
	// register theirs again. A process that does not hold the run's hooks
	// asks the finished nodes to register theirs again (RearmableStep).
	parked, held := e.takeParked(runID, found)
	for _, h := range parked {
		if x.status[h.node] == NodeSucceeded {
			x.hooks = append(x.hooks, h)
		}
	}
	e.mu.Lock()
	e.active[runID] = x
	e.watchStopsLocked()
	e.mu.Unlock()
	if !held {
		x.rearm(NodeSucceeded)
	}
	e.publishRun(x.run)
	go x.loop()
	return answered
}

// Decide saves a person's Human Review or Ask Human decision and re-enters
// the waiting node: at once when the run is going on in this engine (other
// branches still running), else by claiming and resuming the interrupted
// run — the decision is saved only once the claim is won, so of concurrent
// answers exactly one is taken and the others get a *ClaimError. A node
// interrupted by a remote agent (its step is not a DecidingStep) gives
// ErrRemoteInput: its request cannot be answered here (docs/remote-agent.md R8).
func (e *Engine) Decide(ctx context.Context, d Decision) error {
	if d.Time.IsZero() {
		d.Time = e.now().UTC()
	}
	r, err := e.runs.GetRun(ctx, d.RunID)
	if err != nil {
		return fmt.Errorf("decide %s/%s: %w", d.RunID, d.NodeID, err)
	}
	q, err := e.waitingForPerson(ctx, r, d.NodeID)
	if err != nil {
		return fmt.Errorf("decide %s/%s: %w", d.RunID, d.NodeID, err)
	}
	if q != nil {
		if d, err = CheckAnswer(*q, d); err != nil {
			return fmt.Errorf("answer %s/%s: %w", d.RunID, d.NodeID, err)
		}
	}
	for {
		e.mu.Lock()
		x := e.active[d.RunID]
		e.mu.Unlock()
		if x != nil {
			// Going on here: the node is re-entered at once, or it is about
			// to run anyway (it reads the saved decision), or the run is
			// ending. Only a run that ended in between needs Resume.
			if err := e.takeAnswer(ctx, q, d); err != nil {
				return fmt.Errorf("decide %s/%s: %w", d.RunID, d.NodeID, err)
			}
			if alive := x.reenter(d.NodeID); alive {
				return nil
			}
			<-x.done
			if q != nil {
				// The answer is saved: resuming re-enters the node with it.
				if err := e.resume(ctx, d.RunID, nil); err != nil && !errors.Is(err, ErrRunActive) {
					return fmt.Errorf("decide %s/%s: %w", d.RunID, d.NodeID, err)
				}
				return nil
			}
		}
		err := e.resume(ctx, d.RunID, &d)
		if errors.Is(err, ErrRunActive) {
			continue // resumed here meanwhile
		}
		if err != nil {
			return fmt.Errorf("decide %s/%s: %w", d.RunID, d.NodeID, err)
		}
		return nil
	}
}

// waitingForPerson says why node of r cannot take a decision, or nil; q
// is the remote's open question when the node waits on one. A remote step
// (RemoteStep) takes an answer only while a question is open.
func (e *Engine) waitingForPerson(ctx context.Context, r Run, nodeID string) (q *Question, err error) {
	if r.Status.Terminal() || r.Status == RunStopping {
		return nil, fmt.Errorf("run is %s: %w", r.Status, ErrNoDecisionPending)
	}
	recs, err := e.runs.NodeRuns(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(recs, func(n NodeRun) bool { return n.NodeID == nodeID })
	if i < 0 || recs[i].Status != NodeInterrupted {
		return nil, ErrNoDecisionPending
	}
	for _, n := range r.Workflow.Nodes {
		if n.ID != nodeID {
			continue
		}
		k, ok := e.kinds[n.Type]
		if !ok {
			return nil, ErrNoDecisionPending
		}
		st, err := k.Compile(n, r.Workflow)
		if err != nil {
			return nil, err
		}
		if _, ok := st.(DecidingStep); !ok {
			return nil, ErrRemoteInput
		}
		if _, remote := st.(RemoteStep); remote && recs[i].Question == nil {
			if r.Interruption == InterruptedByRemote {
				return nil, ErrRemoteInput
			}
			return nil, ErrNoDecisionPending // not asked: interrupted by exit or unreachable
		}
		return recs[i].Question, nil
	}
	return nil, ErrNoDecisionPending
}

// openQuestion is the question node waits on in recs, or nil.
func openQuestion(recs []NodeRun, node string) *Question {
	for _, n := range recs {
		if n.NodeID == node && n.Status == NodeInterrupted {
			return n.Question
		}
	}
	return nil
}

// Wait blocks until the run is no longer going on in this engine (it ended
// or was interrupted) or ctx ends, and returns its saved record.
func (e *Engine) Wait(ctx context.Context, runID string) (Run, error) {
	e.mu.Lock()
	x := e.active[runID]
	e.mu.Unlock()
	if x != nil {
		select {
		case <-x.done:
		case <-ctx.Done():
			return Run{}, fmt.Errorf("wait run %s: %w", runID, ctx.Err())
		}
	}
	r, err := e.runs.GetRun(ctx, runID)
	if err != nil {
		return Run{}, fmt.Errorf("wait run %s: %w", runID, err)
	}
	return r, nil
}

// Active reports whether the run is going on in this engine.
func (e *Engine) Active(runID string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	_, ok := e.active[runID]
	return ok
}

// RecoverInterrupted is called at every start-up (the GUI and each CLI
// command that opens the data directory). Runs saved "running" by a process
// that died are marked interrupted by exit (resumable, docs/remote-agent.md R12); runs saved
// "stopping" get their final status (failed when a node failed, else
// stopped) and their unfinished abort work is not continued (docs/remote-agent.md R13). Both are
// indexed queries by status: start-up never walks the run history. When
// the store is an OwnedRunStore, only runs whose owning process has ended
// are touched, so a run the GUI or another `workrun run` is executing right
// now keeps going; otherwise every such run not going on in this engine is.
// It returns the runs it changed.
func (e *Engine) RecoverInterrupted(ctx context.Context) ([]Run, error) {
	var changed []Run
	running, err := e.orphans(ctx, RunRunning)
	if err != nil {
		return nil, fmt.Errorf("recover runs: %w", err)
	}
	for _, r := range running {
		if e.Active(r.ID) {
			continue
		}
		r.Status, r.Interruption = RunInterrupted, InterruptedByExit
		r.Reason = texts.Text(msgAppExited)
		ok, err := e.saveOrphan(ctx, r, RunRunning)
		if err != nil {
			return changed, fmt.Errorf("recover run %s: %w", r.ID, err)
		}
		if ok {
			e.publishRun(r)
			changed = append(changed, r)
		}
	}
	stopping, err := e.orphans(ctx, RunStopping)
	if err != nil {
		return changed, fmt.Errorf("recover runs: %w", err)
	}
	for _, r := range stopping {
		if e.Active(r.ID) {
			continue
		}
		r.Status = RunStopped
		if r.FailedNode != "" {
			r.Status = RunFailed
		}
		if r.EndedAt.IsZero() {
			r.EndedAt = e.now().UTC()
		}
		ok, err := e.saveOrphan(ctx, r, RunStopping)
		if err != nil {
			return changed, fmt.Errorf("recover run %s: %w", r.ID, err)
		}
		if ok {
			e.publishRun(r)
			changed = append(changed, r)
		}
	}
	return changed, nil
}

// orphans returns the runs in status s that no live process is executing
// (as far as the store can tell; see OwnedRunStore).
func (e *Engine) orphans(ctx context.Context, s RunStatus) ([]Run, error) {
	if o, ok := e.runs.(OwnedRunStore); ok {
		return o.OrphanedRuns(ctx, s)
	}
	return e.runs.RunsWithStatus(ctx, s)
}

// saveOrphan saves a recovered run, unless (with an OwnedRunStore) another
// process took it over since it was read; ok says whether it was saved.
func (e *Engine) saveOrphan(ctx context.Context, r Run, from RunStatus) (bool, error) {
	if o, ok := e.runs.(OwnedRunStore); ok {
		return o.UpdateOrphanedRun(ctx, r, from)
	}
	return true, e.runs.UpdateRun(ctx, r)
}

// Close is the application exiting: every run going on is interrupted by exit
// (resumable later). Running nodes' contexts are canceled; abort hooks are NOT
// called — exiting alone never cancels remote work (docs/remote-agent.md R13). Close waits for the
// runs to be saved, or until ctx ends.
func (e *Engine) Close(ctx context.Context) error {
	e.mu.Lock()
	xs := make([]*execution, 0, len(e.active))
	for _, x := range e.active {
		xs = append(xs, x)
	}
	e.mu.Unlock()
	for _, x := range xs {
		x.requestExit()
	}
	for _, x := range xs {
		select {
		case <-x.done:
		case <-ctx.Done():
			return fmt.Errorf("close engine: %w", ctx.Err())
		}
	}
	return nil
}

func (e *Engine) finished(x *execution, parked []abortHook) {
	e.mu.Lock()
	delete(e.active, x.run.ID)
	if x.run.Status == RunInterrupted && x.run.Interruption != InterruptedByExit {
		// Present even when empty: this process holds the run's hooks.
		e.parked[x.run.ID] = parked
	}
	e.mu.Unlock()
}

// rearmForStop gathers the abort hooks of an interrupted run this process
// does not hold, from its saved records (RearmableStep), in an execution
// that never runs. Failing to read them is reported in the run's record:
// the cancels they would send are then not sent.
func (e *Engine) rearmForStop(ctx context.Context, r Run) *execution {
	steps, probs := e.compile(r.Workflow)
	if len(probs) > 0 {
		e.report(r.ID, "", texts.Msg(msgNoRearm, &ValidationError{Problems: probs}))
		return nil
	}
	recs, err := e.runs.NodeRuns(ctx, r.ID)
	if err != nil {
		e.report(r.ID, "", texts.Msg(msgNoRearm, err))
		return nil
	}
	x := newExecution(e, r, steps, recs)
	// A node left "running" was cut off by a crash (RecoverInterrupted keeps
	// its record as it was): its remote work may still be going on (docs/remote-agent.md R9).
	x.rearm(NodeSucceeded, NodeInterrupted, NodeRunning)
	return x
}

// takeHooks returns the hooks registered so far.
func (x *execution) takeHooks() []abortHook {
	x.hmu.Lock()
	defer x.hmu.Unlock()
	return slices.Clone(x.hooks)
}

// stopUnfinished saves the nodes of a run stopped while interrupted that
// were left running or interrupted as stopped.
func (e *Engine) stopUnfinished(ctx context.Context, runID string) {
	recs, err := e.runs.NodeRuns(ctx, runID)
	if err != nil {
		e.report(runID, "", texts.Msg(msgNodesNotSaved, err))
		return
	}
	now := e.now().UTC()
	for _, rec := range recs {
		if rec.Status != NodeRunning && rec.Status != NodeInterrupted {
			continue
		}
		rec.Status, rec.Error, rec.EndedAt = NodeStopped, texts.Text(msgStoppedNode), now
		if err := e.runs.SaveNodeRun(ctx, rec); err != nil {
			e.report(runID, rec.NodeID, texts.Msg(msgNodesNotSaved, err))
			continue
		}
		e.publish(Event{Type: EventNode, RunID: runID, NodeID: rec.NodeID, Node: &rec})
	}
}

func (e *Engine) publishRun(r Run) {
	r.Inputs = maps.Clone(r.Inputs)
	r.State = maps.Clone(r.State)
	e.publish(Event{Type: EventRun, RunID: r.ID, Run: &r})
}

// MarkExited marks one run saved "running", which is not going on in this
// engine, as interrupted by exit — the single-run form of RecoverInterrupted,
// for `workrun resume` of a run whose process died. Other runs are left
// alone. With an OwnedRunStore, a run another live process (the GUI,
// another `workrun run`) is executing gives ErrRunActive.
func (e *Engine) MarkExited(ctx context.Context, runID string) (Run, error) {
	if e.Active(runID) {
		return Run{}, fmt.Errorf("mark run %s exited: %w", runID, ErrRunActive)
	}
	r, err := e.runs.GetRun(ctx, runID)
	if err != nil {
		return Run{}, fmt.Errorf("mark run %s exited: %w", runID, err)
	}
	if r.Status != RunRunning {
		return r, nil
	}
	r.Status, r.Interruption = RunInterrupted, InterruptedByExit
	r.Reason = texts.Text(msgAppExited)
	ok, err := e.saveOrphan(ctx, r, RunRunning)
	if err != nil {
		return Run{}, fmt.Errorf("mark run %s exited: %w", runID, err)
	}
	if !ok {
		if now, err := e.runs.GetRun(ctx, runID); err == nil && now.Status != RunRunning {
			return now, nil // it ended or was interrupted meanwhile
		}
		return Run{}, fmt.Errorf("mark run %s exited: another Workrun process is running it: %w", runID, ErrRunActive)
	}
	e.publishRun(r)
	return r, nil
}
