package artifacts

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSpool_EncryptedAtRest: what a spool file holds on disk is not what
// was written (no secret at rest), yet reads at any offset give it back,
// written in any order; Close removes the file.
func TestSpool_EncryptedAtRest(t *testing.T) {
	s, _, dir := newTest(t)
	sf, err := s.Spool()
	if err != nil {
		t.Fatal(err)
	}
	secret := []byte("token-ABCDEFGHIJKLMNOP")
	data := bytes.Repeat(append([]byte("chunk of an answer with "), secret...), 20_000) // ~900 KB, several buffers
	half := 300_001                                                                     // not on a block boundary
	if _, err := sf.WriteAt(data[half:], int64(half)); err != nil {
		t.Fatal(err)
	}
	if _, err := sf.WriteAt(data[:half], 0); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "artifacts", "tmp", "spool-*"))
	if len(files) != 1 {
		t.Fatalf("spool files: %v", files)
	}
	raw, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) != len(data) || bytes.Contains(raw, secret) || bytes.Contains(raw, []byte("chunk of")) {
		t.Errorf("the file holds the plain text (%d bytes)", len(raw))
	}
	for _, off := range []int64{0, 1, 15, 16, 17, int64(half), int64(len(data)) - 5} {
		got, err := io.ReadAll(io.NewSectionReader(sf, off, int64(len(data))-off))
		if err != nil || !bytes.Equal(got, data[off:]) {
			t.Fatalf("read at %d: %d bytes (%v), differ from what was written", off, len(got), err)
		}
	}
	if err := sf.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(files[0]); !os.IsNotExist(err) {
		t.Errorf("Close left %s (%v)", files[0], err)
	}
}

// TestTemps_AbandonedRemovedAtOnce: a temporary file whose process has
// ended (no flock held: a spool a SIGKILL left, an old plain temp file) is
// removed by the next New and by GC whatever its age; one a live store
// holds is kept by both, however old.
func TestTemps_AbandonedRemovedAtOnce(t *testing.T) {
	s, db, dir := newTest(t)
	tmp := filepath.Join(dir, "artifacts", "tmp")
	live, err := s.Spool()
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	if _, err := live.WriteAt([]byte("in use"), 0); err != nil {
		t.Fatal(err)
	}
	left := filepath.Join(tmp, "spool-left-by-a-crash")
	plain := filepath.Join(tmp, "workrun-remote-result-123")
	for _, p := range []string{left, plain} {
		if err := os.WriteFile(p, []byte("secret"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := New(dir, db); err != nil { // the next start
		t.Fatal(err)
	}
	names := func() []string {
		es, _ := os.ReadDir(tmp)
		var out []string
		for _, e := range es {
			out = append(out, e.Name())
		}
		return out
	}
	if got := names(); len(got) != 1 {
		t.Fatalf("after New: %v, want only the live spool file", got)
	}
	// GC: a fresh abandoned file goes (no grace), an old live one stays.
	if err := os.WriteFile(left, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	for _, n := range names() {
		os.Chtimes(filepath.Join(tmp, n), old, old)
	}
	if err := os.WriteFile(plain, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := s.GC(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got := names(); len(got) != 1 || res.TempsRemoved != 2 {
		t.Errorf("after GC: %v (%d removed), want only the live spool file (2 removed)", got, res.TempsRemoved)
	}
}
