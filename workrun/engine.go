package workrun

import (
	"context"
	"errors"
	"fmt"
	"maps"
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
)

// DefaultAbortTimeout bounds the abort hooks of a failed or stopped run.
const DefaultAbortTimeout = 15 * time.Second

// EventType says what changed.
type EventType string

const (
	EventRun     EventType = "run"     // Run is set: the run's status changed
	EventNode    EventType = "node"    // Node is set: a node's record changed
	EventMessage EventType = "message" // Message is set: a node message was added
)

// Event is one change, published after the store committed it (SPEC W4).
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

	mu     sync.Mutex
	active map[string]*execution
	parked map[string][]abortHook // hooks of interrupted runs, for Stop and Resume
	subs   map[*subscriber]struct{}
	now    func() time.Time
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
	}
	if err := e.runs.CreateRun(ctx, r); err != nil {
		return "", fmt.Errorf("start run: %w", err)
	}
	x := newExecution(e, r, steps, nil)
	e.mu.Lock()
	e.active[r.ID] = x
	e.mu.Unlock()
	e.publishRun(r)
	go x.loop()
	return r.ID, nil
}

// Stop asks a run to stop. A running run becomes "stopping": no further node
// starts, running nodes' contexts are canceled, abort hooks run (bounded),
// then it is saved "stopped". An interrupted run is stopped at once (its
// parked hooks, if this process still has them, run first). Stopping a run
// that already ended is a no-op.
func (e *Engine) Stop(ctx context.Context, runID string) error {
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
	if r.Status != RunInterrupted {
		return nil
	}
	r.Status, r.Interruption, r.Reason = RunStopping, "", texts.Text(msgStoppedByUser)
	if err := e.runs.UpdateRun(ctx, r); err != nil {
		return fmt.Errorf("stop run %s: %w", runID, err)
	}
	e.publishRun(r)
	e.mu.Lock()
	hooks, held := e.parked[runID]
	delete(e.parked, runID)
	e.mu.Unlock()
	if !held {
		hooks = e.rearmForStop(ctx, r)
	}
	runHooks(ctx, hooks, e.abortTimeout())
	r.Status, r.EndedAt = RunStopped, e.now().UTC()
	if err := e.runs.UpdateRun(context.WithoutCancel(ctx), r); err != nil {
		return fmt.Errorf("stop run %s: %w", runID, err)
	}
	e.publishRun(r)
	return nil
}

// Resume re-enters an interrupted run: nodes that finished (succeeded or
// skipped) are not run again; State is rebuilt from their saved outputs; the
// other nodes run, those that had started with NodeContext.Resumed() true.
// A run still marked "running" by a process that died must first be found
// by RecoverInterrupted. Resume returns once the run is going on again.
func (e *Engine) Resume(ctx context.Context, runID string) error {
	e.mu.Lock()
	_, busy := e.active[runID]
	e.mu.Unlock()
	if busy {
		return fmt.Errorf("resume run %s: %w", runID, ErrRunActive)
	}
	r, err := e.runs.GetRun(ctx, runID)
	if err != nil {
		return fmt.Errorf("resume run %s: %w", runID, err)
	}
	if r.Status != RunInterrupted {
		return fmt.Errorf("resume run %s (status %s): %w", runID, r.Status, ErrNotResumable)
	}
	steps, probs := e.compile(r.Workflow)
	if len(probs) > 0 {
		return fmt.Errorf("resume run %s: %w", runID, &ValidationError{Problems: probs})
	}
	recs, err := e.runs.NodeRuns(ctx, runID)
	if err != nil {
		return fmt.Errorf("resume run %s: %w", runID, err)
	}
	r.Status, r.Interruption, r.Reason, r.EndedAt = RunRunning, "", "", time.Time{}
	x := newExecution(e, r, steps, recs)

	e.mu.Lock()
	if _, busy := e.active[runID]; busy {
		e.mu.Unlock()
		return fmt.Errorf("resume run %s: %w", runID, ErrRunActive)
	}
	// Hooks of nodes that finished stay registered; re-entered nodes
	// register theirs again. A process that does not hold the run's hooks
	// asks the finished nodes to register theirs again (RearmableStep).
	parked, held := e.parked[runID]
	for _, h := range parked {
		if x.status[h.node] == NodeSucceeded {
			x.hooks = append(x.hooks, h)
		}
	}
	delete(e.parked, runID)
	if !held {
		x.rearm(NodeSucceeded)
	}
	e.active[runID] = x
	e.mu.Unlock()

	if err := e.runs.UpdateRun(ctx, x.run); err != nil {
		e.mu.Lock()
		delete(e.active, runID)
		e.mu.Unlock()
		return fmt.Errorf("resume run %s: %w", runID, err)
	}
	e.publishRun(x.run)
	go x.loop()
	return nil
}

// Decide saves a person's Human Review or Ask Human decision and re-enters
// the waiting node: Resume when the run is interrupted, or at once when other
// branches of the run are still going on in this engine.
func (e *Engine) Decide(ctx context.Context, d Decision) error {
	if d.Time.IsZero() {
		d.Time = e.now().UTC()
	}
	r, err := e.runs.GetRun(ctx, d.RunID)
	if err != nil {
		return fmt.Errorf("decide %s/%s: %w", d.RunID, d.NodeID, err)
	}
	if !e.waitingForPerson(ctx, r, d.NodeID) {
		return fmt.Errorf("decide %s/%s: %w", d.RunID, d.NodeID, ErrNoDecisionPending)
	}
	if err := e.runs.SaveDecision(ctx, d); err != nil {
		return fmt.Errorf("decide %s/%s: %w", d.RunID, d.NodeID, err)
	}
	for {
		e.mu.Lock()
		x := e.active[d.RunID]
		e.mu.Unlock()
		if x != nil {
			// Going on here: the node is re-entered at once, or it is about
			// to run anyway (it reads the saved decision), or the run is
			// ending. Only a run that ended in between needs Resume.
			if alive := x.reenter(d.NodeID); alive {
				return nil
			}
			<-x.done
		}
		err := e.Resume(ctx, d.RunID)
		if errors.Is(err, ErrRunActive) {
			continue // someone else resumed it meanwhile
		}
		if err != nil {
			return fmt.Errorf("decide %s/%s: %w", d.RunID, d.NodeID, err)
		}
		return nil
	}
}

func (e *Engine) waitingForPerson(ctx context.Context, r Run, nodeID string) bool {
	if r.Status.Terminal() || r.Status == RunStopping {
		return false
	}
	recs, err := e.runs.NodeRuns(ctx, r.ID)
	if err != nil {
		return false
	}
	for _, n := range recs {
		if n.NodeID == nodeID {
			return n.Status == NodeInterrupted
		}
	}
	return false
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
// that died are marked interrupted by exit (resumable, R12); runs saved
// "stopping" get their final status (failed when a node failed, else
// stopped) and their unfinished abort work is not continued (R13). Both are
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
// called — exiting alone never cancels remote work (R13). Close waits for the
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

// rearmForStop collects the abort hooks of an interrupted run this process
// does not hold, from its saved records (RearmableStep).
func (e *Engine) rearmForStop(ctx context.Context, r Run) []abortHook {
	steps, probs := e.compile(r.Workflow)
	if len(probs) > 0 {
		return nil
	}
	recs, err := e.runs.NodeRuns(ctx, r.ID)
	if err != nil {
		return nil
	}
	x := newExecution(e, r, steps, recs)
	// A node left "running" was cut off by a crash (RecoverInterrupted keeps
	// its record as it was): its remote work may still be going on (R9).
	x.rearm(NodeSucceeded, NodeInterrupted, NodeRunning)
	return x.hooks
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
