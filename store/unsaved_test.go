package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"workrun/workrun"
)

// TestKeepUnsaved: a status the database refused is kept in the owner's
// lock file, within the space reserved at Open (the file never grows);
// reads report the run as workrun.UnsavedRun says; Close leaves the file,
// and the next Open saves the report into the database and removes it.
// A run that was saved terminal meanwhile is left alone.
func TestKeepUnsaved(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	lock := s.owner.path
	if fi, err := os.Stat(lock); err != nil || fi.Size() != reserveBytes {
		t.Fatalf("lock file after Open: %v %v, want %d bytes reserved", fi, err, reserveBytes)
	}
	for _, id := range []string{"r1", "r2"} {
		if err := s.CreateRun(ctx, sampleRun(id, t0)); err != nil {
			t.Fatal(err)
		}
	}
	full := errors.New("update run r1: database or disk is full (13)")
	r1 := sampleRun("r1", t0)
	r1.Status, r1.Reason = workrun.RunStopping, "stopped by the user"
	if err := s.KeepUnsaved(r1, full); err != nil {
		t.Fatal(err)
	}
	r1.Status = workrun.RunStopped
	if err := s.KeepUnsaved(r1, full); err != nil { // replaces the one before
		t.Fatal(err)
	}
	r2 := sampleRun("r2", t0)
	r2.Status, r2.FailedNode, r2.Reason = workrun.RunFailed, "ra", "boom"
	if err := s.KeepUnsaved(r2, full); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(lock); fi.Size() != reserveBytes {
		t.Errorf("the lock file grew to %d bytes", fi.Size())
	}
	got, err := s.GetRun(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	want := "the final state could not be saved (disk full); the run had ended stopped: stopped by the user"
	if got.Status != workrun.RunInterrupted || got.Interruption != workrun.InterruptedByUnsaved || got.Reason != want {
		t.Errorf("GetRun r1: %s %s %q", got.Status, got.Interruption, got.Reason)
	}
	// r2 is saved failed after all (the disk had room again): its kept
	// status no longer counts.
	r2.EndedAt = t0
	if err := s.UpdateRun(ctx, r2); err != nil {
		t.Fatal(err)
	}
	runs, err := s.ListRuns(ctx, workrun.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.ID == "r2" && r.Status != workrun.RunFailed {
			t.Errorf("ListRuns r2: %s %q", r.Status, r.Reason)
		}
	}
	if orphans, _ := s.OrphanedRuns(ctx, workrun.RunRunning); len(orphans) != 0 {
		t.Errorf("a kept run counts as an orphan to recover: %+v", orphans)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lock); err != nil {
		t.Fatalf("Close removed the lock file that keeps statuses: %v", err)
	}

	s2, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, err := os.Stat(lock); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the next Open left the kept file: %v", err)
	}
	var status, intr, reason string
	if err := s2.r.QueryRowContext(ctx, `SELECT status, interruption, reason FROM runs WHERE id='r1'`).Scan(&status, &intr, &reason); err != nil {
		t.Fatal(err)
	}
	if status != "interrupted" || intr != "unsaved" || reason != want {
		t.Errorf("saved r1: %s %s %q", status, intr, reason)
	}
	if got, _ := s2.GetRun(ctx, "r2"); got.Status != workrun.RunFailed || !strings.Contains(got.Reason, "boom") {
		t.Errorf("r2 after the next Open: %s %q", got.Status, got.Reason)
	}
	if locks, _ := filepath.Glob(filepath.Join(dir, LocksDir, "*.lock")); len(locks) != 1 {
		t.Errorf("lock files: %v, want only the open store's", locks)
	}
}
