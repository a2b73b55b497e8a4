package remoteagent

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"workrun/a2a"
	"workrun/workrun"
)

// DefaultMaxResultBytes caps what one call receives as artifacts (text and
// inline file bytes, counted as they arrive): an agent cannot fill the disk
// or memory with append chunks.
const DefaultMaxResultBytes = 256 << 20

// maxArtifacts caps the distinct artifacts of one call (each costs a map
// entry until the call ends).
const maxArtifacts = 200_000

// spoolInMemory is how much the spool keeps in memory before it moves to a
// temporary file; most results are far smaller.
const spoolInMemory = 1 << 20

// bigChunk is the size of a result chunk past which its carriers are
// collected as soon as it is spooled (see add).
const bigChunk = 4 << 20

// ErrResultTooLarge: the agent sent more artifact bytes (or artifacts) than
// one call keeps.
var ErrResultTooLarge = errors.New("remote results over the limit")

// results holds the artifacts a call has received so far. Part bytes go to a
// spool (memory up to spoolInMemory, then a temporary file) as they arrive,
// so append chunks never accumulate in memory; an artifact keeps only where
// its parts lie. Artifacts are found by id in O(1) and kept in arrival order.
type results struct {
	create func() (workrun.SpoolFile, error) // the spool's file, when memory is past
	max    int64
	byID   map[string]*remoteArtifact
	order  []*remoteArtifact
	spool  spool
	links  int64 // bytes of link parts kept
}

type remoteArtifact struct {
	id, name string
	parts    []spooledPart
	// tail is the end of its text so far (up to tailBytes), for the
	// redaction of a secret split across two chunks in progress lines.
	tail string
}

// tailBytes is how much of an artifact's text end is kept for redaction.
const tailBytes = 256

// textTail returns the end of the text artifact id holds so far.
func (r *results) textTail(id string) string {
	if ra, ok := r.byID[id]; ok {
		return ra.tail
	}
	return ""
}

// spooledPart is one part of an artifact: text or raw bytes in the spool at
// [off, off+n), or a link.
type spooledPart struct {
	raw                 bool
	off, n              int64
	url                 string
	filename, mediaType string
}

func newResults(create func() (workrun.SpoolFile, error), max int64) *results {
	if max <= 0 {
		max = DefaultMaxResultBytes
	}
	return &results{create: create, max: max, byID: map[string]*remoteArtifact{}}
}

// spoolFiles is where a call's spool goes past memory: the artifact store's
// spool files (encrypted, removed at the next start if this process dies:
// workrun.Spooler), or, without one, a temporary file in dir.
func spoolFiles(arts workrun.ArtifactStore, dir string) func() (workrun.SpoolFile, error) {
	if sp, ok := arts.(workrun.Spooler); ok {
		return sp.Spool
	}
	return func() (workrun.SpoolFile, error) {
		f, err := os.CreateTemp(dir, "workrun-remote-result-*")
		if err != nil {
			return nil, err
		}
		return tempFile{f}, nil
	}
}

// tempFile is a plain temporary spool file; Close removes it.
type tempFile struct{ *os.File }

func (t tempFile) Close() error {
	err := t.File.Close()
	if rerr := os.Remove(t.Name()); err == nil {
		err = rerr
	}
	return err
}

// reset drops every artifact: a task snapshot replaces what the stream sent.
func (r *results) reset() error {
	clear(r.byID)
	r.order, r.links = r.order[:0], 0
	return r.spool.truncate()
}

// apply merges one artifact: appended to the artifact of that id, or
// replacing it.
func (r *results) apply(a a2a.Artifact, appendParts bool) error {
	ra, ok := r.byID[a.ArtifactID]
	if !ok {
		if len(r.byID) >= maxArtifacts {
			return fmt.Errorf("%w: more than %d artifacts in one call", ErrResultTooLarge, maxArtifacts)
		}
		ra = &remoteArtifact{id: a.ArtifactID}
		r.byID[a.ArtifactID] = ra
		r.order = append(r.order, ra)
	} else if !appendParts {
		ra.parts = ra.parts[:0] // the old bytes stay in the spool and count
		ra.tail = ""
	}
	if a.Name != "" || ra.name == "" {
		ra.name = a.Name
	}
	for _, p := range a.Parts {
		if err := r.add(ra, p); err != nil {
			return err
		}
	}
	return nil
}

func (r *results) add(ra *remoteArtifact, p a2a.Part) error {
	var b []byte
	switch {
	case p.URL != "":
		if err := r.reserve(int64(len(p.URL))); err != nil {
			return err
		}
		r.links += int64(len(p.URL))
		ra.parts = append(ra.parts, spooledPart{url: p.URL})
		return nil
	case p.IsRaw():
		b = p.Raw
	case p.Data != nil:
		return nil // structured data is not part of the text output
	default:
		b = []byte(p.Text)
	}
	if err := r.reserve(int64(len(b))); err != nil {
		return err
	}
	off, err := r.spool.write(r.create, b)
	if err != nil {
		return fmt.Errorf("keep remote result: %w", err)
	}
	if len(b) >= bigChunk {
		// The chunk is on disk now; what carried it (the event's line
		// buffer, its decoded text: a few times its size) is garbage.
		// Collecting it at once keeps the peak at one chunk's worth
		// instead of letting the heap double before the next cycle.
		runtime.GC()
	}
	if !p.IsRaw() {
		ra.tail = keepTail(ra.tail, p.Text)
		// Text chunks of one artifact that follow each other in the spool
		// are one stretch: a million appends cost one entry.
		if n := len(ra.parts); n > 0 && !ra.parts[n-1].raw && ra.parts[n-1].url == "" && ra.parts[n-1].off+ra.parts[n-1].n == off {
			ra.parts[n-1].n += int64(len(b))
			return nil
		}
		ra.parts = append(ra.parts, spooledPart{off: off, n: int64(len(b))})
		return nil
	}
	ra.parts = append(ra.parts, spooledPart{raw: true, off: off, n: int64(len(b)), filename: p.Filename, mediaType: p.MediaType})
	return nil
}

// keepTail is the last tailBytes of prev+s.
func keepTail(prev, s string) string {
	if len(s) >= tailBytes {
		return strings.Clone(s[len(s)-tailBytes:])
	}
	t := prev + s
	return t[max(0, len(t)-tailBytes):]
}

// reserve counts n more bytes against the cap.
func (r *results) reserve(n int64) error {
	if r.spool.size+r.links+n > r.max {
		return fmt.Errorf("%w: the agent sent more than %s of results (the per-call limit); the rest is not kept", ErrResultTooLarge, humanBytes(r.max))
	}
	return nil
}

// text joins each artifact's text parts (chunks without a separator),
// artifacts separated by a newline.
func (r *results) text() (string, error) {
	var texts []string
	for _, ra := range r.order {
		var b strings.Builder
		for _, p := range ra.parts {
			if p.raw || p.url != "" {
				continue
			}
			if err := r.spool.copyTo(&b, p.off, p.n); err != nil {
				return "", fmt.Errorf("read remote result: %w", err)
			}
		}
		if b.Len() > 0 {
			texts = append(texts, b.String())
		}
	}
	return strings.Join(texts, "\n"), nil
}

// textSize is the length of text() without building it.
func (r *results) textSize() int64 {
	var n, joined int64
	for _, ra := range r.order {
		var m int64
		for _, p := range ra.parts {
			if !p.raw && p.url == "" {
				m += p.n
			}
		}
		if m > 0 {
			if joined > 0 {
				n++ // the newline between artifacts
			}
			n += m
			joined++
		}
	}
	return n
}

// textReader streams what text() returns, from the spool.
func (r *results) textReader() io.Reader {
	var rs []io.Reader
	for _, ra := range r.order {
		var parts []io.Reader
		for _, p := range ra.parts {
			if !p.raw && p.url == "" && p.n > 0 {
				parts = append(parts, r.spool.reader(p.off, p.n))
			}
		}
		if len(parts) == 0 {
			continue
		}
		if len(rs) > 0 {
			rs = append(rs, strings.NewReader("\n"))
		}
		rs = append(rs, parts...)
	}
	return io.MultiReader(rs...)
}

// files lists the file and link parts in order.
func (r *results) files() []resultFile {
	var out []resultFile
	for _, ra := range r.order {
		for _, p := range ra.parts {
			switch {
			case p.url != "":
				out = append(out, resultFile{url: p.url})
			case p.raw:
				out = append(out, resultFile{name: p.filename, mediaType: p.mediaType, size: p.n, open: r.spool.section(p.off, p.n)})
			}
		}
	}
	return out
}

func (r *results) close() error { return r.spool.close() }

// resultFile is a file (or link) part of the result, its bytes read on demand.
type resultFile struct {
	url             string
	name, mediaType string
	size            int64
	open            func() io.Reader
}

// spool is an append-only byte store: in memory up to spoolInMemory, then a
// spool file that close removes.
type spool struct {
	mem  []byte
	f    workrun.SpoolFile
	size int64
}

func (s *spool) write(create func() (workrun.SpoolFile, error), b []byte) (int64, error) {
	off := s.size
	if s.f == nil && s.size+int64(len(b)) <= spoolInMemory {
		s.mem = append(s.mem, b...)
		s.size += int64(len(b))
		return off, nil
	}
	if s.f == nil {
		f, err := create()
		if err != nil {
			return 0, err
		}
		if _, err := f.WriteAt(s.mem, 0); err != nil {
			f.Close()
			return 0, err
		}
		s.f, s.mem = f, nil
	}
	if _, err := s.f.WriteAt(b, s.size); err != nil {
		return 0, err
	}
	s.size += int64(len(b))
	return off, nil
}

func (s *spool) reader(off, n int64) io.Reader {
	if s.f == nil {
		return bytes.NewReader(s.mem[off : off+n])
	}
	return io.NewSectionReader(s.f, off, n)
}

func (s *spool) section(off, n int64) func() io.Reader {
	return func() io.Reader { return s.reader(off, n) }
}

func (s *spool) copyTo(w io.Writer, off, n int64) error {
	_, err := io.Copy(w, s.reader(off, n))
	return err
}

func (s *spool) truncate() error {
	s.mem, s.size = s.mem[:0], 0
	if s.f != nil {
		return s.f.Truncate(0)
	}
	return nil
}

// close removes the spool's file.
func (s *spool) close() error {
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f = nil
	return err
}

// humanBytes shows a byte count as "256 MiB".
func humanBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// count and size are how many artifacts and bytes the call holds (the
// follow loop's progress check).
func (r *results) count() int  { return len(r.order) }
func (r *results) size() int64 { return r.spool.size + r.links }
