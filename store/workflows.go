package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"workrun/workrun"
)

var _ workrun.WorkflowStore = (*Store)(nil)

// SaveWorkflow saves wf as a new revision of workflow id (docs/product.md W1). An empty
// id creates a workflow with a new UUID; an id not yet saved is created with
// revision 1 (used when importing a workflow file that carries its id).
// Earlier revisions are kept; runs hold their own snapshot anyway.
func (s *Store) SaveWorkflow(ctx context.Context, id string, wf workrun.Workflow) (workrun.WorkflowRecord, error) {
	if id == "" {
		id = uuid.NewString()
	}
	doc, err := json.Marshal(wf)
	if err != nil {
		return workrun.WorkflowRecord{}, fmt.Errorf("save workflow %s: %w", id, err)
	}
	now := s.now()
	var rev int
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		rev = 0
		err := tx.QueryRowContext(ctx, `SELECT revision FROM workflows WHERE id=?`, id).Scan(&rev)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		rev++
		if _, err := tx.ExecContext(ctx, `INSERT INTO workflows (id, name, revision, updated_at)
			VALUES (?,?,?,?) ON CONFLICT (id) DO UPDATE SET name=excluded.name,
			revision=excluded.revision, updated_at=excluded.updated_at`,
			id, wf.Name, rev, now.UnixNano()); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO workflow_revisions (workflow_id, revision, doc,
			created_at) VALUES (?,?,?,?)`, id, rev, string(doc), now.UnixNano())
		return err
	})
	if err != nil {
		return workrun.WorkflowRecord{}, fmt.Errorf("save workflow %s: %w", id, err)
	}
	return workrun.WorkflowRecord{ID: id, Revision: rev, Workflow: wf, UpdatedAt: fromNano(now.UnixNano())}, nil
}

// GetWorkflow returns the latest revision, or workrun.ErrNotFound.
func (s *Store) GetWorkflow(ctx context.Context, id string) (workrun.WorkflowRecord, error) {
	rec, err := scanWorkflow(s.r.QueryRowContext(ctx, `SELECT `+workflowCols+`
		FROM workflows w JOIN workflow_revisions r ON r.workflow_id = w.id AND r.revision = w.revision
		WHERE w.id=?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return workrun.WorkflowRecord{}, fmt.Errorf("get workflow %s: %w", id, workrun.ErrNotFound)
	}
	if err != nil {
		return workrun.WorkflowRecord{}, fmt.Errorf("get workflow %s: %w", id, err)
	}
	return rec, nil
}

// WorkflowRevision returns one earlier revision, or workrun.ErrNotFound.
func (s *Store) WorkflowRevision(ctx context.Context, id string, revision int) (workrun.WorkflowRecord, error) {
	rec := workrun.WorkflowRecord{ID: id, Revision: revision}
	var doc string
	var t int64
	err := s.r.QueryRowContext(ctx, `SELECT doc, created_at FROM workflow_revisions
		WHERE workflow_id=? AND revision=?`, id, revision).Scan(&doc, &t)
	if errors.Is(err, sql.ErrNoRows) {
		return workrun.WorkflowRecord{}, fmt.Errorf("workflow %s revision %d: %w", id, revision, workrun.ErrNotFound)
	}
	if err != nil {
		return workrun.WorkflowRecord{}, fmt.Errorf("workflow %s revision %d: %w", id, revision, err)
	}
	if err := json.Unmarshal([]byte(doc), &rec.Workflow); err != nil {
		return workrun.WorkflowRecord{}, fmt.Errorf("workflow %s revision %d: %w", id, revision, err)
	}
	rec.UpdatedAt = fromNano(t)
	return rec, nil
}

// ListWorkflows returns the latest revision of every workflow, by name.
func (s *Store) ListWorkflows(ctx context.Context) ([]workrun.WorkflowRecord, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+workflowCols+`
		FROM workflows w JOIN workflow_revisions r ON r.workflow_id = w.id AND r.revision = w.revision
		ORDER BY w.name, w.id`)
	if err != nil {
		return nil, fmt.Errorf("list workflows: %w", err)
	}
	defer rows.Close()
	var out []workrun.WorkflowRecord
	for rows.Next() {
		rec, err := scanWorkflow(rows)
		if err != nil {
			return nil, fmt.Errorf("list workflows: %w", err)
		}
		out = append(out, rec)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list workflows: %w", err)
	}
	return out, nil
}

// DeleteWorkflow removes a workflow and its revisions; runs of it keep their
// snapshot. A missing id gives workrun.ErrNotFound.
func (s *Store) DeleteWorkflow(ctx context.Context, id string) error {
	res, err := s.exec(ctx, `DELETE FROM workflows WHERE id=?`, id)
	if err != nil {
		return fmt.Errorf("delete workflow %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("delete workflow %s: %w", id, workrun.ErrNotFound)
	}
	return nil
}

const workflowCols = `w.id, w.revision, w.updated_at, r.doc`

func scanWorkflow(sc scanner) (workrun.WorkflowRecord, error) {
	var rec workrun.WorkflowRecord
	var t int64
	var doc string
	if err := sc.Scan(&rec.ID, &rec.Revision, &t, &doc); err != nil {
		return workrun.WorkflowRecord{}, err
	}
	rec.UpdatedAt = fromNano(t)
	if err := json.Unmarshal([]byte(doc), &rec.Workflow); err != nil {
		return workrun.WorkflowRecord{}, fmt.Errorf("workflow %s: %w", rec.ID, err)
	}
	return rec, nil
}
