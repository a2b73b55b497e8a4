package store

import (
	"context"
	"database/sql"
	"fmt"

	"workrun/workrun"
)

// AppendMessage commits the line and returns it with Seq set; Time is set to
// now when zero. Progress lines batched before it are committed first, so a
// run's lines keep their order. Lines appended concurrently share a commit
// (see write) and each call still returns only after its own line is
// committed.
func (s *Store) AppendMessage(ctx context.Context, m workrun.Message) (workrun.Message, error) {
	if m.Time.IsZero() {
		m.Time = s.now()
	}
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		m, err = insertLine(ctx, tx, m)
		return err
	})
	if err != nil {
		return workrun.Message{}, fmt.Errorf("append message %s/%s: %w", m.RunID, m.NodeID, err)
	}
	return m, nil
}

// insertLine numbers m after the highest seq of its run and inserts it.
// Only the single writer connection runs it, so the numbering cannot race.
func insertLine(ctx context.Context, tx *sql.Tx, m workrun.Message) (workrun.Message, error) {
	var max sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT MAX(seq) FROM messages WHERE run_id=?`, m.RunID).Scan(&max); err != nil {
		return m, err
	}
	m.Seq = max.Int64 + 1
	_, err := tx.ExecContext(ctx, `INSERT INTO messages (run_id, seq, node_id, time, text)
		VALUES (?,?,?,?,?)`, m.RunID, m.Seq, m.NodeID, unixNano(m.Time), m.Text)
	return m, err
}

// insertLines inserts a batch of lines, reading each run's highest seq
// once and preparing the insert once.
func insertLines(ctx context.Context, tx *sql.Tx, lines []workrun.Message) error {
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO messages (run_id, seq, node_id, time, text) VALUES (?,?,?,?,?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	next := map[string]int64{}
	for _, m := range lines {
		seq, ok := next[m.RunID]
		if !ok {
			var max sql.NullInt64
			if err := tx.QueryRowContext(ctx, `SELECT MAX(seq) FROM messages WHERE run_id=?`, m.RunID).Scan(&max); err != nil {
				return err
			}
			seq = max.Int64
		}
		seq++
		next[m.RunID] = seq
		if _, err := stmt.ExecContext(ctx, m.RunID, seq, m.NodeID, unixNano(m.Time), m.Text); err != nil {
			return err
		}
	}
	return nil
}

// Messages returns a run's committed lines in seq order. Batched progress
// lines not yet committed are not included.
func (s *Store) Messages(ctx context.Context, runID string) ([]workrun.Message, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT run_id, seq, node_id, time, text FROM messages
		WHERE run_id=? ORDER BY seq`, runID)
	if err != nil {
		return nil, fmt.Errorf("messages %s: %w", runID, err)
	}
	defer rows.Close()
	var out []workrun.Message
	for rows.Next() {
		var m workrun.Message
		var t int64
		if err := rows.Scan(&m.RunID, &m.Seq, &m.NodeID, &t, &m.Text); err != nil {
			return nil, fmt.Errorf("messages %s: %w", runID, err)
		}
		m.Time = fromNano(t)
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("messages %s: %w", runID, err)
	}
	return out, nil
}
