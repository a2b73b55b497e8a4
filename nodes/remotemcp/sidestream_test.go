package remotemcp_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"workrun/remotecall"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// TestSideStreamNeverGates (docs/remote-mcp.md M15 "Side streams"): behind a
// reverse proxy that holds GET response headers, the legacy GET stream of
// server-everything 2026.8.31 (2025-11-25, core Tasks) never opens. The
// call does not wait for it: tools/call reaches the server, the task
// completes; and with a failing parallel branch the task is cancelled with
// exactly one tasks/cancel.
func TestSideStreamNeverGates(t *testing.T) {
	target := startEverything(t)

	// The proxy really holds a GET: an idle stream's headers do not come.
	t.Run("proxy holds GET headers", func(t *testing.T) {
		m := methodCounter{holdGET: true}
		url := m.proxy(t, target)
		ctx, cancel := context.WithTimeout(t.Context(), 1500*time.Millisecond)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		req.Header.Set("Accept", "text/event-stream")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				t.Fatalf("GET answered %d before any body bytes: the proxy does not hold headers", resp.StatusCode)
			}
		}
	})

	t.Run("call completes", func(t *testing.T) {
		m := methodCounter{holdGET: true}
		url := m.proxy(t, target)
		e := newEnv(t, "")
		r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "simulate-research-query", `,"arguments":{"topic":"tides"},"output":"answer","timeout_seconds":30`)}), nil)
		msgs := e.messages(t, r.ID, "m")
		if r.Status != workrun.RunSucceeded || !strings.Contains(fmt.Sprint(r.State["answer"]), "# Research Report: tides") {
			t.Fatalf("run %s: %s %q", r.Status, r.Reason, msgs)
		}
		if m.count("GET") == 0 {
			t.Error("the node never tried the GET stream: the test proves nothing")
		}
		if n := m.count("tools/call"); n != 1 {
			t.Errorf("tools/call sent %d times", n)
		}
	})

	t.Run("failing branch cancels once", func(t *testing.T) {
		m := methodCounter{holdGET: true}
		url := m.proxy(t, target)
		e := newEnv(t, "")
		fail := workruntest.FailWhenRun(t, e.st, func(ctx context.Context, runID string) bool { return taskSaved(ctx, e.st, runID, "m") })
		wf := flow(state, []workrun.NodeSpec{
			mcpNode("m", url, "simulate-research-query", `,"arguments":{"topic":"tides"},"output":"answer","timeout_seconds":30`),
			{ID: "fail", Type: "process", Config: fail},
		})
		r := e.run(t, wf, nil)
		msgs := e.messages(t, r.ID, "m")
		if r.Status != workrun.RunFailed || r.FailedNode != "fail" {
			t.Fatalf("run = %s at %q: %s; messages %q", r.Status, r.FailedNode, r.Reason, msgs)
		}
		c := e.call(t, r.ID, "m")
		if c.TaskID == "" || c.CancelOutcome != remotecall.CancelCanceled || c.RemoteState != "cancelled" {
			t.Errorf("record = %+v; messages %q", c, msgs)
		}
		if n := m.count("tasks/cancel"); n != 1 {
			t.Errorf("tasks/cancel sent %d times, want 1; messages %q", n, msgs)
		}
		if m.count("GET") == 0 {
			t.Error("the node never tried the GET stream: the test proves nothing")
		}
	})
}
