package workruntest

import (
	"context"
	"sync"
	"time"

	"workrun/workrun"
)

// NodeContext is a workrun.NodeContext for running one Step in a test. Set
// the exported fields before Run; read what the step did with the methods.
type NodeContext struct {
	Run, Node string
	In        workrun.Values
	IsResumed bool
	// AttemptNo is what Attempt returns (0 means 1).
	AttemptNo int
	Arts      workrun.ArtifactStore
	// DecisionFunc answers Decision; nil means "no decision yet".
	DecisionFunc func(ctx context.Context) (workrun.Decision, bool, error)
	// KeepProgressApart: Progress lines go to ProgressTexts instead of Logs
	// and Texts, as the engine keeps them apart from the committed messages.
	KeepProgressApart bool

	mu       sync.Mutex
	logs     []workrun.Text
	progress []workrun.Text
	hooks    []func(ctx context.Context)
	bounds   []time.Duration
	branch   string
}

var _ workrun.NodeContext = (*NodeContext)(nil)

func (c *NodeContext) RunID() string                    { return c.Run }
func (c *NodeContext) NodeID() string                   { return c.Node }
func (c *NodeContext) Resumed() bool                    { return c.IsResumed }
func (c *NodeContext) Attempt() int                     { return max(c.AttemptNo, 1) }
func (c *NodeContext) Artifacts() workrun.ArtifactStore { return c.Arts }

func (c *NodeContext) Inputs() workrun.Values {
	out := workrun.Values{}
	for k, v := range c.In {
		out[k] = v
	}
	return out
}

func (c *NodeContext) Log(msg workrun.Text) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.logs = append(c.logs, msg)
}

func (c *NodeContext) Progress(msg workrun.Text) {
	if !c.KeepProgressApart {
		c.Log(msg)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.progress = append(c.progress, msg)
}

func (c *NodeContext) OnAbort(hook func(ctx context.Context)) { c.OnAbortWithin(0, hook) }

var _ workrun.BoundedAborter = (*NodeContext)(nil)

// OnAbortWithin registers hook with its bound (0: the engine's).
func (c *NodeContext) OnAbortWithin(d time.Duration, hook func(ctx context.Context)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hooks = append(c.hooks, hook)
	c.bounds = append(c.bounds, d)
}

// HookBounds returns the bound each hook of Hooks was registered with
// (0: the engine's AbortTimeout).
func (c *NodeContext) HookBounds() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.bounds...)
}

func (c *NodeContext) SetBranch(branch string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.branch = branch
}

func (c *NodeContext) Decision(ctx context.Context) (workrun.Decision, bool, error) {
	if c.DecisionFunc == nil {
		return workrun.Decision{}, false, nil
	}
	return c.DecisionFunc(ctx)
}

// Logs returns the lines logged so far, rendered in the current language.
func (c *NodeContext) Logs() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, len(c.logs))
	for i, t := range c.logs {
		out[i] = t.String()
	}
	return out
}

// Texts returns the lines logged so far as keys and arguments.
func (c *NodeContext) Texts() []workrun.Text {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]workrun.Text(nil), c.logs...)
}

// ProgressTexts returns the progress lines kept apart (KeepProgressApart).
func (c *NodeContext) ProgressTexts() []workrun.Text {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]workrun.Text(nil), c.progress...)
}

// Hooks returns the abort hooks registered so far.
func (c *NodeContext) Hooks() []func(ctx context.Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]func(ctx context.Context), len(c.hooks))
	copy(out, c.hooks)
	return out
}

// Branch returns the branch set with SetBranch.
func (c *NodeContext) Branch() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.branch
}
