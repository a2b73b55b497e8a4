package mcpserve_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestLegacyTaskStatusAndQuestionOnGetStream: a 2025-11-25 client that
// created a task and listens on its session's GET stream gets
// notifications/tasks/status for each status change (working,
// input_required, completed) and the task's question as elicitation/create
// with the related-task _meta there; its POSTed answer lets the run go on,
// and tasks/result then answers the result (docs/serve.md M6).
func TestLegacyTaskStatusAndQuestionOnGetStream(t *testing.T) {
	f := newServer(t, nil)
	h := legacySession(t, f.url, map[string]any{"elicitation": map[string]any{}, "tasks": map[string]any{}})
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, f.url, nil)
	req.Header.Set("Accept", "text/event-stream")
	for k, v := range h {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := make(chan map[string]any, 16)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok && strings.TrimSpace(d) != "" {
				var m map[string]any
				if json.Unmarshal([]byte(d), &m) == nil {
					events <- m
				}
			}
		}
	}()
	time.Sleep(100 * time.Millisecond) // the GET stream is open before the call
	rep := post(t, f.url, h, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{"name": "review", "arguments": map[string]any{"draft": "G"}, "task": map[string]any{}}})
	task, _ := rep.result()["task"].(map[string]any)
	if task == nil {
		t.Fatalf("no task: %v", rep.last())
	}
	id := task["taskId"].(string)
	var statuses []string
	timeout := time.After(30 * time.Second)
	for done := false; !done; {
		select {
		case m, ok := <-events:
			if !ok {
				t.Fatalf("the GET stream ended; statuses %v", statuses)
			}
			p, _ := m["params"].(map[string]any)
			switch m["method"] {
			case "notifications/tasks/status":
				if p["taskId"] != id {
					t.Fatalf("status of another task: %v", m)
				}
				statuses = append(statuses, p["status"].(string))
				done = p["status"] == "completed"
			case "elicitation/create":
				meta, _ := p["_meta"].(map[string]any)
				rel, _ := meta["io.modelcontextprotocol/related-task"].(map[string]any)
				if p["message"] != "Publish this draft?" || rel["taskId"] != id {
					t.Fatalf("elicitation %v", m)
				}
				if rep := post(t, f.url, h, map[string]any{"jsonrpc": "2.0", "id": m["id"], "result": map[string]any{"action": "accept", "content": map[string]any{"approved": true}}}); rep.status != 202 {
					t.Fatalf("answer posted: %d", rep.status)
				}
			}
		case <-timeout:
			t.Fatalf("no completed status within 30 s; statuses %v", statuses)
		}
	}
	if strings.Join(statuses, ",") != "working,input_required,working,completed" {
		t.Fatalf("statuses %v", statuses)
	}
	rep = post(t, f.url, h, map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tasks/result", "params": map[string]any{"taskId": id}})
	if text(rep.result()) != "Published: G" {
		t.Fatalf("tasks/result %v", rep.last())
	}
}
