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

// lineReq is one AppendMessage waiting for its commit.
type lineReq struct {
	m   workrun.Message
	res chan lineRes // buffered(1)
}

type lineRes struct {
	m   workrun.Message
	err error
}

// AppendMessage commits the line and returns it with Seq set; Time is set to
// now when zero. Progress lines batched before it are committed first, so a
// run's lines keep their order.
//
// Group commit: lines appended concurrently (parallel branches) that queue
// while a commit is in progress are committed together in the next
// transaction, one fsync for all; each call still returns only after its own
// line is committed.
func (s *Store) AppendMessage(ctx context.Context, m workrun.Message) (workrun.Message, error) {
	if m.Time.IsZero() {
		m.Time = s.now()
	}
	req := lineReq{m: m, res: make(chan lineRes, 1)}
	s.qMu.Lock()
	if s.closed {
		s.qMu.Unlock()
		return workrun.Message{}, fmt.Errorf("append message: %w", ErrClosed)
	}
	s.queue = append(s.queue, req)
	s.qMu.Unlock()

	s.commitMu.Lock()
	select {
	case r := <-req.res: // an earlier leader committed it with its batch
		s.commitMu.Unlock()
		return r.m, r.err
	default:
	}
	s.commitLocked(ctx)
	s.commitMu.Unlock()
	r := <-req.res
	return r.m, r.err
}

// AppendProgress queues a progress line. It is committed within about
// 100ms, or with the next AppendMessage, Flush or Close, whichever comes
// first. It never waits for disk. A failed batch is reported by Flush.
func (s *Store) AppendProgress(ctx context.Context, m workrun.Message) error {
	if m.Time.IsZero() {
		m.Time = s.now()
	}
	s.qMu.Lock()
	defer s.qMu.Unlock()
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
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	s.commitLocked(context.Background())
}

// Flush commits the batched progress lines now. It also returns any error
// of an earlier batch commit, once.
func (s *Store) Flush(ctx context.Context) error {
	s.commitMu.Lock()
	s.commitLocked(ctx)
	s.commitMu.Unlock()
	s.qMu.Lock()
	defer s.qMu.Unlock()
	err := s.flushErr
	s.flushErr = nil
	return err
}

// commitLocked commits everything queued: batched progress lines, then the
// waiting messages, in one transaction. If that fails, it retries them apart
// so one bad line (say, for a missing run) fails only its own caller; a
// failed progress batch is dropped and reported by Flush. Callers hold
// commitMu.
func (s *Store) commitLocked(ctx context.Context) {
	ctx = context.WithoutCancel(ctx) // the batch belongs to every waiter, not only this caller
	s.qMu.Lock()
	progress, reqs := s.pending, s.queue
	s.pending, s.queue = nil, nil
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	s.qMu.Unlock()
	if len(progress) == 0 && len(reqs) == 0 {
		return
	}
	lines := make([]workrun.Message, 0, len(progress)+len(reqs))
	lines = append(lines, progress...)
	for _, r := range reqs {
		lines = append(lines, r.m)
	}
	out, err := s.writeLines(ctx, lines)
	if err == nil {
		for i, r := range reqs {
			r.res <- lineRes{m: out[len(progress)+i]}
		}
		return
	}
	if len(progress) > 0 {
		if _, perr := s.writeLines(ctx, progress); perr != nil {
			s.qMu.Lock()
			s.flushErr = errors.Join(s.flushErr, fmt.Errorf("commit %d progress lines: %w", len(progress), perr))
			s.qMu.Unlock()
		}
	}
	for _, r := range reqs {
		out, err := s.writeLines(ctx, []workrun.Message{r.m})
		if err != nil {
			r.res <- lineRes{err: fmt.Errorf("append message %s/%s: %w", r.m.RunID, r.m.NodeID, err)}
			continue
		}
		r.res <- lineRes{m: out[0]}
	}
}

// writeLines commits lines in one transaction, numbering each after the
// highest seq of its run. Callers hold commitMu, the only writer of
// messages, so the numbering cannot race.
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
