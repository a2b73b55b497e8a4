package demoserver_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"workrun/mcp/demoserver"
)

// TestOfficialGoClient: the official Go SDK's own client connects to the
// demo server, lists its tools and calls the plain ones (the SDK serves
// them; the Tasks wrapper stays out of the way).
func TestOfficialGoClient(t *testing.T) {
	d := demoserver.New(demoserver.Options{})
	srv := httptest.NewServer(d.Mux())
	t.Cleanup(func() { d.Close(); srv.Close() })
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: srv.URL + demoserver.Path, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 10 {
		t.Errorf("%d tools", len(tools.Tools))
	}
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := res.Content[0].(*sdk.TextContent); !ok || tc.Text != "echo: hi" {
		t.Errorf("echo = %+v", res.Content)
	}
	res, err = cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "start_job", Arguments: map[string]any{"seconds": 0}})
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := res.Content[0].(*sdk.TextContent); !ok || !strings.Contains(tc.Text, `"job_id":"job-1"`) {
		t.Errorf("start_job = %+v", res.Content)
	}
	res, err = cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "broken", Arguments: map[string]any{}})
	if err != nil || !res.IsError {
		t.Errorf("broken = %+v, %v", res, err)
	}
	// A task-only tool called without a task is refused.
	if _, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "hang", Arguments: map[string]any{}}); err == nil {
		t.Error("hang without a task: no error")
	}
}
