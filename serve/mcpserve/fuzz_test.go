package mcpserve_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// FuzzRequest posts arbitrary bodies and header values to the endpoint:
// every answer is an HTTP status with, when it has a body, one JSON-RPC
// message or an SSE stream — never a panic, never an internal detail.
func FuzzRequest(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"hello","arguments":{"name":"x"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"x","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"action":"accept"}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":{},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1,2]}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"review","requestState":"zz","inputResponses":{"review":{"action":"accept","content":{"approved":"yes"}}},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
		``, `null`, `{`, `"x"`,
	} {
		f.Add(seed, "tools/call", "hello")
	}
	fx := newServer(f, nil)
	f.Fuzz(func(t *testing.T, body, method, name string) {
		req, err := http.NewRequest(http.MethodPost, fx.url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		if validHeader(method) {
			req.Header.Set("Mcp-Method", method)
		}
		if validHeader(name) {
			req.Header.Set("Mcp-Name", name)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode >= 500 {
			t.Fatalf("status %d for %q: %s", resp.StatusCode, body, data)
		}
		if len(bytes.TrimSpace(data)) == 0 || strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			return
		}
		var m struct {
			JSONRPC string          `json:"jsonrpc"`
			Result  json.RawMessage `json:"result"`
			Error   *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(data, &m); err != nil || m.JSONRPC != "2.0" || (m.Result == nil) == (m.Error == nil) {
			t.Fatalf("not one JSON-RPC reply for %q: %s", body, data)
		}
		if m.Error != nil && (m.Error.Code == -32603 && m.Error.Message != "internal error" && m.Error.Message != "the request ended before an answer") {
			t.Fatalf("internal detail for %q: %s", body, data)
		}
	})
}

func validHeader(s string) bool {
	for _, c := range s {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return s != ""
}
