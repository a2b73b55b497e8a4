package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // driver "sqlite"

	"workrun/workrun"
)

// FileName is the database file inside the data directory.
const FileName = "workrun.db"

// progressDelay bounds how long a batched progress line waits for its commit.
const progressDelay = 100 * time.Millisecond

// Store is the SQLite-backed persistence of Workrun. It is safe for
// concurrent use. See the package documentation for its guarantees.
type Store struct {
	path string
	w    *sql.DB // the one writer connection
	r    *sql.DB // read-only pool
	now  func() time.Time

	// commitMu lets one goroutine at a time commit the queued writes
	// (group commit, see write); qMu guards what waits for that commit.
	commitMu sync.Mutex
	qMu      sync.Mutex
	queue    []writeReq        // writes waiting for a commit
	pending  []workrun.Message // batched progress lines and queued durable lines
	// pendingDone holds, for each line of pending queued by QueueMessage,
	// what to call once it is committed (nil for a progress line).
	pendingDone []*lineWait
	// nodeQ holds the node records queued by QueueNodeRun, in order;
	// nodeLast indexes each record's latest entry, for coalescing.
	nodeQ    []queuedNode
	nodeLast map[nodeKey]int
	timer    *time.Timer // commits pending within progressDelay
	flushErr error       // failed progress batch, reported by Flush
	closed   bool
	// lastPending indexes each node's latest line in pending, for
	// coalescing; pendingBytes is about what pending holds; flushNow says
	// the timer is set to commit at once (pending past its soft bound).
	lastPending  map[lineSource]int
	pendingBytes int
	flushNow     bool

	commits atomic.Int64 // write transactions begun, for tests and benchmarks
	queued  int64        // order of what QueueNodeRun and QueueMessage queued (under qMu)

	// stmts caches the writer connection's prepared statements (under
	// commitMu: only the committing goroutine runs statements).
	stmts map[string]*sql.Stmt

	owner    *ownerLock // held while open; see owner.go
	locksDir string
}

type scanner interface{ Scan(dest ...any) error }

// Open opens (creating if needed) the database in dataDir and brings its
// schema up to date. A database from a newer Workrun is refused with
// ErrNewerSchema. Open never reads run history, so its cost does not grow
// with the number of runs (docs/remote-agent.md R13).
func Open(ctx context.Context, dataDir string) (*Store, error) {
	if dataDir == "" {
		return nil, errors.New("open store: empty data directory")
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("open store: cannot create data directory %s: %w", dataDir, err)
	}
	if err := checkWritable(dataDir); err != nil {
		return nil, err
	}
	path := filepath.Join(dataDir, FileName)
	s := &Store{path: path, now: func() time.Time { return time.Now().UTC() }, locksDir: filepath.Join(dataDir, LocksDir)}
	var err error
	if s.owner, err = acquireOwner(dataDir); err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			s.owner.release()
		}
	}()
	// synchronous(FULL): in WAL mode each commit fsyncs the WAL, so a commit
	// that returned survives power loss, not only a process crash.
	// _txlock=immediate: every transaction takes the write lock at BEGIN, so
	// two processes never deadlock upgrading a read lock (busy_timeout then
	// covers the wait).
	const pragmas = "_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_pragma=synchronous(FULL)"
	s.w, err = sql.Open("sqlite", fileURI(path)+"?"+pragmas+"&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	s.w.SetMaxOpenConns(1)
	s.w.SetMaxIdleConns(1)
	s.w.SetConnMaxLifetime(0)
	s.w.SetConnMaxIdleTime(0)
	if err := s.w.PingContext(ctx); err != nil {
		s.w.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	if err := migrate(ctx, s.w, path, func() int64 { return s.now().UnixNano() }); err != nil {
		s.w.Close()
		return nil, err
	}
	if err := s.prepare(ctx); err != nil {
		s.w.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	s.r, err = sql.Open("sqlite", fileURI(path)+"?"+pragmas+"&_pragma=query_only(1)")
	if err != nil {
		s.w.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	s.r.SetMaxOpenConns(4)
	s.r.SetMaxIdleConns(4)
	// Statuses processes that ended could only keep (a full disk) become
	// the record now; if the disk is still full they stay kept, and reads
	// go on reporting them (unsaved.go).
	s.saveKept(ctx)
	ok = true
	return s, nil
}

// fileURI makes an SQLite URI of a file path, escaping what would otherwise
// end the path ('?', '#') or be decoded ('%').
func fileURI(path string) string {
	p := filepath.ToSlash(path)
	if filepath.VolumeName(path) != "" {
		p = "/" + p // file:/C:/Users/…
	}
	return "file:" + strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(p)
}

// checkWritable fails early, naming the directory, rather than with an
// SQLite error on the first write.
func checkWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".workrun-write-check-*")
	if err != nil {
		return fmt.Errorf("open store: data directory %s is not writable: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return nil
}

// Path returns the database file path.
func (s *Store) Path() string { return s.path }

// Close commits pending progress lines, closes the database and releases
// the owner lock: runs this store left "running" are orphaned from then on.
func (s *Store) Close() error {
	s.qMu.Lock()
	s.closed = true // no new lines from here on
	s.qMu.Unlock()
	ferr := s.Flush(context.Background())
	s.giveUpQueued(fmt.Errorf("close store: %w", ErrClosed))
	s.commitMu.Lock()
	for _, st := range s.stmts {
		st.Close()
	}
	s.stmts = nil
	s.commitMu.Unlock()
	rerr := s.r.Close()
	werr := s.w.Close()
	oerr := s.owner.release()
	return errors.Join(ferr, rerr, werr, oerr)
}

func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNano(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}
