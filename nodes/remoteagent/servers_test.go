package remoteagent_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"workrun/a2a/a2atest"
	"workrun/a2a/demoagent"
	"workrun/artifacts"
	"workrun/nodes/join"
	"workrun/nodes/output"
	"workrun/nodes/process"
	"workrun/nodes/remoteagent"
	"workrun/nodes/start"
	"workrun/remotecall"
	"workrun/store"
	"workrun/store/storetest"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// server is an A2A agent under test with its request counters: the Go demo
// agent (official a2a-go server) or the @a2a-js/sdk server.
type server struct {
	name string
	base string
	// stats returns the counters: methods, submissions per messageId, cancels per taskId.
	stats func(t *testing.T) serverStats
}

type serverStats struct {
	Methods     map[string]int `json:"methods"`
	Submissions map[string]int `json:"submissions"`
	Cancels     map[string]int `json:"cancels"`
}

func (s serverStats) totalCancels() int {
	n := 0
	for _, c := range s.Cancels {
		n += c
	}
	return n
}

// goServer serves the demo agent on a loopback httptest server.
func goServer(t *testing.T, opts demoagent.Options) server {
	t.Helper()
	a := demoagent.New(opts)
	ts := httptest.NewServer(a.Handler())
	t.Cleanup(func() { a.Close(); ts.Close() })
	return server{name: "go-demoagent", base: ts.URL, stats: func(*testing.T) serverStats {
		s := a.Stats()
		return serverStats{Methods: s.Methods, Submissions: s.Submissions, Cancels: s.Cancels}
	}}
}

// jsServer starts the @a2a-js/sdk server (a2atest.StartJSAgent); it returns
// false when node is missing outside CI (under CI=true that fails the test).
func jsServer(t *testing.T, args ...string) (server, bool) {
	t.Helper()
	js := a2atest.StartJSAgent(t, args...)
	if js == nil {
		return server{}, false
	}
	return server{name: "js-a2a-sdk", base: js.URL, stats: func(t *testing.T) serverStats {
		s := js.Stats(t)
		return serverStats{Methods: s.Methods, Submissions: s.Submissions, Cancels: s.Cancels}
	}}, true
}

// bothServers returns the demo agent and, when node is available, the JS
// server, configured alike.
func bothServers(t *testing.T, streaming bool) []server {
	t.Helper()
	out := []server{goServer(t, demoagent.Options{DisableStreaming: !streaming, SlowInterval: 50 * time.Millisecond})}
	args := []string{"--slow-ms", "50"}
	if !streaming {
		args = append(args, "--no-streaming")
	}
	if js, ok := jsServer(t, args...); ok {
		out = append(out, js)
	}
	return out
}

// env is a real data directory: SQLite store, artifact store and engine with
// the node kinds a Remote Agent workflow needs.
type env struct {
	lang string // the reader's language messages are rendered in
	dir  string
	st   *store.Store
	arts *artifacts.Store
	eng  *workrun.Engine
}

func newEnv(t *testing.T, dir string, lang string) *env {
	t.Helper()
	return newEnvFollow(t, dir, lang, remotecall.FollowPolicy{})
}

// newEnvFollow is newEnv whose Remote Agent follows tasks with policy
// (bounds compressed for a test).
func newEnvFollow(t *testing.T, dir string, lang string, policy remotecall.FollowPolicy) *env {
	t.Helper()
	dir, st, arts := storetest.Open(t, dir)
	workruntest.InLanguage(t, lang) // messages are rendered in the reader's language
	ra := remoteagent.New(remoteagent.Deps{Calls: st, Follow: policy})
	eng := workrun.NewEngine(st, arts, start.Kind{}, process.Kind{}, join.Kind{}, output.Kind{}, ra)
	return &env{lang: lang, dir: dir, st: st, arts: arts, eng: eng}
}

// run starts wf and waits for its end; generously, for the 20 MiB file
// test under -race on a loaded machine.
func (e *env) run(t *testing.T, wf workrun.Workflow, in workrun.Values) workrun.Run {
	t.Helper()
	return storetest.Run(t, e.eng, wf, in, 8*time.Minute)
}

// messages returns the node's message texts in order.
func (e *env) messages(t *testing.T, runID, node string) []string {
	t.Helper()
	return workruntest.NodeMessages(t, e.st, runID, node, e.lang)
}

func (e *env) call(t *testing.T, runID, node string) workrun.RemoteCall {
	t.Helper()
	return storetest.Call(t, e.st, runID, node, "send")
}

// raNode is a Remote Agent node reading prompt and writing answer.
func raNode(id, url string, extra string) workrun.NodeSpec {
	if !strings.Contains(extra, "timeout_seconds") {
		extra += `,"timeout_seconds":10`
	}
	cfg := fmt.Sprintf(`{"url":%q,"inputs":["prompt_%s"],"output":"answer_%s"%s}`, url, id, id, extra)
	return workrun.NodeSpec{ID: id, Type: remoteagent.Type, Config: json.RawMessage(cfg)}
}

// flow builds start → each node (parallel branches), with State fields
// prompt_<id>, answer_<id> per Remote Agent node.
func flow(nodes []workrun.NodeSpec, extraEdges ...workrun.Edge) workrun.Workflow {
	wf := workrun.Workflow{Name: "t", State: map[string]workrun.FieldType{},
		Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}}}
	from := map[string]bool{}
	for _, e := range extraEdges {
		from[e.To] = true
	}
	for _, n := range nodes {
		if n.Type == remoteagent.Type {
			wf.State["prompt_"+n.ID] = workrun.FieldText
			wf.State["answer_"+n.ID] = workrun.FieldText
		}
		wf.Nodes = append(wf.Nodes, n)
		if !from[n.ID] {
			wf.Edges = append(wf.Edges, workrun.Edge{From: "start", To: n.ID})
		}
	}
	wf.Edges = append(wf.Edges, extraEdges...)
	return wf
}

func contains(msgs []string, want string) bool {
	for _, m := range msgs {
		if strings.Contains(m, want) {
			return true
		}
	}
	return false
}

// proxy is a small reverse proxy in front of an agent that injects faults.
// It keeps the Host header so the card names the proxy as the interface.
type proxy struct {
	target string
	// fault, if set, handles a JSON-RPC request instead of plain forwarding;
	// body is the request body, method its JSON-RPC method.
	fault func(w http.ResponseWriter, r *http.Request, method string, body []byte, forward func() (*http.Response, error)) bool
	// card, if set, serves the Agent Card itself (base is the proxy's URL).
	card func(base string) any
}

func startProxy(t *testing.T, p *proxy) string {
	t.Helper()
	ts := httptest.NewServer(p.handler())
	t.Cleanup(ts.Close)
	return ts.URL
}

func (p *proxy) handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p.card != nil && r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(p.card("http://" + r.Host)) //nolint:errcheck
			return
		}
		body, _ := io.ReadAll(r.Body)
		forward := func() (*http.Response, error) {
			req, err := http.NewRequestWithContext(r.Context(), r.Method, p.target+r.URL.RequestURI(), bytes.NewReader(body))
			if err != nil {
				return nil, err
			}
			req.Header = r.Header.Clone()
			req.Host = r.Host
			return http.DefaultTransport.RoundTrip(req)
		}
		var peek struct {
			Method string `json:"method"`
		}
		json.Unmarshal(body, &peek) //nolint:errcheck // GET has no body
		if p.fault != nil && r.Method == http.MethodPost && p.fault(w, r, peek.Method, body, forward) {
			return
		}
		resp, err := forward()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		copyResponse(w, resp, noCut)
	})
}

// cut says where a proxied stream is broken: after that many complete SSE
// data events (after ≥ 0), or halfway through the first data event that
// contains midContaining.
type cut struct {
	after         int
	midContaining string
}

var noCut = cut{after: -1}

// copyResponse copies resp to w, flushing as it goes, and breaks the
// connection where c says.
func copyResponse(w http.ResponseWriter, resp *http.Response, c cut) {
	cutAfter := c.after
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	fl, _ := w.(http.Flusher)
	if cutAfter < 0 && c.midContaining == "" {
		io.Copy(flushWriter{w, fl}, resp.Body) //nolint:errcheck
		return
	}
	if cutAfter == 0 {
		fl.Flush()
		panic(http.ErrAbortHandler)
	}
	br := bufio.NewReader(resp.Body)
	n := 0
	var ev bytes.Buffer
	for {
		line, err := br.ReadBytes('\n')
		ev.Write(line)
		if err != nil {
			w.Write(ev.Bytes()) //nolint:errcheck
			return
		}
		if len(bytes.TrimRight(line, "\r\n")) > 0 {
			continue
		}
		isData := bytes.Contains(ev.Bytes(), []byte("data:"))
		if isData && c.midContaining != "" && bytes.Contains(ev.Bytes(), []byte(c.midContaining)) {
			w.Write(ev.Bytes()[:ev.Len()/2]) //nolint:errcheck
			fl.Flush()
			panic(http.ErrAbortHandler)
		}
		w.Write(ev.Bytes()) //nolint:errcheck
		fl.Flush()
		ev.Reset()
		if isData {
			n++
			if n == cutAfter {
				panic(http.ErrAbortHandler)
			}
		}
	}
}

type flushWriter struct {
	w  io.Writer
	fl http.Flusher
}

func (f flushWriter) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if f.fl != nil {
		f.fl.Flush()
	}
	return n, err
}

// blackhole serves the target's card but holds every JSON-RPC request until
// the client gives up: a request that went out and never got a taskId back.
func blackhole(t *testing.T, target string) string {
	t.Helper()
	var once sync.Once
	held := make(chan struct{})
	t.Cleanup(func() { once.Do(func() { close(held) }) })
	return startProxy(t, &proxy{target: target, fault: func(w http.ResponseWriter, r *http.Request, method string, _ []byte, _ func() (*http.Response, error)) bool {
		select {
		case <-r.Context().Done():
		case <-held:
		}
		return true
	}})
}
