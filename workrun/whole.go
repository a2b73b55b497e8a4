package workrun

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"sync"
	"time"

	"github.com/google/uuid"
)

var (
	// ErrNotPure: RunPure was given a workflow with a node that is not pure.
	ErrNotPure = errors.New("the workflow has a node that is not pure")
	// ErrServedTaskExists: the store refused a served task (WithServedTask)
	// because the caller's key has its task already (docs/serve.md S2).
	ErrServedTaskExists = errors.New("a task with this key exists already")
)

// WholeRunSaver is implemented by stores that can save a run whole: the
// served task on ctx (WithServedTask), the run as it is, its node records
// and its lines, in one transaction that creates the run (docs/engine.md
// "One commit for a run of pure nodes"). A store that refuses the task
// (its key taken) saves nothing of it. It returns the lines with their Seq.
type WholeRunSaver interface {
	CreateWholeRun(ctx context.Context, r Run, nodes []NodeRun, lines []Message) ([]Message, error)
}

// Pure reports whether RunPure can run wf: every node of it is pure
// (PureStep) and the store is a WholeRunSaver. A workflow that does not
// compile is not.
func (e *Engine) Pure(wf Workflow) bool {
	if _, ok := e.runs.(WholeRunSaver); !ok {
		return false
	}
	steps, probs := e.compile(wf)
	if len(probs) > 0 {
		return false
	}
	for _, st := range steps {
		if _, ok := st.(PureStep); !ok {
			return false
		}
	}
	return true
}

// RunPure runs wf, whose nodes are all pure, to its end and saves it in
// one commit (docs/engine.md "One commit for a run of pure nodes"):
// nothing of the run — its record, the served task on ctx, its node
// records and lines — is written or published before that commit, which
// carries the run as it ended (succeeded, failed, stopped, or interrupted
// by exit when the engine closed meanwhile). A crash before it leaves
// nothing. It returns the run as committed. The run does not depend on
// ctx; RunPure waits for its end. Errors: ErrInvalidWorkflow, ErrBadInput
// or ErrNotPure before anything runs; a failed commit (the store refusing
// the task, its key taken by another process) after the run, which then
// never existed. A store that is not a WholeRunSaver gives ErrNotPure.
func (e *Engine) RunPure(ctx context.Context, workflowID string, wf Workflow, inputs Values) (Run, error) {
	saver, ok := e.runs.(WholeRunSaver)
	if !ok {
		return Run{}, ErrNotPure
	}
	steps, probs := e.compile(wf)
	if len(probs) > 0 {
		return Run{}, &ValidationError{Problems: probs}
	}
	for _, st := range steps {
		if _, ok := st.(PureStep); !ok {
			return Run{}, ErrNotPure
		}
	}
	in, err := CheckInputs(wf, inputs)
	if err != nil {
		return Run{}, err
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
	x := newExecution(e, r, steps, nil)
	x.whole = &wholeRun{ctx: context.WithoutCancel(ctx), saver: saver, at: map[string]int{}}
	e.mu.Lock()
	e.active[r.ID] = x
	e.mu.Unlock()
	go x.loop()
	<-x.done
	if err := x.whole.err; err != nil {
		return Run{}, err
	}
	return x.run, nil
}

// wholeRun holds what a run of RunPure writes until its one commit.
type wholeRun struct {
	ctx   context.Context // carries the served task
	saver WholeRunSaver

	mu    sync.Mutex
	nodes []NodeRun      // the latest record of each node, in first-saved order
	at    map[string]int // node → index in nodes
	lines []Message
	err   error // the commit's failure
}

func (w *wholeRun) addNodes(batch []NodeRun) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, n := range batch {
		n.Inputs, n.Outputs = maps.Clone(n.Inputs), maps.Clone(n.Outputs)
		if i, ok := w.at[n.NodeID]; ok {
			w.nodes[i] = n
			continue
		}
		w.at[n.NodeID] = len(w.nodes)
		w.nodes = append(w.nodes, n)
	}
}

func (w *wholeRun) addLine(m Message) {
	w.mu.Lock()
	w.lines = append(w.lines, m)
	w.mu.Unlock()
}

// save commits the run as it ended with everything it wrote, trying again
// like a final status (SaveRetryFor) unless the store refused the task;
// then publishes it all in commit order. A failure is kept in w.err and
// reported on Errors: the run never existed, nothing of it was shown.
func (x *execution) saveWhole() {
	w := x.whole
	w.mu.Lock()
	nodes, lines := w.nodes, w.lines
	w.mu.Unlock()
	r := x.run
	save := func() ([]Message, error) {
		return w.saver.CreateWholeRun(w.ctx, r, nodes, lines)
	}
	saved, err := save()
	end := time.Now().Add(x.e.saveRetryFor())
	for wait := 50 * time.Millisecond; err != nil && !errors.Is(err, ErrServedTaskExists) && time.Now().Add(wait).Before(end); wait *= 2 {
		time.Sleep(wait)
		saved, err = save()
	}
	if err != nil {
		w.err = fmt.Errorf("save run %s: %w", r.ID, err)
		if !errors.Is(err, ErrServedTaskExists) {
			x.e.unsavedRun(r.ID, w.err)
		}
		return
	}
	for _, n := range nodes {
		x.e.publish(Event{Type: EventNode, RunID: n.RunID, NodeID: n.NodeID, Node: &n})
	}
	for _, m := range saved {
		x.e.publish(Event{Type: EventMessage, RunID: m.RunID, NodeID: m.NodeID, Message: &m})
	}
	x.e.publishRun(r)
}

// unsavedRun writes to Errors that a run of RunPure could not be saved:
// there is no record to report it in.
func (e *Engine) unsavedRun(runID string, err error) {
	w := e.Errors
	if w == nil {
		w = os.Stderr
	}
	fmt.Fprintf(w, "workrun: run %s not saved: %q\n", runID, err.Error())
}
