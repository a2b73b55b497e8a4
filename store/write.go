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

// writeReq is one write waiting for its commit.
type writeReq struct {
	fn  func(ctx context.Context, tx *sql.Tx) error
	res chan error // buffered(1)
}

// write runs fn in a write transaction and returns once that transaction
// is committed (or fn failed). Once queued, a write is committed even if ctx
// is canceled meanwhile, and the caller learns its real outcome.
//
// Group commit: writes that queue while a commit is in flight (parallel
// branches) run together in the next transaction, each inside its own
// SAVEPOINT, and share one commit and one fsync. A write that fails is
// rolled back to its savepoint and fails alone; the others still commit.
// Batched progress lines go first, so a run's lines keep their order.
func (s *Store) write(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	req := writeReq{fn: fn, res: make(chan error, 1)}
	s.qMu.Lock()
	if s.closed {
		s.qMu.Unlock()
		return ErrClosed
	}
	s.queue = append(s.queue, req)
	s.qMu.Unlock()

	s.commitMu.Lock()
	select {
	case err := <-req.res: // an earlier leader committed it with its batch
		s.commitMu.Unlock()
		return err
	default:
	}
	s.commitLocked(ctx)
	s.commitMu.Unlock()
	return <-req.res
}

// exec runs one statement through write.
func (s *Store) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	var res sql.Result
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		res, err = tx.ExecContext(ctx, query, args...)
		return err
	})
	return res, err
}

// commitLocked commits everything queued, batched progress lines first, in
// one transaction. Callers hold commitMu.
func (s *Store) commitLocked(ctx context.Context) {
	// The batch belongs to every waiter, not only to this caller.
	ctx = context.WithoutCancel(ctx)
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
	errs := make([]error, len(reqs))
	progressErr := s.commitBatch(ctx, progress, reqs, errs)
	if progressErr != nil {
		s.qMu.Lock()
		s.flushErr = errors.Join(s.flushErr, fmt.Errorf("commit %d progress lines: %w", len(progress), progressErr))
		s.qMu.Unlock()
	}
	for i, r := range reqs {
		r.res <- errs[i]
	}
}

// commitBatch runs the progress lines and each request in its own
// savepoint of one transaction and commits it. errs receives each request's
// result; the progress lines' result is returned.
func (s *Store) commitBatch(ctx context.Context, progress []workrun.Message, reqs []writeReq, errs []error) error {
	var progressErr error
	// failAll gives err to every write that has no error of its own.
	failAll := func(err error) {
		for i := range errs {
			if errs[i] == nil {
				errs[i] = err
			}
		}
		if len(progress) > 0 && progressErr == nil {
			progressErr = err
		}
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		failAll(err)
		return progressErr
	}
	defer tx.Rollback()
	if len(progress) > 0 {
		progressErr = savepoint(ctx, tx, func(ctx context.Context, tx *sql.Tx) error {
			return insertLines(ctx, tx, progress)
		})
	}
	if errors.Is(progressErr, errTxLost) {
		failAll(progressErr)
		return progressErr
	}
	for i, r := range reqs {
		errs[i] = savepoint(ctx, tx, r.fn)
		if errors.Is(errs[i], errTxLost) {
			failAll(errs[i])
			return progressErr
		}
	}
	if err := tx.Commit(); err != nil {
		failAll(err)
	}
	return progressErr
}

// errTxLost marks a batch whose transaction SQLite already rolled back
// (disk full, I/O error): nothing more may run in it, since a SAVEPOINT
// outside a transaction would start and commit one of its own.
var errTxLost = errors.New("write transaction rolled back")

// savepoint runs fn so that, if it fails, only its own changes are undone.
func savepoint(ctx context.Context, tx *sql.Tx, fn func(context.Context, *sql.Tx) error) error {
	if _, err := tx.ExecContext(ctx, `SAVEPOINT w`); err != nil {
		return fmt.Errorf("%w: %w", errTxLost, err)
	}
	if err := fn(ctx, tx); err != nil {
		if _, rerr := tx.ExecContext(ctx, `ROLLBACK TO w`); rerr != nil {
			return fmt.Errorf("%w: %w (%v)", errTxLost, err, rerr)
		}
		tx.ExecContext(ctx, `RELEASE w`)
		return err
	}
	_, err := tx.ExecContext(ctx, `RELEASE w`)
	return err
}

// AppendProgress queues a progress line. It is committed within about
// 100ms, or with the next write, Flush or Close, whichever comes first. It
// never waits for disk. A failed batch is reported by Flush.
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
