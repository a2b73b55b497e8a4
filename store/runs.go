package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"workrun/workrun"
)

var _ workrun.RunStore = (*Store)(nil)

// CreateRun inserts a new run. CreatedAt is set to now when zero.
func (s *Store) CreateRun(ctx context.Context, r workrun.Run) error {
	if r.ID == "" {
		return errors.New("create run: empty id")
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = s.now()
	}
	wf, inputs, state, err := marshalRun(r)
	if err != nil {
		return fmt.Errorf("create run %s: %w", r.ID, err)
	}
	task, served := workrun.ServedTaskFrom(ctx)
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if served {
			// The task first: its unique key refuses a second run for
			// the same caller and key (docs/serve.md S2).
			if err := insertServedTask(ctx, tx, task, r.ID); err != nil {
				return err
			}
		}
		return s.insertRun(ctx, tx, r, wf, inputs, state)
	})
	if err != nil {
		return fmt.Errorf("create run %s: %w", r.ID, err)
	}
	return nil
}

// insertRun inserts r's row, owned by this store (owner.go).
func (s *Store) insertRun(ctx context.Context, tx *sql.Tx, r workrun.Run, wf, inputs, state string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO runs (id, workflow_id, workflow_name,
		workflow, inputs, state, status, interruption, reason, failed_node, created_at, ended_at, owner, pinned_from,
		started_by, started_by_label)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		r.ID, r.WorkflowID, r.WorkflowName, wf, inputs, state, string(r.Status),
		string(r.Interruption), r.Reason, r.FailedNode, unixNano(r.CreatedAt), unixNano(r.EndedAt), s.owner.id, r.PinnedFrom,
		string(r.StartedBy.Kind), r.StartedBy.Label)
	return err
}

// UpdateRun saves status, interruption, reason, failed node, state and ended
// time; the workflow snapshot, inputs and creation time never change. The
// run's owner becomes this store (owner.go).
func (s *Store) UpdateRun(ctx context.Context, r workrun.Run) error {
	state, err := marshalValues(r.State)
	if err != nil {
		return fmt.Errorf("update run %s: %w", r.ID, err)
	}
	var res sql.Result
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		res, err = s.execTx(ctx, tx, updateRunSQL, string(r.Status), string(r.Interruption), r.Reason, r.FailedNode, state,
			unixNano(r.EndedAt), s.owner.id, r.ID)
		return err
	})
	if err != nil {
		return fmt.Errorf("update run %s: %w", r.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("update run %s: %w", r.ID, workrun.ErrNotFound)
	}
	return nil
}

const updateRunSQL = `UPDATE runs SET status=?, interruption=?, reason=?,
		failed_node=?, state=?, ended_at=?, owner=? WHERE id=?`

// GetRun returns one run or workrun.ErrNotFound.
func (s *Store) GetRun(ctx context.Context, id string) (workrun.Run, error) {
	var owner string
	r, err := scanRun(prefixScanner{s.r.QueryRowContext(ctx, `SELECT owner, `+runCols+` FROM runs WHERE id=?`, id), &owner})
	if errors.Is(err, sql.ErrNoRows) {
		return workrun.Run{}, fmt.Errorf("get run %s: %w", id, workrun.ErrNotFound)
	}
	if err != nil {
		return workrun.Run{}, fmt.Errorf("get run %s: %w", id, err)
	}
	if owner == s.owner.id && unsavedStatus(r.Status) {
		// A status this store kept is in its own lock file, whose
		// statuses it holds in memory: no need to read the lock files.
		if k, ok := s.owner.keptFor(r.ID); ok {
			return k.report(r), nil
		}
		return r, nil
	}
	return s.withKept([]workrun.Run{r})[0], nil
}

// ListRuns returns one page of runs, newest first, through the
// runs_created / runs_workflow_created indexes. f.Before is the id of the
// last run of the previous page; an unknown cursor gives workrun.ErrNotFound.
func (s *Store) ListRuns(ctx context.Context, f workrun.RunFilter) ([]workrun.Run, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	q := `SELECT ` + runCols + ` FROM runs WHERE 1=1`
	var args []any
	if f.WorkflowID != "" {
		q += ` AND workflow_id=?`
		args = append(args, f.WorkflowID)
	}
	if f.Status != "" {
		q += ` AND status=?`
		args = append(args, string(f.Status))
	}
	if f.Text != "" {
		q += ` AND (` + textMatch
		like := "%" + likeEscaper.Replace(f.Text) + "%"
		args = append(args, like, like, like, like, like)
		for _, st := range f.TextStatuses {
			q += ` OR status=?`
			args = append(args, string(st))
		}
		q += `)`
	}
	if f.Before != "" {
		var created int64
		err := s.r.QueryRowContext(ctx, `SELECT created_at FROM runs WHERE id=?`, f.Before).Scan(&created)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("list runs: cursor %s: %w", f.Before, workrun.ErrNotFound)
		}
		if err != nil {
			return nil, fmt.Errorf("list runs: %w", err)
		}
		q += ` AND (created_at < ? OR (created_at = ? AND id < ?))`
		args = append(args, created, created, f.Before)
	}
	q += ` ORDER BY created_at DESC, id DESC LIMIT ?`
	args = append(args, limit)
	return s.queryRuns(ctx, "list runs", q, args...)
}

// textMatch is RunFilter.Text's search: a scan of the runs table (a person
// typing in the run records, not a hot path); LIKE ignores ASCII case, and
// the Go side lowers nothing, so other scripts match as written.
const textMatch = `workflow_name LIKE ? ESCAPE '\' OR id LIKE ? ESCAPE '\' OR status LIKE ? ESCAPE '\' OR reason LIKE ? ESCAPE '\' OR failed_node LIKE ? ESCAPE '\'`

// likeEscaper makes a text match itself in a LIKE pattern.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// RunsWithStatus returns the runs in one status through the runs_status
// index, oldest first; it never walks history (docs/remote-agent.md R13).
func (s *Store) RunsWithStatus(ctx context.Context, st workrun.RunStatus) ([]workrun.Run, error) {
	return s.queryRuns(ctx, "runs with status "+string(st),
		`SELECT `+runCols+` FROM runs INDEXED BY runs_status WHERE status=? ORDER BY created_at, id`, string(st))
}

func (s *Store) queryRuns(ctx context.Context, op, q string, args ...any) ([]workrun.Run, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	defer rows.Close()
	var out []workrun.Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return s.withKept(out), nil
}

const runCols = `id, workflow_id, workflow_name, workflow, inputs, state, status,
	interruption, reason, failed_node, created_at, ended_at, pinned_from,
	started_by, started_by_label`

func scanRun(sc scanner) (workrun.Run, error) {
	var r workrun.Run
	var wf, inputs, state, status, intr, startedBy string
	var created, ended int64
	if err := sc.Scan(&r.ID, &r.WorkflowID, &r.WorkflowName, &wf, &inputs, &state, &status,
		&intr, &r.Reason, &r.FailedNode, &created, &ended, &r.PinnedFrom,
		&startedBy, &r.StartedBy.Label); err != nil {
		return workrun.Run{}, err
	}
	r.StartedBy.Kind = workrun.StartedByKind(startedBy)
	r.Status, r.Interruption = workrun.RunStatus(status), workrun.Interruption(intr)
	r.CreatedAt, r.EndedAt = fromNano(created), fromNano(ended)
	if err := json.Unmarshal([]byte(wf), &r.Workflow); err != nil {
		return workrun.Run{}, fmt.Errorf("run %s workflow: %w", r.ID, err)
	}
	var err error
	if r.Inputs, err = unmarshalValues(inputs); err != nil {
		return workrun.Run{}, fmt.Errorf("run %s inputs: %w", r.ID, err)
	}
	if r.State, err = unmarshalValues(state); err != nil {
		return workrun.Run{}, fmt.Errorf("run %s state: %w", r.ID, err)
	}
	return r, nil
}

func marshalRun(r workrun.Run) (wf, inputs, state string, err error) {
	b, err := json.Marshal(r.Workflow)
	if err != nil {
		return "", "", "", fmt.Errorf("workflow: %w", err)
	}
	if inputs, err = marshalValues(r.Inputs); err != nil {
		return "", "", "", fmt.Errorf("inputs: %w", err)
	}
	if state, err = marshalValues(r.State); err != nil {
		return "", "", "", fmt.Errorf("state: %w", err)
	}
	return string(b), inputs, state, nil
}

// marshalValues keeps nil and empty apart: "null" reads back as nil.
func marshalValues(v workrun.Values) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

func unmarshalValues(s string) (workrun.Values, error) {
	var v workrun.Values
	if s == "" {
		return nil, nil
	}
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return nil, err
	}
	// A large value is stored once, as an artifact; records hold its
	// reference (workrun.ValueRef).
	return workrun.RestoreRefs(v), nil
}

// SaveNodeRun inserts or replaces the record of (RunID, NodeID); committed
// before it returns, so a node's terminal state is durable before the next
// node starts.
func (s *Store) SaveNodeRun(ctx context.Context, n workrun.NodeRun) error {
	args, err := nodeRunArgs(n)
	if err != nil {
		return err
	}
	if err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		return s.upsertNodeRows(ctx, tx, [][]any{args})
	}); err != nil {
		return fmt.Errorf("save node run %s/%s: %w", n.RunID, n.NodeID, err)
	}
	return nil
}

// SaveNodeRuns saves several node records in one transaction (one commit,
// one fsync): the engine saves the records of a scheduling round this way
// (workrun.NodeRunBatchSaver). Either all are committed or none.
func (s *Store) SaveNodeRuns(ctx context.Context, ns []workrun.NodeRun) error {
	if len(ns) == 0 {
		return nil
	}
	all := make([][]any, len(ns))
	for i, n := range ns {
		args, err := nodeRunArgs(n)
		if err != nil {
			return err
		}
		all[i] = args
	}
	// Multi-row statements: inside the group-commit savepoint every
	// statement opens and truncates a statement journal, so one statement
	// per record would cost a journal round per record.
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		return s.upsertNodeRows(ctx, tx, all)
	})
	if err != nil {
		return fmt.Errorf("save %d node runs: %w", len(ns), err)
	}
	return nil
}

// nodeRunsPerStatement bounds one INSERT of SaveNodeRuns (15 parameters a
// record, well under SQLite's 32,766).
const nodeRunsPerStatement = 200

var _ workrun.NodeRunBatchSaver = (*Store)(nil)

func nodeRunArgs(n workrun.NodeRun) ([]any, error) {
	in, err := marshalValues(n.Inputs)
	if err != nil {
		return nil, fmt.Errorf("save node run %s/%s inputs: %w", n.RunID, n.NodeID, err)
	}
	out, err := marshalValues(n.Outputs)
	if err != nil {
		return nil, fmt.Errorf("save node run %s/%s outputs: %w", n.RunID, n.NodeID, err)
	}
	q := ""
	if n.Question != nil {
		b, err := json.Marshal(n.Question)
		if err != nil {
			return nil, fmt.Errorf("save node run %s/%s question: %w", n.RunID, n.NodeID, err)
		}
		q = string(b)
	}
	return []any{n.RunID, n.NodeID, n.Type, string(n.Status), in, out, n.Error,
		unixNano(n.StartedAt), unixNano(n.EndedAt), n.Branch,
		n.Attempt, n.LastError, unixNano(n.DeadlineAt), n.PinnedFrom, q}, nil
}

// NodeRuns returns the node records of a run, in start order.
func (s *Store) NodeRuns(ctx context.Context, runID string) ([]workrun.NodeRun, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT run_id, node_id, type, status, inputs, outputs,
		error, started_at, ended_at, branch, attempt, last_error, deadline_at, pinned_from, question FROM node_runs WHERE run_id=?
		ORDER BY started_at = 0, started_at, node_id`, runID)
	if err != nil {
		return nil, fmt.Errorf("node runs %s: %w", runID, err)
	}
	defer rows.Close()
	var out []workrun.NodeRun
	for rows.Next() {
		var n workrun.NodeRun
		var status, in, outs, question string
		var started, ended, deadline int64
		if err := rows.Scan(&n.RunID, &n.NodeID, &n.Type, &status, &in, &outs, &n.Error, &started, &ended, &n.Branch,
			&n.Attempt, &n.LastError, &deadline, &n.PinnedFrom, &question); err != nil {
			return nil, fmt.Errorf("node runs %s: %w", runID, err)
		}
		if question != "" {
			n.Question = new(workrun.Question)
			if err := json.Unmarshal([]byte(question), n.Question); err != nil {
				return nil, fmt.Errorf("node runs %s/%s question: %w", runID, n.NodeID, err)
			}
		}
		n.Status = workrun.NodeStatus(status)
		n.StartedAt, n.EndedAt, n.DeadlineAt = fromNano(started), fromNano(ended), fromNano(deadline)
		if n.Inputs, err = unmarshalValues(in); err != nil {
			return nil, fmt.Errorf("node runs %s/%s inputs: %w", runID, n.NodeID, err)
		}
		if n.Outputs, err = unmarshalValues(outs); err != nil {
			return nil, fmt.Errorf("node runs %s/%s outputs: %w", runID, n.NodeID, err)
		}
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("node runs %s: %w", runID, err)
	}
	return out, nil
}

// SaveDecision inserts or replaces the decision for (RunID, NodeID).
func (s *Store) SaveDecision(ctx context.Context, d workrun.Decision) error {
	if d.Time.IsZero() {
		d.Time = s.now()
	}
	_, err := s.exec(ctx, `INSERT OR REPLACE INTO decisions (run_id, node_id, approved,
		text, time, round, action, content, secret, withheld) VALUES (?,?,?,?,?,?,?,?,?,?)`,
		d.RunID, d.NodeID, d.Approved, d.Text, unixNano(d.Time),
		d.Round, string(d.Action), string(d.Content), d.Secret, d.Withheld)
	if err != nil {
		return fmt.Errorf("save decision %s/%s: %w", d.RunID, d.NodeID, err)
	}
	return nil
}

// GetDecision returns workrun.ErrNotFound when no decision was made yet.
func (s *Store) GetDecision(ctx context.Context, runID, nodeID string) (workrun.Decision, error) {
	d := workrun.Decision{RunID: runID, NodeID: nodeID}
	var t int64
	var action, content string
	err := s.r.QueryRowContext(ctx, `SELECT approved, text, time, round, action, content, secret, withheld
		FROM decisions WHERE run_id=? AND node_id=?`, runID, nodeID).Scan(&d.Approved, &d.Text, &t,
		&d.Round, &action, &content, &d.Secret, &d.Withheld)
	if errors.Is(err, sql.ErrNoRows) {
		return workrun.Decision{}, fmt.Errorf("get decision %s/%s: %w", runID, nodeID, workrun.ErrNotFound)
	}
	if err != nil {
		return workrun.Decision{}, fmt.Errorf("get decision %s/%s: %w", runID, nodeID, err)
	}
	d.Time, d.Action = fromNano(t), workrun.AnswerAction(action)
	if content != "" {
		d.Content = json.RawMessage(content)
	}
	return d, nil
}
