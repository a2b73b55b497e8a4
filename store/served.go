package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"workrun/workrun"
)

// Tasks of served workflows and callers' token hashes (docs/serve.md).
// A task row is inserted only by CreateRun, in the run's own transaction
// (workrun.WithServedTask): the unique (caller, idem_key) index makes a
// second run for the same caller and key impossible, in this process or
// another one on the same file.

const servedCols = `id, caller, idem_key, publication, context_id, run_id, message, created_at`

func insertServedTask(ctx context.Context, tx *sql.Tx, t workrun.ServedTask, runID string) error {
	if t.ID == "" || t.Key == "" {
		return errors.New("served task: empty id or key")
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO served_tasks (`+servedCols+`) VALUES (?,?,?,?,?,?,?,?)`,
		t.ID, t.Caller, t.Key, t.Publication, t.ContextID, runID, t.Message, unixNano(t.CreatedAt))
	if err != nil {
		return fmt.Errorf("save served task: %w", err)
	}
	return nil
}

func scanServedTask(row interface{ Scan(...any) error }) (workrun.ServedTask, error) {
	var t workrun.ServedTask
	var created int64
	err := row.Scan(&t.ID, &t.Caller, &t.Key, &t.Publication, &t.ContextID, &t.RunID, &t.Message, &created)
	t.CreatedAt = fromNano(created)
	return t, err
}

func (s *Store) servedTask(ctx context.Context, op, where string, args ...any) (workrun.ServedTask, error) {
	t, err := scanServedTask(s.r.QueryRowContext(ctx, `SELECT `+servedCols+` FROM served_tasks WHERE `+where, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return t, fmt.Errorf("%s: %w", op, workrun.ErrNotFound)
	}
	if err != nil {
		return t, fmt.Errorf("%s: %w", op, err)
	}
	return t, nil
}

// ServedTask reads a task by its id.
func (s *Store) ServedTask(ctx context.Context, id string) (workrun.ServedTask, error) {
	return s.servedTask(ctx, "served task "+id, `id=?`, id)
}

// ServedTaskByKey reads the task a caller started with key.
func (s *Store) ServedTaskByKey(ctx context.Context, caller, key string) (workrun.ServedTask, error) {
	return s.servedTask(ctx, "served task by key", `caller=? AND idem_key=?`, caller, key)
}

// ServedTaskForRun reads the task that started runID.
func (s *Store) ServedTaskForRun(ctx context.Context, runID string) (workrun.ServedTask, error) {
	return s.servedTask(ctx, "served task of run "+runID, `run_id=?`, runID)
}

// ServedTasks lists tasks newest first.
func (s *Store) ServedTasks(ctx context.Context, f workrun.ServedTaskFilter) ([]workrun.ServedTask, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	q := `SELECT ` + servedCols + ` FROM served_tasks WHERE caller=?`
	args := []any{f.Caller}
	if f.Publication != "" {
		q += ` AND publication=?`
		args = append(args, f.Publication)
	}
	if f.ContextID != "" {
		q += ` AND context_id=?`
		args = append(args, f.ContextID)
	}
	if f.Before != "" {
		c, err := s.ServedTask(ctx, f.Before)
		if err != nil {
			return nil, fmt.Errorf("list served tasks: cursor: %w", err)
		}
		q += ` AND (created_at < ? OR (created_at = ? AND id < ?))`
		args = append(args, unixNano(c.CreatedAt), unixNano(c.CreatedAt), c.ID)
	}
	q += ` ORDER BY created_at DESC, id DESC LIMIT ?`
	args = append(args, limit)
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list served tasks: %w", err)
	}
	defer rows.Close()
	var out []workrun.ServedTask
	for rows.Next() {
		t, err := scanServedTask(rows)
		if err != nil {
			return nil, fmt.Errorf("list served tasks: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// SaveServeToken saves a new token's label and hash.
func (s *Store) SaveServeToken(ctx context.Context, label, hash string) error {
	_, err := s.exec(ctx, `INSERT INTO serve_tokens (label, hash, created_at) VALUES (?,?,?)`, label, hash, unixNano(s.now()))
	if err != nil {
		if strings.Contains(err.Error(), "UNIQUE") {
			return fmt.Errorf("save token %s: %w", label, workrun.ErrTokenExists)
		}
		return fmt.Errorf("save token %s: %w", label, err)
	}
	return nil
}

// ServeTokens lists the saved tokens by label.
func (s *Store) ServeTokens(ctx context.Context) ([]workrun.ServeToken, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT label, hash, created_at FROM serve_tokens ORDER BY label`)
	if err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	defer rows.Close()
	var out []workrun.ServeToken
	for rows.Next() {
		var t workrun.ServeToken
		var created int64
		if err := rows.Scan(&t.Label, &t.Hash, &created); err != nil {
			return nil, fmt.Errorf("list tokens: %w", err)
		}
		t.CreatedAt = fromNano(created)
		out = append(out, t)
	}
	return out, rows.Err()
}

// DeleteServeToken removes a token; workrun.ErrNotFound if there is none.
func (s *Store) DeleteServeToken(ctx context.Context, label string) error {
	res, err := s.exec(ctx, `DELETE FROM serve_tokens WHERE label=?`, label)
	if err != nil {
		return fmt.Errorf("revoke token %s: %w", label, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("revoke token %s: %w", label, workrun.ErrNotFound)
	}
	return nil
}
