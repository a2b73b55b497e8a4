package demoserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"workrun/mcp/demoserver"
)

// fuzzBearer is the client's token on every fuzzed request: no answer may
// echo it.
const fuzzBearer = "tok-5e1c0a9d7b3f4628"

// Fuzz flags (the first fuzzed argument).
const (
	fuzzInSession  = 1 << iota // initialize first, then send the request in that session (2025-11-25)
	fuzzDerive                 // set the standard headers from the body (MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*)
	fuzzLegacyOnly             // Options.LegacyOnly
)

var fuzzMethods = []string{http.MethodPost, http.MethodGet, http.MethodDelete, http.MethodPut}

// modernBody is a 2026-07-28 request with its _meta.
func modernBody(method, params string) string {
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + demoserver.Modern + `","io.modelcontextprotocol/clientCapabilities":{"extensions":{"` + demoserver.TasksExtension + `":{}}}}`
	if params == "" {
		params = "{" + meta + "}"
	} else {
		params = "{" + meta + "," + params + "}"
	}
	return `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params + `}`
}

// FuzzRequest: one request to the demo MCP server (which ships in the
// binary: `workrun demo-mcp`) — any method, body and headers, in a session
// or not. The server answers every one, and within its context: a JSON
// answer is one JSON-RPC 2.0 response, an SSE answer carries JSON events,
// a status is a real one, and the client's token is never echoed.
func FuzzRequest(f *testing.F) {
	post, derive, both := uint8(0), uint8(fuzzDerive), uint8(fuzzDerive|fuzzInSession)
	for _, s := range []struct {
		flags  uint8
		method uint8
		body   string
		header string
	}{
		{derive, 0, modernBody("server/discover", ""), ""},
		{derive, 0, modernBody("tools/list", ""), ""},
		{derive, 0, modernBody("tools/call", `"name":"echo","arguments":{"text":"hi"}`), ""},
		{derive, 0, modernBody("tools/call", `"name":"echo","arguments":{"text":"hi"}`), "Mcp-Param-Text: =?base64?aGk=?="},
		{derive, 0, modernBody("tools/call", `"name":"research","arguments":{"topic":"x"},"_meta":{"progressToken":"p"}`), "Accept: text/event-stream"},
		{derive, 0, modernBody("tools/call", `"name":"ask","arguments":{}`), "Idempotency-Key: k1"},
		{derive, 0, modernBody("tools/call", `"name":"hang","arguments":{}`), ""},
		{derive, 0, modernBody("tools/call", `"name":"survey","arguments":{},"requestState":"eyJ4IjoxfQ.bad","inputResponses":{"a":{"action":"accept"}}`), ""},
		{derive, 0, modernBody("tasks/get", `"taskId":"task-1"`), ""},
		{derive, 0, modernBody("tasks/update", `"taskId":"task-1","inputResponses":{}`), ""},
		{derive, 0, modernBody("subscriptions/listen", `"filter":{"taskIds":["task-1"]}`), "Accept: text/event-stream"},
		{post, 0, modernBody("tools/call", `"name":"echo","arguments":{"text":"hi"}`), "MCP-Protocol-Version: 1999-01-01\nMcp-Method: tools/list"},
		{both, 0, `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`, ""},
		{both, 0, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"research","arguments":{"topic":"x"},"task":{"ttl":60000}}}`, ""},
		{both, 0, `{"jsonrpc":"2.0","id":4,"method":"tasks/result","params":{"taskId":"task-1"}}`, "Accept: text/event-stream"},
		{both, 0, `{"jsonrpc":"2.0","id":5,"method":"tasks/list","params":{"cursor":"zz"}}`, ""},
		{both, 0, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`, ""},
		{both | fuzzLegacyOnly, 1, ``, "Last-Event-ID: 0/3\nAccept: text/event-stream"},
		{both, 2, ``, ""},
		{post, 0, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`, ""},
		{post, 0, `{"jsonrpc":"2.0","id":9,"result":{}}`, ""},
		{post, 0, `[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`, ""},
		{post, 0, `{"jsonrpc":"1.0","id":{"a":1},"method":7}`, ""},
		{post, 0, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[1]}`, ""},
		{post, 0, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "Mcp-Session-Id: nope"},
		{post, 0, `{"jsonrpc":"2.0","id":1,"method":"x"}`, "Origin: https://evil.example"},
		{post, 3, `x`, ""},
		{derive, 0, modernBody("tools/list", ""), "Host: evil.example:80"},
		{derive, 0, modernBody("tools/list", ""), "Host: [::1]:9\nOrigin: http://localhost:5173"},
		{derive, 0, modernBody("tools/list", ""), "Origin: null"},
	} {
		f.Add(s.flags, s.method, []byte(s.body), s.header)
	}
	f.Fuzz(func(t *testing.T, flags, method uint8, body []byte, header string) {
		d := demoserver.New(demoserver.Options{StageDuration: time.Millisecond, PollInterval: time.Millisecond,
			SSERetry: time.Millisecond, Fixtures: true, LegacyOnly: flags&fuzzLegacyOnly != 0})
		defer d.Close()
		h := d.Mux()
		session := ""
		if flags&fuzzInSession != 0 {
			init := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:9"+demoserver.Path, strings.NewReader(
				`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"tasks":{}},"clientInfo":{"name":"fuzz","version":"1"}}}`))
			init.Header.Set("Accept", "application/json, text/event-stream")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, init)
			if session = rec.Header().Get("Mcp-Session-Id"); session == "" {
				t.Fatalf("initialize: no session (%d %s)", rec.Code, rec.Body)
			}
		}
		r := httptest.NewRequest(fuzzMethods[int(method)%len(fuzzMethods)], "http://127.0.0.1:9"+demoserver.Path, bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("Authorization", "Bearer "+fuzzBearer)
		if session != "" {
			r.Header.Set("Mcp-Session-Id", session)
			r.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		if flags&fuzzDerive != 0 {
			deriveHeaders(r.Header, body)
		}
		for line := range strings.Lines(header) {
			name, value, ok := strings.Cut(strings.TrimRight(line, "\r\n"), ":")
			if !ok || name == "" || strings.ContainsAny(name, " \t:\r\n") {
				continue
			}
			if strings.EqualFold(name, "Host") {
				r.Host = strings.TrimSpace(value)
			} else {
				r.Header.Set(name, strings.TrimSpace(value))
			}
		}
		// Work the request starts (a hang, a listen) ends with the request.
		// As served on loopback (the DNS-rebinding guard applies).
		ctx := context.WithValue(context.Background(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9})
		ctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		r = r.WithContext(ctx)
		rec := httptest.NewRecorder()
		done := make(chan struct{})
		go func() {
			defer close(done)
			h.ServeHTTP(rec, r)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer 10 s after the request ended: %s %q", r.Method, body)
		}
		t.Logf("%s %.80q → %d %s: %.160q", r.Method, body, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
		checkAnswer(t, rec, r)
		if !fuzzLoopback(r.Host) || (r.Header.Get("Origin") != "" && !fuzzLoopbackURL(r.Header.Get("Origin"))) {
			if rec.Code != http.StatusForbidden {
				t.Fatalf("Host %q Origin %q (not loopback) answered %d", r.Host, r.Header.Get("Origin"), rec.Code)
			}
		}
	})
}

// fuzzLoopback: a Host header naming a loopback host (with or without a
// port) — the test's own reading of the guard's rule.
func fuzzLoopback(hostport string) bool {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	ip := net.ParseIP(h)
	return strings.EqualFold(h, "localhost") || (ip != nil && ip.IsLoopback())
}

func fuzzLoopbackURL(o string) bool {
	u, err := url.Parse(o)
	return err == nil && fuzzLoopback(u.Host)
}

// deriveHeaders sets the headers a 2026-07-28 client sends, read from the
// body, so the fuzzer reaches the methods behind the header checks.
func deriveHeaders(h http.Header, body []byte) {
	var m struct {
		Method string `json:"method"`
		Params struct {
			Name      string         `json:"name"`
			TaskID    string         `json:"taskId"`
			Arguments map[string]any `json:"arguments"`
			Meta      map[string]any `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &m) != nil {
		return
	}
	if v, ok := m.Params.Meta["io.modelcontextprotocol/protocolVersion"].(string); ok {
		h.Set("MCP-Protocol-Version", v)
	}
	h.Set("Mcp-Method", m.Method)
	if m.Params.Name != "" {
		h.Set("Mcp-Name", m.Params.Name)
	} else if m.Params.TaskID != "" {
		h.Set("Mcp-Name", m.Params.TaskID)
	}
	if s, ok := m.Params.Arguments["text"].(string); ok {
		h.Set("Mcp-Param-Text", s)
	}
}

func checkAnswer(t *testing.T, rec *httptest.ResponseRecorder, r *http.Request) {
	t.Helper()
	if rec.Code < 200 || rec.Code > 599 {
		t.Fatalf("status %d", rec.Code)
	}
	out := rec.Body.Bytes()
	if bytes.Contains(out, []byte(fuzzBearer)) {
		t.Fatalf("the answer echoes the client's token: %s", out)
	}
	ct := rec.Header().Get("Content-Type")
	switch {
	case strings.HasPrefix(ct, "application/json"):
		var msg map[string]json.RawMessage
		if err := json.Unmarshal(out, &msg); err != nil {
			t.Fatalf("%d %s: not JSON: %v: %q", rec.Code, ct, err, out)
		}
		checkResponse(t, msg, out)
	case strings.HasPrefix(ct, "text/event-stream"):
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data:")
			if !ok || strings.TrimSpace(data) == "" {
				continue
			}
			var msg map[string]json.RawMessage
			if err := json.Unmarshal([]byte(data), &msg); err != nil {
				t.Fatalf("SSE data is not JSON: %v: %q", err, data)
			}
			if _, notification := msg["method"]; !notification {
				checkResponse(t, msg, []byte(data))
			}
		}
	case rec.Code == http.StatusAccepted || rec.Code == http.StatusNoContent:
	case strings.HasPrefix(ct, "text/plain"):
		if rec.Code < 400 {
			t.Fatalf("plain-text answer %d: %q", rec.Code, out)
		}
	case r.Method == http.MethodDelete && rec.Code == http.StatusOK:
	default:
		t.Fatalf("%s: answer %d %q: %q", r.Method, rec.Code, ct, out)
	}
}

// checkResponse: one JSON-RPC 2.0 response, with a result or an error.
func checkResponse(t *testing.T, msg map[string]json.RawMessage, raw []byte) {
	t.Helper()
	_, res := msg["result"]
	e, isErr := msg["error"]
	if string(msg["jsonrpc"]) != `"2.0"` || res == isErr {
		t.Fatalf("not one JSON-RPC 2.0 response: %s", raw)
	}
	if isErr {
		var rpcErr struct {
			Code    *int   `json:"code"`
			Message string `json:"message"`
		}
		if json.Unmarshal(e, &rpcErr) != nil || rpcErr.Code == nil || rpcErr.Message == "" {
			t.Fatalf("error without code and message: %s", raw)
		}
	}
}
