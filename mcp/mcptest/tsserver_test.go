package mcptest_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"workrun/mcp/mcptest"
)

func post(t *testing.T, url, method string, params map[string]any, header map[string]string) (int, map[string]any) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var msg map[string]any
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		var b bytes.Buffer
		b.ReadFrom(resp.Body) //nolint:errcheck // checked by the decode
		for _, l := range strings.Split(b.String(), "\n") {
			if d, ok := strings.CutPrefix(l, "data: "); ok && json.Unmarshal([]byte(d), &msg) == nil && msg["id"] != nil {
				break
			}
		}
	} else if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return resp.StatusCode, msg
}

// modern sends a 2026-07-28 request declaring the Tasks extension.
func modern(t *testing.T, url, method, name string, params map[string]any) map[string]any {
	t.Helper()
	params["_meta"] = map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}}}
	h := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method}
	if name != "" {
		h["Mcp-Name"] = name
	}
	_, msg := post(t, url, method, params, h)
	r, ok := msg["result"].(map[string]any)
	if !ok {
		t.Fatalf("%s: %v", method, msg)
	}
	return r
}

func waitStatus(t *testing.T, url, id, want string) map[string]any {
	t.Helper()
	for range 200 {
		got := modern(t, url, "tasks/get", id, map[string]any{"taskId": id})
		if got["status"] == want {
			return got
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("task %s never reached %s", id, want)
	return nil
}

// TestTSServer: both peers answer a sync call, run a task to completion
// (result inlined in tasks/get), fail one, and cancel a hanging one with an
// empty acknowledgement — counted in /stats. The dual-era peer also answers
// initialize; the 2026-07-28-only one refuses it.
func TestTSServer(t *testing.T) {
	for _, mode := range []string{mcptest.ModernOnly, mcptest.DualEra} {
		t.Run(mode, func(t *testing.T) {
			s := mcptest.StartTSServer(t, mode, 100)
			if r := modern(t, s.URL, "tools/call", "echo", map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi"}}); r["resultType"] != "complete" || !strings.Contains(toJSON(r), "echo: hi") {
				t.Fatalf("echo = %v", r)
			}
			created := modern(t, s.URL, "tools/call", "slow", map[string]any{"name": "slow", "arguments": map[string]any{"seconds": 0.2}})
			if created["resultType"] != "task" || created["pollIntervalMs"] != float64(100) {
				t.Fatalf("slow = %v", created)
			}
			end := waitStatus(t, s.URL, created["taskId"].(string), "completed")
			if !strings.Contains(toJSON(end["result"]), "slow done") {
				t.Fatalf("completed task = %v", end)
			}
			failed := modern(t, s.URL, "tools/call", "fail", map[string]any{"name": "fail", "arguments": map[string]any{}})
			if f := waitStatus(t, s.URL, failed["taskId"].(string), "failed"); f["error"] == nil {
				t.Fatalf("failed task = %v", f)
			}
			hang := modern(t, s.URL, "tools/call", "hang", map[string]any{"name": "hang", "arguments": map[string]any{}})
			id := hang["taskId"].(string)
			ack := modern(t, s.URL, "tasks/cancel", id, map[string]any{"taskId": id})
			if ack["resultType"] != "complete" || ack["taskId"] != nil || ack["status"] != nil {
				t.Fatalf("cancel ack = %v", ack)
			}
			waitStatus(t, s.URL, id, "cancelled")
			if st := s.Stats(t); st.ToolsCall != 4 || st.TasksCancel != 1 {
				t.Errorf("stats = %+v, want 4 tools/call and 1 tasks/cancel", st)
			}
			_, init := post(t, s.URL, "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
				"clientInfo": map[string]any{"name": "t", "version": "1"}}, nil)
			_, legacy := init["result"].(map[string]any)
			if legacy != (mode == mcptest.DualEra) {
				t.Errorf("initialize on %s = %v", mode, init)
			}
		})
	}
}

func toJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

// listenOnce opens subscriptions/listen for id and returns the methods of
// the messages it got, the last notifications/tasks params, and the ack's
// filter.
func listenOnce(t *testing.T, url, id string) (methods []string, last map[string]any, ack any) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "subscriptions/listen", "params": map[string]any{
		"notifications": map[string]any{"taskIds": []string{id, "no-such-task"}},
		"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
			"io.modelcontextprotocol/clientCapabilities": map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}}}}})
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		d, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(d), &m); err != nil {
			t.Fatalf("listen: %v", err)
		}
		method, _ := m["method"].(string)
		methods = append(methods, method)
		p, _ := m["params"].(map[string]any)
		switch method {
		case "notifications/subscriptions/acknowledged":
			ack = p["notifications"]
			if _, named := p["notifications"].(map[string]any)["taskIds"]; !named {
				return // no task notifications will come
			}
		case "notifications/tasks":
			last = p
			if p["status"] == "completed" {
				return
			}
		}
	}
	t.Fatalf("listen stream ended: %v (%v)", methods, sc.Err())
	return
}

// TestTSServerListen: subscriptions/listen for a task id is acknowledged
// with the known ids only, then carries the task's state and its terminal
// notification with the result inlined; the end instant is recorded. With
// NoListen the SDK's own router acknowledges no task id.
func TestTSServerListen(t *testing.T) {
	s := mcptest.Start(t, mcptest.Options{Mode: mcptest.ModernOnly, PollMs: 60000})
	created := modern(t, s.URL, "tools/call", "slow", map[string]any{"name": "slow", "arguments": map[string]any{"seconds": 0.3}})
	id := created["taskId"].(string)
	methods, last, ack := listenOnce(t, s.URL, id)
	if toJSON(ack) != `{"taskIds":["`+id+`"]}` || methods[0] != "notifications/subscriptions/acknowledged" || !strings.Contains(toJSON(last["result"]), "slow done") {
		t.Fatalf("ack %v, methods %v, last %v", ack, methods, last)
	}
	if end := s.TaskEnd(t, id); end.IsZero() || time.Since(end) > time.Minute {
		t.Errorf("task end = %v", end)
	}
	if st := s.Stats(t); st.Listens != 1 || st.Notifications < 1 {
		t.Errorf("stats = %+v", st)
	}

	off := mcptest.Start(t, mcptest.Options{Mode: mcptest.ModernOnly, NoListen: true})
	created = modern(t, off.URL, "tools/call", "slow", map[string]any{"name": "slow", "arguments": map[string]any{"seconds": 0.1}})
	if _, _, ack := listenOnce(t, off.URL, created["taskId"].(string)); strings.Contains(toJSON(ack), "taskIds") {
		t.Errorf("the SDK's router acknowledged %v", ack)
	}
	if st := off.Stats(t); st.Listens != 0 {
		t.Errorf("stats = %+v", st)
	}
}
