package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/artifacts"
	"workrun/credentials"
	"workrun/nodes/remoteagent"
	"workrun/nodes/remotemcp"
	"workrun/nodes/toolapp"
	"workrun/store"
	"workrun/workrun"
)

// artifactDeps opens the real store, artifact store and credentials and
// registers the local kinds and the remote kinds, like main.go (the keyring
// is whatever go-keyring is given: tests of credentials call MockInit).
func artifactDeps() Deps {
	return Deps{Version: "test", Open: func(ctx context.Context, dataDir string) (*Services, error) {
		st, err := store.Open(ctx, dataDir)
		if err != nil {
			return nil, err
		}
		arts, err := artifacts.New(dataDir, st)
		if err != nil {
			st.Close()
			return nil, err
		}
		ra := remoteagent.New(remoteagent.Deps{Calls: st})
		rm := remotemcp.New(remotemcp.Deps{Calls: st})
		ta := toolapp.New(toolapp.Deps{Calls: st})
		e := workrun.NewEngine(st, arts, append(localKinds(), ra, rm, ta)...)
		return &Services{DataDir: dataDir, Runs: st, Workflows: st, Artifacts: arts, Engine: e,
			RemoteCalls: st, RunArtifacts: st, ArtifactGC: arts, Credentials: credentials.NewManager(st, nil), Close: st.Close}, nil
	}}
}

// openDataDir opens the store and artifact store of dir for a test to fill
// before a command opens them itself; the test closes st when done.
func openDataDir(t *testing.T, dir string) (*store.Store, *artifacts.Store) {
	t.Helper()
	st, err := store.Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	arts, err := artifacts.New(dir, st)
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	return st, arts
}

// TestGCRemovesOnlyUnreferencedBlobs: `workrun gc` deletes the
// blob no artifact record refers to, keeps the referenced one, and says so.
func TestGCRemovesOnlyUnreferencedBlobs(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	st, arts := openDataDir(t, dir)
	kept, err := arts.Put(ctx, "kept.txt", "text/plain", strings.NewReader("keep me"), "", "")
	if err != nil {
		t.Fatal(err)
	}
	gone, err := arts.Put(ctx, "gone.txt", "text/plain", strings.NewReader("0123456789"), "", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteArtifact(ctx, gone.ID); err != nil {
		t.Fatal(err)
	}
	st.Close()
	blob := func(digest string) string { return filepath.Join(dir, "artifacts", digest[:2], digest) }
	// Both blobs are older than the grace period.
	old := time.Now().Add(-2 * artifacts.DefaultGCGrace)
	for _, d := range []string{kept.SHA256, gone.SHA256} {
		if err := os.Chtimes(blob(d), old, old); err != nil {
			t.Fatal(err)
		}
	}

	res := runMain(t, []string{"--data-dir", dir, "gc"}, nil, artifactDeps())
	if res.Code != ExitOK {
		t.Fatalf("gc: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	for _, want := range []string{"Removed 1 unreferenced artifact file, freeing 10 bytes.", "Kept 1 file"} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("gc output lacks %q:\n%s", want, res.Stdout)
		}
	}
	if _, err := os.Stat(blob(gone.SHA256)); !os.IsNotExist(err) {
		t.Errorf("unreferenced blob still there: %v", err)
	}
	if _, err := os.Stat(blob(kept.SHA256)); err != nil {
		t.Errorf("referenced blob removed: %v", err)
	}

	// A second gc finds nothing more to do.
	res = runMain(t, []string{"--data-dir", dir, "gc", "--json"}, nil, artifactDeps())
	if res.Code != ExitOK {
		t.Fatalf("gc --json: exit %d\n%s", res.Code, res.Stderr)
	}
	var got map[string]int64
	if err := json.Unmarshal([]byte(res.Stdout), &got); err != nil {
		t.Fatalf("gc --json output %q: %v", res.Stdout, err)
	}
	want := map[string]int64{"removed": 0, "freed_bytes": 0, "temps_removed": 0, "kept": 1}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("gc --json (-want +got):\n%s", d)
	}
}

func TestGCUsage(t *testing.T) {
	res := runMain(t, []string{"--data-dir", t.TempDir(), "gc", "extra"}, nil, artifactDeps())
	if res.Code != ExitUsage {
		t.Errorf("gc extra: exit %d, want %d", res.Code, ExitUsage)
	}
	// A build without an artifact store says so instead of pretending.
	res = runMain(t, []string{"--data-dir", t.TempDir(), "gc"}, nil, realDeps())
	if res.Code != ExitFailed || !strings.Contains(res.Stderr, "no artifact store") {
		t.Errorf("gc without artifacts: exit %d, stderr %q", res.Code, res.Stderr)
	}
}

func TestByteSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 bytes", 1: "1 byte", 1536: "1.5 KiB (1536 bytes)", 3 << 20: "3.0 MiB (3145728 bytes)"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}
