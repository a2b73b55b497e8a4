package remoteagent_test

import (
	"bufio"
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"workrun/nodes/remoteagent"
	"workrun/remotecall"
	"workrun/workrun"
)

const deadConnChild = "WORKRUN_TEST_DEADCONN_CHILD"

// TestServers_DeadConnection: the connection of a task's update stream goes
// silently dead — every packet between Workrun and the proxy in front of
// the SDK server is dropped from one moment on, no FIN, no RST, as when a
// NAT forgets the connection or a cable is pulled — while the task goes on.
// With the remote layer's TCP keep-alive (remotecall.FanOutTransport: 15 s
// idle, then 3 probes 5 s apart) the node notices the dead stream within
// remotecall.DeadPeerDetection (30 s) and treats it as a break: it reads the
// task (GetTask) once the path is back and takes the result — one
// submission, no cancel, the run succeeds (docs/remote-agent.md R7).
//
// Dropping packets needs a network namespace of its own: the test runs
// itself again under `unshare -rn` (a user and network namespace, no
// privileges needed) and black-holes the proxy's address with an ip rule.
func TestServers_DeadConnection(t *testing.T) {
	if os.Getenv(deadConnChild) == "" {
		runInNetns(t)
		return
	}
	if out, err := exec.Command("ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		t.Fatalf("ip link set lo up: %v: %s", err, out)
	}
	// The local table is looked up at priority 0; move it after the
	// black-hole rules this test adds at priority 10.
	ipRule(t, "add", "prio", "100", "table", "local")
	ipRule(t, "del", "prio", "0", "table", "local")

	// Both SDK servers at once (each is a half-minute wait): one engine,
	// one run per server, each through its own proxy address.
	e := newEnv(t, "", "en")
	var wg sync.WaitGroup
	for i, srv := range bothServers(t, true) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			deadStream(t, e, srv, []string{"127.0.0.2", "127.0.0.3"}[i])
		}()
	}
	wg.Wait()
}

// deadStream is one server's case of TestServers_DeadConnection; it runs
// on its own goroutine, so it reports with t.Errorf only.
func deadStream(t *testing.T, e *env, srv server, addr string) {
	var (
		cutAt   atomic.Int64 // unix nanos when the path went dead
		cutOnce sync.Once
	)
	blackhole := func(on bool) {
		verb := "del"
		if on {
			verb = "add"
		}
		for _, dir := range []string{"to", "from"} {
			if out, err := exec.Command("ip", "rule", verb, "prio", "10", dir, addr, "blackhole").CombinedOutput(); err != nil {
				t.Errorf("%s: ip rule %s %s %s blackhole: %v: %s", srv.name, verb, dir, addr, err, out)
			}
		}
	}
	url := startProxyOn(t, addr, &proxy{target: srv.base, fault: func(w http.ResponseWriter, r *http.Request, method string, _ []byte, forward func() (*http.Response, error)) bool {
		if method != "SendStreamingMessage" {
			return false
		}
		resp, err := forward()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return true
		}
		defer resp.Body.Close()
		// Forward until the first event (the task id) is out, then drop
		// the path; the proxy goes on writing as if nothing happened.
		copyThen(w, resp, func() {
			cutOnce.Do(func() {
				time.Sleep(300 * time.Millisecond) // let the client read and commit the task id
				blackhole(true)
				cutAt.Store(time.Now().UnixNano())
			})
		})
		return true
	}})
	id, err := e.eng.Start(t.Context(), "", flow([]workrun.NodeSpec{raNode("ra", url, `,"timeout_seconds":10`)}), workrun.Values{"prompt_ra": "slow 2 3000"})
	if err != nil {
		t.Errorf("%s: start: %v", srv.name, err)
		return
	}
	// Wait for the node to say its stream was lost, then restore the path.
	var noticed time.Duration
	bound := 2*remotecall.DeadPeerDetection + time.Minute
	deadline := time.Now().Add(bound)
	for noticed == 0 {
		if time.Now().After(deadline) {
			blackhole(false)
			t.Errorf("%s: the dead stream was not noticed in %v; messages %q", srv.name, bound, e.messages(t, id, "ra"))
			return
		}
		all, err := e.st.Messages(t.Context(), id)
		if err != nil {
			t.Errorf("%s: %v", srv.name, err)
			return
		}
		for _, m := range all {
			if m.NodeID == "ra" && m.Key == "remoteagent.stream_lost" && cutAt.Load() != 0 {
				noticed = m.Time.Sub(time.Unix(0, cutAt.Load()))
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	blackhole(false)
	r, err := e.eng.Wait(t.Context(), id)
	if err != nil {
		t.Errorf("%s: %v", srv.name, err)
		return
	}
	msgs := e.messages(t, id, "ra")
	t.Logf("%s: dead stream noticed %v after the path went dead (stated bound %v)", srv.name, noticed.Round(100*time.Millisecond), remotecall.DeadPeerDetection)
	// The kernel's probes run on their own clock, so the bound is tight;
	// a loaded machine only delays the message's save a little.
	if noticed > remotecall.DeadPeerDetection+10*time.Second {
		t.Errorf("%s: noticed after %v, over the stated %v", srv.name, noticed, remotecall.DeadPeerDetection)
	}
	if noticed < remotecall.KeepAliveIdle {
		t.Errorf("%s: noticed after %v, before the first keep-alive probe (%v) was due: something else broke the stream", srv.name, noticed, remotecall.KeepAliveIdle)
	}
	if r.Status != workrun.RunSucceeded || r.State["answer_ra"] != "done after 2 steps" {
		t.Errorf("%s: run = %s: %s (answer %v)\n%q", srv.name, r.Status, r.Reason, r.State["answer_ra"], msgs)
	}
	stats := srv.stats(t)
	if n := stats.Submissions[remoteagent.MessageID(id, "ra", "send")]; n != 1 {
		t.Errorf("%s: submissions = %d, want exactly 1", srv.name, n)
	}
	if stats.totalCancels() != 0 || stats.Methods["GetTask"] == 0 {
		t.Errorf("%s: methods = %v, cancels = %v; want a GetTask after the break and no cancel", srv.name, stats.Methods, stats.Cancels)
	}
}

// runInNetns runs TestServers_DeadConnection again in a user and network
// namespace of its own and reports its output. Without unshare (or with
// user namespaces disabled) the test cannot be made: it skips outside CI
// and fails under CI=true.
func runInNetns(t *testing.T) {
	if _, err := exec.LookPath("unshare"); err != nil {
		missing(t, "unshare (util-linux): %v", err)
		return
	}
	if _, err := exec.LookPath("ip"); err != nil {
		missing(t, "ip (iproute2): %v", err)
		return
	}
	if out, err := exec.Command("unshare", "-rn", "true").CombinedOutput(); err != nil {
		missing(t, "unshare -rn (user namespaces): %v: %s", err, out)
		return
	}
	args := []string{"-rn", os.Args[0], "-test.run", "^TestServers_DeadConnection$", "-test.v", "-test.count", "1"}
	cmd := exec.CommandContext(t.Context(), "unshare", args...)
	cmd.Env = append(os.Environ(), deadConnChild+"=1")
	out, err := cmd.CombinedOutput()
	t.Logf("in its own network namespace:\n%s", out)
	if err != nil || !bytes.Contains(out, []byte("--- PASS: TestServers_DeadConnection")) {
		t.Fatalf("TestServers_DeadConnection in its namespace: %v", err)
	}
}

func missing(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("needed to black-hole a connection: "+format, args...)
	}
	t.Skipf("needed to black-hole a connection: "+format, args...)
}

func ipRule(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("ip", append([]string{"rule"}, args...)...).CombinedOutput(); err != nil {
		t.Fatalf("ip rule %s: %v: %s", strings.Join(args, " "), err, out)
	}
}

// startProxyOn is startProxy listening on addr (a loopback address).
func startProxyOn(t *testing.T, addr string, p *proxy) string {
	t.Helper()
	ln, err := net.Listen("tcp", addr+":0")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(p.handler())
	ts.Listener.Close()
	ts.Listener = ln
	ts.Start()
	t.Cleanup(ts.Close)
	return ts.URL
}

// copyThen copies an SSE reply, calling after once the first data event
// has been written, and goes on copying.
func copyThen(w http.ResponseWriter, resp *http.Response, after func()) {
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	fl, _ := w.(http.Flusher)
	br := bufio.NewReader(resp.Body)
	called := false
	for {
		line, err := br.ReadBytes('\n')
		w.Write(line) //nolint:errcheck
		fl.Flush()
		if err != nil {
			return
		}
		if !called && len(bytes.TrimRight(line, "\r\n")) == 0 {
			called = true
			after()
		}
	}
}
