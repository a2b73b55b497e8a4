package workruntest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	"workrun/workrun"
)

// MemStore is an in-memory RunStore. Its zero value is not usable: call
// NewMemStore. The *Func fields, when set, replace the method.
type MemStore struct {
	SaveNodeRunFunc   func(ctx context.Context, n workrun.NodeRun) error
	AppendMessageFunc func(ctx context.Context, m workrun.Message) (workrun.Message, error)
	UpdateRunFunc     func(ctx context.Context, r workrun.Run) error

	mu        sync.Mutex
	runs      map[string]workrun.Run
	order     []string
	nodes     map[string]map[string]workrun.NodeRun
	nodeOrder map[string][]string
	messages  map[string][]workrun.Message
	decisions map[string]workrun.Decision
	seq       int64
	// History lists every run record saved, in order (for asserting what
	// statuses a run went through).
	history []workrun.Run
}

var _ workrun.RunStore = (*MemStore)(nil)

// NewMemStore returns an empty store.
func NewMemStore() *MemStore {
	return &MemStore{
		runs:      map[string]workrun.Run{},
		nodes:     map[string]map[string]workrun.NodeRun{},
		nodeOrder: map[string][]string{},
		messages:  map[string][]workrun.Message{},
		decisions: map[string]workrun.Decision{},
	}
}

// RunHistory returns every version of run id saved so far.
func (s *MemStore) RunHistory(id string) []workrun.Run {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []workrun.Run
	for _, r := range s.history {
		if r.ID == id {
			out = append(out, r)
		}
	}
	return out
}

func (s *MemStore) CreateRun(ctx context.Context, r workrun.Run) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.runs[r.ID]; dup {
		return fmt.Errorf("create run %s: exists", r.ID)
	}
	s.runs[r.ID] = r
	s.order = append(s.order, r.ID)
	s.history = append(s.history, r)
	return nil
}

func (s *MemStore) UpdateRun(ctx context.Context, r workrun.Run) error {
	if s.UpdateRunFunc != nil {
		if err := s.UpdateRunFunc(ctx, r); err != nil {
			return err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old, ok := s.runs[r.ID]
	if !ok {
		return fmt.Errorf("update run %s: %w", r.ID, workrun.ErrNotFound)
	}
	old.Status, old.Interruption, old.Reason, old.FailedNode = r.Status, r.Interruption, r.Reason, r.FailedNode
	old.State, old.EndedAt = maps.Clone(r.State), r.EndedAt
	s.runs[r.ID] = old
	s.history = append(s.history, old)
	return nil
}

var _ workrun.RunClaimer = (*MemStore)(nil)

// ClaimRun saves r like UpdateRun only if the run is in one of the statuses
// from, atomically. The store knows no owners: OwnerPID is 0.
func (s *MemStore) ClaimRun(ctx context.Context, r workrun.Run, from ...workrun.RunStatus) (workrun.RunClaim, error) {
	if s.UpdateRunFunc != nil {
		if err := s.UpdateRunFunc(ctx, r); err != nil {
			return workrun.RunClaim{}, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old, ok := s.runs[r.ID]
	if !ok {
		return workrun.RunClaim{}, fmt.Errorf("claim run %s: %w", r.ID, workrun.ErrNotFound)
	}
	c := workrun.RunClaim{Status: old.Status, OwnerAlive: true}
	if !slices.Contains(from, old.Status) {
		return c, nil
	}
	old.Status, old.Interruption, old.Reason, old.FailedNode = r.Status, r.Interruption, r.Reason, r.FailedNode
	old.State, old.EndedAt = maps.Clone(r.State), r.EndedAt
	s.runs[r.ID] = old
	s.history = append(s.history, old)
	c.OK = true
	return c, nil
}

// RunHolder reads the run's status.
func (s *MemStore) RunHolder(ctx context.Context, runID string) (workrun.RunClaim, error) {
	r, err := s.GetRun(ctx, runID)
	if err != nil {
		return workrun.RunClaim{}, err
	}
	return workrun.RunClaim{Status: r.Status, OwnerAlive: true}, nil
}

func (s *MemStore) GetRun(ctx context.Context, id string) (workrun.Run, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.runs[id]
	if !ok {
		return workrun.Run{}, fmt.Errorf("run %s: %w", id, workrun.ErrNotFound)
	}
	return r, nil
}

func (s *MemStore) ListRuns(ctx context.Context, f workrun.RunFilter) ([]workrun.Run, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []workrun.Run
	for _, id := range slices.Backward(s.order) {
		r := s.runs[id]
		if (f.WorkflowID == "" || r.WorkflowID == f.WorkflowID) && (f.Status == "" || r.Status == f.Status) && f.Matches(r) {
			out = append(out, r)
		}
	}
	return out, nil
}

func (s *MemStore) RunsWithStatus(ctx context.Context, st workrun.RunStatus) ([]workrun.Run, error) {
	return s.ListRuns(ctx, workrun.RunFilter{Status: st})
}

func (s *MemStore) SaveNodeRun(ctx context.Context, n workrun.NodeRun) error {
	if s.SaveNodeRunFunc != nil {
		if err := s.SaveNodeRunFunc(ctx, n); err != nil {
			return err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.nodes[n.RunID] == nil {
		s.nodes[n.RunID] = map[string]workrun.NodeRun{}
	}
	if _, ok := s.nodes[n.RunID][n.NodeID]; !ok {
		s.nodeOrder[n.RunID] = append(s.nodeOrder[n.RunID], n.NodeID)
	}
	n.Inputs, n.Outputs = maps.Clone(n.Inputs), maps.Clone(n.Outputs)
	s.nodes[n.RunID][n.NodeID] = n
	return nil
}

func (s *MemStore) NodeRuns(ctx context.Context, runID string) ([]workrun.NodeRun, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []workrun.NodeRun
	for _, id := range s.nodeOrder[runID] {
		out = append(out, s.nodes[runID][id])
	}
	return out, nil
}

func (s *MemStore) AppendMessage(ctx context.Context, m workrun.Message) (workrun.Message, error) {
	if s.AppendMessageFunc != nil {
		return s.AppendMessageFunc(ctx, m)
	}
	return s.StoreMessage(m), nil
}

// StoreMessage is what AppendMessage does without AppendMessageFunc: it
// numbers m and keeps it (for an AppendMessageFunc that wraps the store).
func (s *MemStore) StoreMessage(m workrun.Message) workrun.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	m.Seq = s.seq
	s.messages[m.RunID] = append(s.messages[m.RunID], m)
	return m
}

func (s *MemStore) AppendProgress(ctx context.Context, m workrun.Message) error {
	_, err := s.AppendMessage(ctx, m)
	return err
}

func (s *MemStore) Messages(ctx context.Context, runID string) ([]workrun.Message, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.messages[runID]), nil
}

func (s *MemStore) SaveDecision(ctx context.Context, d workrun.Decision) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.decisions[d.RunID+"\x00"+d.NodeID] = d
	return nil
}

func (s *MemStore) GetDecision(ctx context.Context, runID, nodeID string) (workrun.Decision, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.decisions[runID+"\x00"+nodeID]
	if !ok {
		return workrun.Decision{}, fmt.Errorf("decision %s/%s: %w", runID, nodeID, workrun.ErrNotFound)
	}
	return d, nil
}
