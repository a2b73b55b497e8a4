package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"workrun/workrun"
)

// Write-behind (workrun.WriteBehindStore): the node records and messages
// of nodes with no effect outside the process are queued instead of
// committed one by one. They are committed in the order queued, in one
// transaction with whatever comes next: before the next write that waits
// for its commit returns (that write is in the same transaction, after
// them), by Flush or Close, and at the latest after progressDelay. A
// crash loses only queued writes that no such commit carried yet, never a
// write that returned.

// lineWait is what QueueMessage waits on for one line of pending.
type lineWait struct {
	done  func(workrun.Message, error)
	ord   int64
	tries int
}

// nodeKey names one node record.
type nodeKey struct{ run, node string }

// queuedNode is one node record QueueNodeRun queued. A later record of the
// same node supersedes it: only the latest is written, every one is told.
type queuedNode struct {
	key        nodeKey
	args       []any
	done       func(error)
	ord        int64
	tries      int
	superseded bool
}

var _ workrun.WriteBehindStore = (*Store)(nil)

// QueueNodeRun queues n's record (see Write-behind above); done is called
// once it is committed (nil) or given up (the error), on the goroutine
// that commits it: it must neither block nor write to the store.
func (s *Store) QueueNodeRun(n workrun.NodeRun, done func(error)) error {
	args, err := nodeRunArgs(n)
	if err != nil {
		return err
	}
	k := nodeKey{n.RunID, n.NodeID}
	s.qMu.Lock()
	defer s.qMu.Unlock()
	if s.closed {
		return fmt.Errorf("queue node run %s/%s: %w", n.RunID, n.NodeID, ErrClosed)
	}
	if s.nodeLast == nil {
		s.nodeLast = map[nodeKey]int{}
	}
	if i, ok := s.nodeLast[k]; ok {
		s.nodeQ[i].superseded = true
	}
	s.queued++
	s.nodeLast[k] = len(s.nodeQ)
	s.nodeQ = append(s.nodeQ, queuedNode{key: k, args: args, done: done, ord: s.queued})
	s.armLocked()
	return nil
}

// QueueMessage queues a node's durable line (see Write-behind above); done
// gets it with its Seq once it is committed, or the error when it is
// given up, on the goroutine that commits it: it must neither block nor
// write to the store. Lines keep their order with progress lines.
func (s *Store) QueueMessage(m workrun.Message, done func(workrun.Message, error)) error {
	if m.Time.IsZero() {
		m.Time = s.now()
	}
	m = capMessage(m)
	s.qMu.Lock()
	defer s.qMu.Unlock()
	if s.closed {
		return fmt.Errorf("queue message %s/%s: %w", m.RunID, m.NodeID, ErrClosed)
	}
	for len(s.pendingDone) < len(s.pending) {
		s.pendingDone = append(s.pendingDone, nil)
	}
	// A later progress line of the node must not replace this one.
	delete(s.lastPending, lineSource{m.RunID, m.NodeID})
	s.queued++
	s.pending = append(s.pending, m)
	s.pendingDone = append(s.pendingDone, &lineWait{done: done, ord: s.queued})
	s.pendingBytes += lineBytes(m)
	s.armLocked()
	return nil
}

// armLocked makes sure what is queued is committed within progressDelay,
// or at once past the soft bounds. Callers hold qMu.
func (s *Store) armLocked() {
	switch {
	case len(s.pending)+len(s.nodeQ) >= softPendingLines || s.pendingBytes >= softPendingBytes:
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
}

// upsertQueued writes the latest queued record of each node, up to
// nodeRunsPerStatement a statement.
func (s *Store) upsertQueued(ctx context.Context, tx *sql.Tx, nodes []queuedNode) error {
	var rows [][]any
	for _, n := range nodes {
		if !n.superseded {
			rows = append(rows, n.args)
		}
	}
	return s.upsertNodeRows(ctx, tx, rows)
}

// upsertNodeRows writes node records (nodeRunArgs each), several a
// statement; the statements are prepared once.
func (s *Store) upsertNodeRows(ctx context.Context, tx *sql.Tx, rows [][]any) error {
	for len(rows) > 0 {
		n := min(len(rows), nodeRunsPerStatement)
		args := make([]any, 0, n*len(rows[0]))
		for _, a := range rows[:n] {
			args = append(args, a...)
		}
		if _, err := s.execTx(ctx, tx, upsertNodeRunsSQL(n), args...); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}

// upsertNodeRunsSQL is the statement that writes n node records: an
// upsert, which updates a record in place where INSERT OR REPLACE would
// delete and insert it again.
func upsertNodeRunsSQL(n int) string {
	return `INSERT INTO node_runs (run_id, node_id, type,
	status, inputs, outputs, error, started_at, ended_at, branch,
	attempt, last_error, deadline_at, pinned_from, question) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)` +
		strings.Repeat(",(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", n-1) +
		` ON CONFLICT(run_id, node_id) DO UPDATE SET type=excluded.type, status=excluded.status,
	inputs=excluded.inputs, outputs=excluded.outputs, error=excluded.error, started_at=excluded.started_at,
	ended_at=excluded.ended_at, branch=excluded.branch, attempt=excluded.attempt, last_error=excluded.last_error,
	deadline_at=excluded.deadline_at, pinned_from=excluded.pinned_from, question=excluded.question`
}

// preparedSizes are the row counts of node-record statements prepared
// when the store opens; other sizes are prepared by SQLite each time.
const preparedSizes = 8

// hotStatements are prepared once, when the store opens (on the writer
// connection, outside any transaction): the statements of every run. Only
// statements that write: a prepared query left unfinished would keep a
// read snapshot open past its transaction, and the next BEGIN IMMEDIATE
// would fail with SQLITE_BUSY when another process wrote meanwhile.
func hotStatements() []string {
	q := []string{updateRunSQL, insertMessage}
	for n := 1; n <= preparedSizes; n++ {
		q = append(q, upsertNodeRunsSQL(n))
	}
	return q
}

// prepare prepares the hot statements on the writer connection.
func (s *Store) prepare(ctx context.Context) error {
	s.stmts = map[string]*sql.Stmt{}
	for _, q := range hotStatements() {
		st, err := s.w.PrepareContext(ctx, q)
		if err != nil {
			return fmt.Errorf("prepare: %w", err)
		}
		s.stmts[q] = st
	}
	return nil
}

// execTx runs query in tx, through its prepared statement when it has one.
// Only the committing goroutine (holding commitMu) runs it.
func (s *Store) execTx(ctx context.Context, tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	if st, ok := s.stmts[query]; ok {
		return tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return tx.ExecContext(ctx, query, args...)
}

// queryRowTx runs a query of one row in tx (never prepared, see
// hotStatements).
func (s *Store) queryRowTx(ctx context.Context, tx *sql.Tx, query string, args ...any) *sql.Row {
	return tx.QueryRowContext(ctx, query, args...)
}
