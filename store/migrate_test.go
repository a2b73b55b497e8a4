package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
)

func userVersion(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func rawExec(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("exec %.60q: %v", s, err)
		}
	}
}

func TestMigrate_FromEmpty(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nested", "data")
	s, err := Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if got := userVersion(t, filepath.Join(dir, FileName)); got != schemaVersion {
		t.Errorf("user_version = %d, want %d", got, schemaVersion)
	}
	// Opening again is a no-op.
	s, err = Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n int
	if err := s.r.QueryRow(`SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != schemaVersion {
		t.Errorf("schema_migrations has %d rows, want %d", n, schemaVersion)
	}
}

// TestMigrate_FromEveryEarlierVersion builds a database at each earlier
// schema version with the migrations of that time, then opens it.
func TestMigrate_FromEveryEarlierVersion(t *testing.T) {
	for v := 1; v < schemaVersion; v++ {
		t.Run(fmt.Sprintf("from_v%d", v), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, FileName)
			db, err := sql.Open("sqlite", "file:"+path+"?_txlock=immediate")
			if err != nil {
				t.Fatal(err)
			}
			for i := range v {
				if err := applyMigration(t.Context(), db, i, 1); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := db.Exec(`INSERT INTO runs (id, workflow_id, workflow_name, workflow, inputs, state, status, interruption, reason, failed_node, created_at, ended_at) VALUES ('r', '', 'n', '{}', '{}', 'null', 'running', '', '', '', 1, 0)`); err != nil {
				t.Fatal(err)
			}
			db.Close()
			s, err := Open(t.Context(), dir)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			rs, err := s.RunsWithStatus(t.Context(), workrun.RunRunning)
			if err != nil || len(rs) != 1 {
				t.Fatalf("RunsWithStatus after upgrade from %d = %v, %v", v, rs, err)
			}
			if got := userVersion(t, path); got != schemaVersion {
				t.Errorf("user_version = %d, want %d", got, schemaVersion)
			}
		})
	}
}

// TestMigrate_FromV1Fixture upgrades the frozen version-1 schema with data.
func TestMigrate_FromV1Fixture(t *testing.T) {
	ctx := t.Context()
	dir, path := fixtureDB(t, "schema_v1.sql")
	s := upgradeFrom(t, dir, path, 1)
	running, err := s.RunsWithStatus(ctx, workrun.RunRunning)
	if err != nil {
		t.Fatal(err)
	}
	if len(running) != 1 || running[0].ID != "run-old-1" || running[0].Inputs["doc"] != "art-1" {
		t.Errorf("running runs after upgrade = %+v", running)
	}
	failed, err := s.GetRun(ctx, "run-old-2")
	if err != nil || failed.Reason != "boom" || failed.FailedNode != "ra" || failed.EndedAt.IsZero() {
		t.Errorf("failed run after upgrade = %+v, %v", failed, err)
	}
	call, err := s.GetRemoteCall(ctx, "run-old-1", "ra", "0")
	if err != nil {
		t.Fatal(err)
	}
	if call.TaskID != "t-1" || call.MessageID != "m-1" || call.Ended || call.Result != nil {
		t.Errorf("remote call after upgrade = %+v", call)
	}
	ms, err := s.Messages(ctx, "run-old-1")
	if err != nil || len(ms) != 1 {
		t.Errorf("messages after upgrade = %v, %v", ms, err)
	}
	// New rows continue the old sequence.
	m, err := s.AppendMessage(ctx, workrun.Message{RunID: "run-old-1", NodeID: "ra", Text: "resumed"})
	if err != nil || m.Seq != 2 {
		t.Errorf("AppendMessage after upgrade = %+v, %v", m, err)
	}
	wf, err := s.GetWorkflow(ctx, "wf1")
	if err != nil || wf.Workflow.State["doc"] != workrun.FieldFile {
		t.Errorf("workflow after upgrade = %+v, %v", wf, err)
	}
	a, err := s.GetArtifact(ctx, "art-1")
	if err != nil || a.SHA256 != "abcd" {
		t.Errorf("artifact after upgrade = %+v, %v", a, err)
	}
	// Version 2 additions work.
	if err := s.SaveCredentialMeta(ctx, workrun.CredentialMeta{Name: "c", Kind: "bearer", Origin: "https://x:443"}); err != nil {
		t.Errorf("credentials table after upgrade: %v", err)
	}
	var versions []int
	rows, err := s.r.Query(`SELECT version FROM schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var v int
		rows.Scan(&v)
		versions = append(versions, v)
	}
	rows.Close()
	want := []int{}
	for v := 1; v <= schemaVersion; v++ {
		want = append(want, v)
	}
	if d := cmp.Diff(want, versions); d != "" {
		t.Errorf("schema_migrations (-want +got):\n%s", d)
	}
}

func TestOpen_RefusesNewerSchema(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	rawExec(t, path, `CREATE TABLE future (x)`, `PRAGMA user_version = 99`)
	_, err := Open(t.Context(), dir)
	if !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("Open = %v, want ErrNewerSchema", err)
	}
	for _, part := range []string{"created by a newer Workrun", "schema 99 >", path} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q does not mention %q", err, part)
		}
	}
	// The file is left untouched.
	if got := userVersion(t, path); got != 99 {
		t.Errorf("user_version changed to %d", got)
	}
}

func TestOpen_UnusableDataDirNamesPath(t *testing.T) {
	// A file in the way of the directory fails for everyone; the read-only
	// directory only for non-root users (root ignores permission bits).
	base := t.TempDir()
	blocker := filepath.Join(base, "file")
	if err := os.WriteFile(blocker, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(blocker, "data")
	_, err := Open(context.Background(), dir)
	if err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("Open(%s) = %v, want an error naming the path", dir, err)
	}
	if os.Geteuid() != 0 {
		ro := filepath.Join(base, "ro")
		if err := os.Mkdir(ro, 0o500); err != nil {
			t.Fatal(err)
		}
		_, err := Open(context.Background(), ro)
		if err == nil || !strings.Contains(err.Error(), ro) || !strings.Contains(err.Error(), "not writable") {
			t.Errorf("Open(read-only dir) = %v, want a 'not writable' error naming the path", err)
		}
	}
}

func TestOpen_OddDataDirNames(t *testing.T) {
	for _, name := range []string{"with space", "hash#x", "pct%20y", "q?z", "amp&b=c", "ünï"} {
		dir := filepath.Join(t.TempDir(), name)
		s, err := Open(t.Context(), dir)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if err := s.CreateRun(t.Context(), sampleRun("r", t0)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		s.Close()
		if _, err := os.Stat(filepath.Join(dir, FileName)); err != nil {
			t.Errorf("%s: database not where expected: %v", name, err)
		}
	}
}

// TestMigrate_FromV2 upgrades a version-2 database holding a run left
// running and a finished condition: the old node record reads back with no
// branch (the engine re-enters such a condition), the old run has no owner
// and so counts as orphaned at start-up, and the new columns work.
func TestMigrate_FromV2(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	db, err := sql.Open("sqlite", "file:"+path+"?_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := applyMigration(ctx, db, i, 1); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{
		`INSERT INTO runs VALUES ('r', 'wf', 'n', '{}', '{}', 'null', 'running', '', '', '', 1, 0)`,
		`INSERT INTO node_runs VALUES ('r', 'cond', 'condition', 'succeeded', 'null', '{}', '', 5, 6)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s := upgradeFrom(t, dir, path, 2)
	ns, err := s.NodeRuns(ctx, "r")
	if err != nil {
		t.Fatal(err)
	}
	want := []workrun.NodeRun{{RunID: "r", NodeID: "cond", Type: "condition", Status: workrun.NodeSucceeded,
		Outputs: workrun.Values{}, StartedAt: fromNano(5), EndedAt: fromNano(6)}}
	if d := cmp.Diff(want, ns); d != "" {
		t.Errorf("old node run after upgrade (-want +got):\n%s", d)
	}
	orphans, err := s.OrphanedRuns(ctx, workrun.RunRunning)
	if err != nil || len(orphans) != 1 || orphans[0].ID != "r" {
		t.Errorf("OrphanedRuns after upgrade = %v, %v; want the old running run", orphans, err)
	}
	ns[0].Branch = "false"
	if err := s.SaveNodeRun(ctx, ns[0]); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.NodeRuns(ctx, "r"); len(got) != 1 || got[0].Branch != "false" {
		t.Errorf("branch after save = %+v", got)
	}
}

// fixtureDB writes the frozen schema testdata/name into a new data
// directory's database file.
func fixtureDB(t *testing.T, name string) (dir, path string) {
	t.Helper()
	fixture, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	path = filepath.Join(dir, FileName)
	rawExec(t, path, string(fixture))
	return dir, path
}

// upgradeFrom opens the store in dir, whose database at path is at version
// from, and checks it was brought to schemaVersion; the store is closed
// when t ends.
func upgradeFrom(t *testing.T, dir, path string, from int) *Store {
	t.Helper()
	if got := userVersion(t, path); got != from {
		t.Fatalf("fixture user_version = %d, want %d", got, from)
	}
	s, err := Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if got := userVersion(t, path); got != schemaVersion {
		t.Errorf("user_version after upgrade = %d, want %d", got, schemaVersion)
	}
	return s
}
