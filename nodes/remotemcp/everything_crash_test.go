package remotemcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"workrun/remotecall"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// methodCounter is a reverse proxy in front of an MCP server that counts
// the JSON-RPC methods of the requests it forwards (the server has no
// counters of its own); SSE replies stream through.
type methodCounter struct {
	// holdGET makes the proxy hold a GET's response headers the way Go's
	// net/http server (and many gateways) do until a handler flushes: the
	// answer is forwarded without flushing, so nothing of it — headers
	// included — reaches the client before its first body bytes fill the
	// server's buffer. An idle legacy GET stream then never opens.
	holdGET bool

	mu     sync.Mutex
	counts map[string]int
}

// noFlush hides the ResponseWriter's Flush from the reverse proxy.
type noFlush struct{ http.ResponseWriter }

func (m *methodCounter) count(method string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.counts[method]
}

// proxy starts the counter in front of target and returns its endpoint.
func (m *methodCounter) proxy(t *testing.T, target string) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	m.counts = map[string]int{}
	rp := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
	rp.FlushInterval = -1
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			var msg struct {
				Method string `json:"method"`
			}
			if json.Unmarshal(body, &msg) == nil && msg.Method != "" {
				m.mu.Lock()
				m.counts[msg.Method]++
				m.mu.Unlock()
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		if r.Method == http.MethodGet {
			m.mu.Lock()
			m.counts["GET"]++
			m.mu.Unlock()
			if m.holdGET {
				rp.ServeHTTP(noFlush{w}, r)
				return
			}
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + u.Path
}

// TestInteropEverythingCrashThenResume: against the official reference
// server @modelcontextprotocol/server-everything 2026.8.31 (2025-11-25, core
// Tasks owned by the session), a runner process is SIGKILLed right after
// the task id is committed; after a restart the run resumes the task in the
// saved session and finishes it. The server saw exactly one tools/call and
// no cancel; the record names the revision.
func TestInteropEverythingCrashThenResume(t *testing.T) {
	var m methodCounter
	url := m.proxy(t, startEverything(t))
	dir, runID, taskID := startKilledRun(t, url, "WORKRUN_MCP_CHILD_TOOL=simulate-research-query",
		`WORKRUN_MCP_CHILD_CFG=,"arguments":{"topic":"tides"},"timeout_seconds":30`)
	e, r := resumeKilled(t, dir, runID)
	msgs := e.messages(t, runID, "m")
	if r.Status != workrun.RunSucceeded || !strings.Contains(fmt.Sprint(r.State["answer"]), "Research Report: tides") {
		t.Fatalf("resumed run %s: %s\n%q", r.Status, r.Reason, msgs)
	}
	if n := m.count("tools/call"); n != 1 {
		t.Errorf("tools/call = %d, want exactly 1", n)
	}
	if n := m.count("tasks/cancel"); n != 0 {
		t.Errorf("exit sent %d tasks/cancel", n)
	}
	if !contains(msgs, "Resuming remote task "+taskID) {
		t.Errorf("messages = %q", msgs)
	}
	if c := e.call(t, runID, "m"); c.TaskID != taskID || !c.Ended || !strings.Contains(c.ContextID, "protocol=2025-11-25") {
		t.Errorf("record after resume = %+v", c)
	}
}

// TestInteropEverythingFailingBranchCancelsOnce: against server-everything,
// a parallel branch fails while the research task runs: exactly one
// tasks/cancel reaches the server, its answer is saved as canceled, and the
// tool was called once.
func TestInteropEverythingFailingBranchCancelsOnce(t *testing.T) {
	var m methodCounter
	url := m.proxy(t, startEverything(t))
	e := newEnv(t, "")
	fail := workruntest.FailWhenRun(t, e.st, func(ctx context.Context, runID string) bool { return taskSaved(ctx, e.st, runID, "m") })
	r := e.run(t, flow(state, []workrun.NodeSpec{
		mcpNode("m", url, "simulate-research-query", `,"arguments":{"topic":"tides"},"output":"answer","timeout_seconds":30`),
		{ID: "fail", Type: "process", Config: fail},
	}), nil)
	if r.Status != workrun.RunFailed || r.FailedNode != "fail" {
		t.Fatalf("run %s at %q: %s", r.Status, r.FailedNode, r.Reason)
	}
	waitUntil(t, 30*time.Second, func() bool { return e.call(t, r.ID, "m").CancelOutcome != "" })
	if c := e.call(t, r.ID, "m"); c.CancelOutcome != remotecall.CancelCanceled {
		t.Errorf("cancel outcome %q (%s)", c.CancelOutcome, c.CancelText)
	}
	if n, calls := m.count("tasks/cancel"), m.count("tools/call"); n != 1 || calls != 1 {
		t.Errorf("tasks/cancel %d, tools/call %d: want exactly one each", n, calls)
	}
}
