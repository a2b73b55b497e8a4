package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"workrun/workrun"
)

// A run's status the database refused (a full disk) is kept in the owner's
// lock file (docs/engine.md "When the disk is full"). acquireOwner writes
// reserveBytes into that file while there is room, so keeping a status later
// overwrites space the file already has and needs no new block. Reads of a
// run still saved running or stopping report a kept status as
// workrun.UnsavedRun says; the next Open after the owner ended saves that
// report into the database and removes the file. A lock file that holds
// kept statuses is never removed before then (Close, sweeps).

var _ workrun.UnsavedKeeper = (*Store)(nil)

// reserveBytes is the space each lock file holds for kept statuses.
const reserveBytes = 64 << 10

// keptReasonBytes cuts a kept reason, so that some 50 statuses fit.
const keptReasonBytes = 1 << 10

// ErrReserveFull: the lock file has no room left for another kept status.
var ErrReserveFull = errors.New("no room left to keep the run's status")

// keptRun is one kept status, a JSON line in the lock file.
type keptRun struct {
	Run        string            `json:"run"`
	Status     workrun.RunStatus `json:"status"`
	Reason     string            `json:"reason,omitempty"`
	FailedNode string            `json:"failed_node,omitempty"`
	EndedAt    time.Time         `json:"ended_at,omitzero"`
	DiskFull   bool              `json:"disk_full,omitempty"`
	Cause      string            `json:"cause,omitempty"`
}

// keptFile is what this store has kept in its lock file.
type keptFile struct {
	mu   sync.Mutex
	runs []keptRun // the latest status per run, in the order first kept
}

// reserve fills f with reserveBytes of zeros (the space kept statuses use).
func reserve(f *os.File) error {
	_, err := f.Write(make([]byte, reserveBytes))
	return err
}

// KeepUnsaved keeps r's status in this store's lock file (workrun.UnsavedKeeper),
// replacing one kept before for the same run, and syncs the file.
func (s *Store) KeepUnsaved(r workrun.Run, cause error) error {
	k := keptRun{Run: r.ID, Status: r.Status, Reason: cutText(r.Reason, keptReasonBytes),
		FailedNode: r.FailedNode, EndedAt: r.EndedAt, DiskFull: workrun.IsDiskFull(cause),
		Cause: cutText(cause.Error(), keptReasonBytes)}
	l := s.owner
	l.kept.mu.Lock()
	defer l.kept.mu.Unlock()
	runs := make([]keptRun, 0, len(l.kept.runs)+1)
	replaced := false
	for _, o := range l.kept.runs {
		if o.Run == k.Run {
			o, replaced = k, true
		}
		runs = append(runs, o)
	}
	if !replaced {
		runs = append(runs, k)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, o := range runs {
		if err := enc.Encode(o); err != nil {
			return fmt.Errorf("keep run %s: %w", r.ID, err)
		}
	}
	if buf.Len() > reserveBytes {
		return fmt.Errorf("keep run %s: %w", r.ID, ErrReserveFull)
	}
	// Zeros after the lines: the file is overwritten in place, never grown.
	page := make([]byte, reserveBytes)
	copy(page, buf.Bytes())
	if _, err := l.file.WriteAt(page, 0); err != nil {
		return fmt.Errorf("keep run %s: %w", r.ID, err)
	}
	if err := l.file.Sync(); err != nil {
		return fmt.Errorf("keep run %s: %w", r.ID, err)
	}
	l.kept.runs = runs
	return nil
}

// hasKept reports whether this store kept any status.
func (l *ownerLock) hasKept() bool {
	l.kept.mu.Lock()
	defer l.kept.mu.Unlock()
	return len(l.kept.runs) > 0
}

// readKept parses the kept statuses of a lock file's content.
func readKept(b []byte) []keptRun {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	var out []keptRun
	for line := range bytes.Lines(b) {
		var k keptRun
		if json.Unmarshal(line, &k) == nil && k.Run != "" {
			out = append(out, k)
		}
	}
	return out
}

// fileKept reads the kept statuses in the lock file at path.
func fileKept(path string) []keptRun {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b := make([]byte, reserveBytes)
	n, _ := f.ReadAt(b, 0)
	return readKept(b[:n])
}

// allKept reads the kept statuses of every lock file, by run id: a handful
// of small files (one per process that ran since the last start).
func (s *Store) allKept() map[string]keptRun {
	entries, err := os.ReadDir(s.locksDir)
	if err != nil {
		return nil
	}
	var out map[string]keptRun
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".lock") {
			continue
		}
		for _, k := range fileKept(filepath.Join(s.locksDir, e.Name())) {
			if out == nil {
				out = map[string]keptRun{}
			}
			out[k.Run] = k
		}
	}
	return out
}

// keptFor is the status this store kept for run, if any.
func (l *ownerLock) keptFor(run string) (keptRun, bool) {
	l.kept.mu.Lock()
	defer l.kept.mu.Unlock()
	for _, k := range l.kept.runs {
		if k.Run == run {
			return k, true
		}
	}
	return keptRun{}, false
}

// report turns a kept status into how the run is reported.
func (k keptRun) report(r workrun.Run) workrun.Run {
	r.Status, r.Reason, r.FailedNode, r.EndedAt = k.Status, k.Reason, k.FailedNode, k.EndedAt
	return workrun.UnsavedRun(r, k.DiskFull, k.Cause)
}

// unsavedStatus: a run saved in such a status may have a kept one.
func unsavedStatus(st workrun.RunStatus) bool {
	return st == workrun.RunRunning || st == workrun.RunStopping
}

// withKept reports each run still saved running or stopping that has a kept
// status as workrun.UnsavedRun says; the lock files are read only when
// there is such a run.
func (s *Store) withKept(runs []workrun.Run) []workrun.Run {
	var kept map[string]keptRun
	read := false
	for i, r := range runs {
		if !unsavedStatus(r.Status) {
			continue
		}
		if !read {
			kept, read = s.allKept(), true
		}
		if k, ok := kept[r.ID]; ok {
			runs[i] = k.report(r)
		}
	}
	return runs
}

// saveKept saves, for every lock file whose owner has ended, its kept
// statuses into the database as reported (only runs that owner left
// running or stopping are touched), then removes the file. A file whose
// statuses cannot be saved yet (the disk is still full) stays, and reads
// go on reporting them.
func (s *Store) saveKept(ctx context.Context) {
	entries, err := os.ReadDir(s.locksDir)
	if err != nil || !lockSupported {
		return
	}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".lock")
		if !ok || !validOwner(id) || id == s.owner.id {
			continue
		}
		path := filepath.Join(s.locksDir, e.Name())
		if len(fileKept(path)) == 0 {
			continue
		}
		s.saveKeptFile(ctx, id, path)
	}
}

func (s *Store) saveKeptFile(ctx context.Context, owner, path string) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if held, err := lockHeld(f); err != nil || held {
		return // its process still runs: reads report its statuses
	}
	kept := fileKept(path)
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for _, k := range kept {
			var r workrun.Run
			r.ID = k.Run
			rep := k.report(r)
			if _, err := tx.ExecContext(ctx, `UPDATE runs SET status=?, interruption=?, reason=?,
				failed_node=?, ended_at=?, owner=? WHERE id=? AND owner=? AND status IN (?, ?)`,
				string(rep.Status), string(rep.Interruption), rep.Reason, rep.FailedNode,
				unixNano(rep.EndedAt), s.owner.id, k.Run, owner,
				string(workrun.RunRunning), string(workrun.RunStopping)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return
	}
	os.Remove(path) // while we hold its lock, as probeOwner does
}

// cutText cuts s to at most n bytes on a rune boundary.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
