package desktop

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"workrun/mcp/demoserver"
	"workrun/ui"
)

// TestGUICheckMCPDemoServer: the window's MCP connection test, as main.go
// wires it, lists the demo server's tools with their task support and
// input schemas; a credential that is not saved is a clear error.
func TestGUICheckMCPDemoServer(t *testing.T) {
	d := demoserver.New(demoserver.Options{})
	srv := httptest.NewServer(d.Mux())
	t.Cleanup(func() { srv.Close(); d.Close() })
	p, err := openParts(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Store.Close() })
	check := guiDeps(p).CheckMCP
	if check == nil {
		t.Fatal("CheckMCP is not wired")
	}
	tools, err := check(t.Context(), srv.URL+demoserver.Path, "")
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]ui.MCPTool{}
	for _, tl := range tools {
		byName[tl.Name] = tl
	}
	// The demo's own tools (mcp/demoserver/tools.go), each listed once.
	want := []string{"echo", "broken", "research", "hang", "ask", "survey", "sign_in", "start_job", "get_job_result", "cancel_job"}
	for _, name := range want {
		if _, ok := byName[name]; !ok {
			t.Errorf("tool %q not listed: %v", name, tools)
		}
	}
	if len(tools) != len(want) {
		t.Errorf("%d tools listed, want %d: %v", len(tools), len(want), tools)
	}
	r := byName["research"]
	if r.Title != "Research (long-running)" || r.TaskSupport != "optional" || !strings.Contains(r.Description, "stages") {
		t.Errorf("research = %+v", r)
	}
	var schema struct {
		Properties map[string]struct {
			Type string `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(r.InputSchema, &schema); err != nil {
		t.Fatalf("research schema %s: %v", r.InputSchema, err)
	}
	if schema.Properties["topic"].Type != "string" || schema.Properties["stages"].Type != "integer" || len(schema.Required) != 1 || schema.Required[0] != "topic" {
		t.Errorf("research schema %s", r.InputSchema)
	}
	if byName["hang"].TaskSupport != "required" || byName["echo"].TaskSupport != "forbidden" {
		t.Errorf("task support: hang %q, echo %q", byName["hang"].TaskSupport, byName["echo"].TaskSupport)
	}
	if _, err := check(t.Context(), srv.URL+demoserver.Path, "no-such-credential"); err == nil || !strings.Contains(err.Error(), "no-such-credential") {
		t.Errorf("unsaved credential: %v", err)
	}
}
