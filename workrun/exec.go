package workrun

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"
)

// ErrUndeclaredWrite fails a node that returned a field it does not declare
// in its Writes, or a value of the wrong type (docs/product.md W2).
var ErrUndeclaredWrite = errors.New("write not permitted")

// hookGrace is how long past AbortTimeout the engine waits for hooks that
// ignore their context before it saves the final status anyway.
const hookGrace = time.Second

type abortHook struct {
	node  string
	fn    func(ctx context.Context)
	bound time.Duration // 0: Engine.AbortTimeout
}

type nodeResult struct {
	id     string
	out    Values
	err    error
	branch string
}

type rerunReq struct {
	node  string
	reply chan bool
}

// deadlineReq asks the loop to save a node's deadline (StartDeadline).
type deadlineReq struct {
	node  string
	at    time.Time
	reply chan struct{}
}

// retryStart is an attempt to start once the records of its round are saved.
type retryStart struct {
	id   string
	wait time.Duration
	err  error // the failure of the attempt before
}

type execMode int

const (
	modeNormal   execMode = iota
	modeAborting          // failed or stopped: hooks running, nothing new starts
	modeExiting           // the application is exiting: interrupted by exit
)

// execution is one run going on. Its fields, except those under hmu, are
// owned by the loop goroutine.
type execution struct {
	e     *Engine
	run   Run
	steps map[string]Step
	specs map[string]NodeSpec
	order []string
	types map[string]string
	succ  map[string][]int
	npred map[string]int

	waiting map[string]int // incoming edges whose source has not finished
	live    map[string]int // incoming edges that were followed
	status  map[string]NodeStatus
	recs    map[string]NodeRun
	branch  map[string]string
	resumed map[string]bool
	ready   []string
	running int

	mode       execMode
	failNode   string // first failure
	failReason string
	failRun    bool // the run failed (not stopped)
	interrupt  *InterruptError
	deadline   <-chan time.Time
	abortStart time.Time

	ctx     context.Context // canceled when the run fails, stops or exits
	cancel  context.CancelFunc
	results chan nodeResult
	stopCh  chan struct{} // a Stop asked for (one waiting at most)
	exitCh  chan struct{}
	exited  sync.Once
	rerunCh chan rerunReq
	dlReqs  chan deadlineReq
	retries []retryStart // owned by the loop: attempts handle asked for
	done    chan struct{}

	// A record or line written behind (WriteBehindStore) that the store
	// gave up: the run fails, and never ends succeeded.
	lostMu  sync.Mutex
	lostErr error
	lostCh  chan struct{} // capacity 1: lostErr was set

	// whole is set for a run of RunPure: everything it writes is held
	// here until its one commit at the end.
	whole *wholeRun

	hmu       sync.Mutex
	hooks     []abortHook
	aborting  bool
	inflight  int
	hooksIdle chan struct{}
	hooksEnd  time.Time // when the last hook called is past its bound (+ grace)
}

func newExecution(e *Engine, r Run, steps map[string]Step, recs []NodeRun) *execution {
	wf := r.Workflow
	x := &execution{
		e:       e,
		run:     r,
		steps:   steps,
		specs:   make(map[string]NodeSpec, len(wf.Nodes)),
		types:   make(map[string]string, len(wf.Nodes)),
		succ:    make(map[string][]int, len(wf.Nodes)),
		npred:   make(map[string]int, len(wf.Nodes)),
		waiting: make(map[string]int, len(wf.Nodes)),
		live:    make(map[string]int, len(wf.Nodes)),
		status:  make(map[string]NodeStatus, len(wf.Nodes)),
		recs:    make(map[string]NodeRun, len(wf.Nodes)),
		branch:  make(map[string]string),
		resumed: make(map[string]bool),
		results: make(chan nodeResult, len(wf.Nodes)),
		stopCh:  make(chan struct{}, 1),
		exitCh:  make(chan struct{}),
		rerunCh: make(chan rerunReq),
		dlReqs:  make(chan deadlineReq),
		done:    make(chan struct{}),
		lostCh:  make(chan struct{}, 1),
	}
	if x.run.State == nil {
		x.run.State = Values{}
	}
	x.ctx, x.cancel = context.WithCancel(context.Background())
	for _, n := range wf.Nodes {
		x.order = append(x.order, n.ID)
		x.specs[n.ID] = n
		x.types[n.ID] = n.Type
		x.status[n.ID] = NodePending
	}
	for i, ed := range wf.Edges {
		x.succ[ed.From] = append(x.succ[ed.From], i)
		x.npred[ed.To]++
	}
	for id, n := range x.npred {
		x.waiting[id] = n
	}

	// Resume: finished nodes stay finished; State is rebuilt from their
	// outputs in the order they ended.
	var done []NodeRun
	for _, rec := range recs {
		if _, ok := x.status[rec.NodeID]; !ok {
			continue
		}
		x.recs[rec.NodeID] = rec
		// A finished condition is kept with the branch it picked (store
		// schema 3); one saved without it (an older record) runs again.
		_, branching := steps[rec.NodeID].(BranchingStep)
		switch {
		case rec.Status == NodeSkipped, rec.Status == NodeHandled,
			rec.Status == NodeSucceeded && (!branching || rec.Branch != ""):
			x.status[rec.NodeID] = rec.Status
			x.branch[rec.NodeID] = rec.Branch
			done = append(done, rec)
		case rec.Status != NodePending:
			x.resumed[rec.NodeID] = true
		}
	}
	slices.SortStableFunc(done, func(a, b NodeRun) int { return a.EndedAt.Compare(b.EndedAt) })
	for _, rec := range done {
		if rec.Status == NodeSucceeded || rec.Status == NodeHandled {
			maps.Copy(x.run.State, rec.Outputs)
		}
	}
	for _, id := range x.order {
		if x.npred[id] == 0 && x.status[id] == NodePending {
			x.ready = append(x.ready, id)
		}
	}
	for _, rec := range done {
		x.release(rec.NodeID)
	}
	return x
}

// release tells a finished node's successors; those with every source
// finished become ready.
func (x *execution) release(id string) {
	for _, i := range x.succ[id] {
		ed := x.run.Workflow.Edges[i]
		if x.followed(id, ed) {
			x.live[ed.To]++
		}
		x.waiting[ed.To]--
		if x.waiting[ed.To] == 0 && x.status[ed.To] == NodePending {
			x.ready = append(x.ready, ed.To)
		}
	}
}

// followed reports whether edge ed of the finished node id is followed:
// a normal edge when the node succeeded (for a condition, when its when is
// the branch picked) or its failure was handled by on_error: continue; an
// error edge when its failure was handled by on_error: branch.
func (x *execution) followed(id string, ed Edge) bool {
	switch x.status[id] {
	case NodeSucceeded:
		return ed.Port == "" && (ed.When == "" || ed.When == x.branch[id])
	case NodeHandled:
		if x.specs[id].OnError == OnErrorBranch {
			return ed.Port == PortError
		}
		return ed.Port == "" && (ed.When == "" || ed.When == x.branch[id])
	}
	return false
}

// rearm lets every saved node in one of the statuses register its abort
// hook again (RearmableStep), before the loop starts.
func (x *execution) rearm(statuses ...NodeStatus) {
	for _, id := range x.order {
		rec, ok := x.recs[id]
		if !ok || !slices.Contains(statuses, rec.Status) {
			continue
		}
		if rec.Status == NodeSucceeded && x.status[id] != NodeSucceeded {
			continue // re-entered: it registers its hook when it runs
		}
		if rec.PinnedFrom != "" {
			continue // not run here: its work belongs to the run it was pinned from
		}
		if rs, ok := x.steps[id].(RearmableStep); ok {
			func() {
				defer func() {
					if p := recover(); p != nil {
						x.e.report(x.run.ID, id, texts.Msg(msgRearmPanicked, p))
					}
				}()
				rs.Rearm(&nodeContext{x: x, runID: x.run.ID, id: id, inputs: maps.Clone(rec.Inputs), resumed: true, attempt: rec.AttemptNo()}, rec)
			}()
		}
	}
}

// requestStop asks the loop to stop the run; a Stop that could not be
// saved leaves the run going on, so it can be asked for again.
func (x *execution) requestStop() {
	select {
	case x.stopCh <- struct{}{}:
	default: // one is waiting already
	}
}
func (x *execution) requestExit() { x.exited.Do(func() { close(x.exitCh) }) }

// reenter makes an interrupted node of this run pending again. It returns
// false only when the loop ended before it could take the request.
func (x *execution) reenter(node string) bool {
	reply := make(chan bool, 1)
	select {
	case x.rerunCh <- rerunReq{node, reply}:
	case <-x.done:
		return false
	}
	<-reply // the loop always answers a request it took
	return true
}

func (x *execution) loop() {
	defer close(x.done)
	stopCh, exitCh := x.stopCh, x.exitCh
	for {
		if x.mode == modeNormal {
			x.schedule()
		}
		if x.running == 0 && (x.mode != modeNormal || len(x.ready) == 0) {
			break
		}
		var batch []NodeRun
		select {
		case r := <-x.results:
			batch = append(batch, x.handle(r))
		drain:
			for {
				select {
				case r := <-x.results:
					batch = append(batch, x.handle(r))
				default:
					break drain
				}
			}
		case <-stopCh:
			if x.beginAbort("", texts.Text(msgStoppedByUser), false) || x.mode != modeNormal {
				stopCh = nil
			}
			continue
		case <-exitCh:
			exitCh = nil
			x.beginExit()
			continue
		case req := <-x.rerunCh:
			ok := x.mode == modeNormal && x.status[req.node] == NodeInterrupted
			if ok {
				x.status[req.node] = NodePending
				x.resumed[req.node] = true
				x.ready = append(x.ready, req.node)
				if x.interrupt != nil && !x.anyInterrupted() {
					x.interrupt = nil
				}
			}
			req.reply <- ok
			continue
		case req := <-x.dlReqs:
			x.saveDeadline(req)
			continue
		case <-x.lostCh:
			x.beginAbort("", texts.Text(msgSaveFailed, x.lost()), true)
			continue
		case <-x.deadline:
			// Canceled nodes did not return in time; stop waiting for them.
			x.deadline = nil
			x.running = 0
		}
		retries := x.retries
		x.retries = nil
		if err := x.saveNodes(batch); err != nil {
			x.dropRetries(retries)
			x.beginAbort("", texts.Text(msgSaveFailed, err), true)
			continue
		}
		for _, r := range retries {
			rec := x.recs[r.id]
			go x.runNode(rec, false, r.wait)
		}
		if x.failNode != "" && x.mode == modeNormal {
			x.beginAbort(x.failNode, x.failReason, true)
		}
	}
	x.finish()
}

func (x *execution) anyInterrupted() bool {
	for _, s := range x.status {
		if s == NodeInterrupted {
			return true
		}
	}
	return false
}

// schedule starts every ready node, or skips it when none of its incoming
// edges was followed; skipping propagates. The records of one round are
// saved before they are published and before the nodes start.
func (x *execution) schedule() {
	var batch []NodeRun
	var start []string
	now := x.e.now().UTC()
	for len(x.ready) > 0 {
		id := x.ready[0]
		x.ready = x.ready[1:]
		if x.status[id] != NodePending {
			continue
		}
		rec := NodeRun{RunID: x.run.ID, NodeID: id, Type: x.types[id]}
		if x.npred[id] > 0 && (x.live[id] == 0 || x.needsAll(id) && x.live[id] < x.npred[id]) {
			rec.Status, rec.StartedAt, rec.EndedAt = NodeSkipped, now, now
			x.status[id], x.recs[id] = NodeSkipped, rec
			batch = append(batch, rec)
			x.release(id)
			continue
		}
		rec.Status, rec.StartedAt, rec.Inputs = NodeRunning, now, x.inputsFor(id)
		if old, ok := x.recs[id]; ok && x.resumed[id] {
			// Re-entered: the same attempt goes on, with its saved deadline.
			rec.Attempt, rec.LastError, rec.DeadlineAt = old.AttemptNo(), old.LastError, old.DeadlineAt
		} else {
			rec.Attempt = 1
		}
		x.status[id], x.recs[id] = NodeRunning, rec
		batch = append(batch, rec)
		start = append(start, id)
	}
	if len(batch) == 0 {
		return
	}
	if err := x.saveNodes(batch); err != nil {
		for _, id := range start {
			x.status[id] = NodePending
		}
		x.beginAbort("", texts.Text(msgSaveFailed, err), true)
		return
	}
	for _, id := range start {
		x.running++
		go x.runNode(x.recs[id], x.resumed[id], 0)
	}
}

// needsAll reports whether node id runs only when every incoming edge was
// followed (a join with inputs: all, AllInputsStep).
func (x *execution) needsAll(id string) bool {
	a, ok := x.steps[id].(AllInputsStep)
	return ok && a.NeedsAllInputs()
}

func (x *execution) inputsFor(id string) Values {
	st := x.steps[id]
	if _, ok := st.(EntryStep); ok {
		return maps.Clone(x.run.Inputs)
	}
	in := Values{}
	for _, f := range st.Reads() {
		if v, ok := x.run.State[f]; ok {
			in[f] = v
		}
	}
	return in
}

// runNode runs one attempt of a node (its record rec, as saved), after
// waiting wait (a retry's pause). The node's context ends with the run's,
// or at its saved deadline (cause ErrDeadlinePassed).
func (x *execution) runNode(rec NodeRun, resumed bool, wait time.Duration) {
	id := rec.NodeID
	ctx, cancel := context.WithCancelCause(x.ctx)
	defer cancel(nil)
	_, pure := x.steps[id].(PureStep)
	nc := &nodeContext{x: x, runID: x.run.ID, id: id, inputs: maps.Clone(rec.Inputs), resumed: resumed,
		attempt: rec.AttemptNo(), cancelNode: cancel, pure: pure}
	if !rec.DeadlineAt.IsZero() {
		nc.armDeadline(rec.DeadlineAt)
	}
	defer nc.disarmDeadline()
	out, err := func() (out Values, err error) {
		defer func() {
			if p := recover(); p != nil {
				err = texts.Error(nil, msgNodePanicked, p)
			}
		}()
		if wait > 0 {
			t := time.NewTimer(wait)
			defer t.Stop()
			select {
			case <-t.C:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		// The record keeps the references; a step that cannot take them
		// gets the values (docs/engine.md "Large values").
		if rr, ok := x.steps[id].(RefReader); (!ok || !rr.ReadsRefs()) && HasRefs(nc.inputs) {
			if nc.inputs, err = ResolveRefs(ctx, x.e.arts, nc.inputs); err != nil {
				return nil, err
			}
		}
		out, err = x.steps[id].Run(ctx, nc)
		if len(out) > 0 {
			// Outputs returned with an error are kept when on_error handles it.
			kept, kerr := x.keepLarge(id, out)
			switch {
			case kerr == nil:
				out = kept
			case err == nil:
				err = kerr
			}
		}
		return out, err
	}()
	if err != nil && errors.Is(context.Cause(ctx), ErrDeadlinePassed) {
		// Whatever the kind made of its canceled context, the reason is the deadline.
		err = texts.Error(ErrDeadlinePassed, msgDeadlinePassed, time.Duration(x.specs[id].DeadlineSeconds)*time.Second)
	}
	nc.mu.Lock()
	branch := nc.branch
	nc.mu.Unlock()
	x.results <- nodeResult{id: id, out: out, err: err, branch: branch}
}

// retry decides whether a failed attempt of node id is tried again: the
// node has attempts left, the failure is not a passed deadline, and for a
// remote node it is a known failure (ErrKnownFailure) — an unknown outcome
// is never retried. A retry is saved as the node's next attempt (running)
// and starts after its round is saved.
func (x *execution) retry(rec *NodeRun, err error) bool {
	p := x.specs[rec.NodeID].Retry
	n := rec.AttemptNo()
	if p == nil || n >= p.MaxAttempts || errors.Is(err, ErrDeadlinePassed) {
		return false
	}
	if _, remote := x.steps[rec.NodeID].(RemoteStep); remote && !errors.Is(err, ErrKnownFailure) {
		x.logLine(x.e.line(x.run.ID, rec.NodeID, texts.Msg(msgAttemptNotRetried, n, p.MaxAttempts, err)), false)
		return false
	}
	wait := p.Wait(n + 1)
	said := texts.Msg(msgAttemptFailed, n, p.MaxAttempts, err, wait)
	if wait <= 0 {
		said = texts.Msg(msgAttemptFailedNow, n, p.MaxAttempts, err) // not "in 0s"
	}
	x.logLine(x.e.line(x.run.ID, rec.NodeID, said), false)
	rec.Status, rec.Attempt, rec.LastError = NodeRunning, n+1, err.Error()
	rec.Error, rec.Outputs, rec.DeadlineAt, rec.EndedAt = "", nil, time.Time{}, time.Time{}
	x.running++
	x.retries = append(x.retries, retryStart{id: rec.NodeID, wait: wait, err: err})
	return true
}

// dropRetries ends attempts that could not be saved: their nodes keep the
// failure of the attempt before.
func (x *execution) dropRetries(rs []retryStart) {
	for _, r := range rs {
		x.running--
		rec := x.recs[r.id]
		rec.Status, rec.Error, rec.EndedAt = NodeFailed, r.err.Error(), x.e.now().UTC()
		x.status[r.id], x.recs[r.id] = NodeFailed, rec
	}
}

// saveDeadline saves the deadline of a running node, then answers.
func (x *execution) saveDeadline(req deadlineReq) {
	defer close(req.reply)
	if x.status[req.node] != NodeRunning {
		return
	}
	rec := x.recs[req.node]
	rec.DeadlineAt = req.at
	x.recs[req.node] = rec
	if err := x.saveNodes([]NodeRun{rec}); err != nil {
		x.beginAbort("", texts.Text(msgSaveFailed, err), true)
	}
}

// handle turns a node's result into its record and updates the schedule.
func (x *execution) handle(r nodeResult) NodeRun {
	x.running--
	rec := x.recs[r.id]
	rec.EndedAt = x.e.now().UTC()
	st := x.steps[r.id]
	if r.err == nil {
		out, err := x.checkOutputs(r.id, r.out)
		if err != nil {
			r.err = err
		} else {
			rec.Outputs = out
		}
	}
	if b, ok := st.(BranchingStep); ok && r.err == nil && !slices.Contains(b.Branches(), r.branch) {
		r.err = texts.Error(nil, msgNoBranch, r.branch)
	}
	var ie *InterruptError
	switch {
	case r.err == nil:
		rec.Status, rec.Branch = NodeSucceeded, r.branch
		x.status[r.id], x.branch[r.id] = NodeSucceeded, r.branch
		maps.Copy(x.run.State, rec.Outputs)
		if x.mode == modeNormal {
			x.release(r.id)
		}
	case x.mode == modeExiting:
		rec.Status, rec.Error = NodeInterrupted, cutShort(r.err, msgNodeAppExited)
	case x.mode == modeAborting:
		rec.Status, rec.Error = NodeStopped, cutShort(r.err, msgNodeStopped)
	case errors.As(r.err, &ie):
		rec.Status, rec.Error, rec.Question = NodeInterrupted, ie.Reason, ie.Question
		if x.interrupt == nil {
			x.interrupt = ie
		}
		if ie.Question != nil {
			x.logLine(x.e.line(x.run.ID, r.id, questionLine(*ie.Question)), false)
		}
	case x.retry(&rec, r.err):
		x.status[r.id], x.recs[r.id] = rec.Status, rec
		return rec
	case x.specs[r.id].OnError == OnErrorContinue || x.specs[r.id].OnError == OnErrorBranch:
		x.handled(&rec, r)
	default:
		rec.Status, rec.Error = NodeFailed, r.err.Error()
		if x.failNode == "" {
			x.failNode, x.failReason = r.id, r.err.Error()
		}
	}
	x.status[r.id], x.recs[r.id] = rec.Status, rec
	return rec
}

// handled records a failure the node's on_error handles: the node is
// "handled", its error field gets the reason, the outputs it returned with
// its error (an MCP tool's isError content) are kept, and the run goes on
// along its normal edges (continue) or its error edges (branch). Nothing
// is canceled.
func (x *execution) handled(rec *NodeRun, r nodeResult) {
	spec := x.specs[r.id]
	reason := r.err.Error()
	out := Values{}
	if len(r.out) > 0 {
		clean, err := x.checkOutputs(r.id, r.out)
		if err != nil {
			reason += "; " + err.Error()
		} else {
			out = clean
		}
	}
	if spec.ErrorField != "" {
		out[spec.ErrorField] = reason
	}
	if len(out) == 0 {
		out = nil
	}
	rec.Status, rec.Error, rec.Outputs, rec.Branch = NodeHandled, reason, out, ""
	x.status[r.id], x.branch[r.id] = NodeHandled, ""
	maps.Copy(x.run.State, out)
	x.logLine(x.e.line(x.run.ID, r.id, texts.Msg(msgErrorHandled, spec.OnError, reason)), false)
	x.release(r.id)
}

// keepLarge stores each large text or JSON output once, as an artifact,
// and puts its reference in its place (KeepLarge); on the node's goroutine,
// so the loop never waits for the copy.
func (x *execution) keepLarge(id string, out Values) (Values, error) {
	var kept Values
	for k, v := range out {
		nv, err := KeepLarge(x.ctx, x.e.arts, x.run.Workflow.State[k], v, x.run.ID, id)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", k, err)
		}
		if _, ok := nv.(ValueRef); ok {
			if kept == nil {
				kept = maps.Clone(out)
			}
			kept[k] = nv
		}
	}
	if kept != nil {
		return kept, nil
	}
	return out, nil
}

func (x *execution) checkOutputs(id string, out Values) (Values, error) {
	if len(out) == 0 {
		return nil, nil
	}
	writes := x.steps[id].Writes()
	if _, ok := x.steps[id].(EntryStep); ok {
		writes = slices.Collect(maps.Keys(x.run.Workflow.State))
	}
	clean := make(Values, len(out))
	for k, v := range out {
		if !slices.Contains(writes, k) {
			return nil, texts.Error(ErrUndeclaredWrite, msgUndeclaredWrite, k)
		}
		nv, err := NormalizeValue(x.run.Workflow.State[k], v)
		if err != nil {
			return nil, texts.Error(ErrUndeclaredWrite, msgBadFieldValue, k, err)
		}
		if nv != nil {
			clean[k] = nv
		}
	}
	return clean, nil
}

// saveNodes commits node records, then publishes them (docs/product.md W4).
// The records of pure nodes (PureStep) and of skipped nodes are written
// behind when the store can (WriteBehindStore): queued, and published once
// the commit that carries them is done — at the latest, the commit of the
// next record here that is not written behind (docs/engine.md
// "Write-behind").
func (x *execution) saveNodes(batch []NodeRun) error {
	if len(batch) == 0 {
		return nil
	}
	if x.whole != nil {
		x.whole.addNodes(batch)
		return nil
	}
	ctx := context.Background()
	durable := batch
	if wb, ok := x.e.runs.(WriteBehindStore); ok {
		durable = nil
		for _, n := range batch {
			if !x.behind(n) {
				durable = append(durable, n)
				continue
			}
			ev := n
			ev.Inputs, ev.Outputs = maps.Clone(n.Inputs), maps.Clone(n.Outputs)
			err := wb.QueueNodeRun(n, func(err error) {
				if err != nil {
					x.loseWrite(err)
					return
				}
				x.e.publish(Event{Type: EventNode, RunID: ev.RunID, NodeID: ev.NodeID, Node: &ev})
			})
			if err != nil {
				return err
			}
		}
	}
	if b, ok := x.e.runs.(NodeRunBatchSaver); ok && len(durable) > 1 {
		if err := b.SaveNodeRuns(ctx, durable); err != nil {
			return err
		}
	} else {
		for _, n := range durable {
			if err := x.e.runs.SaveNodeRun(ctx, n); err != nil {
				return err
			}
		}
	}
	for _, n := range durable {
		n.Inputs, n.Outputs = maps.Clone(n.Inputs), maps.Clone(n.Outputs)
		x.e.publish(Event{Type: EventNode, RunID: n.RunID, NodeID: n.NodeID, Node: &n})
	}
	return nil
}

// behind reports whether n's record may be written behind: its node is
// pure, or was skipped (it did nothing).
func (x *execution) behind(n NodeRun) bool {
	if n.Status == NodeSkipped {
		return true
	}
	_, pure := x.steps[n.NodeID].(PureStep)
	return pure
}

// loseWrite notes a record or line written behind that the store gave
// up; the loop fails the run.
func (x *execution) loseWrite(err error) {
	x.lostMu.Lock()
	if x.lostErr == nil {
		x.lostErr = err
	}
	x.lostMu.Unlock()
	select {
	case x.lostCh <- struct{}{}:
	default:
	}
}

// lost is the first write behind the store gave up, or nil.
func (x *execution) lost() error {
	x.lostMu.Lock()
	defer x.lostMu.Unlock()
	return x.lostErr
}

// beginAbort ends scheduling after a failure (fail true) or Stop: the run is
// saved "stopping" with its reason, running nodes are canceled and every
// abort hook starts, concurrently, on a detached bounded context. A Stop is
// saved (or kept, UnsavedKeeper) before anything else of it happens; one
// that can be neither is refused loudly and the run goes on (false). A
// failure aborts whatever the save did: its final status is tried again.
func (x *execution) beginAbort(node, reason string, fail bool) bool {
	if x.mode != modeNormal {
		return false
	}
	r := x.run
	r.Status, r.Reason, r.FailedNode = RunStopping, reason, node
	r.State = maps.Clone(r.State)
	// A run of RunPure has nothing saved yet: its end carries it all.
	if x.whole == nil {
		if err := x.e.saveFinal(r); err != nil && !fail {
			x.e.report(x.run.ID, "", unsavedTexts.Msg(msgStopNotSaved, err))
			return false
		}
	}
	x.mode = modeAborting
	x.failRun = fail
	// Only the fields the abort changed: node goroutines read x.run.ID.
	x.run.Status, x.run.Reason, x.run.FailedNode, x.run.State = r.Status, r.Reason, r.FailedNode, r.State
	x.cancel()
	x.abortStart = time.Now()
	x.deadline = time.After(x.e.abortTimeout() + hookGrace)

	x.hmu.Lock()
	x.aborting = true
	hooks := x.hooks
	for _, h := range hooks {
		x.callHookLocked(h)
	}
	x.hmu.Unlock()
	return true
}

func (x *execution) beginExit() {
	if x.mode != modeNormal {
		return
	}
	x.mode = modeExiting
	x.cancel()
	x.deadline = time.After(x.e.abortTimeout())
}

// addHook registers an abort hook; once the run is aborting, a hook is
// called as soon as it is registered.
func (x *execution) addHook(h abortHook) {
	x.hmu.Lock()
	defer x.hmu.Unlock()
	if x.aborting {
		x.callHookLocked(h)
		return
	}
	x.hooks = append(x.hooks, h)
}

// callHookLocked starts h on a context detached from the run and bounded by
// the hook's own bound (its node's, see OnAbortWithin).
func (x *execution) callHookLocked(h abortHook) {
	bound := x.e.hookBound(h)
	if end := time.Now().Add(bound + hookGrace); end.After(x.hooksEnd) {
		x.hooksEnd = end
	}
	x.inflight++
	base, runID := context.WithoutCancel(x.ctx), x.run.ID
	go func() {
		defer func() {
			x.hmu.Lock()
			x.inflight--
			if x.inflight == 0 && x.hooksIdle != nil {
				close(x.hooksIdle)
				x.hooksIdle = nil
			}
			x.hmu.Unlock()
		}()
		x.e.callHook(base, runID, h, bound)
	}()
}

// waitHooks waits for the abort hooks, each at most until its bound (+
// grace) has passed; a hook registered meanwhile extends the wait.
func (x *execution) waitHooks() {
	for {
		x.hmu.Lock()
		if x.inflight == 0 {
			x.hmu.Unlock()
			return
		}
		if x.hooksIdle == nil {
			x.hooksIdle = make(chan struct{})
		}
		idle, end := x.hooksIdle, x.hooksEnd
		x.hmu.Unlock()
		left := time.Until(end)
		if left <= 0 {
			return
		}
		t := time.NewTimer(left)
		select {
		case <-idle:
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// finish saves the run's final status (after the abort hooks) and publishes it.
func (x *execution) finish() {
	now := x.e.now().UTC()
	var parked []abortHook
	var leftover []NodeRun
	for _, id := range x.order {
		if x.status[id] != NodeRunning {
			continue
		}
		rec := x.recs[id]
		rec.EndedAt = now
		if x.mode == modeExiting {
			rec.Status, rec.Error = NodeInterrupted, texts.Text(msgNodeAppExited)
		} else {
			rec.Status, rec.Error = NodeStopped, texts.Text(msgNodeNotStopped, x.e.abortTimeout())
		}
		x.status[id], x.recs[id] = rec.Status, rec
		leftover = append(leftover, rec)
	}
	if err := x.saveNodes(leftover); err != nil {
		x.e.report(x.run.ID, "", texts.Msg(msgNodesNotSaved, err))
	}

	switch x.mode {
	case modeAborting:
		x.waitHooks()
		x.run.Status, x.run.EndedAt = RunStopped, now
		if x.failRun {
			x.run.Status = RunFailed
		}
		x.run.EndedAt = x.e.now().UTC()
	case modeExiting:
		x.run.Status, x.run.Interruption = RunInterrupted, InterruptedByExit
		x.run.Reason = texts.Text(msgAppExited)
	default:
		switch {
		case x.interrupt != nil:
			x.run.Status, x.run.Interruption, x.run.Reason = RunInterrupted, x.interrupt.Cause, x.interrupt.Reason
			x.hmu.Lock()
			parked = slices.Clone(x.hooks)
			x.hmu.Unlock()
		case x.allFinished():
			x.run.Status, x.run.EndedAt = RunSucceeded, now
		default:
			x.run.Status, x.run.EndedAt = RunFailed, now
			x.run.Reason = texts.Text(msgNeverReady)
		}
	}
	x.run.State = maps.Clone(x.run.State)
	if x.whole != nil {
		x.saveWhole()
	} else {
		_ = x.e.saveFinalChecked(x.run, x.lost) // a failure is reported (and kept) there
	}
	x.e.dropAnswers(x.run.ID)
	x.e.finished(x, parked)
}

func (x *execution) allFinished() bool {
	for _, s := range x.status {
		if !s.Finished() {
			return false
		}
	}
	return true
}

// nodeContext is the NodeContext of one node execution.
type nodeContext struct {
	x       *execution
	runID   string
	id      string
	inputs  Values
	resumed bool
	attempt int
	pure    bool // its lines are written behind (PureStep)
	// cancelNode ends the node's context (nil for a rearmed node).
	cancelNode context.CancelCauseFunc

	mu       sync.Mutex
	branch   string
	dlArmed  bool
	dlTimer  *time.Timer
	dlClosed bool
}

func (c *nodeContext) RunID() string            { return c.runID }
func (c *nodeContext) NodeID() string           { return c.id }
func (c *nodeContext) Inputs() Values           { return maps.Clone(c.inputs) }
func (c *nodeContext) Resumed() bool            { return c.resumed }
func (c *nodeContext) Attempt() int             { return max(c.attempt, 1) }
func (c *nodeContext) Artifacts() ArtifactStore { return c.x.e.arts }

func (c *nodeContext) Log(msg Text) {
	c.x.logLine(c.x.e.line(c.runID, c.id, msg), c.pure)
}

// logLine writes a line of the run: held for a run of RunPure, written
// behind for a pure node (pure), else committed before it returns.
func (x *execution) logLine(m Message, pure bool) {
	switch {
	case x.whole != nil:
		x.whole.addLine(m)
	case pure && x.queueLine(m):
	default:
		x.e.logLine(m)
	}
}

// queueLine writes a pure node's line behind (WriteBehindStore): it is
// published, in commit order with every other line, once the commit that
// carries it is done. It reports false when the store cannot queue it.
func (x *execution) queueLine(m Message) bool {
	wb, ok := x.e.runs.(WriteBehindStore)
	if !ok {
		return false
	}
	e := x.e
	o := &e.lines
	// The ticket is taken and the line queued under one lock, so tickets
	// follow the store's queue order.
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.inflight == nil {
		o.inflight = map[int64]struct{}{}
	}
	t := o.next
	o.next++
	o.inflight[t] = struct{}{}
	err := wb.QueueMessage(m, func(saved Message, err error) {
		o.mu.Lock()
		delete(o.inflight, t)
		if err == nil {
			o.ready = append(o.ready, readyLine{m: saved, upTo: o.next - 1, done: make(chan struct{})})
		}
		e.publishReadyLocked()
		o.mu.Unlock()
		if err != nil {
			e.unsaved(m, err)
			x.loseWrite(err)
		}
	})
	if err != nil {
		delete(o.inflight, t)
		return false
	}
	return true
}

func (c *nodeContext) Progress(msg Text) {
	m := c.x.e.line(c.runID, c.id, msg)
	if c.x.whole != nil {
		c.x.whole.addLine(m)
		return
	}
	if err := c.x.e.runs.AppendProgress(context.Background(), m); err != nil {
		// Not batched: try it as a line of its own (which reports a failure).
		c.x.e.logLine(m)
		return
	}
	// Progress lines are batched by the store (Seq unknown yet); they are the
	// one kind of line shown before its commit (docs/product.md W4 allows batching them).
	c.x.e.publish(Event{Type: EventMessage, RunID: m.RunID, NodeID: m.NodeID, Message: &m})
}

func (c *nodeContext) OnAbort(hook func(ctx context.Context)) {
	c.OnAbortWithin(0, hook)
}

// OnAbortWithin registers hook like OnAbort, bounded by d instead of the
// engine's AbortTimeout (BoundedAborter).
func (c *nodeContext) OnAbortWithin(d time.Duration, hook func(ctx context.Context)) {
	if hook != nil {
		c.x.addHook(abortHook{node: c.id, fn: hook, bound: max(d, 0)})
	}
}

// StartDeadline implements DeadlineStarter: the node's deadline_seconds
// start now; the instant is saved in the node's record before it returns.
func (c *nodeContext) StartDeadline() {
	secs := c.x.specs[c.id].DeadlineSeconds
	c.mu.Lock()
	if secs <= 0 || c.dlArmed || c.cancelNode == nil {
		c.mu.Unlock()
		return
	}
	c.dlArmed = true
	c.mu.Unlock()
	at := c.x.e.now().UTC().Add(time.Duration(secs) * time.Second)
	req := deadlineReq{node: c.id, at: at, reply: make(chan struct{})}
	select {
	case c.x.dlReqs <- req:
		<-req.reply
	case <-c.x.done:
		return
	}
	c.Log(texts.Msg(msgDeadlineStarted, at.Local().Format(time.DateTime)))
	c.armDeadline(at)
}

// armDeadline cancels the node's context with ErrDeadlinePassed at at.
func (c *nodeContext) armDeadline(at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dlClosed || c.dlTimer != nil {
		return
	}
	c.dlArmed = true
	c.dlTimer = time.AfterFunc(time.Until(at), func() { c.cancelNode(ErrDeadlinePassed) })
}

func (c *nodeContext) disarmDeadline() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dlClosed = true
	if c.dlTimer != nil {
		c.dlTimer.Stop()
	}
}

func (c *nodeContext) SetBranch(branch string) {
	c.mu.Lock()
	c.branch = branch
	c.mu.Unlock()
}

func (c *nodeContext) Decision(ctx context.Context) (Decision, bool, error) {
	d, err := c.x.e.runs.GetDecision(ctx, c.runID, c.id)
	if errors.Is(err, ErrNotFound) {
		return Decision{}, false, nil
	}
	if err != nil {
		return Decision{}, false, fmt.Errorf("read decision: %w", err)
	}
	if d.Withheld {
		if full, held := c.x.e.heldAnswer(d); held {
			return full, true, nil
		}
	}
	return d, true, nil
}

// runHooks calls hooks concurrently, each on a detached context bounded by
// its own bound, and waits for them (or the longest bound, + grace).
func (e *Engine) runHooks(ctx context.Context, runID string, hooks []abortHook) {
	if len(hooks) == 0 {
		return
	}
	base := context.WithoutCancel(ctx)
	done := make(chan struct{}, len(hooks))
	var longest time.Duration
	for _, h := range hooks {
		bound := e.hookBound(h)
		longest = max(longest, bound)
		go func() {
			defer func() { done <- struct{}{} }()
			e.callHook(base, runID, h, bound)
		}()
	}
	wait := time.NewTimer(longest + hookGrace)
	defer wait.Stop()
	for range hooks {
		select {
		case <-done:
		case <-wait.C:
			return
		}
	}
}

func (e *Engine) hookBound(h abortHook) time.Duration {
	if h.bound > 0 {
		return h.bound
	}
	return e.abortTimeout()
}

// callHook runs one hook within bound. A hook's panic changes nothing about
// the run (docs/remote-agent.md R2), but it is reported on the hook's node.
func (e *Engine) callHook(base context.Context, runID string, h abortHook, bound time.Duration) {
	ctx, cancel := context.WithTimeout(base, bound)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			e.report(runID, h.node, texts.Msg(msgHookPanicked, p))
		}
	}()
	h.fn(ctx)
}

// cutShort is the error of a node the run cut short: a bare context error
// ("context canceled") says only that, so the record gets the catalogue's
// words for why, in the reader's language; any other error is kept.
func cutShort(err error, why msgID) string {
	if errors.Is(err, context.Canceled) {
		return texts.Text(why)
	}
	return err.Error()
}
