package serve

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"

	"workrun/workrun"
)

// Sentinel errors; their texts are safe to show to a caller.
var (
	ErrNoPublication = errors.New("no such published workflow")
	ErrTaskNotFound  = errors.New("task not found")
	ErrNotCancelable = errors.New("task is final and cannot be canceled")
	ErrNoQuestion    = errors.New("the task is not waiting for an answer")
	ErrAnswered      = errors.New("the question was answered already")
	ErrBadInput      = errors.New("input does not fit the workflow")
	ErrFinal         = errors.New("task is final")
)

// Store is what serve reads and the engine writes; *store.Store implements it.
type Store interface {
	ServedTask(ctx context.Context, id string) (workrun.ServedTask, error)
	ServedTaskByKey(ctx context.Context, caller, key string) (workrun.ServedTask, error)
	ServedTaskForRun(ctx context.Context, runID string) (workrun.ServedTask, error)
	ServedTasks(ctx context.Context, f workrun.ServedTaskFilter) ([]workrun.ServedTask, error)
	GetRun(ctx context.Context, id string) (workrun.Run, error)
	NodeRuns(ctx context.Context, runID string) ([]workrun.NodeRun, error)
	RunsWithStatus(ctx context.Context, s workrun.RunStatus) ([]workrun.Run, error)
	GetDecision(ctx context.Context, runID, nodeID string) (workrun.Decision, error)
	Messages(ctx context.Context, runID string) ([]workrun.Message, error)
}

// State is a task's state as a caller sees it.
type State string

const (
	StateWorking       State = "working"        // running, or waiting to be resumed
	StateInputRequired State = "input_required" // a Human Review or Ask Human waits (Task.Question)
	StateCompleted     State = "completed"
	StateFailed        State = "failed"
	StateCanceled      State = "canceled"
)

// Final reports whether a task in this state never changes again.
func (s State) Final() bool {
	return s == StateCompleted || s == StateFailed || s == StateCanceled
}

// Task is a served task with its run as saved.
type Task struct {
	workrun.ServedTask
	Run      workrun.Run
	State    State
	Question *Question      // set in StateInputRequired
	Outputs  workrun.Values // the publication's output fields, once completed
	Reason   string         // failure reason (StateFailed)
}

// Question is what a waiting node asks the caller.
type Question struct {
	NodeID string
	Type   string // "human_review" or "ask_human" (or a remote node's type)
	Prompt string
	// Field is the text field an Ask Human answer fills.
	Field string
	// Remote is a remote node's own question (a form), nil for the local kinds.
	Remote *workrun.Question
}

// Answer is a caller's answer to a Question.
type Answer struct {
	Approved bool   // Human Review
	Text     string // Ask Human's answer, or a review comment
	Content  []byte // a form's values (JSON object), for a remote question
}

// Service serves publications on one engine and store. Safe for concurrent use.
type Service struct {
	engine *workrun.Engine
	store  Store
	pubs   map[string]Publication
	order  []string
	pure   map[string]bool // publication → every node pure (workrun.Engine.Pure)

	mu       sync.Mutex
	starting map[string]*sync.Mutex // caller+key → held while its first Start saves
}

// New builds a Service for pubs (their IDs unique).
func New(e *workrun.Engine, st Store, pubs []Publication) (*Service, error) {
	s := &Service{engine: e, store: st, pubs: map[string]Publication{}, pure: map[string]bool{}, starting: map[string]*sync.Mutex{}}
	for _, p := range pubs {
		if _, dup := s.pubs[p.ID]; dup {
			return nil, fmt.Errorf("serve: two workflows publish as %q", p.ID)
		}
		s.pubs[p.ID] = p
		s.pure[p.ID] = e != nil && e.Pure(p.Workflow)
		s.order = append(s.order, p.ID)
	}
	return s, nil
}

// Publications lists what is served, in the order given to New.
func (s *Service) Publications() []Publication {
	out := make([]Publication, 0, len(s.order))
	for _, id := range s.order {
		out = append(out, s.pubs[id])
	}
	return out
}

// Publication returns the publication with id.
func (s *Service) Publication(id string) (Publication, bool) {
	p, ok := s.pubs[id]
	return p, ok
}

// keyLock serialises Starts of one caller and key in this process, so a
// duplicate waits for the first instead of racing it to the unique index.
func (s *Service) keyLock(caller, key string) func() {
	k := caller + "\x00" + key
	s.mu.Lock()
	m := s.starting[k]
	if m == nil {
		m = &sync.Mutex{}
		s.starting[k] = m
	}
	s.mu.Unlock()
	m.Lock()
	return func() {
		m.Unlock()
		s.mu.Lock()
		if s.starting[k] == m {
			delete(s.starting, k)
		}
		s.mu.Unlock()
	}
}

// StartRequest is what a front passes to Start.
type StartRequest struct {
	Caller      string
	Publication string
	Key         string // the caller's idempotency key; required
	ContextID   string // "" : a new one
	Inputs      workrun.Values
	Message     []byte // the caller's message as received, kept with the task
	// Via is the kind of front the caller came through, recorded with
	// Caller (the token's label) as the run's StartedBy; "" is A2A.
	Via workrun.StartedByKind
	// Wait: the caller waits for the task to settle (a blocking
	// SendMessage): Start returns it final or needing input. A run of pure
	// nodes only is then saved in one commit with its task, at its end
	// (docs/serve.md S1).
	Wait bool
}

// Start starts the publication's run for the caller, or returns the task
// the same caller and key started before (created false). The inputs must
// be the publication's input fields only (Publication.CheckInputs). With
// req.Wait it returns the task once it is final or needs input.
func (s *Service) Start(ctx context.Context, req StartRequest) (t Task, created bool, err error) {
	t, created, err = s.start(ctx, req)
	if err != nil || !req.Wait || settledForCaller(t) {
		return t, created, err
	}
	t, err = s.Wait(ctx, req.Caller, t.ID)
	return t, created, err
}

// start is Start up to the run's start, or, for a caller that waits on a
// run of pure nodes, up to its end and its one commit. The key's lock is
// held until the task is saved, so a duplicate in this process waits for
// it and reads it (S2); between processes the unique index decides.
func (s *Service) start(ctx context.Context, req StartRequest) (t Task, created bool, err error) {
	p, ok := s.pubs[req.Publication]
	if !ok {
		return Task{}, false, ErrNoPublication
	}
	if req.Key == "" {
		return Task{}, false, fmt.Errorf("%w: an idempotency key (messageId) is required", ErrBadInput)
	}
	unlock := s.keyLock(req.Caller, req.Key)
	defer unlock()
	if old, err := s.store.ServedTaskByKey(ctx, req.Caller, req.Key); err == nil {
		t, err := s.task(ctx, old)
		return t, false, err
	} else if !errors.Is(err, workrun.ErrNotFound) {
		return Task{}, false, fmt.Errorf("start: %w", err)
	}
	in, err := p.CheckInputs(req.Inputs)
	if err != nil {
		return Task{}, false, err
	}
	st := workrun.ServedTask{
		ID: uuid.NewString(), Caller: req.Caller, Key: req.Key, Publication: p.ID,
		ContextID: req.ContextID, Message: req.Message, CreatedAt: time.Now().UTC(),
	}
	if st.ContextID == "" {
		st.ContextID = uuid.NewString()
	}
	by := workrun.StartedBy{Kind: req.Via, Label: req.Caller} // the label, never the token
	if by.Kind == "" {
		by.Kind = workrun.StartedByA2A
	}
	sctx := workrun.WithStartedBy(workrun.WithServedTask(ctx, st), by)
	var runID string
	var ended *workrun.Run
	if req.Wait && s.pure[p.ID] {
		// Nothing of it is seen before its end: the task is saved with
		// the run's end, in one commit (S1).
		var r workrun.Run
		if r, err = s.engine.RunPure(sctx, p.WorkflowID, p.Workflow, in); err == nil {
			runID, ended = r.ID, &r
		}
	} else {
		runID, err = s.engine.Start(sctx, p.WorkflowID, p.Workflow, in)
	}
	if err != nil {
		// Another process may have saved the same key first: its task is
		// the answer, and no run of ours was created (one transaction).
		if old, lerr := s.store.ServedTaskByKey(context.WithoutCancel(ctx), req.Caller, req.Key); lerr == nil {
			t, err := s.task(ctx, old)
			return t, false, err
		}
		if errors.Is(err, workrun.ErrBadInput) {
			return Task{}, false, fmt.Errorf("%w: %v", ErrBadInput, err)
		}
		return Task{}, false, fmt.Errorf("start: %w", err)
	}
	st.RunID = runID
	if ended != nil {
		t, err = s.taskOf(ctx, st, *ended)
	} else {
		t, err = s.task(ctx, st)
	}
	return t, true, err
}

// Get reads the caller's task.
func (s *Service) Get(ctx context.Context, caller, id string) (Task, error) {
	st, err := s.store.ServedTask(ctx, id)
	if errors.Is(err, workrun.ErrNotFound) || (err == nil && st.Caller != caller) {
		return Task{}, ErrTaskNotFound
	}
	if err != nil {
		return Task{}, fmt.Errorf("get task: %w", err)
	}
	return s.task(ctx, st)
}

// ByKey reads the task the caller started with key (ErrTaskNotFound if none).
func (s *Service) ByKey(ctx context.Context, caller, key string) (Task, error) {
	st, err := s.store.ServedTaskByKey(ctx, caller, key)
	if errors.Is(err, workrun.ErrNotFound) {
		return Task{}, ErrTaskNotFound
	}
	if err != nil {
		return Task{}, fmt.Errorf("get task: %w", err)
	}
	return s.task(ctx, st)
}

// ListFilter selects the caller's tasks.
type ListFilter struct {
	Publication string
	ContextID   string
	State       State // "" any
	Limit       int   // 0: 50
	// Before is a task id: only tasks older than it (paging).
	Before string
	// StatusAfter, when set, keeps tasks whose status changed at or after it.
	StatusAfter time.Time
}

// keeps reports whether t passes f's state and status-time filters.
func (f ListFilter) keeps(t Task) bool {
	return (f.State == "" || t.State == f.State) && (f.StatusAfter.IsZero() || !t.StatusTime().Before(f.StatusAfter))
}

// StatusTime is when the task's status was last saved: the run's end, or
// its start while it goes on.
func (t Task) StatusTime() time.Time {
	if !t.Run.EndedAt.IsZero() {
		return t.Run.EndedAt
	}
	return t.Run.CreatedAt
}

// Count is how many of the caller's tasks pass f (its Limit and Before
// ignored): ListTasks' totalSize.
func (s *Service) Count(ctx context.Context, caller string, f ListFilter) (int, error) {
	n := 0
	before := ""
	const batch = 500
	for {
		page, err := s.store.ServedTasks(ctx, workrun.ServedTaskFilter{Caller: caller, Publication: f.Publication,
			ContextID: f.ContextID, Before: before, Limit: batch})
		if err != nil {
			return 0, fmt.Errorf("count tasks: %w", err)
		}
		for _, st := range page {
			if f.State == "" && f.StatusAfter.IsZero() {
				n++
				continue
			}
			t, err := s.task(ctx, st)
			if err != nil {
				return 0, err
			}
			if f.keeps(t) {
				n++
			}
		}
		if len(page) < batch {
			return n, nil
		}
		before = page[len(page)-1].ID
	}
}

// List returns the caller's tasks newest first, and the id to pass as
// Before for the next page ("" on the last page).
func (s *Service) List(ctx context.Context, caller string, f ListFilter) ([]Task, string, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	var out []Task
	before := f.Before
	if before != "" {
		if _, err := s.Get(ctx, caller, before); err != nil {
			return nil, "", err
		}
	}
	for {
		page, err := s.store.ServedTasks(ctx, workrun.ServedTaskFilter{Caller: caller, Publication: f.Publication,
			ContextID: f.ContextID, Before: before, Limit: limit + 1})
		if err != nil {
			return nil, "", fmt.Errorf("list tasks: %w", err)
		}
		for i, st := range page {
			if len(out) == limit {
				return out, out[len(out)-1].ID, nil
			}
			if i == limit { // the look-ahead row: read as the next batch's first
				break
			}
			t, err := s.task(ctx, st)
			if err != nil {
				return nil, "", err
			}
			if f.keeps(t) {
				out = append(out, t)
			}
		}
		if len(page) <= limit {
			return out, "", nil
		}
		before = page[limit-1].ID
	}
}

// task reads the run behind st and says what the caller sees.
func (s *Service) task(ctx context.Context, st workrun.ServedTask) (Task, error) {
	r, err := s.store.GetRun(ctx, st.RunID)
	if err != nil {
		return Task{}, fmt.Errorf("read task %s: %w", st.ID, err)
	}
	return s.taskOf(ctx, st, r)
}

// taskOf says what the caller sees of st whose run is r as saved.
func (s *Service) taskOf(ctx context.Context, st workrun.ServedTask, r workrun.Run) (Task, error) {
	t := Task{ServedTask: st, Run: r}
	switch r.Status {
	case workrun.RunSucceeded:
		t.State = StateCompleted
		if p, ok := s.pubs[st.Publication]; ok {
			t.Outputs = workrun.Values{}
			for _, f := range p.Outputs {
				if v, ok := r.State[f.Name]; ok {
					t.Outputs[f.Name] = v
				}
			}
		}
	case workrun.RunFailed:
		t.State, t.Reason = StateFailed, r.Reason
	case workrun.RunStopped:
		t.State = StateCanceled
	case workrun.RunInterrupted:
		t.State = StateWorking
		switch r.Interruption {
		case workrun.InterruptedByHuman:
			q, err := s.question(ctx, r)
			if err != nil {
				return Task{}, err
			}
			if q != nil {
				t.State, t.Question = StateInputRequired, q
			}
		case workrun.InterruptedByUnsaved:
			t.State, t.Reason = StateFailed, r.Reason
		}
	default:
		t.State = StateWorking
	}
	return t, nil
}

// question is the first open question of r's waiting nodes.
func (s *Service) question(ctx context.Context, r workrun.Run) (*Question, error) {
	recs, err := s.store.NodeRuns(ctx, r.ID)
	if err != nil {
		return nil, fmt.Errorf("read task question: %w", err)
	}
	slices.SortFunc(recs, func(a, b workrun.NodeRun) int { return a.StartedAt.Compare(b.StartedAt) })
	for _, n := range recs {
		if n.Status != workrun.NodeInterrupted {
			continue
		}
		q := &Question{NodeID: n.NodeID, Type: n.Type, Remote: n.Question}
		for _, spec := range r.Workflow.Nodes {
			if spec.ID == n.NodeID {
				q.Prompt, q.Field = promptOf(spec)
			}
		}
		if n.Question != nil && n.Question.Message != "" {
			q.Prompt = n.Question.Message
		}
		if q.Prompt == "" && n.Question == nil && n.Type != "human_review" && n.Type != "ask_human" {
			continue
		}
		return q, nil
	}
	return nil, nil
}

// Cancel stops the caller's task like the Stop button (S6).
func (s *Service) Cancel(ctx context.Context, caller, id string) (Task, error) {
	t, err := s.Get(ctx, caller, id)
	if err != nil {
		return Task{}, err
	}
	if t.State == StateCanceled {
		return t, nil
	}
	if t.State.Final() {
		return t, ErrNotCancelable
	}
	if err := s.engine.Stop(ctx, t.RunID); err != nil {
		var ce *workrun.ClaimError
		if !errors.As(err, &ce) {
			return Task{}, fmt.Errorf("cancel task: %w", err)
		}
		// Another caller (the window, another process) has it: report what is saved.
	}
	if _, err := s.engine.Wait(ctx, t.RunID); err != nil {
		return Task{}, fmt.Errorf("cancel task: %w", err)
	}
	return s.Get(ctx, caller, id)
}

// Answer answers the task's open question (S7).
func (s *Service) Answer(ctx context.Context, caller, id string, a Answer) (Task, error) {
	t, err := s.Get(ctx, caller, id)
	if err != nil {
		return Task{}, err
	}
	if t.State.Final() {
		return t, ErrFinal
	}
	if t.Question == nil {
		return t, ErrNoQuestion
	}
	// Answers to one task in this process take turns; a Human Review or
	// Ask Human decision once saved is final (the node reads it when it
	// runs again), so a later answer loses. Between processes the engine's
	// claim of the interrupted run decides (S7).
	unlock := s.keyLock("\x01answer", t.ID)
	defer unlock()
	if t.Question.Remote == nil {
		if _, err := s.store.GetDecision(ctx, t.RunID, t.Question.NodeID); err == nil {
			return t, ErrAnswered
		} else if !errors.Is(err, workrun.ErrNotFound) {
			return t, fmt.Errorf("answer task: %w", err)
		}
	}
	d := workrun.Decision{RunID: t.RunID, NodeID: t.Question.NodeID, Approved: a.Approved, Text: a.Text}
	if t.Question.Remote != nil {
		d.Round = t.Question.Remote.Round
		d.Content = a.Content
	}
	if err := s.engine.Decide(ctx, d); err != nil {
		var ce *workrun.ClaimError
		switch {
		case errors.As(err, &ce), errors.Is(err, workrun.ErrAlreadyAnswered), errors.Is(err, workrun.ErrNoDecisionPending),
			errors.Is(err, workrun.ErrRunActive), errors.Is(err, workrun.ErrRunClaimed):
			return t, ErrAnswered
		case errors.Is(err, workrun.ErrBadAnswer):
			return t, fmt.Errorf("%w: %v", ErrBadInput, err)
		}
		return t, fmt.Errorf("answer task: %w", err)
	}
	return s.Get(ctx, caller, id)
}

// Event is one thing that happened to a task.
type Event struct {
	// Task is the task as saved after a status change (nil for a message).
	Task *Task
	// Message is a node's message (nil for a status change).
	Message *workrun.Message
}

// pollEvery re-reads a task's status while subscribed, for a run another
// process executes (its engine publishes nothing here).
const pollEvery = 500 * time.Millisecond

// Events yields the task as it is, then its node messages and status
// changes until it is final or needs input (S5). Break to stop. Messages
// published before it subscribed are not yielded (EventsSince yields them).
func (s *Service) Events(ctx context.Context, caller, id string) iter.Seq2[Event, error] {
	return s.events(ctx, caller, id, -1, settledForCaller)
}

// EventsToEnd is Events that goes on through input_required until the task
// is final: a follower that asks the question elsewhere still sees every
// status the run passes after the answer, none lost between two
// subscriptions.
func (s *Service) EventsToEnd(ctx context.Context, caller, id string) iter.Seq2[Event, error] {
	return s.events(ctx, caller, id, -1, func(t Task) bool { return t.State.Final() })
}

// EventsSince is Events that misses no message after seq after (0: every
// message of the run): the saved messages the run logged before the
// subscription are yielded after the task, and before each status change
// the saved ones the live stream had not delivered yet — a message is
// saved before the run's next status, so none is lost between a run that
// ends and a status read from the store (docs/serve.md M5). Each message
// is yielded once: a saved one by its Seq, a batched progress line (shown
// live before its commit, Seq 0) by its node, time and key.
func (s *Service) EventsSince(ctx context.Context, caller, id string, after int64) iter.Seq2[Event, error] {
	return s.events(ctx, caller, id, max(after, 0), settledForCaller)
}

// events is Events (after < 0) or EventsSince, ending once settled holds.
func (s *Service) events(ctx context.Context, caller, id string, after int64, settled func(Task) bool) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		events, cancel := s.engine.Subscribe()
		defer cancel()
		t, err := s.Get(ctx, caller, id)
		if err != nil {
			yield(Event{}, err)
			return
		}
		if !yield(Event{Task: &t}, nil) {
			return
		}
		seen := after
		live := map[liveKey]struct{}{} // progress lines yielded before their commit
		// saved yields the saved messages after seen (when asked to).
		saved := func() bool {
			if seen < 0 {
				return true
			}
			msgs, err := s.store.Messages(ctx, t.RunID)
			if err != nil {
				yield(Event{}, fmt.Errorf("serve: messages of task %s: %w", id, err))
				return false
			}
			for _, m := range msgs {
				if m.Seq <= seen {
					continue
				}
				seen = m.Seq
				if _, ok := live[keyOf(m)]; ok {
					delete(live, keyOf(m))
					continue
				}
				if !yield(Event{Message: &m}, nil) {
					return false
				}
			}
			return true
		}
		if !saved() || settled(t) {
			return
		}
		last := t.Run.Status
		lastInterruption := t.Run.Interruption
		tick := time.NewTicker(pollEvery)
		defer tick.Stop()
		for {
			var changed bool
			var run *workrun.Run
			select {
			case <-ctx.Done():
				yield(Event{}, ctx.Err())
				return
			case ev, ok := <-events:
				if !ok {
					return
				}
				if ev.RunID != t.RunID {
					continue
				}
				if ev.Type == workrun.EventMessage && ev.Message != nil {
					m := *ev.Message
					switch {
					case seen < 0:
					case m.Seq == 0:
						live[keyOf(m)] = struct{}{}
					case m.Seq <= seen:
						continue // yielded from the store already
					default:
						seen = m.Seq
					}
					if !yield(Event{Message: &m}, nil) {
						return
					}
					continue
				}
				if ev.Type == workrun.EventRun && ev.Run != nil {
					// The run as just committed: no need to read it back.
					run = ev.Run
				}
				changed = ev.Type == workrun.EventRun
			case <-tick.C:
				changed = true
			}
			if !changed {
				continue
			}
			var nt Task
			var err error
			if run != nil {
				nt, err = s.taskOf(ctx, t.ServedTask, *run)
				run = nil
			} else {
				nt, err = s.Get(ctx, caller, id)
			}
			if err != nil {
				yield(Event{}, err)
				return
			}
			if nt.Run.Status == last && nt.Run.Interruption == lastInterruption {
				continue
			}
			last, lastInterruption = nt.Run.Status, nt.Run.Interruption
			// A status read on the tick can overtake messages still on
			// their way: the store has them.
			if !saved() || !yield(Event{Task: &nt}, nil) || settled(nt) {
				return
			}
		}
	}
}

// liveKey names a progress line shown before its commit.
type liveKey struct {
	node, key string
	nanos     int64
}

func keyOf(m workrun.Message) liveKey {
	return liveKey{node: m.NodeID, key: m.Key + "\x00" + m.Text, nanos: m.Time.UnixNano()}
}

// settledForCaller: nothing more happens until the caller acts.
func settledForCaller(t Task) bool { return t.State.Final() || t.State == StateInputRequired }

// Wait blocks until the task is final or needs input, and returns it.
func (s *Service) Wait(ctx context.Context, caller, id string) (Task, error) {
	var last Task
	for ev, err := range s.Events(ctx, caller, id) {
		if err != nil {
			return last, err
		}
		if ev.Task != nil {
			last = *ev.Task
		}
	}
	return last, nil
}

// ResumeUnfinished resumes the served runs a previous process left
// unfinished (interrupted by exit, or running when it died, or waiting by
// push: one GetTask catches a push missed while down), exactly as
// `workrun resume` does; it returns the task ids resumed. A run another
// live process has is left to it.
func (s *Service) ResumeUnfinished(ctx context.Context) ([]string, error) {
	if _, err := s.engine.RecoverInterrupted(ctx); err != nil {
		return nil, fmt.Errorf("resume served runs: %w", err)
	}
	runs, err := s.store.RunsWithStatus(ctx, workrun.RunInterrupted)
	if err != nil {
		return nil, fmt.Errorf("resume served runs: %w", err)
	}
	var resumed []string
	var errs []error
	for _, r := range runs {
		if r.Interruption != workrun.InterruptedByExit && r.Interruption != workrun.InterruptedByUnreachable && r.Interruption != workrun.InterruptedByPush {
			continue
		}
		st, err := s.store.ServedTaskForRun(ctx, r.ID)
		if errors.Is(err, workrun.ErrNotFound) {
			continue // not a served run: the person resumes it
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if _, ok := s.pubs[st.Publication]; !ok {
			continue // not served by this process
		}
		err = s.engine.Resume(ctx, r.ID)
		var ce *workrun.ClaimError
		if errors.As(err, &ce) || errors.Is(err, workrun.ErrRunActive) {
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		resumed = append(resumed, st.ID)
	}
	return resumed, errors.Join(errs...)
}
