package remotecall

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"workrun/workrun"
)

// Store keeps the call records; *store.Store implements it. Both methods
// return only after the write is committed / reflect every committed write.
type Store interface {
	SaveRemoteCall(ctx context.Context, c workrun.RemoteCall) error
	// GetRemoteCall returns workrun.ErrNotFound when the call was never saved.
	GetRemoteCall(ctx context.Context, runID, nodeID, callKey string) (workrun.RemoteCall, error)
}

// Errors both remote kinds return.
var (
	// ErrAlreadyCanceled: the call was already sent its one cancel
	// (docs/remote-agent.md R12, R13).
	ErrAlreadyCanceled = errors.New("remote task was already sent a cancel")
	// ErrAborted: the abort hook took its snapshot; nothing more is saved
	// or handled.
	ErrAborted = errors.New("remote call: the run is failing or stopping")
)

// Call is one logical remote call of a node execution and the in-memory
// mirror of its saved record; C is the kind's protocol client, kept for the
// abort hook. Build it with Load (or NewSaved for a record read elsewhere).
type Call[C any] struct {
	store Store
	// redact is applied to the record before each save; nil saves it as is.
	redact func(workrun.RemoteCall) workrun.RemoteCall

	// nc is the node execution the call belongs to (nil for a record
	// read elsewhere): its deadline starts when the task id is committed.
	nc workrun.NodeContext

	mu      sync.Mutex
	rec     workrun.RemoteCall
	saved   bool // rec was committed at least once
	aborted bool
	client  C
}

// Load reads the call record of this node execution (key names the call);
// a call never saved starts from fresh(), unsaved. redact, when not nil, is
// applied to the record before each save.
func Load[C any](ctx context.Context, st Store, nc workrun.NodeContext, key string,
	redact func(workrun.RemoteCall) workrun.RemoteCall, fresh func() (workrun.RemoteCall, error)) (*Call[C], error) {
	c := &Call[C]{store: st, redact: redact, nc: nc}
	rec, err := st.GetRemoteCall(ctx, nc.RunID(), nc.NodeID(), key)
	switch {
	case err == nil:
		c.rec, c.saved = rec, true
		if rec.TaskID != "" {
			// The task was accepted before a restart: its deadline (saved
			// by the engine, or started now if the exit came in between).
			workrun.StartDeadline(nc)
		}
	case errors.Is(err, workrun.ErrNotFound):
		if c.rec, err = fresh(); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("read remote call record: %w", err)
	}
	return c, nil
}

// NewSaved is the Call of a record already committed (a rearmed hook, a
// test), with client (the zero value when there is none yet) and redact as
// for Load.
func NewSaved[C any](st Store, rec workrun.RemoteCall, client C, redact func(workrun.RemoteCall) workrun.RemoteCall) *Call[C] {
	return &Call[C]{store: st, redact: redact, rec: rec, saved: true, client: client}
}

// Update commits a change to the record, unless the abort hook already took
// its snapshot: from then on the saved record must not move (ErrAborted).
//
// The commit that first saves a task id starts the node's deadline_seconds
// (workrun.StartDeadline, docs/engine.md "Failure handling"): the deadline
// counts from the task id being saved.
func (c *Call[C]) Update(ctx context.Context, f func(*workrun.RemoteCall)) error {
	c.mu.Lock()
	if c.aborted {
		c.mu.Unlock()
		return ErrAborted
	}
	hadTask := c.rec.TaskID != ""
	err := c.commitLocked(ctx, f)
	started := err == nil && !hadTask && c.rec.TaskID != ""
	c.mu.Unlock()
	if started && c.nc != nil {
		workrun.StartDeadline(c.nc)
	}
	return err
}

func (c *Call[C]) commitLocked(ctx context.Context, f func(*workrun.RemoteCall)) error {
	r := c.rec
	f(&r)
	if c.redact != nil {
		r = c.redact(r)
	}
	if err := c.store.SaveRemoteCall(ctx, r); err != nil {
		return fmt.Errorf("save remote call: %w", err)
	}
	c.rec, c.saved = r, true
	return nil
}

// Record is the record as last committed (or as loaded).
func (c *Call[C]) Record() workrun.RemoteCall {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rec
}

// Saved reports whether the record was committed at least once.
func (c *Call[C]) Saved() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.saved
}

// SetClient keeps the client the call talks through, for the abort hook.
func (c *Call[C]) SetClient(client C) {
	c.mu.Lock()
	c.client = client
	c.mu.Unlock()
}

// Client is the client SetClient kept (the zero value before).
func (c *Call[C]) Client() C {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.client
}

// Aborted reports whether the abort hook took its snapshot.
func (c *Call[C]) Aborted() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.aborted
}

// AlreadyCanceled is the error of a resumed call whose record already holds
// a cancel outcome: it is neither continued nor sent again
// (docs/remote-agent.md R13).
func AlreadyCanceled(rec workrun.RemoteCall) error {
	return fmt.Errorf("%w (%s); run the workflow again to start a new execution", ErrAlreadyCanceled, rec.CancelOutcome)
}
