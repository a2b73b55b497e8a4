package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"workrun/workrun"
)

// Schedule fires and webhook signatures (docs/triggers.md T1, T7). A fire
// row is inserted with INSERT OR IGNORE on its primary key (workflow,
// trigger, fire time): of two processes, or a process and its restart,
// exactly one records a given fire.

const fireCols = `workflow, trigger, fire_at, state, task_id`

// RecordFire inserts f; false (and no change) when that fire is recorded already.
func (s *Store) RecordFire(ctx context.Context, f workrun.TriggerFire) (bool, error) {
	res, err := s.exec(ctx, `INSERT OR IGNORE INTO trigger_fires (`+fireCols+`, updated_at) VALUES (?,?,?,?,?,?)`,
		f.Workflow, f.Trigger, unixNano(f.At), f.State, f.TaskID, unixNano(s.now()))
	if err != nil {
		return false, fmt.Errorf("record fire: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("record fire: %w", err)
	}
	return n == 1, nil
}

// SetFire saves f's state and task.
func (s *Store) SetFire(ctx context.Context, f workrun.TriggerFire) error {
	_, err := s.exec(ctx, `UPDATE trigger_fires SET state=?, task_id=?, updated_at=? WHERE workflow=? AND trigger=? AND fire_at=?`,
		f.State, f.TaskID, unixNano(s.now()), f.Workflow, f.Trigger, unixNano(f.At))
	if err != nil {
		return fmt.Errorf("save fire: %w", err)
	}
	return nil
}

func scanFire(row interface{ Scan(...any) error }) (workrun.TriggerFire, error) {
	var f workrun.TriggerFire
	var at int64
	err := row.Scan(&f.Workflow, &f.Trigger, &at, &f.State, &f.TaskID)
	f.At = fromNano(at)
	return f, err
}

// LastFire reads the latest recorded fire of a trigger (workrun.ErrNotFound if none).
func (s *Store) LastFire(ctx context.Context, workflow string, trigger int) (workrun.TriggerFire, error) {
	f, err := scanFire(s.r.QueryRowContext(ctx, `SELECT `+fireCols+` FROM trigger_fires WHERE workflow=? AND trigger=? ORDER BY fire_at DESC LIMIT 1`, workflow, trigger))
	if errors.Is(err, sql.ErrNoRows) {
		return f, fmt.Errorf("last fire: %w", workrun.ErrNotFound)
	}
	if err != nil {
		return f, fmt.Errorf("last fire: %w", err)
	}
	return f, nil
}

// Fires lists a workflow's fires, the newest first (limit 0: 50); with
// states given, only those.
func (s *Store) Fires(ctx context.Context, workflow string, limit int, states ...string) ([]workrun.TriggerFire, error) {
	if limit <= 0 {
		limit = 50
	}
	q := `SELECT ` + fireCols + ` FROM trigger_fires WHERE workflow=?`
	args := []any{workflow}
	if len(states) > 0 {
		q += ` AND state IN (?` + repeatString(",?", len(states)-1) + `)`
		for _, st := range states {
			args = append(args, st)
		}
	}
	q += ` ORDER BY fire_at DESC, trigger DESC LIMIT ?`
	args = append(args, limit)
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list fires: %w", err)
	}
	defer rows.Close()
	var out []workrun.TriggerFire
	for rows.Next() {
		f, err := scanFire(rows)
		if err != nil {
			return nil, fmt.Errorf("list fires: %w", err)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

func repeatString(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}

// SignatureWindow is how long a webhook signature is kept: longer than
// the ±5 minutes a signed request is accepted in (docs/triggers.md T7).
const SignatureWindow = time.Hour

// SeeSignature records a webhook request's signature; false when it was
// seen before (a replay). Signatures older than SignatureWindow are
// forgotten at the same time.
func (s *Store) SeeSignature(ctx context.Context, workflow, signature string) (bool, error) {
	now := s.now()
	var fresh bool
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM webhook_signatures WHERE seen_at < ?`, unixNano(now.Add(-SignatureWindow))); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO webhook_signatures (workflow, signature, seen_at) VALUES (?,?,?)`, workflow, signature, unixNano(now))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		fresh = n == 1
		return err
	})
	if err != nil {
		return false, fmt.Errorf("record webhook signature: %w", err)
	}
	return fresh, nil
}
