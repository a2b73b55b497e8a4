package mcp_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/mcp"
)

func connectModern(t *testing.T, url string, opts mcp.Options) *mcp.Client {
	t.Helper()
	c, err := mcp.New(url, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Connect(t.Context()); err != nil {
		t.Fatal(err)
	}
	return c
}

func metaOf(t *testing.T, params json.RawMessage) map[string]any {
	t.Helper()
	var p struct {
		Meta map[string]any `json:"_meta"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		t.Fatal(err)
	}
	return p.Meta
}

func declaresTasks(meta map[string]any) bool {
	caps, _ := meta[mcp.MetaClientCapabilities].(map[string]any)
	ext, _ := caps["extensions"].(map[string]any)
	return ext[mcp.TasksExtension] != nil
}

// A 2026-07-28 conversation: no initialize, no session, no DELETE; the
// version header, Mcp-Method and the _meta keys on every request; Mcp-Name
// on tools/call and tasks/*; the Tasks extension declared on the call's
// requests.
func TestModernLifecycle(t *testing.T) {
	answer := map[string]any{}
	f := &fakeServer{Modern: true, Handle: func(w http.ResponseWriter, _ *http.Request, method string, id, _ json.RawMessage) bool {
		if a, ok := answer[method]; ok {
			jsonAnswer(w, id, a)
			return true
		}
		return false
	}}
	url := f.start(t)
	c := connectModern(t, url, mcp.Options{ClientInfo: mcp.Implementation{Name: "wr", Version: "9"}})
	init := c.InitializeResult()
	if c.Version() != mcp.Version20260728 || c.Session() != "" || init.ServerInfo.Name != "modern" || init.Capabilities.TaskForm() != mcp.FormExtension {
		t.Fatalf("version %q session %q server %+v", c.Version(), c.Session(), init)
	}
	if _, err := c.ListTools(t.Context()); err != nil {
		t.Fatal(err)
	}
	answer["tools/call"] = map[string]any{"resultType": "task", "taskId": "tk-1", "status": "working", "ttlMs": 60000, "pollIntervalMs": 90000}
	res, err := c.CallTool(t.Context(), mcp.CallParams{Name: "long tool", Task: mcp.FormExtension, IdempotencyKey: "key-1", ProgressToken: "p-1"})
	if err != nil || res.Task == nil || res.Task.PollMillis() != 90000 {
		t.Fatalf("call = %+v, %v", res, err)
	}
	answer["tasks/get"] = map[string]any{"resultType": "complete", "taskId": "tk-1", "status": "working"}
	if _, err := c.GetTask(t.Context(), "tk-1"); err != nil {
		t.Fatal(err)
	}
	answer["tasks/cancel"] = map[string]any{"resultType": "complete"}
	ct, err := c.CancelTask(t.Context(), "tk-1")
	if err != nil || ct != nil {
		t.Fatalf("empty ack = %+v, %v (want nil, nil)", ct, err)
	}
	if err := c.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	var methods []string
	for _, r := range f.requests() {
		methods = append(methods, r.Method)
		if r.Header.Get("MCP-Protocol-Version") != mcp.Version20260728 || r.Header.Get("Mcp-Method") != r.Method || r.Header.Get("Mcp-Session-Id") != "" {
			t.Errorf("%s headers: %v", r.Method, r.Header)
		}
		m := metaOf(t, r.Params)
		info, _ := m[mcp.MetaClientInfo].(map[string]any)
		if m[mcp.MetaProtocolVersion] != mcp.Version20260728 || m[mcp.MetaClientCapabilities] == nil || info["name"] != "wr" {
			t.Errorf("%s _meta: %v", r.Method, m)
		}
		wantTasks := strings.HasPrefix(r.Method, "tasks/") || r.Method == "tools/call"
		if declaresTasks(m) != wantTasks {
			t.Errorf("%s declares tasks: %v", r.Method, m)
		}
		switch r.Method {
		case "tools/call":
			if r.Header.Get("Mcp-Name") != "long tool" || r.Header.Get("Idempotency-Key") != "key-1" || m["progressToken"] != "p-1" || m[mcp.MetaIdempotencyKey] != "key-1" {
				t.Errorf("tools/call: %v %s", r.Header, r.Params)
			}
		case "tasks/get", "tasks/cancel":
			if r.Header.Get("Mcp-Name") != "tk-1" {
				t.Errorf("%s Mcp-Name = %q", r.Method, r.Header.Get("Mcp-Name"))
			}
		}
	}
	if diff := cmp.Diff([]string{"server/discover", "tools/list", "tools/call", "tasks/get", "tasks/cancel"}, methods); diff != "" {
		t.Errorf("methods (-want +got):\n%s", diff)
	}
}

// -32022 with a common modern version: retried once with it. -32022 with
// only legacy versions, or a legacy 400: initialize offering a legacy
// version, never 2026-07-28.
func TestVersionChoice(t *testing.T) {
	for _, tc := range []struct {
		name        string
		refuse      func(w http.ResponseWriter, id json.RawMessage)
		wantVersion string
		wantOffer   string
		wantErr     error
	}{
		{"retry with supported", func(w http.ResponseWriter, id json.RawMessage) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2026-07-28"}}}`, id)
		}, mcp.Version20260728, "", nil},
		{"only legacy supported", func(w http.ResponseWriter, id json.RawMessage) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32022,"message":"Unsupported","data":{"supported":["2025-06-18"]}}}`, id)
		}, mcp.Version20250618, mcp.Version20250618, nil},
		{"legacy 400 without body", func(w http.ResponseWriter, _ json.RawMessage) { w.WriteHeader(400) }, mcp.Version20251125, mcp.Version20251125, nil},
		{"legacy session error", func(w http.ResponseWriter, _ json.RawMessage) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Server not initialized"}}`) //nolint:errcheck // test server
		}, mcp.Version20251125, mcp.Version20251125, nil},
		{"header mismatch is modern", func(w http.ResponseWriter, id json.RawMessage) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32020,"message":"Mcp-Name header missing"}}`, id)
		}, "", "", mcp.ErrHeaderMismatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			refusals := 0
			f := &fakeServer{Version: tc.wantOffer, Handle: func(w http.ResponseWriter, _ *http.Request, method string, id, _ json.RawMessage) bool {
				if method == "initialize" || method == "notifications/initialized" {
					return false
				}
				if refusals < 1 || tc.wantOffer != "" {
					refusals++
					tc.refuse(w, id)
					return true
				}
				jsonAnswer(w, id, map[string]any{"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "supportedVersions": []string{"2026-07-28"}, "capabilities": map[string]any{}, "serverInfo": map[string]any{"name": "s", "version": "1"}})
				return true
			}}
			if tc.wantOffer != "" {
				f.Handle = func(w http.ResponseWriter, _ *http.Request, method string, id, _ json.RawMessage) bool {
					if method == "server/discover" {
						tc.refuse(w, id)
						return true
					}
					return false
				}
			}
			c, _ := mcp.New(f.start(t), mcp.Options{})
			_, err := c.Connect(t.Context())
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), "Mcp-Name") {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil || c.Version() != tc.wantVersion {
				t.Fatalf("version %q, err %v", c.Version(), err)
			}
			for _, r := range f.requests() {
				if r.Method != "initialize" {
					continue
				}
				var p struct {
					ProtocolVersion string `json:"protocolVersion"`
				}
				json.Unmarshal(r.Params, &p) //nolint:errcheck // checked below
				if p.ProtocolVersion != tc.wantOffer {
					t.Errorf("initialize offered %q, want %q", p.ProtocolVersion, tc.wantOffer)
				}
			}
		})
	}
}

// The 2026-07-28 error codes become sentinels whose text says what is
// wrong; task-not-found is -32602 to a tasks/* request whatever its text;
// 404 with -32601 is method not found, not a lost session.
func TestModernErrors(t *testing.T) {
	var body string
	status := 400
	f := &fakeServer{Modern: true, Handle: func(w http.ResponseWriter, _ *http.Request, method string, id, _ json.RawMessage) bool {
		if method == "server/discover" {
			return false
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, strings.ReplaceAll(body, "ID", string(id))) //nolint:errcheck // test server
		return true
	}}
	c := connectModern(t, f.start(t), mcp.Options{})
	for _, tc := range []struct {
		status int
		body   string
		want   error
		text   string
	}{
		{400, `{"jsonrpc":"2.0","id":ID,"error":{"code":-32020,"message":"Mcp-Param-Region does not match"}}`, mcp.ErrHeaderMismatch, "Mcp-Param-Region does not match"},
		{400, `{"jsonrpc":"2.0","id":ID,"error":{"code":-32021,"message":"Missing","data":{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}`, mcp.ErrMissingCapability, "the extension io.modelcontextprotocol/tasks"},
		{400, `{"jsonrpc":"2.0","id":ID,"error":{"code":-32022,"message":"x","data":{"supported":["2024-01-01"],"requested":"2026-07-28"}}}`, mcp.ErrUnsupportedVersion, "does not support 2026-07-28; it supports 2024-01-01"},
		{200, `{"jsonrpc":"2.0","id":ID,"error":{"code":-32602,"message":"whatever the text"}}`, mcp.ErrTaskNotFound, "whatever the text"},
		{404, `{"jsonrpc":"2.0","id":ID,"error":{"code":-32601,"message":"Method not found"}}`, mcp.ErrMethodNotFound, "method not found"},
	} {
		status, body = tc.status, tc.body
		_, err := c.GetTask(t.Context(), "tk")
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("HTTP %d %s: %v, want %v with %q", tc.status, tc.body, err, tc.want, tc.text)
		}
		if errors.Is(err, mcp.ErrSessionNotFound) {
			t.Errorf("HTTP %d: reads as a lost session: %v", tc.status, err)
		}
	}
	if _, err := c.GetTask(t.Context(), strings.Repeat("x", 1<<20)); !errors.Is(err, mcp.ErrTaskIDTooLong) || len(err.Error()) > 300 {
		t.Errorf("1 MB task id: %.300v", err)
	}
}

// x-mcp-header: tools with invalid annotations are left out of the list;
// the others' arguments are mirrored into Mcp-Param-* headers, encoded.
func TestCustomHeaders(t *testing.T) {
	tools := `[{"name":"ok","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"n":{"type":"integer","x-mcp-header":"N"},"b":{"type":"boolean","x-mcp-header":"B"},"nested":{"type":"object","properties":{"deep":{"type":"string","x-mcp-header":"Deep"}}},"f":{"type":"number"}}}},
	{"name":"bad-number","inputSchema":{"type":"object","properties":{"f":{"type":"number","x-mcp-header":"F"}}}},
	{"name":"bad-dup","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"X"},"b":{"type":"string","x-mcp-header":"x"}}}},
	{"name":"bad-space","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"My Region"}}}},
	{"name":"bad-items","inputSchema":{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","x-mcp-header":"A"}}}}},
	{"name":"bad-empty","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":""}}}}]`
	f := &fakeServer{Modern: true, Handle: func(w http.ResponseWriter, _ *http.Request, method string, id, _ json.RawMessage) bool {
		if method == "tools/list" {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":%s}}`, id, tools)
			return true
		}
		return false
	}}
	var warnings []string
	c := connectModern(t, f.start(t), mcp.Options{Warn: func(s string) { warnings = append(warnings, s) }})
	list, err := c.ListTools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Name != "ok" || len(warnings) != 5 {
		t.Fatalf("tools %+v, warnings %q", list, warnings)
	}
	if _, err := c.CallTool(t.Context(), mcp.CallParams{Name: "ok", Arguments: json.RawMessage(`{"region":"Hello, 世界","n":42,"b":false,"nested":{"deep":" padded "},"f":3.5}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CallTool(t.Context(), mcp.CallParams{Name: "ok", Arguments: json.RawMessage(`{"region":null,"n":7}`)}); err != nil {
		t.Fatal(err)
	}
	var calls []http.Header
	for _, r := range f.requests() {
		if r.Method == "tools/call" {
			calls = append(calls, r.Header)
		}
	}
	want := map[string]string{"Mcp-Param-Region": "=?base64?SGVsbG8sIOS4lueVjA==?=", "Mcp-Param-N": "42", "Mcp-Param-B": "false", "Mcp-Param-Deep": "=?base64?IHBhZGRlZCA=?=", "Mcp-Param-F": ""}
	for k, v := range want {
		if got := calls[0].Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if calls[1].Get("Mcp-Param-Region") != "" || calls[1].Get("Mcp-Param-N") != "7" {
		t.Errorf("null and absent values: %v", calls[1])
	}
}

// A legacy reply stream that breaks is resumed with GET and Last-Event-ID
// after the server's retry time, and the answer read there.
func TestLegacyStreamResumes(t *testing.T) {
	var mu sync.Mutex
	var cutAt time.Time
	var gets []http.Header
	var getAt time.Time
	pending := ""
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.Method == http.MethodGet {
			gets = append(gets, r.Header.Clone())
			getAt = time.Now()
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "id: e2\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"resumed\"}]}}\n\n", pending)
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.NewDecoder(r.Body).Decode(&m) //nolint:errcheck // the client sends JSON
		switch m.Method {
		case "initialize":
			w.Header().Set("Mcp-Session-Id", "s-9")
			jsonAnswer(w, m.ID, map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "serverInfo": map[string]any{"name": "l", "version": "1"}})
		case "notifications/initialized":
			w.WriteHeader(202)
		case "tools/call":
			pending = string(m.ID)
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "id: e1\nretry: 300\ndata: \n\n") //nolint:errcheck // test server
			cutAt = time.Now()
		}
	})
	ts := httptest.NewServer(mux)
	defer ts.Close()
	c, _ := mcp.New(ts.URL+"/mcp", mcp.Options{Version: mcp.Version20251125})
	if _, err := c.Connect(t.Context()); err != nil {
		t.Fatal(err)
	}
	res, err := c.CallTool(t.Context(), mcp.CallParams{Name: "t"})
	if err != nil || res.Result.Text() != "resumed" {
		t.Fatalf("call = %+v, %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(gets) != 1 || gets[0].Get("Last-Event-ID") != "e1" || gets[0].Get("Mcp-Session-Id") != "s-9" {
		t.Fatalf("GETs: %v", gets)
	}
	if waited := getAt.Sub(cutAt); waited < 250*time.Millisecond {
		t.Errorf("reconnected after %v, before the server's retry of 300ms", waited)
	}
}

// subscriptions/listen: the acknowledged task's notifications are yielded;
// one left out of the acknowledgement is ErrNotSubscribed.
func TestWatchTask(t *testing.T) {
	ackIDs := `["tk-1"]`
	f := &fakeServer{Modern: true, Handle: func(w http.ResponseWriter, _ *http.Request, method string, id, params json.RawMessage) bool {
		if method != "subscriptions/listen" {
			return false
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":{\"notifications\":{\"taskIds\":%s}}}\n\n", ackIDs)
		io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tasks\",\"params\":{\"taskId\":\"other\",\"status\":\"completed\"}}\n\n")                                                                 //nolint:errcheck // test server
		io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tasks\",\"params\":{\"taskId\":\"tk-1\",\"status\":\"completed\",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}}\n\n") //nolint:errcheck // test server
		return true
	}}
	c := connectModern(t, f.start(t), mcp.Options{})
	var got []*mcp.Task
	for tk, err := range c.WatchTask(t.Context(), "tk-1") {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, tk)
		break
	}
	if len(got) != 1 || got[0].Status != mcp.StatusCompleted || got[0].Result.Text() != "done" {
		t.Fatalf("got %+v", got)
	}
	r := f.requests()[len(f.requests())-1]
	if !declaresTasks(metaOf(t, r.Params)) || !strings.Contains(string(r.Params), `"taskIds":["tk-1"]`) {
		t.Errorf("listen params: %s", r.Params)
	}
	ackIDs = `[]`
	for _, err := range c.WatchTask(t.Context(), "tk-1") {
		if !errors.Is(err, mcp.ErrNotSubscribed) {
			t.Errorf("left out of the ack: %v", err)
		}
		break
	}
}
