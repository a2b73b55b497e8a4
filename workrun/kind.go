package workrun

import (
	"context"
	"fmt"
)

// Kind is a node type the engine can run ("start", "set", "remote_agent", …).
// Each kind lives in its own package under nodes/ and is registered in main.go.
type Kind interface {
	Type() string
	// Compile checks the node's config against the workflow (field names and
	// types, ranges) and returns the runnable step. Errors name the problem;
	// the engine locates them on the node.
	Compile(spec NodeSpec, wf Workflow) (Step, error)
}

// Step is one compiled node.
type Step interface {
	// Reads and Writes are the State fields the node declares (SPEC W2). The
	// engine hands the node only Reads and accepts only Writes from it.
	Reads() []string
	Writes() []string
	// Run does the node's work. It returns the values of (some of) Writes.
	// Return an *InterruptError to interrupt the run; any other error fails it.
	Run(ctx context.Context, nc NodeContext) (Values, error)
}

// NodeContext links a running node to its run.
type NodeContext interface {
	RunID() string
	NodeID() string
	// Inputs holds the current values of the node's declared Reads.
	Inputs() Values
	// Log appends a time-stamped node message; it is committed before Log returns.
	Log(text string)
	// Progress appends a message that may be batched with others (SPEC: progress
	// lines may be batched; terminal states never wait for a batch).
	Progress(text string)
	// OnAbort registers a hook the engine calls exactly once if the run fails or
	// is stopped, concurrently with the other hooks, on a detached bounded
	// context. What a hook does never changes the run's status or reason (R2, R9).
	OnAbort(hook func(ctx context.Context))
	// SetBranch is called by condition nodes: only edges whose When equals
	// branch are followed; the others' targets are skipped.
	SetBranch(branch string)
	// Decision returns the saved Human Review / Ask Human decision, if any.
	Decision(ctx context.Context) (Decision, bool, error)
	// Resumed reports whether this node is being re-entered by Resume after the
	// application exited (or after a human decision) rather than started fresh.
	Resumed() bool
	Artifacts() ArtifactStore
}

// InterruptError interrupts a run instead of failing it.
type InterruptError struct {
	Cause  Interruption
	Reason string
}

func (e *InterruptError) Error() string {
	return fmt.Sprintf("interrupted (%s): %s", e.Cause, e.Reason)
}
