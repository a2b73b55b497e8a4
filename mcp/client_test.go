package mcp_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/mcp"
)

// fakeServer answers each JSON-RPC method with a function; it records the
// headers and bodies it received.
type fakeServer struct {
	// Handle writes the answer to one request; nil methods get a default.
	Handle func(w http.ResponseWriter, r *http.Request, method string, id json.RawMessage, params json.RawMessage) bool
	// Version is what initialize answers (default 2025-11-25).
	Version string
	// Modern: a 2026-07-28-only server: server/discover answers, initialize
	// is refused with 400 and no body, a stray Mcp-Session-Id is minted.
	Modern bool

	mu   sync.Mutex
	reqs []seen
}

type seen struct {
	Method string
	Header http.Header
	Params json.RawMessage
	Body   []byte
}

func (f *fakeServer) requests() []seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seen(nil), f.reqs...)
}

func jsonAnswer(w http.ResponseWriter, id json.RawMessage, result any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": id, "result": result}) //nolint:errcheck // test server
}

func (f *fakeServer) start(t *testing.T) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			f.mu.Lock()
			f.reqs = append(f.reqs, seen{Method: "DELETE", Header: r.Header.Clone()})
			f.mu.Unlock()
			return
		}
		b, _ := io.ReadAll(r.Body)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		json.Unmarshal(b, &m) //nolint:errcheck // the client under test sends JSON
		f.mu.Lock()
		f.reqs = append(f.reqs, seen{Method: m.Method, Header: r.Header.Clone(), Params: m.Params, Body: b})
		f.mu.Unlock()
		if f.Handle != nil && f.Handle(w, r, m.Method, m.ID, m.Params) {
			return
		}
		if f.Modern {
			w.Header().Set("Mcp-Session-Id", "stray")
			switch m.Method {
			case "server/discover":
				jsonAnswer(w, m.ID, map[string]any{"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "supportedVersions": []string{mcp.Version20260728},
					"capabilities": map[string]any{"tools": map[string]any{}, "extensions": map[string]any{mcp.TasksExtension: map[string]any{}}},
					"serverInfo":   map[string]any{"name": "modern", "version": "2"}})
			case "initialize", "notifications/initialized":
				w.WriteHeader(http.StatusBadRequest)
			default:
				jsonAnswer(w, m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}})
			}
			return
		}
		switch m.Method {
		case "initialize":
			v := f.Version
			if v == "" {
				v = mcp.Version20251125
			}
			w.Header().Set("Mcp-Session-Id", "sess-1")
			jsonAnswer(w, m.ID, map[string]any{"protocolVersion": v, "capabilities": map[string]any{}, "serverInfo": map[string]any{"name": "fake", "version": "1"}})
		case "notifications/initialized":
			w.WriteHeader(http.StatusAccepted)
		default:
			jsonAnswer(w, m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}})
		}
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

func newClient(t *testing.T, url string, opts mcp.Options) *mcp.Client {
	t.Helper()
	c, err := mcp.New(url, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Initialize(t.Context()); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestLegacyHeadersAndNegotiation(t *testing.T) {
	f := &fakeServer{Version: mcp.Version20251125}
	url := f.start(t)
	c := newClient(t, url, mcp.Options{})
	if c.Version() != mcp.Version20251125 || c.Session() != "sess-1" {
		t.Fatalf("version %q session %q", c.Version(), c.Session())
	}
	_, err := c.CallTool(t.Context(), mcp.CallParams{Name: "t", Arguments: json.RawMessage(`{"a":1}`), IdempotencyKey: "key-7"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CallTool(t.Context(), mcp.CallParams{Name: "t", Task: mcp.FormCore, TTLMillis: 5000})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	var methods []string
	for _, r := range reqs {
		methods = append(methods, r.Method)
	}
	if diff := cmp.Diff([]string{"initialize", "notifications/initialized", "tools/call", "tools/call", "DELETE"}, methods); diff != "" {
		t.Fatalf("methods (-want +got):\n%s", diff)
	}
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	json.Unmarshal(reqs[0].Params, &init) //nolint:errcheck // checked below
	if init.ProtocolVersion != mcp.Version20251125 || reqs[0].Header.Get("Mcp-Session-Id") != "" || reqs[0].Header.Get("MCP-Protocol-Version") != "" {
		t.Errorf("initialize: %s %v", reqs[0].Params, reqs[0].Header)
	}
	for _, r := range reqs[1:] {
		if r.Header.Get("Mcp-Session-Id") != "sess-1" || r.Header.Get("MCP-Protocol-Version") != mcp.Version20251125 {
			t.Errorf("%s headers: %v", r.Method, r.Header)
		}
		if r.Method != "DELETE" && r.Header.Get("Accept") != "application/json, text/event-stream" {
			t.Errorf("%s Accept = %q", r.Method, r.Header.Get("Accept"))
		}
	}
	if got := reqs[2].Header.Get("Idempotency-Key"); got != "key-7" {
		t.Errorf("Idempotency-Key = %q", got)
	}
	var call struct {
		Arguments json.RawMessage `json:"arguments"`
		Task      map[string]any  `json:"task"`
		Meta      map[string]any  `json:"_meta"`
	}
	json.Unmarshal(reqs[2].Params, &call) //nolint:errcheck // checked below
	if string(call.Arguments) != `{"a":1}` || call.Task != nil || call.Meta[mcp.MetaIdempotencyKey] != "key-7" || call.Meta[mcp.MetaProtocolVersion] != nil {
		t.Errorf("call params = %s", reqs[2].Params)
	}
	call.Task, call.Meta = nil, nil
	json.Unmarshal(reqs[3].Params, &call) //nolint:errcheck // checked below
	if call.Task["ttl"] != 5000.0 || call.Meta != nil || reqs[3].Header.Get("Idempotency-Key") != "" {
		t.Errorf("core task params = %s", reqs[3].Params)
	}
}

func TestInitializeRefusesUnknownVersion(t *testing.T) {
	url := (&fakeServer{Version: "1999-01-01"}).start(t)
	c, _ := mcp.New(url, mcp.Options{})
	if _, err := c.Initialize(t.Context()); !errors.Is(err, mcp.ErrUnsupportedVersion) {
		t.Fatalf("err = %v", err)
	}
	if _, err := c.ListTools(t.Context()); !errors.Is(err, mcp.ErrNotInitialized) {
		t.Errorf("before a session: %v", err)
	}
}

func TestSSEReplies(t *testing.T) {
	var notes []mcp.Notification
	stream := ""
	f := &fakeServer{Handle: func(w http.ResponseWriter, _ *http.Request, method string, id json.RawMessage, _ json.RawMessage) bool {
		if method != "tools/call" && method != "tasks/result" {
			return false
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, strings.ReplaceAll(stream, "ID", string(id))) //nolint:errcheck // test server
		return true
	}}
	url := f.start(t)
	c := newClient(t, url, mcp.Options{OnNotification: func(n mcp.Notification) { notes = append(notes, n) }})
	call := func() (*mcp.CallResult, error) {
		return c.CallTool(t.Context(), mcp.CallParams{Name: "t"})
	}
	for _, tc := range []struct {
		name, stream string
		want         error
		text         string
	}{
		{"priming and notification first", "id: 0\ndata:\n\n: keep-alive\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1,\"message\":\"half\"}}\n\n" +
			"event: message\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":ID,\r\ndata: \"result\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}\r\n\r\n", nil, "done"},
		{"cut before the answer", "data:\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n", mcp.ErrStreamBroken, ""},
		{"cut inside an event", "data: {\"jsonrpc\":\"2.0\",\"id\":ID,\"result\":{\"content\":[]}}", mcp.ErrStreamBroken, ""},
		{"wrong id", "data: {\"jsonrpc\":\"2.0\",\"id\":999999,\"result\":{\"content\":[]}}\n\n", mcp.ErrProtocol, ""},
		{"not JSON-RPC 2.0", "data: {\"jsonrpc\":\"1.0\",\"id\":ID,\"result\":{}}\n\n", mcp.ErrProtocol, ""},
		{"both result and error", "data: {\"jsonrpc\":\"2.0\",\"id\":ID,\"result\":{},\"error\":{\"code\":1,\"message\":\"x\"}}\n\n", mcp.ErrProtocol, ""},
		{"garbage", "data: <html>\n\n", mcp.ErrProtocol, ""},
		{"error answer", "data: {\"jsonrpc\":\"2.0\",\"id\":ID,\"error\":{\"code\":-32602,\"message\":\"Failed to retrieve task: Task not found\"}}\n\n", mcp.ErrInvalidParams, ""},
		// Without elicitation declared the request is declined (answered
		// with an error) and the wait goes on.
		{"server request", "data: {\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"elicitation/create\",\"params\":{}}\n\n", mcp.ErrStreamBroken, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stream = tc.stream
			res, err := call()
			if tc.want != nil {
				if !errors.Is(err, tc.want) {
					t.Fatalf("err = %v, want %v", err, tc.want)
				}
				return
			}
			if err != nil || res.Result.Text() != tc.text {
				t.Fatalf("res = %+v, %v", res, err)
			}
		})
	}
	if len(notes) == 0 || notes[0].Method != "notifications/progress" {
		t.Errorf("notifications = %+v", notes)
	}
	// A status notification of the awaited task ends tasks/result.
	stream = "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tasks/status\",\"params\":{\"taskId\":\"t1\",\"status\":\"input_required\",\"statusMessage\":\"Which one?\"}}\n\n"
	if _, err := c.TaskResult(t.Context(), "t1"); !errors.Is(err, mcp.ErrInputRequired) || !strings.Contains(err.Error(), "Which one?") {
		t.Errorf("TaskResult = %v", err)
	}
}

func TestTaskAnswers(t *testing.T) {
	answer := map[string]any{}
	f := &fakeServer{Handle: func(w http.ResponseWriter, _ *http.Request, method string, id json.RawMessage, _ json.RawMessage) bool {
		if method == "initialize" || method == "notifications/initialized" {
			return false
		}
		jsonAnswer(w, id, answer[method])
		return true
	}}
	c := newClient(t, f.start(t), mcp.Options{})
	answer["tools/call"] = map[string]any{"resultType": "task", "taskId": "x1", "status": "working", "pollIntervalMs": 2500}
	res, err := c.CallTool(t.Context(), mcp.CallParams{Name: "t", Task: mcp.FormExtension})
	if err != nil || res.Form != mcp.FormExtension || res.Task.TaskID != "x1" || res.Task.PollMillis() != 2500 {
		t.Fatalf("extension answer = %+v, %v", res, err)
	}
	answer["tools/call"] = map[string]any{"task": map[string]any{"taskId": "c1", "status": "working", "pollInterval": 1000}}
	res, err = c.CallTool(t.Context(), mcp.CallParams{Name: "t", Task: mcp.FormCore})
	if err != nil || res.Form != mcp.FormCore || res.Task.TaskID != "c1" {
		t.Fatalf("core answer = %+v, %v", res, err)
	}
	answer["tools/call"] = map[string]any{"task": map[string]any{"status": "working"}}
	if _, err := c.CallTool(t.Context(), mcp.CallParams{Name: "t"}); !errors.Is(err, mcp.ErrProtocol) {
		t.Errorf("task without id: %v", err)
	}
	answer["tasks/get"] = map[string]any{"taskId": "x1", "status": "completed", "result": map[string]any{"content": []any{map[string]any{"type": "text", "text": "fine"}}}}
	got, err := c.GetTask(t.Context(), "x1")
	if err != nil || got.Result == nil || got.Result.Text() != "fine" {
		t.Fatalf("terminal extension task = %+v, %v", got, err)
	}
	if _, err := c.GetTask(t.Context(), "other"); !errors.Is(err, mcp.ErrProtocol) {
		t.Errorf("a reply naming another task: %v", err)
	}
	answer["tasks/cancel"] = map[string]any{"taskId": "x1", "status": "cancelled"}
	if ct, err := c.CancelTask(t.Context(), "x1"); err != nil || ct.Status != mcp.StatusCancelled {
		t.Errorf("cancel = %+v, %v", ct, err)
	}
}

func TestHTTPErrors(t *testing.T) {
	status := 0
	f := &fakeServer{Handle: func(w http.ResponseWriter, _ *http.Request, method string, _ json.RawMessage, _ json.RawMessage) bool {
		if method != "tools/list" {
			return false
		}
		if status == 400 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}`) //nolint:errcheck // test server
			return true
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="x"`)
		w.WriteHeader(status)
		return true
	}}
	c := newClient(t, f.start(t), mcp.Options{})
	for _, tc := range []struct {
		status int
		want   error
	}{{401, mcp.ErrUnauthorized}, {403, mcp.ErrUnauthorized}, {404, mcp.ErrSessionNotFound}, {400, mcp.ErrSessionNotFound}, {413, mcp.ErrPayloadTooLarge}, {502, mcp.ErrServer}} {
		status = tc.status
		if _, err := c.ListTools(t.Context()); !errors.Is(err, tc.want) {
			t.Errorf("HTTP %d: %v, want %v", tc.status, err, tc.want)
		}
	}
}

func TestReplyCaps(t *testing.T) {
	big := strings.Repeat("x", 4096)
	sse := false
	f := &fakeServer{Handle: func(w http.ResponseWriter, _ *http.Request, method string, id json.RawMessage, _ json.RawMessage) bool {
		if method != "tools/call" {
			return false
		}
		if sse {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, `data: {"jsonrpc":"2.0","id":`+string(id)+`,"result":{"content":[{"type":"text","text":"`+big+`"}]}}`+"\n\n") //nolint:errcheck // test server
			return true
		}
		jsonAnswer(w, id, map[string]any{"content": []any{map[string]any{"type": "text", "text": big}}})
		return true
	}}
	c := newClient(t, f.start(t), mcp.Options{MaxReplyBytes: 1024, MaxEventBytes: 1024})
	if _, err := c.CallTool(t.Context(), mcp.CallParams{Name: "t"}); !errors.Is(err, mcp.ErrReplyTooLarge) {
		t.Errorf("JSON: %v", err)
	}
	sse = true
	if _, err := c.CallTool(t.Context(), mcp.CallParams{Name: "t"}); !errors.Is(err, mcp.ErrEventTooLarge) {
		t.Errorf("SSE: %v", err)
	}
}
