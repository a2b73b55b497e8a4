package mcpserve_test

import (
	"errors"
	"testing"

	"workrun/mcp"
)

// TestModernListenTaskStatus: Workrun's own MCP client listening with
// subscriptions/listen on a 2026-07-28 task gets its state at once
// (working) and its change to cancelled after tasks/cancel; a task id the
// caller has no task under is left out of the acknowledgement (docs/serve.md
// M10).
func TestModernListenTaskStatus(t *testing.T) {
	f := newServer(t, nil)
	h, body := modern("tools/call", map[string]any{"name": "slow"}, true, false)
	res := post(t, f.url, h, body).result()
	id, _ := res["taskId"].(string)
	if res["resultType"] != "task" || id == "" {
		t.Fatalf("slow call %v", res)
	}
	c, err := mcp.New(f.url, mcp.Options{ClientInfo: mcp.Implementation{Name: "listen-test", Version: "1"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Connect(t.Context()); err != nil {
		t.Fatal(err)
	}
	if !mcp.IsModern(c.Version()) {
		t.Fatalf("connected as %s", c.Version())
	}
	var statuses []string
	for tk, err := range c.WatchTask(t.Context(), id) {
		if err != nil {
			t.Fatalf("watch: %v (statuses %v)", err, statuses)
		}
		statuses = append(statuses, tk.Status)
		if tk.Status == mcp.StatusWorking && len(statuses) == 1 {
			hc, bc := modern("tasks/cancel", map[string]any{"taskId": id}, true, false)
			if got := post(t, f.url, hc, bc).result(); got["resultType"] != "complete" {
				t.Fatalf("cancel %v", got)
			}
		}
		if tk.Status == mcp.StatusCancelled {
			break
		}
	}
	if len(statuses) != 2 || statuses[0] != mcp.StatusWorking || statuses[1] != mcp.StatusCancelled {
		t.Fatalf("statuses %v, want [working cancelled]", statuses)
	}
	for _, err := range c.WatchTask(t.Context(), "no-such-task") {
		if !errors.Is(err, mcp.ErrNotSubscribed) {
			t.Fatalf("unknown task: %v, want ErrNotSubscribed", err)
		}
		break
	}
}
