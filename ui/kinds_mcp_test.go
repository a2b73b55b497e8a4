package ui

import (
	"strings"
	"testing"

	"workrun/workrun"
)

// TestCheckWorkflow_RemoteMCP: the editor checks a Remote MCP Tool node's
// config against the State fields.
func TestCheckWorkflow_RemoteMCP(t *testing.T) {
	state := map[string]workrun.FieldType{"q": workrun.FieldText, "data": workrun.FieldJSON}
	check := func(c Config) string {
		wf := workrun.Workflow{State: state, Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "m", Type: "remote_mcp", Config: EncodeConfig(c)}},
			Edges: []workrun.Edge{{From: "start", To: "m"}}}
		var out []string
		for _, p := range CheckWorkflow(wf) {
			out = append(out, p.Message)
		}
		return strings.Join(out, "; ")
	}
	ok := Config{URL: "http://127.0.0.1:41251/mcp", Tool: "research", Arguments: map[string]any{"topic": "{{q}}"}, OutputJSON: "data", Task: "auto", TimeoutSeconds: 120}
	if got := check(ok); got != "" {
		t.Errorf("valid node: %s", got)
	}
	bad := Config{URL: "ftp://x", Arguments: map[string]any{"topic": "{{nope}}"}, OutputJSON: "q", Task: "sometimes", TimeoutSeconds: 700}
	got := check(bad)
	for _, want := range []string{"http://", "name the tool", "auto, always or never", "1–600", `"nope"`, `field "q" is text`} {
		if !strings.Contains(got, want) {
			t.Errorf("problems %q lack %q", got, want)
		}
	}
	if string(DefaultConfig("remote_mcp")) != `{"task":"auto","timeout_seconds":120}` {
		t.Errorf("default config = %s", DefaultConfig("remote_mcp"))
	}
}
