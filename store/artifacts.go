package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"workrun/workrun"
)

// SaveArtifact records an artifact's metadata; storedName is the blob's
// path relative to the artifact directory. Committed before it returns:
// package artifacts calls it only after the blob is durable on disk.
func (s *Store) SaveArtifact(ctx context.Context, a workrun.ArtifactInfo, storedName string) error {
	if a.CreatedAt.IsZero() {
		a.CreatedAt = s.now()
	}
	_, err := s.exec(ctx, `INSERT INTO artifacts (id, name, original, stored_name,
		media_type, size, sha256, run_id, node_id, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)`,
		a.ID, a.Name, a.Original, storedName, a.MediaType, a.Size, a.SHA256, a.RunID, a.NodeID,
		unixNano(a.CreatedAt))
	if err != nil {
		return fmt.Errorf("save artifact %s: %w", a.ID, err)
	}
	return nil
}

// GetArtifact returns an artifact's metadata or workrun.ErrNotFound.
func (s *Store) GetArtifact(ctx context.Context, id string) (workrun.ArtifactInfo, error) {
	a, err := scanArtifact(s.r.QueryRowContext(ctx, `SELECT `+artifactCols+` FROM artifacts WHERE id=?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return workrun.ArtifactInfo{}, fmt.Errorf("get artifact %s: %w", id, workrun.ErrNotFound)
	}
	if err != nil {
		return workrun.ArtifactInfo{}, fmt.Errorf("get artifact %s: %w", id, err)
	}
	return a, nil
}

// ArtifactsForRun returns the artifacts a run's nodes made, oldest first.
func (s *Store) ArtifactsForRun(ctx context.Context, runID string) ([]workrun.ArtifactInfo, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+artifactCols+` FROM artifacts
		WHERE run_id=? ORDER BY created_at, id`, runID)
	if err != nil {
		return nil, fmt.Errorf("artifacts for run %s: %w", runID, err)
	}
	defer rows.Close()
	var out []workrun.ArtifactInfo
	for rows.Next() {
		a, err := scanArtifact(rows)
		if err != nil {
			return nil, fmt.Errorf("artifacts for run %s: %w", runID, err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("artifacts for run %s: %w", runID, err)
	}
	return out, nil
}

// DeleteArtifact removes an artifact's metadata (its blob goes at the next
// explicit GC if no other artifact shares it).
func (s *Store) DeleteArtifact(ctx context.Context, id string) error {
	res, err := s.exec(ctx, `DELETE FROM artifacts WHERE id=?`, id)
	if err != nil {
		return fmt.Errorf("delete artifact %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("delete artifact %s: %w", id, workrun.ErrNotFound)
	}
	return nil
}

// ArtifactDigests returns the set of SHA-256 digests referenced by any
// artifact row; garbage collection keeps exactly these blobs.
func (s *Store) ArtifactDigests(ctx context.Context) (map[string]bool, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT DISTINCT sha256 FROM artifacts`)
	if err != nil {
		return nil, fmt.Errorf("artifact digests: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			return nil, fmt.Errorf("artifact digests: %w", err)
		}
		out[d] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("artifact digests: %w", err)
	}
	return out, nil
}

const artifactCols = `id, name, original, media_type, size, sha256, run_id, node_id, created_at`

func scanArtifact(sc scanner) (workrun.ArtifactInfo, error) {
	var a workrun.ArtifactInfo
	var t int64
	if err := sc.Scan(&a.ID, &a.Name, &a.Original, &a.MediaType, &a.Size, &a.SHA256,
		&a.RunID, &a.NodeID, &t); err != nil {
		return workrun.ArtifactInfo{}, err
	}
	a.CreatedAt = fromNano(t)
	return a, nil
}
