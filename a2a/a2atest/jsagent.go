package a2atest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Timeouts. Generous: several test binaries may start node at once on a
// loaded two-core machine.
const (
	bannerTimeout  = 60 * time.Second
	stopTimeout    = 5 * time.Second
	installTimeout = 10 * time.Minute
)

// modulesLock is a directory created (atomically) by whoever checks or
// installs node_modules; see EnsureNodeModules.
const modulesLock = ".npm-ci.lock"

// ErrNoBanner is returned by Launch when node exits or stays silent instead
// of printing its "listening URL" line.
var ErrNoBanner = errors.New("a2atest: node server.mjs printed no banner")

// Stats are the JS server's request counters (GET /_stats).
type Stats struct {
	Methods      map[string]int `json:"methods"`     // JSON-RPC calls per method
	Submissions  map[string]int `json:"submissions"` // message/send and message/stream per messageId
	Cancels      map[string]int `json:"cancels"`     // tasks/cancel per taskId
	Unauthorized int            `json:"unauthorized"`
}

// JSAgent is a running server.mjs.
type JSAgent struct {
	URL  string   // base URL, e.g. http://127.0.0.1:PORT (the Agent Card is under it)
	SDK  string   // @a2a-js/sdk version from the banner
	Args []string // server.mjs arguments

	cmd   *exec.Cmd
	stdin io.Closer
	once  sync.Once
}

// Dir returns the absolute path of a2a/testdata/jsagent (package.json,
// server.mjs and the bench_*.mjs scripts), found from this source file so
// that it is the same directory whichever package's test runs.
func Dir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return filepath.Join("a2a", "testdata", "jsagent")
	}
	return filepath.Join(filepath.Dir(file), "..", "testdata", "jsagent")
}

func isCI() bool { return os.Getenv("CI") == "true" }

// NodeAvailable reports whether node is on PATH. When it is not, under
// CI=true it marks t failed (t.Errorf, so the caller may still run its Go
// half), and otherwise logs that the JS half is skipped.
func NodeAvailable(t testing.TB) bool {
	t.Helper()
	_, err := exec.LookPath("node")
	if err == nil {
		return true
	}
	if isCI() {
		t.Errorf("a2atest: node is required under CI=true to run the @a2a-js/sdk server: %v", err)
	} else {
		t.Logf("a2atest: SKIPPING the @a2a-js/sdk half: node not found (%v); under CI=true this fails", err)
	}
	return false
}

// EnsureNodeModules runs `npm ci` (from the committed lockfile) in Dir when
// node_modules is missing or incomplete. It holds a lock directory while it
// checks, so concurrent test binaries wait for one install. Call it from the
// test goroutine.
func EnsureNodeModules(t testing.TB) {
	t.Helper()
	dir := Dir()
	lock := filepath.Join(dir, modulesLock)
	deadline := time.Now().Add(installTimeout)
	for {
		err := os.Mkdir(lock, 0o755)
		if err == nil {
			break
		}
		if !errors.Is(err, os.ErrExist) {
			t.Fatalf("a2atest: lock %s: %v", lock, err)
		}
		if fi, err := os.Stat(lock); err == nil && time.Since(fi.ModTime()) > installTimeout {
			os.Remove(lock) // left behind by a test binary that died
			continue
		}
		if time.Now().After(deadline) {
			t.Fatalf("a2atest: %s still held after %v", lock, installTimeout)
		}
		time.Sleep(200 * time.Millisecond)
	}
	defer os.Remove(lock)
	if modulesInstalled(dir) {
		return
	}
	t.Logf("a2atest: running npm ci in %s", dir)
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("a2atest: npm ci in %s: %v\n%s", dir, err, out)
	}
}

func modulesInstalled(dir string) bool {
	for _, f := range []string{".package-lock.json", "@a2a-js/sdk/package.json", "express/package.json"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", f)); err != nil {
			return false
		}
	}
	return true
}

// StartJSAgent starts server.mjs with args (see its header: --bearer,
// --api-key, --api-key-header, --no-streaming, --uncancelable-ms, --slow-ms)
// after EnsureNodeModules, and stops it at test cleanup. It returns nil when
// node is missing (see NodeAvailable: a failure under CI=true, a logged skip
// otherwise); any other problem fails the test.
func StartJSAgent(t testing.TB, args ...string) *JSAgent {
	t.Helper()
	if !NodeAvailable(t) {
		return nil
	}
	EnsureNodeModules(t)
	a, err := Launch(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// Launch starts server.mjs with args and waits for its banner; it does not
// check for node nor install modules (call NodeAvailable and
// EnsureNodeModules first). It only reports through its error and t.Logf,
// so it may run on several goroutines at once. The server is stopped at test
// cleanup, and also exits when its stdin closes (this process dying).
func Launch(t testing.TB, args ...string) (*JSAgent, error) {
	cmd := exec.Command("node", append([]string{"server.mjs", "--watch-stdin"}, args...)...)
	cmd.Dir = Dir()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("a2atest: start node: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("a2atest: start node: %w", err)
	}
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("a2atest: start node: %w", err)
	}
	a := &JSAgent{Args: args, cmd: cmd, stdin: stdin}
	t.Cleanup(a.Close)
	banner := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sent := false
		for sc.Scan() {
			if !sent && strings.HasPrefix(sc.Text(), "listening ") {
				banner <- sc.Text()
				sent = true
			}
		}
		close(banner)
	}()
	select {
	case line, ok := <-banner:
		if !ok {
			a.Close()
			return nil, fmt.Errorf("%w: server.mjs %v exited: %s", ErrNoBanner, args, stderr)
		}
		// "listening http://127.0.0.1:PORT @a2a-js/sdk 1.3.0"
		f := strings.Fields(line)
		if len(f) < 4 {
			a.Close()
			return nil, fmt.Errorf("%w: server.mjs %v: unexpected banner %q", ErrNoBanner, args, line)
		}
		a.URL, a.SDK = f[1], f[3]
		t.Logf("a2atest: @a2a-js/sdk %s server at %s (args %v)", a.SDK, a.URL, args)
		return a, nil
	case <-time.After(bannerTimeout):
		a.Close()
		return nil, fmt.Errorf("%w: server.mjs %v: nothing after %v: %s", ErrNoBanner, args, bannerTimeout, stderr)
	}
}

// Close stops the server: it closes its stdin and kills it if it has not
// exited within a few seconds. It is safe to call more than once.
func (a *JSAgent) Close() {
	a.once.Do(func() {
		a.stdin.Close()
		done := make(chan struct{})
		go func() { a.cmd.Wait(); close(done) }() //nolint:errcheck // exit status is irrelevant when stopping
		select {
		case <-done:
		case <-time.After(stopTimeout):
			a.cmd.Process.Kill() //nolint:errcheck
			<-done
		}
	})
}

// Stats reads the server's counters (GET /_stats); an error fails t.
func (a *JSAgent) Stats(t testing.TB) Stats {
	t.Helper()
	resp, err := http.Get(a.URL + "/_stats")
	if err != nil {
		t.Fatalf("a2atest: GET /_stats: %v", err)
	}
	defer resp.Body.Close()
	var s Stats
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		t.Fatalf("a2atest: GET /_stats: %v", err)
	}
	return s
}

// lockedBuffer collects node's stderr (written by exec's copying goroutine)
// for error messages.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
