package workrun

import (
	"context"
	"errors"
	"io"
	"time"
)

// ErrNotFound is returned by stores for a missing run, node run, workflow or artifact.
var ErrNotFound = errors.New("not found")

// RunStore is what the engine needs from durable storage. Every method returns only
// after its write is committed: the engine relies on that ordering (docs/product.md W4, docs/remote-agent.md R5).
// Implemented by package store; tests use function-field fakes.
type RunStore interface {
	CreateRun(ctx context.Context, r Run) error
	// UpdateRun saves status, interruption, reason, failed node, state and ended time.
	UpdateRun(ctx context.Context, r Run) error
	GetRun(ctx context.Context, id string) (Run, error)
	ListRuns(ctx context.Context, f RunFilter) ([]Run, error)
	// RunsWithStatus returns runs in one status through an index; start-up uses it to
	// find runs that were "running" when the process died. It never walks history (docs/remote-agent.md R13).
	RunsWithStatus(ctx context.Context, s RunStatus) ([]Run, error)

	// SaveNodeRun inserts or replaces the record of (RunID, NodeID).
	SaveNodeRun(ctx context.Context, n NodeRun) error
	NodeRuns(ctx context.Context, runID string) ([]NodeRun, error)

	// AppendMessage commits one line at once and returns it with Seq set.
	AppendMessage(ctx context.Context, m Message) (Message, error)
	// AppendProgress may batch the line with others (progress text only); it
	// is committed within a short interval or at the next AppendMessage/Flush.
	AppendProgress(ctx context.Context, m Message) error
	Messages(ctx context.Context, runID string) ([]Message, error)

	SaveDecision(ctx context.Context, d Decision) error
	// GetDecision returns ErrNotFound when no decision was made yet.
	GetDecision(ctx context.Context, runID, nodeID string) (Decision, error)
}

// WorkflowStore keeps saved workflows with revisions (docs/product.md W1).
type WorkflowStore interface {
	SaveWorkflow(ctx context.Context, id string, wf Workflow) (WorkflowRecord, error) // new revision; empty id creates
	GetWorkflow(ctx context.Context, id string) (WorkflowRecord, error)
	ListWorkflows(ctx context.Context) ([]WorkflowRecord, error)
	DeleteWorkflow(ctx context.Context, id string) error
}

// ArtifactStore is the local file store (docs/product.md W3). Implemented by package artifacts.
type ArtifactStore interface {
	// Put stores the bytes from r; name is cleaned, the media type is checked
	// against the bytes. runID/nodeID say who made it (empty for an import).
	Put(ctx context.Context, name, declaredType string, r io.Reader, runID, nodeID string) (ArtifactInfo, error)
	Stat(ctx context.Context, id string) (ArtifactInfo, error)
	// Open streams the content; the caller closes it.
	Open(ctx context.Context, id string) (io.ReadCloser, ArtifactInfo, error)
}

// NodeRunBatchSaver is implemented by stores that commit several node records
// in one transaction. The engine uses it, when present, to save the records of
// one scheduling round together (still before they are published).
type NodeRunBatchSaver interface {
	SaveNodeRuns(ctx context.Context, ns []NodeRun) error
}

// WriteBehindStore is implemented by stores that can take a record or a
// line without waiting for its commit (docs/engine.md "Write-behind"). The
// engine queues through it the node records and durable lines of pure
// nodes (PureStep) and of skipped nodes. What is queued is committed in
// the order queued, in the same transaction as — and before — the store's
// next write that waits for its commit (any RunStore write, and a node's
// own records such as a Remote Agent's call record), by Flush or Close,
// and within about 100 ms otherwise. done is called once it is committed
// (nil; a line with its Seq) or given up (the error), in the order queued,
// before the write that carried it returns, on the committing goroutine:
// it must neither block nor write to the store.
type WriteBehindStore interface {
	QueueNodeRun(n NodeRun, done func(error)) error
	QueueMessage(m Message, done func(Message, error)) error
}

// OwnedRunStore is implemented by stores that several processes share (the
// GUI next to `workrun run` on one data directory). The store records which
// process saved each run last and can tell whether that process still runs.
// RecoverInterrupted and MarkExited then recover only runs whose process
// has ended, so a run another live process is executing is never marked
// interrupted by exit (docs/remote-agent.md R13). Stores without it are treated as used by one
// process at a time.
type OwnedRunStore interface {
	// OrphanedRuns returns the runs in status s whose owning process has
	// ended, through the status index (it never walks history).
	OrphanedRuns(ctx context.Context, s RunStatus) ([]Run, error)
	// UpdateOrphanedRun saves r like UpdateRun only if the run is still in
	// status from and its owner has ended, as one atomic check-and-write;
	// ok is false when it was left alone (another process has it now).
	UpdateOrphanedRun(ctx context.Context, r Run, from RunStatus) (ok bool, err error)
}

// RunClaimer is implemented by stores that can claim a run in one atomic
// step. Taking over a run that nobody executes right now — Resume, Stop or a
// decision on an interrupted run, or a run whose process died — is a claim:
// of several callers (in one process or several) exactly one wins, and the
// others learn who has the run. Stores without it are claimed with a read
// and an unconditional write, safe only for one process at a time.
type RunClaimer interface {
	// ClaimRun saves r like UpdateRun, and makes this store the run's owner,
	// only if the run is in one of the statuses from and, when that status
	// is one a process executes (running, stopping), the process that owns
	// it has ended. The check and the write are one transaction. The result
	// says whether it was saved and what was found.
	ClaimRun(ctx context.Context, r Run, from ...RunStatus) (RunClaim, error)
	// RunHolder reads the run's status and owner without changing anything.
	RunHolder(ctx context.Context, runID string) (RunClaim, error)
}

// RunClaim is the outcome of RunClaimer.ClaimRun: what the store found.
type RunClaim struct {
	OK     bool      // the run was saved (the claim won)
	Status RunStatus // the status found before the write
	// OwnerPID is the process id of the run's owner (the process that saved
	// it last); 0 when unknown. OwnerAlive says whether it still runs.
	OwnerPID   int
	OwnerAlive bool
}

// StopRequester is implemented by stores several processes share: a Stop
// of a run another live process executes is a durable request to that
// process, which notices it and stops the run as its own Stop does
// (docs/engine.md "Stop across processes").
type StopRequester interface {
	// RequestStop saves a stop request for the run, addressed to its
	// owner, only if the run is running and its owner is another process
	// that still runs: the check and the write are one transaction. The
	// result says whether it was saved and what was found.
	RequestStop(ctx context.Context, runID string) (RunClaim, error)
	// StopRequests returns the requests addressed to this store's owner,
	// through an index.
	StopRequests(ctx context.Context) ([]StopRequest, error)
	// DeleteStopRequest removes the run's request, if any.
	DeleteStopRequest(ctx context.Context, runID string) error
}

// StopRequest is one saved request to stop a run another process executes.
type StopRequest struct {
	RunID string
	ByPID int // the process that asked
	At    time.Time
}

// ErrSignInRequired: a remote call needs the person to sign in again (an
// OAuth credential whose token cannot be renewed without them); the error
// text names the origin. A node that has not submitted fails with it; one
// with a task id is interrupted so the same task resumes after sign-in.
var ErrSignInRequired = errors.New("sign in required")
