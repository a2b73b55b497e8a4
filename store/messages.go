package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"workrun/workrun"
)

// ErrClosed is returned for writes after Close.
var ErrClosed = errors.New("store closed")

// AppendMessage commits the line, after any progress lines batched before
// it (so a run's lines keep their order), and returns it with Seq set.
// Time is set to now when zero.
func (s *Store) AppendMessage(ctx context.Context, m workrun.Message) (workrun.Message, error) {
	if m.Time.IsZero() {
		m.Time = s.now()
	}
	s.msgMu.Lock()
	defer s.msgMu.Unlock()
	if s.closed {
		return workrun.Message{}, fmt.Errorf("append message: %w", ErrClosed)
	}
	// Batched lines go first so the run's seqs follow call order. A batch
	// that fails to commit is dropped and reported by Flush; it never blocks
	// this line.
	if err := s.flushLocked(ctx); err != nil {
		s.flushErr = errors.Join(s.flushErr, err)
	}
	out, err := s.writeLines(ctx, []workrun.Message{m})
	if err != nil {
		return workrun.Message{}, fmt.Errorf("append message %s/%s: %w", m.RunID, m.NodeID, err)
	}
	return out[len(out)-1], nil
}

// AppendProgress queues a progress line. It is committed within about
// 100ms, or at the next AppendMessage, Flush or Close, whichever comes first.
// A failed batch commit is reported by the next Flush.
func (s *Store) AppendProgress(ctx context.Context, m workrun.Message) error {
	if m.Time.IsZero() {
		m.Time = s.now()
	}
	s.msgMu.Lock()
	defer s.msgMu.Unlock()
	if s.closed {
		return fmt.Errorf("append progress: %w", ErrClosed)
	}
	s.pending = append(s.pending, m)
	if s.timer == nil {
		s.timer = time.AfterFunc(progressDelay, s.flushTimer)
	}
	return nil
}

func (s *Store) flushTimer() {
	s.msgMu.Lock()
	defer s.msgMu.Unlock()
	s.timer = nil
	if err := s.flushLocked(context.Background()); err != nil {
		s.flushErr = errors.Join(s.flushErr, err)
	}
}

// Flush commits the batched progress lines now. It also returns any error
// of an earlier background batch commit.
func (s *Store) Flush(ctx context.Context) error {
	s.msgMu.Lock()
	defer s.msgMu.Unlock()
	err := s.flushLocked(ctx)
	err, s.flushErr = errors.Join(s.flushErr, err), nil
	return err
}

func (s *Store) flushLocked(ctx context.Context) error {
	lines := s.takePendingLocked()
	if len(lines) == 0 {
		return nil
	}
	if _, err := s.writeLines(ctx, lines); err != nil {
		return fmt.Errorf("flush progress lines: %w", err)
	}
	return nil
}

func (s *Store) takePendingLocked() []workrun.Message {
	lines := s.pending
	s.pending = nil
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	return lines
}

// writeLines commits lines in one transaction, numbering each after the
// highest seq of its run. Callers hold msgMu.
func (s *Store) writeLines(ctx context.Context, lines []workrun.Message) ([]workrun.Message, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	next := map[string]int64{}
	out := make([]workrun.Message, len(lines))
	for i, m := range lines {
		seq, ok := next[m.RunID]
		if !ok {
			var max sql.NullInt64
			if err := tx.QueryRowContext(ctx, `SELECT MAX(seq) FROM messages WHERE run_id=?`, m.RunID).Scan(&max); err != nil {
				return nil, err
			}
			seq = max.Int64
		}
		seq++
		next[m.RunID] = seq
		m.Seq = seq
		if _, err := tx.ExecContext(ctx, `INSERT INTO messages (run_id, seq, node_id, time, text)
			VALUES (?,?,?,?,?)`, m.RunID, m.Seq, m.NodeID, unixNano(m.Time), m.Text); err != nil {
			return nil, err
		}
		out[i] = m
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	return out, nil
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
