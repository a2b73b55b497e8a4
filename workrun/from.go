package workrun

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/google/uuid"
)

// RunFrom says which part of a workflow a new run runs (Engine.StartFrom):
// "run from here" (Node and everything after it) or "test this node"
// (Only: Node alone). The nodes that do not run are pinned: their records
// are taken from PinRun, an earlier run of the same workflow, or typed by
// hand in Pins.
type RunFrom struct {
	Node string
	Only bool
	// PinRun is the earlier run whose outputs are taken; "" when Pins
	// cover every node that must be pinned.
	PinRun string
	// Pins are outputs typed by hand (node id → field → value); they win
	// over PinRun's for their node.
	Pins map[string]Values
}

// StartFrom starts a new run of wf in which only part of it runs: from.Node
// and every node after it (or, with from.Only, from.Node alone). Every node
// before from.Node is not run: its record — status, outputs, the branch it
// picked — is taken from the run from.PinRun, or from from.Pins, and saved
// in the new run marked PinnedFrom, before any node starts. Nodes neither
// before nor after from.Node are taken from PinRun when they finished there
// and run otherwise (with Only they are skipped). The nodes after
// from.Node are skipped with Only. What runs, runs fresh: it is a new run,
// so remote nodes send new calls with new identities (docs/remote-agent.md
// R12). inputs nil means PinRun's inputs. Errors wrap ErrInvalidWorkflow,
// ErrBadInput or ErrPin, before anything is saved.
func (e *Engine) StartFrom(ctx context.Context, workflowID string, wf Workflow, inputs Values, from RunFrom) (string, error) {
	steps, probs := e.compile(wf)
	if len(probs) > 0 {
		return "", &ValidationError{Problems: probs}
	}
	var prev Run
	var prevRecs map[string]NodeRun
	if from.PinRun != "" {
		var err error
		if prev, err = e.runs.GetRun(ctx, from.PinRun); err != nil {
			return "", fmt.Errorf("start run from %s: %w", from.Node, err)
		}
		if prev.WorkflowID != "" && workflowID != "" && prev.WorkflowID != workflowID {
			return "", texts.Error(ErrPin, msgPinOtherWorkflow, prev.ID, prev.WorkflowName)
		}
		recs, err := e.runs.NodeRuns(ctx, from.PinRun)
		if err != nil {
			return "", fmt.Errorf("start run from %s: %w", from.Node, err)
		}
		prevRecs = make(map[string]NodeRun, len(recs))
		for _, r := range recs {
			prevRecs[r.NodeID] = r
		}
		if inputs == nil {
			inputs = prev.Inputs
		}
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
		PinnedFrom:   from.PinRun,
		StartedBy:    StartedByFrom(ctx),
		CreatedAt:    e.now().UTC(),
	}
	pinned, err := pinnedRecords(r, steps, from, prevRecs, e.now().UTC())
	if err != nil {
		return "", err
	}
	if err := e.runs.CreateRun(ctx, r); err != nil {
		return "", fmt.Errorf("start run: %w", err)
	}
	x := newExecution(e, r, steps, pinned)
	e.mu.Lock()
	e.active[r.ID] = x
	e.watchStopsLocked()
	e.mu.Unlock()
	// The pinned records are saved before any node starts, like a
	// scheduling round.
	if err := x.saveNodes(pinned); err != nil {
		x.beginAbort("", texts.Text(msgSaveFailed, err), true)
	}
	e.publishRun(r)
	for _, p := range pinned {
		switch {
		case p.PinnedFrom == PinnedByHand:
			e.logLine(e.line(r.ID, p.NodeID, texts.Msg(msgPinnedByHand)))
		case p.PinnedFrom != "":
			e.logLine(e.line(r.ID, p.NodeID, texts.Msg(msgPinnedFrom, p.PinnedFrom)))
		}
	}
	go x.loop()
	return r.ID, nil
}

// pinnedRecords are the records of the nodes of run r that do not run.
func pinnedRecords(r Run, steps map[string]Step, from RunFrom, prev map[string]NodeRun, now time.Time) ([]NodeRun, error) {
	wf := r.Workflow
	if _, ok := steps[from.Node]; !ok {
		return nil, texts.Error(ErrPin, msgPinUnknownNode, from.Node)
	}
	after := reach(wf, from.Node, func(e Edge) (string, string) { return e.From, e.To })
	before := reach(wf, from.Node, func(e Edge) (string, string) { return e.To, e.From })
	for id := range from.Pins {
		switch {
		case steps[id] == nil:
			return nil, texts.Error(ErrPin, msgPinUnknownNode, id)
		case id == from.Node:
			return nil, texts.Error(ErrPin, msgPinChosen, id)
		case after[id] && !from.Only:
			return nil, texts.Error(ErrPin, msgPinNotPinned, id, from.Node)
		}
	}
	var out []NodeRun
	for _, n := range wf.Nodes {
		id := n.ID
		if id == from.Node || after[id] && !from.Only {
			continue // runs
		}
		rec := NodeRun{RunID: r.ID, NodeID: id, Type: n.Type, StartedAt: now, EndedAt: now, Attempt: 1}
		if vals, ok := from.Pins[id]; ok {
			outs, err := checkPin(wf, id, steps[id], vals)
			if err != nil {
				return nil, err
			}
			rec.Status, rec.Outputs, rec.PinnedFrom = NodeSucceeded, outs, PinnedByHand
			if b, ok := steps[id].(BranchingStep); ok {
				// A typed condition takes the first branch its values do
				// not decide; pinning a condition is picking its branch.
				rec.Branch = b.Branches()[0]
			}
			out = append(out, rec)
			continue
		}
		if old, ok := prev[id]; ok && old.Status.Finished() && !after[id] {
			rec.Status, rec.Outputs, rec.Branch, rec.Error = old.Status, maps.Clone(old.Outputs), old.Branch, old.Error
			rec.Inputs, rec.StartedAt, rec.EndedAt = maps.Clone(old.Inputs), old.StartedAt, old.EndedAt
			rec.Attempt, rec.PinnedFrom = old.AttemptNo(), r.PinnedFrom
			out = append(out, rec)
			continue
		}
		if _, entry := steps[id].(EntryStep); entry && before[id] {
			// The start node's outputs are the run's inputs.
			rec.Status, rec.Outputs, rec.PinnedFrom = NodeSucceeded, maps.Clone(r.Inputs), PinnedByHand
			out = append(out, rec)
			continue
		}
		switch {
		case before[id]:
			run := r.PinnedFrom
			if run == "" {
				run = "-"
			}
			return nil, texts.Error(ErrPin, msgPinNoOutputs, id, run)
		case from.Only:
			rec.Status, rec.Error = NodeSkipped, texts.Text(msgNotTested, from.Node)
			out = append(out, rec)
		}
		// Otherwise a node beside the chosen one that did not finish
		// before runs in this run.
	}
	// Pinned records keep the order in which their nodes ended, so State is
	// rebuilt as it was; typed ones come last.
	slices.SortStableFunc(out, func(a, b NodeRun) int { return a.EndedAt.Compare(b.EndedAt) })
	return out, nil
}

// checkPin checks values typed for node id against what it writes (every
// State field for the start node) and their types.
func checkPin(wf Workflow, id string, st Step, vals Values) (Values, error) {
	writes := st.Writes()
	if _, ok := st.(EntryStep); ok {
		writes = slices.Collect(maps.Keys(wf.State))
	}
	clean := make(Values, len(vals))
	for k, v := range vals {
		if !slices.Contains(writes, k) {
			return nil, texts.Error(ErrPin, msgPinField, id, k)
		}
		nv, err := NormalizeValue(wf.State[k], v)
		if err != nil {
			return nil, texts.Error(ErrPin, msgPinValue, id, k, err)
		}
		if nv != nil {
			clean[k] = nv
		}
	}
	return clean, nil
}

// reach is the set of nodes reached from id along the edges, each edge
// read as step(e) = (from, to); every edge counts, error edges included.
func reach(wf Workflow, id string, step func(Edge) (string, string)) map[string]bool {
	next := make(map[string][]string)
	for _, e := range wf.Edges {
		a, b := step(e)
		next[a] = append(next[a], b)
	}
	seen := map[string]bool{}
	queue := []string{id}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, m := range next[n] {
			if !seen[m] {
				seen[m] = true
				queue = append(queue, m)
			}
		}
	}
	return seen
}
