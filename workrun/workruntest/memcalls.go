package workruntest

import (
	"context"
	"fmt"
	"sync"

	"workrun/workrun"
)

// MemCalls is an in-memory store of remote call records, the CallStore of
// the remote node kinds. Its zero value is not usable: call NewMemCalls.
type MemCalls struct {
	// SaveFunc, if set, runs before a save is accepted; an error refuses it.
	SaveFunc func(workrun.RemoteCall) error

	mu   sync.Mutex
	recs map[string]workrun.RemoteCall
}

// NewMemCalls returns an empty MemCalls.
func NewMemCalls() *MemCalls { return &MemCalls{recs: map[string]workrun.RemoteCall{}} }

func callID(run, node, key string) string { return run + "/" + node + "/" + key }

// SaveRemoteCall keeps c. As the real store, a done context saves nothing.
func (m *MemCalls) SaveRemoteCall(ctx context.Context, c workrun.RemoteCall) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("save remote call: %w", err)
	}
	if m.SaveFunc != nil {
		if err := m.SaveFunc(c); err != nil {
			return err
		}
	}
	m.Put(c)
	return nil
}

// GetRemoteCall returns the record, or workrun.ErrNotFound.
func (m *MemCalls) GetRemoteCall(_ context.Context, run, node, key string) (workrun.RemoteCall, error) {
	c, ok := m.Get(run, node, key)
	if !ok {
		return c, workrun.ErrNotFound
	}
	return c, nil
}

// Put keeps c as if an earlier process had saved it (no SaveFunc).
func (m *MemCalls) Put(c workrun.RemoteCall) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recs[callID(c.RunID, c.NodeID, c.CallKey)] = c
}

// Get returns the record and whether there is one.
func (m *MemCalls) Get(run, node, key string) (workrun.RemoteCall, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.recs[callID(run, node, key)]
	return c, ok
}
