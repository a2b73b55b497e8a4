package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
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

// commitLocked commits everything queued in one transaction: batched
// progress lines with the lines QueueMessage queued, in their order; the
// node records QueueNodeRun queued; then the writes that wait for their
// commit. Callers hold commitMu.
func (s *Store) commitLocked(ctx context.Context) {
	// The batch belongs to every waiter, not only to this caller.
	ctx = context.WithoutCancel(ctx)
	s.qMu.Lock()
	lines, lineDone, nodes, reqs := s.pending, s.pendingDone, s.nodeQ, s.queue
	s.pending, s.pendingDone, s.nodeQ, s.queue = nil, nil, nil, nil
	clear(s.lastPending)
	clear(s.nodeLast)
	s.pendingBytes = 0
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	s.flushNow = false
	s.qMu.Unlock()
	if len(lines) == 0 && len(nodes) == 0 && len(reqs) == 0 {
		return
	}
	s.commits.Add(1)
	errs := make([]error, len(reqs))
	progressErr, queuedErr := s.commitBatch(ctx, lines, lineDone, nodes, reqs, errs)
	if progressErr != nil {
		s.qMu.Lock()
		s.flushErr = errors.Join(s.flushErr, fmt.Errorf("commit %d progress lines: %w", len(lines), progressErr))
		s.qMu.Unlock()
	}
	if queuedErr != nil {
		s.requeue(lines, lineDone, nodes, queuedErr)
	} else {
		queuedCommitted(lines, lineDone, nodes)
	}
	// What was queued is told before any write of the batch returns: a
	// caller that waited for its write finds every earlier queued record
	// committed and told.
	for i, r := range reqs {
		r.res <- errs[i]
	}
}

// commitBatch runs, in one transaction, the lines (progress and queued),
// the queued node records and each request in its own savepoint, and
// commits it. errs receives each request's result. progressErr is the
// lines' failure when they were all progress lines; queuedErr is set when
// the batch did not commit what was queued (every request then fails too:
// a write that waits never commits without the queued writes before it).
func (s *Store) commitBatch(ctx context.Context, lines []workrun.Message, lineDone []*lineWait, nodes []queuedNode,
	reqs []writeReq, errs []error) (progressErr, queuedErr error) {
	queuedLines := slices.ContainsFunc(lineDone, func(w *lineWait) bool { return w != nil })
	// failAll gives err to every write that has no error of its own.
	failAll := func(err error) {
		for i := range errs {
			if errs[i] == nil {
				errs[i] = err
			}
		}
		if len(lines) > 0 && progressErr == nil && !queuedLines {
			progressErr = err
		}
		if (queuedLines || len(nodes) > 0) && queuedErr == nil {
			queuedErr = err
		}
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		failAll(err)
		return progressErr, queuedErr
	}
	defer tx.Rollback()
	if len(lines) == 0 && len(nodes) == 0 && len(reqs) == 1 {
		// One write alone needs no savepoint: its failure is the batch's.
		if errs[0] = reqs[0].fn(ctx, tx); errs[0] != nil {
			return nil, nil
		}
		if err := tx.Commit(); err != nil {
			errs[0] = err
		}
		return nil, nil
	}
	if len(lines) > 0 {
		err := savepoint(ctx, tx, func(ctx context.Context, tx *sql.Tx) error {
			return s.insertLines(ctx, tx, lines)
		})
		switch {
		case err != nil && queuedLines:
			failAll(err)
			return progressErr, queuedErr
		case errors.Is(err, errTxLost):
			failAll(err)
			return progressErr, queuedErr
		case err != nil:
			progressErr = err
		}
	}
	if len(nodes) > 0 {
		if err := savepoint(ctx, tx, func(ctx context.Context, tx *sql.Tx) error {
			return s.upsertQueued(ctx, tx, nodes)
		}); err != nil {
			failAll(err)
			return progressErr, queuedErr
		}
	}
	for i, r := range reqs {
		errs[i] = savepoint(ctx, tx, r.fn)
		if errors.Is(errs[i], errTxLost) {
			failAll(errs[i])
			return progressErr, queuedErr
		}
	}
	if err := tx.Commit(); err != nil {
		failAll(err)
	}
	return progressErr, queuedErr
}

// maxQueuedTries is how many commits a queued record or line takes part
// in before it is given up: a write that fails for itself must not fail
// every later commit.
const maxQueuedTries = 3

// queuedCommitted tells every queued line and node record of a committed
// batch, in the order they were queued.
func queuedCommitted(lines []workrun.Message, lineDone []*lineWait, nodes []queuedNode) {
	i, j := 0, 0
	for {
		for i < len(lineDone) && lineDone[i] == nil {
			i++
		}
		switch {
		case i < len(lineDone) && (j == len(nodes) || lineDone[i].ord < nodes[j].ord):
			lineDone[i].done(lines[i], nil)
			i++
		case j < len(nodes):
			nodes[j].done(nil)
			j++
		default:
			return
		}
	}
}

// requeue puts the queued lines and node records of a batch that did not
// commit back at the head of the queue, in their order, so that the next
// commit carries them; its progress lines are dropped (Flush reports
// them). A record or line that took part in maxQueuedTries failed commits
// is given up: its done gets the error.
func (s *Store) requeue(lines []workrun.Message, lineDone []*lineWait, nodes []queuedNode, cause error) {
	var keptLines []workrun.Message
	var keptDone []*lineWait
	var gaveUp []func()
	for i, w := range lineDone {
		if w == nil {
			continue
		}
		if w.tries++; w.tries >= maxQueuedTries {
			m := lines[i]
			gaveUp = append(gaveUp, func() { w.done(m, cause) })
			continue
		}
		m := lines[i]
		m.Seq = 0
		keptLines = append(keptLines, m)
		keptDone = append(keptDone, w)
	}
	var keptNodes []queuedNode
	for _, n := range nodes {
		if n.tries++; n.tries >= maxQueuedTries {
			gaveUp = append(gaveUp, func() { n.done(cause) })
			continue
		}
		keptNodes = append(keptNodes, n)
	}
	s.qMu.Lock()
	s.pending = append(keptLines, s.pending...)
	s.pendingDone = append(keptDone, s.pendingDone...)
	clear(s.lastPending)
	s.pendingBytes = 0
	for _, m := range s.pending {
		s.pendingBytes += lineBytes(m)
	}
	s.nodeQ = append(keptNodes, s.nodeQ...)
	if s.nodeLast == nil {
		s.nodeLast = map[nodeKey]int{}
	}
	clear(s.nodeLast)
	for i, n := range s.nodeQ {
		if !n.superseded {
			s.nodeLast[n.key] = i
		}
	}
	if (len(s.pending) > 0 || len(s.nodeQ) > 0) && s.timer == nil && !s.closed {
		s.timer = time.AfterFunc(progressDelay, s.flushTimer)
	}
	s.qMu.Unlock()
	for _, f := range gaveUp {
		f()
	}
}

// giveUpQueued tells everything still queued that it will not be
// committed (Close after a failed last commit).
func (s *Store) giveUpQueued(cause error) {
	s.qMu.Lock()
	lines, lineDone, nodes := s.pending, s.pendingDone, s.nodeQ
	s.pending, s.pendingDone, s.nodeQ = nil, nil, nil
	s.qMu.Unlock()
	for i, w := range lineDone {
		if w != nil {
			w.done(lines[i], cause)
		}
	}
	for _, n := range nodes {
		n.done(cause)
	}
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

// Bounds of the progress batch. Past the soft bound the batch is committed
// at once instead of after progressDelay; past the hard bound AppendProgress
// commits it itself before returning, so a producer faster than the disk
// waits rather than growing memory.
const (
	softPendingLines = 4096
	hardPendingLines = 16384
	softPendingBytes = 1 << 20
	hardPendingBytes = 8 << 20
)

// lineSource is the run and node a progress line belongs to.
type lineSource struct{ run, node string }

// AppendProgress queues a progress line. It is committed within about
// 100ms, or with the next write, Flush or Close, whichever comes first. It
// does not wait for disk unless the batch is past its hard bound. A failed
// batch is reported by Flush.
//
// Coalescing: when the node's latest line is still queued and has the same
// key, the new line replaces it and counts it (Message.Repeat), so a burst
// of status updates becomes one line per commit, "… (+1,234 updates)", and
// a million updates cost neither a million rows nor a million lines of
// memory. A line with its own meaning must go through AppendMessage.
func (s *Store) AppendProgress(ctx context.Context, m workrun.Message) error {
	if m.Time.IsZero() {
		m.Time = s.now()
	}
	m = capMessage(m)
	s.qMu.Lock()
	if s.closed {
		s.qMu.Unlock()
		return fmt.Errorf("append progress: %w", ErrClosed)
	}
	src := lineSource{m.RunID, m.NodeID}
	if i, ok := s.lastPending[src]; ok && s.pending[i].Key == m.Key {
		old := s.pending[i]
		m.Repeat += old.Repeat + 1
		s.pendingBytes -= lineBytes(old)
		s.pending[i] = m // keeps the place of the line it replaces
	} else {
		if s.lastPending == nil {
			s.lastPending = map[lineSource]int{}
		}
		s.lastPending[src] = len(s.pending)
		s.pending = append(s.pending, m)
	}
	s.pendingBytes += lineBytes(m)
	full := len(s.pending) >= hardPendingLines || s.pendingBytes >= hardPendingBytes
	switch {
	case full:
	case len(s.pending) >= softPendingLines || s.pendingBytes >= softPendingBytes:
		if !s.flushNow {
			if s.timer != nil {
				s.timer.Stop()
			}
			s.flushNow = true
			s.timer = time.AfterFunc(0, s.flushTimer)
		}
	case s.timer == nil:
		s.timer = time.AfterFunc(progressDelay, s.flushTimer)
	}
	s.qMu.Unlock()
	if full {
		s.commitMu.Lock()
		s.commitLocked(ctx)
		s.commitMu.Unlock()
	}
	return nil
}

// lineBytes is about what a queued line holds in memory.
func lineBytes(m workrun.Message) int {
	n := 64 + len(m.RunID) + len(m.NodeID) + len(m.Key) + len(m.Text)
	for _, a := range m.Args {
		n += 16 + len(a)
	}
	return n
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
