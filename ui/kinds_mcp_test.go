package ui

import (
	"strings"
	"testing"

	"workrun/workrun"
)

// TestWindowProblems_RemoteMCP: a Remote MCP Tool node's config is checked
// against the State fields by the node kind itself, and the window shows
// what it says on the node.
func TestWindowProblems_RemoteMCP(t *testing.T) {
	state := map[string]workrun.FieldType{"q": workrun.FieldText, "data": workrun.FieldJSON}
	w := newTestWindow(t, Deps{Engine: checkingEngine()})
	check := func(c Config) string {
		w.OpenWorkflow("", workrun.Workflow{Name: "mcp", State: state,
			Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "m", Type: "remote_mcp", Config: EncodeConfig(c)}},
			Edges: []workrun.Edge{{From: "start", To: "m"}}})
		var out []string
		for _, p := range w.Problems() {
			if p.NodeID != "m" {
				t.Errorf("problem %q not on the node", p)
			}
			out = append(out, p.Message)
		}
		return strings.Join(out, "; ")
	}
	ok := Config{URL: "http://127.0.0.1:41251/mcp", Tool: "research", Arguments: map[string]any{"topic": "{{q}}"}, OutputJSON: "data", Task: "auto", TimeoutSeconds: 120}
	if got := check(ok); got != "" {
		t.Errorf("valid node: %s", got)
	}
	for _, tt := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"ftp url", func(c *Config) { c.URL = "ftp://x" }, "not an absolute http(s) URL"},
		{"no tool", func(c *Config) { c.Tool = "" }, "name the tool"},
		{"task", func(c *Config) { c.Task = "sometimes" }, "not auto, always or never"},
		{"timeout", func(c *Config) { c.TimeoutSeconds = 700 }, "from 1 to 600"},
		{"argument reads an unknown field", func(c *Config) { c.Arguments = map[string]any{"topic": "{{nope}}"} }, `no field "nope"`},
		{"structured result into text", func(c *Config) { c.OutputJSON = "q" }, `field "q" is text`},
	} {
		c := ok
		tt.edit(&c)
		if got := check(c); !strings.Contains(got, tt.want) {
			t.Errorf("%s: problems %q lack %q", tt.name, got, tt.want)
		}
	}
}
