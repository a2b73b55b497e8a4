package artifacts

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// GCResult says what a garbage collection did.
type GCResult struct {
	Kept         int   // blobs still referenced, or too young to judge
	Removed      int   // unreferenced blobs deleted
	FreedBytes   int64 // their total size
	TempsRemoved int   // abandoned temporary files deleted
}

// GC removes blobs that no artifact row references and abandoned temporary
// files, both only when older than the grace period. It is never called
// automatically; `workrun gc` calls it.
func (s *Store) GC(ctx context.Context) (GCResult, error) {
	s.gcMu.Lock()
	defer s.gcMu.Unlock()
	var res GCResult
	refs, err := s.meta.ArtifactDigests(ctx)
	if err != nil {
		return res, fmt.Errorf("gc: %w", err)
	}
	cutoff := s.now().Add(-s.grace)
	prefixes, err := os.ReadDir(s.dir)
	if err != nil {
		return res, fmt.Errorf("gc: %w", err)
	}
	for _, p := range prefixes {
		if err := ctx.Err(); err != nil {
			return res, fmt.Errorf("gc: %w", err)
		}
		if !p.IsDir() {
			continue
		}
		if p.Name() == "tmp" {
			n, err := removeAbandoned(filepath.Join(s.dir, "tmp"))
			res.TempsRemoved += n
			if err != nil {
				return res, fmt.Errorf("gc: %w", err)
			}
			n, err = removeOld(filepath.Join(s.dir, "tmp"), cutoff)
			res.TempsRemoved += n
			if err != nil {
				return res, fmt.Errorf("gc: %w", err)
			}
			continue
		}
		if !isHex(p.Name(), 2) {
			continue // not ours
		}
		blobs, err := os.ReadDir(filepath.Join(s.dir, p.Name()))
		if err != nil {
			return res, fmt.Errorf("gc: %w", err)
		}
		for _, b := range blobs {
			name := b.Name()
			if !isHex(name, 64) || name[:2] != p.Name() || b.IsDir() {
				continue
			}
			fi, err := b.Info()
			if err != nil {
				continue // removed meanwhile
			}
			if refs[name] || !fi.ModTime().Before(cutoff) {
				res.Kept++
				continue
			}
			if err := os.Remove(filepath.Join(s.dir, p.Name(), name)); err != nil && !os.IsNotExist(err) {
				return res, fmt.Errorf("gc: %w", err)
			}
			res.Removed++
			res.FreedBytes += fi.Size()
		}
	}
	return res, nil
}

// removeOld deletes the files in dir last modified before cutoff, except
// those a live process holds (an artifact being written, a spool file).
func removeOld(dir string, cutoff time.Time) (int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil || e.IsDir() || !fi.ModTime().Before(cutoff) {
			continue
		}
		if held(filepath.Join(dir, e.Name())) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err == nil {
			n++
		}
	}
	return n, nil
}

// isHex reports whether s is n lowercase hex digits.
func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// removeAbandoned deletes the temporary files in dir that their process
// left, whatever their age: those whose flock nobody holds. A file still
// being created (new-…) is left to removeOld.
func removeAbandoned(dir string) (int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, newPrefix) {
			continue
		}
		p := filepath.Join(dir, name)
		if !abandoned(p) {
			continue
		}
		if err := os.Remove(p); err == nil {
			n++
		} else if !os.IsNotExist(err) {
			return n, err
		}
	}
	return n, nil
}
