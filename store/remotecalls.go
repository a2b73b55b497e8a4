package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"workrun/workrun"
)

// SaveRemoteCall inserts or replaces the record of (RunID, NodeID, CallKey).
// It is committed before it returns. CreatedAt of an existing record is kept.
func (s *Store) SaveRemoteCall(ctx context.Context, c workrun.RemoteCall) error {
	if c.RunID == "" || c.NodeID == "" {
		return fmt.Errorf("save remote call: run id and node id are required")
	}
	now := s.now()
	if c.CreatedAt.IsZero() {
		c.CreatedAt = now
	}
	c.UpdatedAt = now
	var result any
	if len(c.Result) > 0 {
		result = string(c.Result)
	}
	_, err := s.exec(ctx, `
		INSERT INTO remote_calls (run_id, node_id, call_key, agent_url, origin,
			message_id, task_id, context_id, remote_state, status_text, result,
			cancel_outcome, cancel_text, created_at, updated_at, ended, agent_name)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT (run_id, node_id, call_key) DO UPDATE SET
			agent_url=excluded.agent_url, origin=excluded.origin,
			message_id=excluded.message_id, task_id=excluded.task_id,
			context_id=excluded.context_id, remote_state=excluded.remote_state,
			status_text=excluded.status_text, result=excluded.result,
			cancel_outcome=excluded.cancel_outcome, cancel_text=excluded.cancel_text,
			updated_at=excluded.updated_at, ended=excluded.ended,
			agent_name=excluded.agent_name`,
		c.RunID, c.NodeID, c.CallKey, c.AgentURL, c.Origin,
		c.MessageID, c.TaskID, c.ContextID, c.RemoteState, c.StatusText, result,
		c.CancelOutcome, c.CancelText, unixNano(c.CreatedAt), unixNano(c.UpdatedAt), c.Ended, c.AgentName)
	if err != nil {
		return fmt.Errorf("save remote call %s/%s/%s: %w", c.RunID, c.NodeID, c.CallKey, err)
	}
	return nil
}

// GetRemoteCall returns the record of one call, or workrun.ErrNotFound.
func (s *Store) GetRemoteCall(ctx context.Context, runID, nodeID, callKey string) (workrun.RemoteCall, error) {
	row := s.r.QueryRowContext(ctx, `SELECT `+remoteCallCols+` FROM remote_calls
		WHERE run_id=? AND node_id=? AND call_key=?`, runID, nodeID, callKey)
	c, err := scanRemoteCall(row)
	if errors.Is(err, sql.ErrNoRows) {
		return workrun.RemoteCall{}, fmt.Errorf("get remote call %s/%s/%s: %w", runID, nodeID, callKey, workrun.ErrNotFound)
	}
	if err != nil {
		return workrun.RemoteCall{}, fmt.Errorf("get remote call %s/%s/%s: %w", runID, nodeID, callKey, err)
	}
	return c, nil
}

// RemoteCallsForRun returns every call of a run (all nodes, parallel branches
// included) in creation order; the R9 cancel pass reads them from here. An
// unknown run gives an empty list, not an error.
func (s *Store) RemoteCallsForRun(ctx context.Context, runID string) ([]workrun.RemoteCall, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+remoteCallCols+` FROM remote_calls
		WHERE run_id=? ORDER BY created_at, node_id, call_key`, runID)
	if err != nil {
		return nil, fmt.Errorf("remote calls for run %s: %w", runID, err)
	}
	defer rows.Close()
	var out []workrun.RemoteCall
	for rows.Next() {
		c, err := scanRemoteCall(rows)
		if err != nil {
			return nil, fmt.Errorf("remote calls for run %s: %w", runID, err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("remote calls for run %s: %w", runID, err)
	}
	return out, nil
}

const remoteCallCols = `run_id, node_id, call_key, agent_url, origin, message_id,
	task_id, context_id, remote_state, status_text, result, cancel_outcome,
	cancel_text, created_at, updated_at, ended, agent_name`

func scanRemoteCall(sc scanner) (workrun.RemoteCall, error) {
	var c workrun.RemoteCall
	var result sql.NullString
	var created, updated int64
	err := sc.Scan(&c.RunID, &c.NodeID, &c.CallKey, &c.AgentURL, &c.Origin, &c.MessageID,
		&c.TaskID, &c.ContextID, &c.RemoteState, &c.StatusText, &result, &c.CancelOutcome,
		&c.CancelText, &created, &updated, &c.Ended, &c.AgentName)
	if err != nil {
		return workrun.RemoteCall{}, err
	}
	if result.Valid {
		c.Result = json.RawMessage(result.String)
	}
	c.CreatedAt, c.UpdatedAt = fromNano(created), fromNano(updated)
	return c, nil
}
