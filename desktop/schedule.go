package desktop

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"workrun/cli"
	"workrun/serve"
	"workrun/serve/trigger"
	"workrun/store"
	"workrun/ui"
	"workrun/workrun"
)

// windowSchedules fires the schedules of the published workflows while the
// window is open (docs/triggers.md "In the window"): the same serve core
// and scheduler `workrun serve` runs, on the window's engine and store.
// Both may run on one data directory (T9). It is rebuilt whenever a
// workflow is saved or deleted, so an edited schedule fires as saved.
type windowSchedules struct {
	engine *workrun.Engine
	store  *store.Store
	clock  trigger.Clock
	report func(error) // a tick's or a rebuild's error

	mu     sync.Mutex // one rebuild at a time
	cancel context.CancelFunc
	done   chan struct{} // closed when the running scheduler's loop ended
	sched  *trigger.Scheduler
	closed bool
}

// windowPublications are the saved workflows that are published, as
// `workrun serve` reads them without files (cli/serve.go): their ids are
// serve.NewPublication's. One that does not validate is left out and
// reported; the others still fire.
func windowPublications(ctx context.Context, e *workrun.Engine, st workrun.WorkflowStore) ([]serve.Publication, error) {
	recs, err := st.ListWorkflows(ctx)
	if err != nil {
		return nil, fmt.Errorf("published workflows: %w", err)
	}
	var pubs []serve.Publication
	var errs []error
	seen := map[string]bool{}
	for _, r := range recs {
		if r.Workflow.Publish == nil {
			continue
		}
		if probs := e.Validate(r.Workflow); len(probs) > 0 {
			errs = append(errs, fmt.Errorf("published workflows: %s is not valid: %s", r.Workflow.Name, probs[0].StringIn("en")))
			continue
		}
		p, err := serve.NewPublication("", r.ID, r.Workflow)
		if err != nil {
			errs = append(errs, fmt.Errorf("published workflows: %w", err))
			continue
		}
		if seen[p.ID] {
			errs = append(errs, fmt.Errorf("published workflows: two workflows publish as %q; %s is left out", p.ID, r.Workflow.Name))
			continue
		}
		seen[p.ID] = true
		pubs = append(pubs, p)
	}
	return pubs, errors.Join(errs...)
}

// rebuild reads the published workflows again and restarts the scheduler
// over them. A fire the old scheduler recorded but did not start is
// started by the new one (T1).
func (w *windowSchedules) rebuild(ctx context.Context) error {
	pubs, perr := windowPublications(ctx, w.engine, w.store)
	core, err := serve.New(w.engine, w.store, pubs)
	if err != nil {
		return errors.Join(perr, fmt.Errorf("window schedules: %w", err))
	}
	sched, err := trigger.NewScheduler(core, w.store, w.clock, pubs)
	if err != nil {
		return errors.Join(perr, fmt.Errorf("window schedules: %w", err))
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return perr
	}
	w.stopLocked()
	w.sched = sched
	if sched.Len() == 0 {
		return perr
	}
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	w.cancel, w.done = cancel, done
	go func() {
		defer close(done)
		sched.Run(rctx, w.report)
	}()
	return perr
}

// stopLocked ends the running scheduler's loop and waits for it.
func (w *windowSchedules) stopLocked() {
	if w.cancel == nil {
		return
	}
	w.cancel()
	<-w.done
	w.cancel, w.done = nil, nil
}

// stop ends the scheduler for good (the window closes; before the engine).
func (w *windowSchedules) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	w.stopLocked()
}

// rebuildLater rebuilds off the caller's goroutine (a save runs on the
// window's UI thread) and reports its error.
func (w *windowSchedules) rebuildLater(ctx context.Context) {
	go func() {
		if err := w.rebuild(ctx); err != nil && w.report != nil {
			w.report(err)
		}
	}()
}

// rebuildingWorkflows is the window's workflow store: a save or a delete
// also rebuilds the window's schedules.
type rebuildingWorkflows struct {
	workrun.WorkflowStore
	ctx    context.Context
	sched  *windowSchedules
	server *windowServer // serve_window.go; nil: none
}

// rebuildLater rebuilds the schedules and the window's server off the
// caller's goroutine (a save runs on the UI thread).
func (r rebuildingWorkflows) rebuildLater() {
	r.sched.rebuildLater(r.ctx)
	if r.server != nil {
		r.server.rebuildLater(r.ctx, r.sched.report)
	}
}

func (r rebuildingWorkflows) SaveWorkflow(ctx context.Context, id string, wf workrun.Workflow) (workrun.WorkflowRecord, error) {
	rec, err := r.WorkflowStore.SaveWorkflow(ctx, id, wf)
	if err == nil {
		r.rebuildLater()
	}
	return rec, err
}

func (r rebuildingWorkflows) DeleteWorkflow(ctx context.Context, id string) error {
	err := r.WorkflowStore.DeleteWorkflow(ctx, id)
	if err == nil {
		r.rebuildLater()
	}
	return err
}

// scheduleDeps starts the window's schedules and wires the window's
// Triggers section to the fires (ui.Deps.Fires). The returned stop ends the
// schedules; it runs before the engine closes.
func scheduleDeps(ctx context.Context, d *ui.Deps, p *Parts, clk trigger.Clock, report func(error), server *windowServer) (stop func()) {
	ws := &windowSchedules{engine: p.Engine, store: p.Store, clock: clk, report: report}
	if err := ws.rebuild(ctx); err != nil {
		report(err)
	}
	d.Workflows = rebuildingWorkflows{WorkflowStore: p.Store, ctx: ctx, sched: ws, server: server}
	d.Fires = func(ctx context.Context, workflowID string, wf workrun.Workflow, limit int) ([]ui.FiredRun, error) {
		return firedRuns(ctx, p.Store, workflowID, wf, limit)
	}
	return ws.stop
}

// firedRuns are wf's last fires, newest first, with the run each started.
func firedRuns(ctx context.Context, st *store.Store, workflowID string, wf workrun.Workflow, limit int) ([]ui.FiredRun, error) {
	pub, err := serve.NewPublication("", workflowID, wf)
	if err != nil {
		return nil, fmt.Errorf("fires of %s: %w", wf.Name, err)
	}
	fs, err := st.Fires(ctx, pub.ID, limit)
	if err != nil {
		return nil, err
	}
	out := make([]ui.FiredRun, 0, len(fs))
	for _, f := range fs {
		fr := ui.FiredRun{Trigger: f.Trigger, At: f.At, State: f.State}
		if f.TaskID != "" {
			t, err := st.ServedTask(ctx, f.TaskID)
			if err != nil && !errors.Is(err, workrun.ErrNotFound) {
				return nil, fmt.Errorf("fires of %s: %w", wf.Name, err)
			}
			fr.RunID = t.RunID
		}
		out = append(out, fr)
	}
	return out, nil
}

// stderrReport writes the window's schedule errors to stderr, one at a time.
func stderrReport(env *cli.Env) func(error) {
	var mu sync.Mutex
	return func(err error) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(env.Stderr, "workrun: %v\n", err)
	}
}
