package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"workrun/workrun"
)

var _ workrun.WholeRunSaver = (*Store)(nil)

// CreateWholeRun inserts, in one transaction, the served task on ctx
// (workrun.WithServedTask), the run r as it is, its node records and its
// lines, and returns the lines with their Seq (docs/engine.md "One commit
// for a run of pure nodes"). A task whose caller and key have one already
// is refused with workrun.ErrServedTaskExists, and nothing of the run is
// saved. It is one write of the group commit: its failure is its own.
func (s *Store) CreateWholeRun(ctx context.Context, r workrun.Run, nodes []workrun.NodeRun, lines []workrun.Message) ([]workrun.Message, error) {
	if r.ID == "" {
		return nil, errors.New("create run: empty id")
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = s.now()
	}
	wf, inputs, state, err := marshalRun(r)
	if err != nil {
		return nil, fmt.Errorf("create run %s: %w", r.ID, err)
	}
	rows := make([][]any, len(nodes))
	for i, n := range nodes {
		if rows[i], err = nodeRunArgs(n); err != nil {
			return nil, err
		}
	}
	saved := make([]workrun.Message, len(lines))
	for i, m := range lines {
		if m.Time.IsZero() {
			m.Time = s.now()
		}
		saved[i] = capMessage(m)
	}
	task, served := workrun.ServedTaskFrom(ctx)
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if served {
			if err := insertServedTask(ctx, tx, task, r.ID); err != nil {
				if strings.Contains(err.Error(), "UNIQUE") {
					return fmt.Errorf("%w: %w", workrun.ErrServedTaskExists, err)
				}
				return err
			}
		}
		if err := s.insertRun(ctx, tx, r, wf, inputs, state); err != nil {
			return err
		}
		if err := s.upsertNodeRows(ctx, tx, rows); err != nil {
			return err
		}
		if len(saved) > 0 {
			return s.insertLines(ctx, tx, saved)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("create run %s: %w", r.ID, err)
	}
	return saved, nil
}
