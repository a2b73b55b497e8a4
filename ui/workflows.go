package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"workrun/ui/document"
	"workrun/workrun"
)

// memWorkflows keeps workflows in memory when Deps.Workflows is nil (a
// window opened without a store, as in the smoke test). Nothing is saved.
type memWorkflows struct {
	mu   sync.Mutex
	next int
	recs map[string]workrun.WorkflowRecord
}

func newMemWorkflows() *memWorkflows { return &memWorkflows{recs: map[string]workrun.WorkflowRecord{}} }

func (m *memWorkflows) SaveWorkflow(_ context.Context, id string, wf workrun.Workflow) (workrun.WorkflowRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.recs[id]
	if id == "" || !ok {
		m.next++
		id = "mem-" + strconv.Itoa(m.next)
		r = workrun.WorkflowRecord{ID: id}
	}
	r.Revision++
	r.Workflow = document.CloneWorkflow(wf)
	r.UpdatedAt = time.Now()
	m.recs[id] = r
	return r, nil
}

func (m *memWorkflows) GetWorkflow(_ context.Context, id string) (workrun.WorkflowRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.recs[id]
	if !ok {
		return r, fmt.Errorf("workflow %s: %w", id, workrun.ErrNotFound)
	}
	return r, nil
}

func (m *memWorkflows) ListWorkflows(context.Context) ([]workrun.WorkflowRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]workrun.WorkflowRecord, 0, len(m.recs))
	for _, r := range m.recs {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b workrun.WorkflowRecord) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
	return out, nil
}

func (m *memWorkflows) DeleteWorkflow(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.recs[id]; !ok {
		return fmt.Errorf("workflow %s: %w", id, workrun.ErrNotFound)
	}
	delete(m.recs, id)
	return nil
}

// ExportWorkflow encodes a workflow as its JSON file. A workflow holds only
// credential names, never secrets (docs/product.md W8), so the export holds none either.
func ExportWorkflow(wf workrun.Workflow) ([]byte, error) {
	b, err := json.MarshalIndent(wf, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("export workflow: %w", err)
	}
	return append(b, '\n'), nil
}

// ImportWorkflow decodes a workflow file.
func ImportWorkflow(b []byte) (workrun.Workflow, error) {
	var wf workrun.Workflow
	if err := json.Unmarshal(b, &wf); err != nil {
		return wf, fmt.Errorf("import workflow: %w", err)
	}
	if wf.State == nil {
		wf.State = map[string]workrun.FieldType{}
	}
	return wf, nil
}
