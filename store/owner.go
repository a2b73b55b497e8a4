package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"workrun/workrun"
)

// Run ownership (docs/remote-agent.md R13; docs/engine.md, "The owner lock"). Several processes may share one
// data directory: the GUI next to `workrun run`, or two runners. Each open
// Store holds an exclusive lock on its own file <data dir>/locks/<owner>.lock
// for as long as it is open; the operating system drops the lock when the
// process ends, even by SIGKILL or power loss. Every run saved through
// CreateRun or UpdateRun records the owner of the store that saved it. A
// run is orphaned when its owner's lock is no longer held: only then may
// start-up recovery mark it interrupted by exit. A run with no owner (saved
// before schema 3) counts as orphaned.

var (
	_ workrun.OwnedRunStore = (*Store)(nil)
	_ workrun.RunClaimer    = (*Store)(nil)
)

// LocksDir is the directory, inside the data directory, of the owner locks.
const LocksDir = "locks"

// ownerLock is this store's held lock.
type ownerLock struct {
	id   string
	file *os.File
	path string
	kept keptFile // statuses the database refused (unsaved.go)
}

func acquireOwner(dataDir string) (*ownerLock, error) {
	dir := filepath.Join(dataDir, LocksDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open store: cannot create %s: %w", dir, err)
	}
	sweepLocks(dir)
	// A sweep by another process may probe (and so briefly lock) or remove
	// a lock file between its creation and its flock: then take a new one.
	var last error
	for range 5 {
		l, err := tryOwner(dir)
		if err == nil {
			return l, nil
		}
		last = err
	}
	return nil, fmt.Errorf("open store: owner lock in %s: %w", dir, last)
}

func tryOwner(dir string) (*ownerLock, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	id := strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(b[:])
	path := filepath.Join(dir, id+".lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f); err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	// Still the file at path? (Not removed by a sweep before our flock.)
	fi, err := f.Stat()
	if err == nil {
		var pi os.FileInfo
		if pi, err = os.Stat(path); err == nil && !os.SameFile(fi, pi) {
			err = errors.New("lock file replaced")
		}
	}
	if err == nil && reserve(f) != nil {
		// No room now (the disk is full): the store still opens, to read;
		// a status it cannot save then has no space kept for it.
		err = f.Truncate(0)
	}
	if err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	return &ownerLock{id: id, file: f, path: path}, nil
}

// sweepLocks removes the lock files of processes that ended without Close
// (killed, crashed). It reads only the locks directory, whose size is the
// number of such processes since the last sweep, never the run history.
func sweepLocks(dir string) {
	if !lockSupported {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".lock")
		if !ok || !validOwner(id) {
			continue
		}
		probeOwner(filepath.Join(dir, e.Name()))
	}
}

// release removes the lock file, then drops the lock. A file that keeps a
// run's status stays for the next Open (unsaved.go).
func (l *ownerLock) release() error {
	var rerr error
	if !l.hasKept() {
		rerr = os.Remove(l.path)
	}
	cerr := l.file.Close()
	return errors.Join(rerr, cerr)
}

// Owner returns the id this store records as the owner of the runs it saves.
func (s *Store) Owner() string { return s.owner.id }

// ownerAlive reports whether the process that holds owner's lock still
// runs. An unknown, malformed or unlocked owner is gone; the lock file of a
// gone owner is removed.
func (s *Store) ownerAlive(owner string) bool {
	if owner == s.owner.id {
		return true
	}
	if !validOwner(owner) {
		return false
	}
	return probeOwner(filepath.Join(s.locksDir, owner+".lock"))
}

// probeOwner reports whether the lock at path is held; the file of a lock
// no longer held is removed.
func probeOwner(path string) bool {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		// No file: its store was closed or it was cleaned up; anything else
		// (permissions) we cannot judge, so the run is left alone.
		return !errors.Is(err, os.ErrNotExist)
	}
	defer f.Close()
	held, err := lockHeld(f)
	if err != nil {
		return true
	}
	if !held && len(fileKept(path)) == 0 {
		// Stale: its process died without Close. Removed while we hold its
		// lock (released by the deferred Close); one that keeps a run's
		// status stays until Open saves it (unsaved.go).
		os.Remove(path)
	}
	return held
}

// validOwner accepts only what acquireOwner makes (digits, '-', hex), so a
// value read from the database can never name a path outside locks/.
func validOwner(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c == '-') {
			return false
		}
	}
	return true
}

// OrphanedRuns returns the runs in status st whose owning process has ended,
// oldest first, through the runs_status index (docs/remote-agent.md R13: never walks history).
func (s *Store) OrphanedRuns(ctx context.Context, st workrun.RunStatus) ([]workrun.Run, error) {
	op := "orphaned runs " + string(st)
	rows, err := s.r.QueryContext(ctx, `SELECT owner, `+runCols+` FROM runs INDEXED BY runs_status
		WHERE status=? ORDER BY created_at, id`, string(st))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	type owned struct {
		owner string
		run   workrun.Run
	}
	var all []owned
	for rows.Next() {
		var o owned
		r, err := scanRun(prefixScanner{rows, &o.owner})
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		o.run = r
		all = append(all, o)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	// Lock probes happen after the rows are closed: they touch files only.
	alive := map[string]bool{}
	var out []workrun.Run
	for _, o := range all {
		a, seen := alive[o.owner]
		if !seen {
			a = s.ownerAlive(o.owner)
			alive[o.owner] = a
		}
		if !a {
			out = append(out, o.run)
		}
	}
	// A run whose status was kept (unsaved.go) is not an orphan to recover:
	// it is reported as kept until Open can save that.
	return slices.DeleteFunc(s.withKept(out), func(r workrun.Run) bool {
		return r.Interruption == workrun.InterruptedByUnsaved && r.Status != st
	}), nil
}

// UpdateOrphanedRun saves r like UpdateRun, but only if the run is still in
// status from and its owner has ended, checked inside the write transaction:
// a run another process took over meanwhile (`workrun resume`, the GUI) is
// left alone and ok is false. The run's owner becomes this store.
func (s *Store) UpdateOrphanedRun(ctx context.Context, r workrun.Run, from workrun.RunStatus) (bool, error) {
	state, err := marshalValues(r.State)
	if err != nil {
		return false, fmt.Errorf("update orphaned run %s: %w", r.ID, err)
	}
	var ok bool
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		ok = false
		var status, owner string
		err := tx.QueryRowContext(ctx, `SELECT status, owner FROM runs WHERE id=?`, r.ID).Scan(&status, &owner)
		if errors.Is(err, sql.ErrNoRows) {
			return workrun.ErrNotFound
		}
		if err != nil {
			return err
		}
		if status != string(from) || s.ownerAlive(owner) {
			return nil
		}
		_, err = tx.ExecContext(ctx, `UPDATE runs SET status=?, interruption=?, reason=?,
			failed_node=?, state=?, ended_at=?, owner=? WHERE id=?`,
			string(r.Status), string(r.Interruption), r.Reason, r.FailedNode, state,
			unixNano(r.EndedAt), s.owner.id, r.ID)
		ok = err == nil
		return err
	})
	if err != nil {
		return false, fmt.Errorf("update orphaned run %s: %w", r.ID, err)
	}
	return ok, nil
}

// ClaimRun saves r like UpdateRun, with this store as the run's owner, only
// if the run is in one of the statuses from and — for running and stopping,
// which a live process executes — its owner has ended. The check and the
// write are one write transaction: SQLite lets one writer at a time, across
// processes, so of several concurrent claims exactly one sees the status it
// expects. The claim reports what it found either way.
func (s *Store) ClaimRun(ctx context.Context, r workrun.Run, from ...workrun.RunStatus) (workrun.RunClaim, error) {
	state, err := marshalValues(r.State)
	if err != nil {
		return workrun.RunClaim{}, fmt.Errorf("claim run %s: %w", r.ID, err)
	}
	var c workrun.RunClaim
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var owner string
		if c, owner, err = s.holder(ctx, tx, r.ID); err != nil {
			return err
		}
		if !slices.Contains(from, c.Status) {
			return nil
		}
		executed := c.Status == workrun.RunRunning || c.Status == workrun.RunStopping
		if executed && (owner == s.owner.id || c.OwnerAlive) {
			return nil
		}
		res, err := tx.ExecContext(ctx, `UPDATE runs SET status=?, interruption=?, reason=?,
			failed_node=?, state=?, ended_at=?, owner=? WHERE id=? AND status=? AND owner=?`,
			string(r.Status), string(r.Interruption), r.Reason, r.FailedNode, state,
			unixNano(r.EndedAt), s.owner.id, r.ID, string(c.Status), owner)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		c.OK = err == nil && n == 1
		return err
	})
	if err != nil {
		return workrun.RunClaim{}, fmt.Errorf("claim run %s: %w", r.ID, err)
	}
	return c, nil
}

// RunHolder reads the run's status and owner.
func (s *Store) RunHolder(ctx context.Context, runID string) (workrun.RunClaim, error) {
	c, _, err := s.holder(ctx, s.r, runID)
	if err != nil {
		return workrun.RunClaim{}, fmt.Errorf("run holder %s: %w", runID, err)
	}
	return c, nil
}

type queryRower interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func (s *Store) holder(ctx context.Context, q queryRower, runID string) (workrun.RunClaim, string, error) {
	var status, owner string
	err := q.QueryRowContext(ctx, `SELECT status, owner FROM runs WHERE id=?`, runID).Scan(&status, &owner)
	if errors.Is(err, sql.ErrNoRows) {
		return workrun.RunClaim{}, "", workrun.ErrNotFound
	}
	if err != nil {
		return workrun.RunClaim{}, "", err
	}
	c := workrun.RunClaim{Status: workrun.RunStatus(status), OwnerAlive: s.ownerAlive(owner)}
	if pid, _, ok := strings.Cut(owner, "-"); ok && validOwner(owner) {
		c.OwnerPID, _ = strconv.Atoi(pid)
	}
	if owner == s.owner.id {
		c.OwnerPID = os.Getpid()
	}
	return c, owner, nil
}

// prefixScanner scans the first column into first and the rest into dest.
type prefixScanner struct {
	sc    scanner
	first any
}

func (p prefixScanner) Scan(dest ...any) error {
	return p.sc.Scan(append([]any{p.first}, dest...)...)
}
