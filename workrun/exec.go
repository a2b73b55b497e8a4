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
	stopCh  chan struct{}
	exitCh  chan struct{}
	stopped sync.Once
	exited  sync.Once
	rerunCh chan rerunReq
	done    chan struct{}

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
		stopCh:  make(chan struct{}),
		exitCh:  make(chan struct{}),
		rerunCh: make(chan rerunReq),
		done:    make(chan struct{}),
	}
	if x.run.State == nil {
		x.run.State = Values{}
	}
	x.ctx, x.cancel = context.WithCancel(context.Background())
	for _, n := range wf.Nodes {
		x.order = append(x.order, n.ID)
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
		case rec.Status == NodeSkipped,
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
		if rec.Status == NodeSucceeded {
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
	st := x.status[id]
	for _, i := range x.succ[id] {
		ed := x.run.Workflow.Edges[i]
		if st == NodeSucceeded && (ed.When == "" || ed.When == x.branch[id]) {
			x.live[ed.To]++
		}
		x.waiting[ed.To]--
		if x.waiting[ed.To] == 0 && x.status[ed.To] == NodePending {
			x.ready = append(x.ready, ed.To)
		}
	}
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
		if rs, ok := x.steps[id].(RearmableStep); ok {
			func() {
				defer func() {
					if p := recover(); p != nil {
						x.e.report(x.run.ID, id, texts.Msg(msgRearmPanicked, p))
					}
				}()
				rs.Rearm(&nodeContext{x: x, runID: x.run.ID, id: id, inputs: maps.Clone(rec.Inputs), resumed: true}, rec)
			}()
		}
	}
}

func (x *execution) requestStop() { x.stopped.Do(func() { close(x.stopCh) }) }
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
			stopCh = nil
			x.beginAbort("", texts.Text(msgStoppedByUser), false)
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
		case <-x.deadline:
			// Canceled nodes did not return in time; stop waiting for them.
			x.deadline = nil
			x.running = 0
			break
		}
		if err := x.saveNodes(batch); err != nil {
			x.beginAbort("", texts.Text(msgSaveFailed, err), true)
			continue
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
		if x.npred[id] > 0 && x.live[id] == 0 {
			rec.Status, rec.StartedAt, rec.EndedAt = NodeSkipped, now, now
			x.status[id], x.recs[id] = NodeSkipped, rec
			batch = append(batch, rec)
			x.release(id)
			continue
		}
		rec.Status, rec.StartedAt, rec.Inputs = NodeRunning, now, x.inputsFor(id)
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
		go x.runNode(id, maps.Clone(x.recs[id].Inputs), x.resumed[id])
	}
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

func (x *execution) runNode(id string, inputs Values, resumed bool) {
	nc := &nodeContext{x: x, runID: x.run.ID, id: id, inputs: inputs, resumed: resumed}
	out, err := func() (out Values, err error) {
		defer func() {
			if p := recover(); p != nil {
				err = texts.Error(nil, msgNodePanicked, p)
			}
		}()
		// The record keeps the references; a step that cannot take them
		// gets the values (docs/engine.md "Large values").
		if rr, ok := x.steps[id].(RefReader); (!ok || !rr.ReadsRefs()) && HasRefs(inputs) {
			if nc.inputs, err = ResolveRefs(x.ctx, x.e.arts, inputs); err != nil {
				return nil, err
			}
		}
		out, err = x.steps[id].Run(x.ctx, nc)
		if err == nil {
			out, err = x.keepLarge(id, out)
		}
		return out, err
	}()
	nc.mu.Lock()
	branch := nc.branch
	nc.mu.Unlock()
	x.results <- nodeResult{id: id, out: out, err: err, branch: branch}
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
		rec.Status, rec.Error = NodeInterrupted, r.err.Error()
	case x.mode == modeAborting:
		rec.Status, rec.Error = NodeStopped, r.err.Error()
	case errors.As(r.err, &ie):
		rec.Status, rec.Error = NodeInterrupted, ie.Reason
		if x.interrupt == nil {
			x.interrupt = ie
		}
	default:
		rec.Status, rec.Error = NodeFailed, r.err.Error()
		if x.failNode == "" {
			x.failNode, x.failReason = r.id, r.err.Error()
		}
	}
	x.status[r.id], x.recs[r.id] = rec.Status, rec
	return rec
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
func (x *execution) saveNodes(batch []NodeRun) error {
	if len(batch) == 0 {
		return nil
	}
	ctx := context.Background()
	if b, ok := x.e.runs.(NodeRunBatchSaver); ok && len(batch) > 1 {
		if err := b.SaveNodeRuns(ctx, batch); err != nil {
			return err
		}
	} else {
		for _, n := range batch {
			if err := x.e.runs.SaveNodeRun(ctx, n); err != nil {
				return err
			}
		}
	}
	for _, n := range batch {
		n.Inputs, n.Outputs = maps.Clone(n.Inputs), maps.Clone(n.Outputs)
		x.e.publish(Event{Type: EventNode, RunID: n.RunID, NodeID: n.NodeID, Node: &n})
	}
	return nil
}

// beginAbort ends scheduling after a failure (fail true) or Stop: the run is
// saved "stopping" with its reason, running nodes are canceled and every
// abort hook starts, concurrently, on a detached bounded context.
func (x *execution) beginAbort(node, reason string, fail bool) {
	if x.mode != modeNormal {
		return
	}
	x.mode = modeAborting
	x.failRun = fail
	x.run.Status, x.run.Reason, x.run.FailedNode = RunStopping, reason, node
	x.run.State = maps.Clone(x.run.State)
	if err := x.e.saveRun(context.Background(), x.run); err == nil {
		x.e.publishRun(x.run)
	}
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
	if err := x.e.saveRun(context.Background(), x.run); err == nil {
		x.e.publishRun(x.run)
	}
	x.e.finished(x, parked)
}

func (x *execution) allFinished() bool {
	for _, s := range x.status {
		if s != NodeSucceeded && s != NodeSkipped {
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
	mu      sync.Mutex
	branch  string
}

func (c *nodeContext) RunID() string            { return c.runID }
func (c *nodeContext) NodeID() string           { return c.id }
func (c *nodeContext) Inputs() Values           { return maps.Clone(c.inputs) }
func (c *nodeContext) Resumed() bool            { return c.resumed }
func (c *nodeContext) Artifacts() ArtifactStore { return c.x.e.arts }

func (c *nodeContext) Log(msg Text) {
	c.x.e.logLine(c.x.e.line(c.runID, c.id, msg))
}

func (c *nodeContext) Progress(msg Text) {
	m := c.x.e.line(c.runID, c.id, msg)
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
