package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"

	"workrun/workrun"
)

// Stop across processes (docs/engine.md "Stop across processes"): a Stop
// of a run another live process executes is a row of stop_requests,
// addressed to the run's owner; that process reads its own rows through
// the owner index while it has runs going on and stops them itself.

var _ workrun.StopRequester = (*Store)(nil)

// RequestStop saves a stop request for the run, addressed to its owner,
// only if the run is running and its owner is another process whose lock
// is held — checked inside the write transaction, so a run that ended, was
// interrupted or was taken over meanwhile gets no request (OK false, and
// the claim says what was found). A second request for the same run
// replaces the first.
func (s *Store) RequestStop(ctx context.Context, runID string) (workrun.RunClaim, error) {
	var c workrun.RunClaim
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var owner string
		var err error
		if c, owner, err = s.holder(ctx, tx, runID); err != nil {
			return err
		}
		if c.Status != workrun.RunRunning || owner == s.owner.id || !c.OwnerAlive {
			return nil
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO stop_requests (run_id, owner, requested_by, requested_at)
			VALUES (?, ?, ?, ?) ON CONFLICT(run_id) DO UPDATE SET owner=excluded.owner,
			requested_by=excluded.requested_by, requested_at=excluded.requested_at`,
			runID, owner, os.Getpid(), s.now().UnixNano())
		c.OK = err == nil
		return err
	})
	if err != nil {
		return workrun.RunClaim{}, fmt.Errorf("request stop of run %s: %w", runID, err)
	}
	return c, nil
}

// StopRequests returns the requests addressed to this store's owner,
// oldest first, through stop_requests_owner.
func (s *Store) StopRequests(ctx context.Context) ([]workrun.StopRequest, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT run_id, requested_by, requested_at FROM stop_requests
		INDEXED BY stop_requests_owner WHERE owner=? ORDER BY requested_at`, s.owner.id)
	if err != nil {
		return nil, fmt.Errorf("stop requests: %w", err)
	}
	defer rows.Close()
	var out []workrun.StopRequest
	for rows.Next() {
		var q workrun.StopRequest
		var at int64
		if err := rows.Scan(&q.RunID, &q.ByPID, &at); err != nil {
			return nil, fmt.Errorf("stop requests: %w", err)
		}
		q.At = fromNano(at)
		out = append(out, q)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("stop requests: %w", err)
	}
	return out, nil
}

// DeleteStopRequest removes the run's stop request, if there is one.
func (s *Store) DeleteStopRequest(ctx context.Context, runID string) error {
	if _, err := s.exec(ctx, `DELETE FROM stop_requests WHERE run_id=?`, runID); err != nil {
		return fmt.Errorf("delete stop request of run %s: %w", runID, err)
	}
	return nil
}
