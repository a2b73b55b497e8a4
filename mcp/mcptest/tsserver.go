package mcptest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Modes of the TypeScript peer.
const (
	// ModernOnly answers 2026-07-28 only (createMcpHandler legacy: "reject").
	ModernOnly = "modern"
	// DualEra also answers 2025-era requests (legacy: "stateless").
	DualEra = "dual"
)

// Stats are the peer's counters (GET /stats).
type Stats struct {
	ToolsCall   int `json:"toolsCall"`
	TasksGet    int `json:"tasksGet"`
	TasksUpdate int `json:"tasksUpdate"`
	TasksCancel int `json:"tasksCancel"`
	// Listens counts subscriptions/listen streams for task ids served by
	// the peer; Notifications the notifications/tasks sent on them.
	Listens       int `json:"listens"`
	Notifications int `json:"notifications"`
}

// Options choose how the peer runs.
type Options struct {
	// Mode is ModernOnly or DualEra.
	Mode string
	// PollMs is the pollIntervalMs it announces (0: 1000).
	PollMs int
	// NoListen leaves subscriptions/listen to the SDK alone: its
	// acknowledgement names no task, so a client must poll.
	NoListen bool
}

// TSServer is a running TypeScript SDK peer.
type TSServer struct {
	// URL is the MCP endpoint.
	URL  string
	base string
}

// Stats reads the peer's counters.
func (s *TSServer) Stats(t testing.TB) Stats {
	t.Helper()
	resp, err := http.Get(s.base + "/stats")
	if err != nil {
		t.Fatalf("ts peer stats: %v", err)
	}
	defer resp.Body.Close()
	var st Stats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatalf("ts peer stats: %v", err)
	}
	return st
}

// TaskEnd is the instant the peer saw task id end (zero while it runs).
func (s *TSServer) TaskEnd(t testing.TB, id string) time.Time {
	t.Helper()
	resp, err := http.Get(s.base + "/task?id=" + url.QueryEscape(id))
	if err != nil {
		t.Fatalf("ts peer task: %v", err)
	}
	defer resp.Body.Close()
	var v struct {
		EndedAtMs float64 `json:"endedAtMs"`
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("ts peer task %s: HTTP %d", id, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatalf("ts peer task: %v", err)
	}
	if v.EndedAtMs == 0 {
		return time.Time{}
	}
	return time.UnixMicro(int64(v.EndedAtMs * 1000))
}

// StartTSServer starts the TypeScript SDK peer in mode on a free loopback
// port; it stops with the test. Tools: echo (at once), slow {seconds} (a task
// when the request declares the extension), fail (a task that fails with a
// JSON-RPC error), hang (a task that ends only when cancelled). pollMs is
// the pollIntervalMs it announces (0: 1000). Task status notifications are
// served on subscriptions/listen.
func StartTSServer(t testing.TB, mode string, pollMs int) *TSServer {
	t.Helper()
	return Start(t, Options{Mode: mode, PollMs: pollMs})
}

// Start starts the TypeScript SDK peer as opts say (see StartTSServer).
func Start(t testing.TB, opts Options) *TSServer {
	t.Helper()
	mode, pollMs := opts.Mode, opts.PollMs
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "testdata", "tsserver")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server")); err != nil {
		msg := fmt.Sprintf("the TypeScript SDK peer is not installed (%v): run `npm ci` in mcp/testdata/tsserver", err)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if pollMs <= 0 {
		pollMs = 1000
	}
	cmd := exec.Command("node", "server.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MODE="+mode, fmt.Sprintf("POLL_MS=%d", pollMs), "PORT=0")
	if opts.NoListen {
		cmd.Env = append(cmd.Env, "LISTEN=off")
	}
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the TypeScript peer: %v", err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill() //nolint:errcheck // it may have exited
		cmd.Wait()         //nolint:errcheck // killed on purpose
	})
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	select {
	case url, ok := <-lines:
		if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
			t.Fatalf("the TypeScript peer printed no URL (%q)", url)
		}
		return &TSServer{URL: url, base: strings.TrimSuffix(url, "/mcp")}
	case <-time.After(30 * time.Second):
		t.Fatal("the TypeScript peer did not start within 30 s")
	}
	return nil
}
