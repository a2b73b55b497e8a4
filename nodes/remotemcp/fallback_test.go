package remotemcp_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"workrun/workrun"
)

// taskServer is a small core-form task server for the fallbacks: tasks/result
// answers with method-not-found or with a request to the client; tasks/get
// reports the task working for the first polls, then completed.
func taskServer(t *testing.T, resultMode string) (string, func(string) int) {
	t.Helper()
	var mu sync.Mutex
	counts := map[string]int{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			return
		}
		b, _ := io.ReadAll(r.Body)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(b, &m) //nolint:errcheck // test server
		if len(m.ID) == 0 {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		mu.Lock()
		counts[m.Method]++
		gets := counts["tasks/get"]
		mu.Unlock()
		var result any
		switch m.Method {
		case "initialize":
			w.Header().Set("Mcp-Session-Id", "s")
			result = map[string]any{"protocolVersion": "2025-11-25", "serverInfo": map[string]any{"name": "f", "version": "1"},
				"capabilities": map[string]any{"tasks": map[string]any{"requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}}}
		case "tools/list":
			result = map[string]any{"tools": []any{map[string]any{"name": "t", "inputSchema": map[string]any{"type": "object"}, "execution": map[string]any{"taskSupport": "required"}}}}
		case "tools/call":
			result = map[string]any{"task": map[string]any{"taskId": "t1", "status": "working", "pollInterval": 10}}
		case "tasks/get":
			status := "working"
			if gets >= 3 && resultMode == "notfound" {
				status = "completed"
			}
			result = map[string]any{"taskId": "t1", "status": status}
		case "tasks/result":
			if resultMode == "notfound" {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"error":{"code":-32601,"message":"Method not found"}}`) //nolint:errcheck // test server
				return
			}
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"id\":\"e1\",\"method\":\"elicitation/create\",\"params\":{\"message\":\"Pick one\"}}\n\n") //nolint:errcheck // test server
			return
		case "tasks/cancel":
			result = map[string]any{"taskId": "t1", "status": "cancelled"}
		default: // server/discover: a legacy server
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"error":{"code":-32601,"message":"Method not found"}}`) //nolint:errcheck // test server
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result}) //nolint:errcheck // test server
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp", func(method string) int {
		mu.Lock()
		defer mu.Unlock()
		return counts[method]
	}
}

// TestTaskResultNotOfferedFallsBackToPolling: a server without tasks/result
// is read with tasks/get at the poll interval; the completed task's result
// then comes from tasks/result... which it does not offer, so the node
// reports that instead of looping.
func TestTaskResultNotOfferedFallsBackToPolling(t *testing.T) {
	url, count := taskServer(t, "notfound")
	e := newEnv(t, "")
	r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "t", `,"output":"answer"`)}), nil)
	if count("tasks/result") > 3 || count("tasks/get") < 3 || count("tools/call") != 1 {
		t.Errorf("tasks/result %d, tasks/get %d, tools/call %d", count("tasks/result"), count("tasks/get"), count("tools/call"))
	}
	if r.Status != workrun.RunFailed || !strings.Contains(r.Reason, "Method not found") {
		t.Errorf("run %s: %s", r.Status, r.Reason)
	}
}

// TestServerRequestWhileWaitingInterrupts: the server asks the client for
// input on the tasks/result stream while the task reads as working: the
// node waits for the person with the server's question (docs/remote-mcp.md
// M15), the tool is not called again, nothing loops.
func TestServerRequestWhileWaitingInterrupts(t *testing.T) {
	url, count := taskServer(t, "elicit")
	e := newEnv(t, "")
	r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "t", `,"output":"answer"`)}), nil)
	if q := e.question(t, r.ID, "m"); r.Status != workrun.RunInterrupted || r.Interruption != workrun.InterruptedByHuman || q == nil || q.Message != "Pick one" {
		t.Fatalf("run %s (%s): %s; question %+v", r.Status, r.Interruption, r.Reason, q)
	}
	if count("tasks/result") != 1 || count("tools/call") != 1 {
		t.Errorf("tasks/result %d, tools/call %d", count("tasks/result"), count("tools/call"))
	}
}
