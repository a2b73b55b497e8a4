package artifacts

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/store"
	"workrun/workrun"
)

func newTest(t *testing.T) (*Store, *store.Store, string) {
	t.Helper()
	dir := t.TempDir()
	db, err := store.Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := New(dir, db)
	if err != nil {
		t.Fatal(err)
	}
	return s, db, dir
}

// pngBytes is a 1x1 PNG.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

var pdfBytes = []byte("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n")

var zipBytes = []byte("PK\x05\x06\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")

func TestPutOpen_RoundTripAndLayout(t *testing.T) {
	ctx := t.Context()
	s, _, dir := newTest(t)
	content := []byte("hello, artifact\n")
	info, err := s.Put(ctx, "../greeting.txt", "text/plain", bytes.NewReader(content), "", "")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(content)
	digest := hex.EncodeToString(sum[:])
	want := workrun.ArtifactInfo{ID: info.ID, Name: "greeting.txt", Original: "../greeting.txt",
		MediaType: "text/plain; charset=utf-8", Size: int64(len(content)), SHA256: digest, CreatedAt: info.CreatedAt}
	if d := cmp.Diff(want, info); d != "" {
		t.Errorf("Put info (-want +got):\n%s", d)
	}
	blob := filepath.Join(dir, "artifacts", digest[:2], digest)
	if b, err := os.ReadFile(blob); err != nil || !bytes.Equal(b, content) {
		t.Errorf("blob %s = %q, %v", blob, b, err)
	}
	stat, err := s.Stat(ctx, info.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(info, stat); d != "" {
		t.Errorf("Stat (-want +got):\n%s", d)
	}
	rc, got, err := s.Open(ctx, info.ID)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || !bytes.Equal(b, content) {
		t.Errorf("Open content = %q, %v", b, err)
	}
	if d := cmp.Diff(info, got); d != "" {
		t.Errorf("Open info (-want +got):\n%s", d)
	}
	if _, _, err := s.Open(ctx, "missing"); !errors.Is(err, workrun.ErrNotFound) {
		t.Errorf("Open(missing) = %v, want ErrNotFound", err)
	}
	// Nothing left in the temp directory.
	if left, _ := os.ReadDir(filepath.Join(dir, "artifacts", "tmp")); len(left) != 0 {
		t.Errorf("temp files left: %v", left)
	}
}

func TestPut_SameContentSharesBlob(t *testing.T) {
	ctx := t.Context()
	s, _, dir := newTest(t)
	a, err := s.Put(ctx, "a.txt", "", strings.NewReader("same"), "r1", "n1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Put(ctx, "b.txt", "", strings.NewReader("same"), "r1", "n2")
	if err != nil {
		t.Fatal(err)
	}
	if a.ID == b.ID || a.SHA256 != b.SHA256 {
		t.Errorf("ids %s %s digests %s %s", a.ID, b.ID, a.SHA256, b.SHA256)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "artifacts", a.SHA256[:2]))
	if len(entries) != 1 {
		t.Errorf("%d blobs for one content", len(entries))
	}
	if b.RunID != "r1" || b.NodeID != "n2" {
		t.Errorf("who made it: %+v", b)
	}
}

func TestPut_LyingMediaTypes(t *testing.T) {
	tests := []struct {
		name     string
		declared string
		content  []byte
		want     string
	}{
		{"png declared on text", "image/png", []byte("just some text\n"), "text/plain; charset=utf-8"},
		{"text declared on png", "text/plain", pngBytes, "image/png"},
		{"pdf declared on png", "application/pdf", pngBytes, "image/png"},
		{"json declared on pdf", "application/json", pdfBytes, "application/pdf"},
		{"pdf declared on zip", "application/pdf", zipBytes, "application/zip"},
		{"html declared on png", "text/html", pngBytes, "image/png"},
		{"garbage declared", "not a type///", pngBytes, "image/png"},
		{"nothing declared on png", "", pngBytes, "image/png"},
		{"octet-stream declared on pdf", "application/octet-stream", pdfBytes, "application/pdf"},
		{"truthful png", "image/png", pngBytes, "image/png"},
		{"truthful pdf, upper case", "Application/PDF", pdfBytes, "application/pdf"},
		{"alias of detected gives the canonical name", "application/x-pdf", pdfBytes, "application/pdf"},
		{"markdown on text", "text/markdown", []byte("# Title\n\nbody\n"), "text/markdown"},
		{"json on json", "application/json", []byte(`{"a": 1}`), "application/json"},
		{"csv with charset", "text/csv; charset=utf-8", []byte("a,b\n1,2\n"), "text/csv; charset=utf-8"},
		{"more specific than detected (epub on zip)", "application/epub+zip", zipBytes, "application/epub+zip"},
		{"empty content", "image/png", nil, "text/plain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, _ := newTest(t)
			info, err := s.Put(t.Context(), "f", tt.declared, bytes.NewReader(tt.content), "", "")
			if err != nil {
				t.Fatal(err)
			}
			if info.MediaType != tt.want {
				t.Errorf("declared %q: media type %q, want %q", tt.declared, info.MediaType, tt.want)
			}
		})
	}
}

func TestPut_SizeLimit(t *testing.T) {
	ctx := t.Context()
	s, db, dir := newTest(t)
	s.maxSize = 10
	if _, err := s.Put(ctx, "ok", "", strings.NewReader("0123456789"), "", ""); err != nil {
		t.Errorf("exactly the limit: %v", err)
	}
	_, err := s.Put(ctx, "big.bin", "", strings.NewReader("0123456789x"), "", "")
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Put over the limit = %v, want ErrTooLarge", err)
	}
	for _, part := range []string{"big.bin", "10 B"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q does not mention %q", err, part)
		}
	}
	path := filepath.Join(t.TempDir(), "large.dat")
	if err := os.WriteFile(path, make([]byte, 11), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Import(ctx, path); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), path) {
		t.Errorf("Import over the limit = %v, want ErrTooLarge naming the path", err)
	}
	if left, _ := os.ReadDir(filepath.Join(dir, "artifacts", "tmp")); len(left) != 0 {
		t.Errorf("temp files left after refusal: %v", left)
	}
	digests, err := db.ArtifactDigests(ctx)
	if err != nil || len(digests) != 1 {
		t.Errorf("digests after refusal = %v, %v (only the first Put belongs)", digests, err)
	}
}

func TestPut_CanceledContext(t *testing.T) {
	s, _, _ := newTest(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := s.Put(ctx, "x", "", strings.NewReader("data"), "", ""); !errors.Is(err, context.Canceled) {
		t.Errorf("Put with canceled ctx = %v", err)
	}
}

// TestPut_Streams checks that Put does not hold the content in memory: a
// 64 MiB stream goes through with modest allocation.
func TestPut_Streams(t *testing.T) {
	if testing.Short() {
		t.Skip("large stream")
	}
	s, _, _ := newTest(t)
	const size = 64 << 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := s.Put(t.Context(), "big", "", io.LimitReader(zeroReader{}, size), "", ""); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > size/4 {
		t.Errorf("Put of %d bytes allocated %d bytes: content is buffered", size, grew)
	} else {
		t.Logf("Put of 64 MiB allocated %d KiB", grew>>10)
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestImport_GuessesTypeFromExtensionThenChecks(t *testing.T) {
	ctx := t.Context()
	s, _, _ := newTest(t)
	dir := t.TempDir()
	md := filepath.Join(dir, "notes.md")
	os.WriteFile(md, []byte("# hi\n"), 0o600)
	fake := filepath.Join(dir, "photo.png")
	os.WriteFile(fake, []byte("not a png at all\n"), 0o600)
	info, err := s.Import(ctx, md)
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "notes.md" || info.RunID != "" || !strings.HasPrefix(info.MediaType, "text/") {
		t.Errorf("import md = %+v", info)
	}
	info, err = s.Import(ctx, fake)
	if err != nil {
		t.Fatal(err)
	}
	if info.MediaType != "text/plain; charset=utf-8" {
		t.Errorf("import fake png: media type %q", info.MediaType)
	}
	if _, err := s.Import(ctx, dir); err == nil {
		t.Error("Import of a directory succeeded")
	}
	if _, err := s.Import(ctx, filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Import of a missing file = %v", err)
	}
}

func TestGC_KeepsReferencedBlobs(t *testing.T) {
	ctx := t.Context()
	s, db, dir := newTest(t)
	s.grace = time.Hour
	kept, err := s.Put(ctx, "kept.txt", "", strings.NewReader("kept"), "", "")
	if err != nil {
		t.Fatal(err)
	}
	gone, err := s.Put(ctx, "gone.txt", "", strings.NewReader("gone"), "", "")
	if err != nil {
		t.Fatal(err)
	}
	shared1, _ := s.Put(ctx, "s1", "", strings.NewReader("shared"), "", "")
	shared2, _ := s.Put(ctx, "s2", "", strings.NewReader("shared"), "", "")
	for _, id := range []string{gone.ID, shared1.ID} {
		if err := db.DeleteArtifact(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	young := filepath.Join(dir, "artifacts", strings.Repeat("ab", 1), strings.Repeat("ab", 32))
	os.MkdirAll(filepath.Dir(young), 0o700)
	os.WriteFile(young, []byte("in flight"), 0o600)
	stray := filepath.Join(dir, "artifacts", "tmp", "put-123")
	os.WriteFile(stray, []byte("abandoned"), 0o600)
	foreign := filepath.Join(dir, "artifacts", "README")
	os.WriteFile(foreign, []byte("not a blob"), 0o600)

	old := time.Now().Add(-2 * time.Hour)
	blob := func(d string) string { return filepath.Join(dir, "artifacts", d[:2], d) }
	for _, p := range []string{blob(kept.SHA256), blob(gone.SHA256), blob(shared2.SHA256), stray} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	res, err := s.GC(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(GCResult{Kept: 3, Removed: 1, FreedBytes: 4, TempsRemoved: 1}, res); d != "" {
		t.Errorf("GC result (-want +got):\n%s", d)
	}
	for p, want := range map[string]bool{
		blob(kept.SHA256): true, blob(shared2.SHA256): true, young: true, foreign: true,
		blob(gone.SHA256): false, stray: false,
	} {
		_, err := os.Stat(p)
		if exists := err == nil; exists != want {
			t.Errorf("%s exists=%v after GC, want %v", p, exists, want)
		}
	}
	for _, a := range []workrun.ArtifactInfo{kept, shared2} {
		rc, _, err := s.Open(ctx, a.ID)
		if err != nil {
			t.Errorf("Open %s after GC: %v", a.Name, err)
			continue
		}
		rc.Close()
	}
}

func TestOpen_BlobMissing(t *testing.T) {
	ctx := t.Context()
	s, _, dir := newTest(t)
	info, err := s.Put(ctx, "x", "", strings.NewReader("x"), "", "")
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "artifacts", info.SHA256[:2], info.SHA256))
	if _, _, err := s.Open(ctx, info.ID); !errors.Is(err, ErrBlobMissing) {
		t.Errorf("Open with blob removed = %v, want ErrBlobMissing", err)
	}
}

// fakeMeta is a function-field fake of Metadata.
type fakeMeta struct {
	SaveArtifactFunc    func(context.Context, workrun.ArtifactInfo, string) error
	GetArtifactFunc     func(context.Context, string) (workrun.ArtifactInfo, error)
	ArtifactDigestsFunc func(context.Context) (map[string]bool, error)
}

func (f fakeMeta) SaveArtifact(ctx context.Context, a workrun.ArtifactInfo, rel string) error {
	return f.SaveArtifactFunc(ctx, a, rel)
}
func (f fakeMeta) GetArtifact(ctx context.Context, id string) (workrun.ArtifactInfo, error) {
	return f.GetArtifactFunc(ctx, id)
}
func (f fakeMeta) ArtifactDigests(ctx context.Context) (map[string]bool, error) {
	return f.ArtifactDigestsFunc(ctx)
}

func TestPut_MetadataFailureIsReported(t *testing.T) {
	boom := errors.New("disk full")
	var savedRel string
	s, err := New(t.TempDir(), fakeMeta{SaveArtifactFunc: func(_ context.Context, a workrun.ArtifactInfo, rel string) error {
		savedRel = rel
		return boom
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(t.Context(), "x", "", strings.NewReader("abc"), "", ""); !errors.Is(err, boom) {
		t.Errorf("Put = %v, want the metadata error", err)
	}
	sum := sha256.Sum256([]byte("abc"))
	d := hex.EncodeToString(sum[:])
	if want := filepath.Join(d[:2], d); savedRel != want {
		t.Errorf("stored name %q, want %q", savedRel, want)
	}
}
