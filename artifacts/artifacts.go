package artifacts

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/google/uuid"

	"workrun/workrun"
)

// DefaultMaxSize is the size limit of one artifact.
const DefaultMaxSize int64 = 1 << 30

// DefaultGCGrace is how old an unreferenced blob must be before GC removes it.
const DefaultGCGrace = 10 * time.Minute

var (
	// ErrTooLarge is returned when content exceeds the size limit.
	ErrTooLarge = errors.New("artifact too large")
	// ErrBlobMissing is returned by Open when the metadata exists but the
	// bytes are gone from disk.
	ErrBlobMissing = errors.New("artifact content missing")
)

// Metadata is what the artifact store needs from SQLite; *store.Store
// implements it.
type Metadata interface {
	SaveArtifact(ctx context.Context, a workrun.ArtifactInfo, storedName string) error
	GetArtifact(ctx context.Context, id string) (workrun.ArtifactInfo, error)
	ArtifactDigests(ctx context.Context) (map[string]bool, error)
}

// Store keeps artifact bytes on disk and their metadata in Metadata. It is
// safe for concurrent use.
type Store struct {
	dir     string // <data dir>/artifacts
	meta    Metadata
	maxSize int64
	grace   time.Duration
	now     func() time.Time
	// gcMu keeps an in-process GC from removing a blob between its rename
	// and its metadata commit.
	gcMu sync.RWMutex
}

var _ workrun.ArtifactStore = (*Store)(nil)

// New opens the artifact store under dataDir/artifacts, creating it.
func New(dataDir string, meta Metadata) (*Store, error) {
	s := &Store{
		dir:     filepath.Join(dataDir, "artifacts"),
		meta:    meta,
		maxSize: DefaultMaxSize,
		grace:   DefaultGCGrace,
		now:     func() time.Time { return time.Now().UTC() },
	}
	if err := os.MkdirAll(filepath.Join(s.dir, "tmp"), 0o700); err != nil {
		return nil, fmt.Errorf("open artifact store: cannot create %s: %w", s.dir, err)
	}
	// Temporary files of a process that has ended (a spool file a crash
	// left, a Put cut short) go at once: they are of no use, and a spool
	// may hold a server's echo of a secret (encrypted, but not kept).
	if _, err := removeAbandoned(filepath.Join(s.dir, "tmp")); err != nil {
		return nil, fmt.Errorf("open artifact store: %w", err)
	}
	return s, nil
}

// blobPath returns the blob's path and its name relative to the store.
func (s *Store) blobPath(digest string) (string, string) {
	rel := filepath.Join(digest[:2], digest)
	return filepath.Join(s.dir, rel), rel
}

// Put stores the bytes from r, streamed: they are hashed while copied to a
// temporary file and never held in memory. name is cleaned (CleanName);
// declaredType is kept only if it agrees with the bytes (MediaType).
func (s *Store) Put(ctx context.Context, name, declaredType string, r io.Reader, runID, nodeID string) (workrun.ArtifactInfo, error) {
	tmp, tmpName, err := s.holdTemp("put-")
	if err != nil {
		return workrun.ArtifactInfo{}, fmt.Errorf("store artifact %q: %w", CleanName(name), err)
	}
	defer os.Remove(tmpName) // no-op after the rename
	info, err := s.put(ctx, tmp, tmpName, name, declaredType, r, runID, nodeID)
	if err != nil {
		return workrun.ArtifactInfo{}, fmt.Errorf("store artifact %q: %w", CleanName(name), err)
	}
	return info, nil
}

func (s *Store) put(ctx context.Context, tmp *os.File, tmpName, name, declaredType string, r io.Reader, runID, nodeID string) (workrun.ArtifactInfo, error) {
	h := sha256.New()
	head := &headBuffer{max: detectBytes}
	// Read one byte past the limit to tell "exactly the limit" from "more".
	src := io.LimitReader(ctxReader{ctx, r}, s.maxSize+1)
	n, err := io.Copy(io.MultiWriter(tmp, h, head), src)
	if err != nil {
		tmp.Close()
		return workrun.ArtifactInfo{}, err
	}
	if n > s.maxSize {
		tmp.Close()
		return workrun.ArtifactInfo{}, fmt.Errorf("%w: more than %d bytes (limit %s)", ErrTooLarge, s.maxSize, humanBytes(s.maxSize))
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return workrun.ArtifactInfo{}, err
	}
	if err := tmp.Close(); err != nil {
		return workrun.ArtifactInfo{}, err
	}
	digest := hex.EncodeToString(h.Sum(nil))
	info := workrun.ArtifactInfo{
		ID:        uuid.NewString(),
		Name:      CleanName(name),
		Original:  keepOriginal(name),
		MediaType: MediaType(declaredType, head.b),
		Size:      n,
		SHA256:    digest,
		RunID:     runID,
		NodeID:    nodeID,
		CreatedAt: s.now(),
	}

	s.gcMu.RLock()
	defer s.gcMu.RUnlock()
	blob, rel := s.blobPath(digest)
	if err := s.placeBlob(tmpName, blob); err != nil {
		return workrun.ArtifactInfo{}, err
	}
	if err := s.meta.SaveArtifact(ctx, info, rel); err != nil {
		return workrun.ArtifactInfo{}, err
	}
	return info, nil
}

// placeBlob moves the fsynced temp file to its digest name, or reuses an
// existing blob with the same content.
func (s *Store) placeBlob(tmp, blob string) error {
	dir := filepath.Dir(blob)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if _, err := os.Stat(blob); err == nil {
		// Same content already stored. Touch it so a GC in another process
		// sees it as new (grace period) until our row is committed.
		now := time.Now()
		return os.Chtimes(blob, now, now)
	}
	if err := os.Rename(tmp, blob); err != nil {
		return err
	}
	return syncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err // some platforms cannot sync a directory; that is not a failure
	}
	return nil
}

// Import stores the file at path as an artifact with no run (a run input).
// The declared type is guessed from the extension and checked against the
// bytes like any other.
func (s *Store) Import(ctx context.Context, path string) (workrun.ArtifactInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return workrun.ArtifactInfo{}, fmt.Errorf("import %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return workrun.ArtifactInfo{}, fmt.Errorf("import %s: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		return workrun.ArtifactInfo{}, fmt.Errorf("import %s: not a regular file", path)
	}
	if st.Size() > s.maxSize {
		return workrun.ArtifactInfo{}, fmt.Errorf("import %s: %w: %s (limit %s)",
			path, ErrTooLarge, humanBytes(st.Size()), humanBytes(s.maxSize))
	}
	info, err := s.Put(ctx, filepath.Base(path), mime.TypeByExtension(filepath.Ext(path)), f, "", "")
	if err != nil {
		return workrun.ArtifactInfo{}, fmt.Errorf("import %s: %w", path, err)
	}
	return info, nil
}

// Stat returns an artifact's metadata or workrun.ErrNotFound.
func (s *Store) Stat(ctx context.Context, id string) (workrun.ArtifactInfo, error) {
	return s.meta.GetArtifact(ctx, id)
}

// Open streams an artifact's content; the caller closes it.
func (s *Store) Open(ctx context.Context, id string) (io.ReadCloser, workrun.ArtifactInfo, error) {
	info, err := s.meta.GetArtifact(ctx, id)
	if err != nil {
		return nil, workrun.ArtifactInfo{}, err
	}
	if len(info.SHA256) != sha256.Size*2 {
		return nil, workrun.ArtifactInfo{}, fmt.Errorf("open artifact %s: bad digest %q", id, info.SHA256)
	}
	blob, _ := s.blobPath(info.SHA256)
	f, err := os.Open(blob)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, workrun.ArtifactInfo{}, fmt.Errorf("open artifact %s (%s): %w", id, info.Name, ErrBlobMissing)
	}
	if err != nil {
		return nil, workrun.ArtifactInfo{}, fmt.Errorf("open artifact %s: %w", id, err)
	}
	return f, info, nil
}

// headBuffer keeps the first max bytes written to it.
type headBuffer struct {
	b   []byte
	max int
}

func (h *headBuffer) Write(p []byte) (int, error) {
	if room := h.max - len(h.b); room > 0 {
		h.b = append(h.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// ctxReader stops a copy when ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
