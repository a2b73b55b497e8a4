package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"workrun/workrun"
)

// SaveCredentialMeta inserts or replaces a credential's metadata by name.
func (s *Store) SaveCredentialMeta(ctx context.Context, c workrun.CredentialMeta) error {
	now := s.now()
	_, err := s.exec(ctx, `INSERT INTO credentials (name, kind, origin, header,
		created_at, updated_at) VALUES (?,?,?,?,?,?) ON CONFLICT (name) DO UPDATE SET
		kind=excluded.kind, origin=excluded.origin, header=excluded.header,
		updated_at=excluded.updated_at`,
		c.Name, c.Kind, c.Origin, c.Header, now.UnixNano(), now.UnixNano())
	if err != nil {
		return fmt.Errorf("save credential %s: %w", c.Name, err)
	}
	return nil
}

// GetCredentialMeta returns one credential's metadata or workrun.ErrNotFound.
func (s *Store) GetCredentialMeta(ctx context.Context, name string) (workrun.CredentialMeta, error) {
	c, err := scanCredential(s.r.QueryRowContext(ctx, `SELECT `+credentialCols+` FROM credentials WHERE name=?`, name))
	if errors.Is(err, sql.ErrNoRows) {
		return workrun.CredentialMeta{}, fmt.Errorf("get credential %s: %w", name, workrun.ErrNotFound)
	}
	if err != nil {
		return workrun.CredentialMeta{}, fmt.Errorf("get credential %s: %w", name, err)
	}
	return c, nil
}

// ListCredentialMeta returns every credential's metadata by name.
func (s *Store) ListCredentialMeta(ctx context.Context) ([]workrun.CredentialMeta, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+credentialCols+` FROM credentials ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("list credentials: %w", err)
	}
	defer rows.Close()
	var out []workrun.CredentialMeta
	for rows.Next() {
		c, err := scanCredential(rows)
		if err != nil {
			return nil, fmt.Errorf("list credentials: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list credentials: %w", err)
	}
	return out, nil
}

// DeleteCredentialMeta removes a credential's metadata or returns
// workrun.ErrNotFound.
func (s *Store) DeleteCredentialMeta(ctx context.Context, name string) error {
	res, err := s.exec(ctx, `DELETE FROM credentials WHERE name=?`, name)
	if err != nil {
		return fmt.Errorf("delete credential %s: %w", name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("delete credential %s: %w", name, workrun.ErrNotFound)
	}
	return nil
}

const credentialCols = `name, kind, origin, header, created_at, updated_at`

func scanCredential(sc scanner) (workrun.CredentialMeta, error) {
	var c workrun.CredentialMeta
	var ct, ut int64
	if err := sc.Scan(&c.Name, &c.Kind, &c.Origin, &c.Header, &ct, &ut); err != nil {
		return workrun.CredentialMeta{}, err
	}
	c.CreatedAt, c.UpdatedAt = fromNano(ct), fromNano(ut)
	return c, nil
}
