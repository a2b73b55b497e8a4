package store

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
)

func runIDs(rs []workrun.Run) []string {
	ids := []string{}
	for _, r := range rs {
		ids = append(ids, r.ID)
	}
	return ids
}

// TestOrphanedRuns_OnlyRunsOfEndedOwners (docs/remote-agent.md R13): two stores on one data
// directory stand for two processes. A run saved by a store that is still
// open is not orphaned; once that store is gone it is, and exactly one
// recovery can claim it.
func TestOrphanedRuns_OnlyRunsOfEndedOwners(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	a, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if a.Owner() == b.Owner() {
		t.Fatalf("two stores share owner %s", a.Owner())
	}
	if err := a.CreateRun(ctx, sampleRun("ra", t0)); err != nil {
		t.Fatal(err)
	}
	if err := b.CreateRun(ctx, sampleRun("rb", t0.Add(time.Second))); err != nil {
		t.Fatal(err)
	}

	got, err := b.OrphanedRuns(ctx, workrun.RunRunning)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Errorf("while both stores are open, orphaned = %v", runIDs(got))
	}
	r, _ := b.GetRun(ctx, "ra")
	r.Status = workrun.RunInterrupted
	if ok, err := b.UpdateOrphanedRun(ctx, r, workrun.RunRunning); ok || err != nil {
		t.Errorf("UpdateOrphanedRun of a live owner's run = %v, %v; want false, nil", ok, err)
	}

	lock := filepath.Join(dir, LocksDir, a.Owner()+".lock")
	if _, err := os.Stat(lock); err != nil {
		t.Fatalf("owner lock file: %v", err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lock); !os.IsNotExist(err) {
		t.Errorf("Close left the lock file: %v", err)
	}
	got, err = b.OrphanedRuns(ctx, workrun.RunRunning)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"ra"}, runIDs(got)); d != "" {
		t.Errorf("orphaned after a closed (-want +got):\n%s", d)
	}
	r = got[0]
	r.Status, r.Interruption, r.Reason = workrun.RunInterrupted, workrun.InterruptedByExit, "exit"
	if ok, err := b.UpdateOrphanedRun(ctx, r, workrun.RunRunning); !ok || err != nil {
		t.Fatalf("UpdateOrphanedRun = %v, %v; want true", ok, err)
	}
	// A second claim (another process recovering at the same time) is refused.
	if ok, err := b.UpdateOrphanedRun(ctx, r, workrun.RunRunning); ok || err != nil {
		t.Errorf("second UpdateOrphanedRun = %v, %v; want false, nil", ok, err)
	}
	saved, _ := b.GetRun(ctx, "ra")
	if saved.Status != workrun.RunInterrupted || saved.Interruption != workrun.InterruptedByExit || saved.Reason != "exit" {
		t.Errorf("saved run = %s/%s/%q", saved.Status, saved.Interruption, saved.Reason)
	}
	if _, err := b.UpdateOrphanedRun(ctx, workrun.Run{ID: "nope"}, workrun.RunRunning); err == nil {
		t.Error("UpdateOrphanedRun of a missing run succeeded")
	}
}

// TestOrphanedRuns_StaleLockFile: a lock file whose process died (its
// flock is gone, the file stays) marks an ended owner and is removed.
func TestOrphanedRuns_StaleLockFile(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	if err := s.CreateRun(ctx, sampleRun("r", t0)); err != nil {
		t.Fatal(err)
	}
	const dead = "4242-00000000deadbeef"
	stale := filepath.Join(filepath.Dir(s.Path()), LocksDir, dead+".lock")
	if err := os.WriteFile(stale, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	rawExec(t, s.Path(), `UPDATE runs SET owner='`+dead+`' WHERE id='r'`)
	got, err := s.OrphanedRuns(ctx, workrun.RunRunning)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"r"}, runIDs(got)); d != "" {
		t.Errorf("orphaned (-want +got):\n%s", d)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale lock file kept: %v", err)
	}
	// An owner value that is not a lock id never names a path.
	rawExec(t, s.Path(), `UPDATE runs SET owner='../../etc/passwd' WHERE id='r'`)
	if got, _ := s.OrphanedRuns(ctx, workrun.RunRunning); len(got) != 1 {
		t.Errorf("malformed owner: orphaned = %v", runIDs(got))
	}
}

func TestOrphanedRuns_UsesStatusIndex_R13(t *testing.T) {
	s := openTest(t)
	plan := queryPlan(t, s, `SELECT owner, `+runCols+` FROM runs INDEXED BY runs_status
		WHERE status=? ORDER BY created_at, id`, "running")
	if want := "runs_status"; !strings.Contains(plan, want) {
		t.Errorf("plan %q does not use %s", plan, want)
	}
}

// TestNodeRuns_BranchAndBatch: the branch a condition picked is kept, and
// SaveNodeRuns commits several records at once, or none.
func TestNodeRuns_BranchAndBatch(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	if err := s.CreateRun(ctx, sampleRun("r1", t0)); err != nil {
		t.Fatal(err)
	}
	cond := workrun.NodeRun{RunID: "r1", NodeID: "cond", Type: "condition", Status: workrun.NodeSucceeded, Branch: "true", StartedAt: t0, EndedAt: t0.Add(time.Millisecond)}
	yes := workrun.NodeRun{RunID: "r1", NodeID: "yes", Type: "set", Status: workrun.NodeRunning, StartedAt: t0.Add(time.Second)}
	no := workrun.NodeRun{RunID: "r1", NodeID: "no", Type: "set", Status: workrun.NodeSkipped}
	if err := s.SaveNodeRun(ctx, cond); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveNodeRuns(ctx, []workrun.NodeRun{yes, no}); err != nil {
		t.Fatal(err)
	}
	got, err := s.NodeRuns(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]workrun.NodeRun{cond, yes, no}, got); d != "" {
		t.Errorf("node runs (-want +got):\n%s", d)
	}
	// One bad record (unknown run) fails the batch and commits nothing.
	yes.Status = workrun.NodeSucceeded
	err = s.SaveNodeRuns(ctx, []workrun.NodeRun{yes, {RunID: "missing", NodeID: "x"}})
	if err == nil {
		t.Fatal("SaveNodeRuns with a record of a missing run succeeded")
	}
	got, _ = s.NodeRuns(ctx, "r1")
	if got[1].Status != workrun.NodeRunning {
		t.Errorf("failed batch committed part of its records: yes is %s", got[1].Status)
	}
	if err := s.SaveNodeRuns(ctx, nil); err != nil {
		t.Errorf("empty batch: %v", err)
	}
}

// TestOpen_SweepsStaleLocks: Open removes the lock files of processes that
// died without Close, and keeps those of stores still open.
func TestOpen_SweepsStaleLocks(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	live, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	locks := filepath.Join(dir, LocksDir)
	stale := filepath.Join(locks, "1-0123456789abcdef.lock")
	other := filepath.Join(locks, "notes.txt") // not ours: left alone
	for _, p := range []string{stale, other} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var names []string
	entries, _ := os.ReadDir(locks)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{live.Owner() + ".lock", s.Owner() + ".lock", "notes.txt"}
	slices.Sort(want)
	if d := cmp.Diff(want, names); d != "" {
		t.Errorf("locks dir after Open (-want +got):\n%s", d)
	}
}
