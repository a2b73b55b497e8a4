package remotemcp_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"workrun/mcp/demoserver"
	"workrun/nodes/remotemcp"
	"workrun/nodes/start"
	"workrun/remotecall"
	"workrun/store/storetest"
	"workrun/workrun"
)

// downProxy forwards to target until it is taken down (setDown): then the
// requests on the way are cut and every new one gets 502, as from a proxy
// whose server is gone.
type downProxy struct {
	rp   *httputil.ReverseProxy
	down atomic.Bool
	mu   sync.Mutex
	cut  context.CancelFunc
	gen  context.Context
}

func (p *downProxy) setDown(down bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down.Store(down)
	if down {
		p.cut()
		p.gen, p.cut = context.WithCancel(context.Background())
	}
}

func startDownProxy(t *testing.T, target string) (*downProxy, string) {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &downProxy{rp: httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})}
	p.gen, p.cut = context.WithCancel(context.Background())
	t.Cleanup(func() { p.cut() })
	p.rp.FlushInterval = -1
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p.down.Load() {
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return
		}
		p.mu.Lock()
		gen := p.gen
		p.mu.Unlock()
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		stop := context.AfterFunc(gen, cancel)
		defer stop()
		p.rp.ServeHTTP(w, r.WithContext(ctx))
	}))
	t.Cleanup(srv.Close)
	return p, srv.URL + u.Path
}

// newFollowEnv is newEnv with the node's follow bounds set (short, so an
// outage outlasts them in a test).
func newFollowEnv(t *testing.T, p remotecall.FollowPolicy) *env {
	t.Helper()
	dir, st, arts := storetest.Open(t, "")
	eng := workrun.NewEngine(st, arts, start.Kind{}, remotemcp.New(remotemcp.Deps{Calls: st, Follow: p}))
	return &env{dir: dir, st: st, arts: arts, eng: eng}
}

// TestUnreachableServer (docs/remote-mcp.md M5): while a 2026-07-28 task
// runs, the server stops answering (502 from its proxy). A short outage is
// ridden out — "unreachable since T; retrying", then the task finishes; one
// longer than the bound interrupts the node as unreachable (resumable),
// never failed, nothing cancelled, and after the server is back `resume`
// finishes the same task with one tools/call.
func TestUnreachableServer(t *testing.T) {
	policy := remotecall.FollowPolicy{BackoffMin: 50 * time.Millisecond, BackoffMax: 200 * time.Millisecond, UnreachableFor: 2 * time.Second}
	node := func(url string) workrun.Workflow {
		return flow(state, []workrun.NodeSpec{mcpNode("m", url, "research", `,"arguments":{"topic":"tides","stages":12},"output":"answer","task":"always"`)})
	}
	for _, legacy := range []bool{false, true} {
		t.Run(fmt.Sprintf("legacy=%v", legacy), func(t *testing.T) { unreachable(t, policy, node, legacy) })
	}
}

func unreachable(t *testing.T, policy remotecall.FollowPolicy, node func(string) workrun.Workflow, legacy bool) {
	t.Run("short outage", func(t *testing.T) {
		d := demoserver.New(demoserver.Options{StageDuration: 250 * time.Millisecond, PollInterval: 50 * time.Millisecond, LegacyOnly: legacy})
		srv := httptest.NewServer(d.Mux())
		t.Cleanup(func() { d.Close(); srv.Close() })
		p, purl := startDownProxy(t, srv.URL+demoserver.Path)
		long := policy
		long.UnreachableFor = time.Minute // the outage ends when the node has said so
		e := newFollowEnv(t, long)
		id := e.start(t, node(purl), nil)
		waitUntil(t, 30*time.Second, func() bool { return taskSaved(t.Context(), e.st, id, "m") })
		p.setDown(true)
		waitUntil(t, 30*time.Second, func() bool { return contains(e.messages(t, id, "m"), "Server unreachable since") })
		p.setDown(false)
		r := e.wait(t, id)
		msgs := e.messages(t, id, "m")
		if r.Status != workrun.RunSucceeded || r.State["answer"] != "Research on tides: 12 stages done." {
			t.Fatalf("run %s: %s\n%q", r.Status, r.Reason, msgs)
		}
		if !contains(msgs, "Server unreachable since") {
			t.Errorf("messages = %q", msgs)
		}
		if n, c := count(d, "tools/call", "research"), count(d, "tasks/cancel", ""); n != 1 || c != 0 {
			t.Errorf("tools/call %d, tasks/cancel %d", n, c)
		}
	})
	t.Run("longer than the bound", func(t *testing.T) {
		d := demoserver.New(demoserver.Options{StageDuration: 250 * time.Millisecond, PollInterval: 50 * time.Millisecond, LegacyOnly: legacy})
		srv := httptest.NewServer(d.Mux())
		t.Cleanup(func() { d.Close(); srv.Close() })
		p, purl := startDownProxy(t, srv.URL+demoserver.Path)
		e := newFollowEnv(t, policy)
		id := e.start(t, node(purl), nil)
		waitUntil(t, 30*time.Second, func() bool { return taskSaved(t.Context(), e.st, id, "m") })
		p.setDown(true)
		r := e.wait(t, id)
		if r.Status != workrun.RunInterrupted || r.Interruption != workrun.InterruptedByUnreachable || !strings.Contains(r.Reason, "has not answered since") {
			t.Fatalf("run %s (%s): %s\n%q", r.Status, r.Interruption, r.Reason, e.messages(t, id, "m"))
		}
		if c := e.call(t, id, "m"); c.Ended || c.CancelOutcome != "" {
			t.Errorf("record = %+v", c)
		}
		p.setDown(false)
		if err := e.eng.Resume(t.Context(), id); err != nil {
			t.Fatal(err)
		}
		r = e.wait(t, id)
		if r.Status != workrun.RunSucceeded || r.State["answer"] != "Research on tides: 12 stages done." {
			t.Fatalf("resumed run %s: %s\n%q", r.Status, r.Reason, e.messages(t, id, "m"))
		}
		if n, c := count(d, "tools/call", "research"), count(d, "tasks/cancel", ""); n != 1 || c != 0 {
			t.Errorf("tools/call %d, tasks/cancel %d", n, c)
		}
	})
}
