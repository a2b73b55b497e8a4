package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"workrun/ui/tooltip"
	"workrun/workrun"
)

// TestInspectorToolApp_TestConnectionStartsTheProgram: a Tool App's Test
// connection sends the node's config as the form holds it (the program
// typed), lists the tools it answered, and Use chooses one.
func TestInspectorToolApp_TestConnectionStartsTheProgram(t *testing.T) {
	var got json.RawMessage
	check := func(_ context.Context, cfg json.RawMessage) ([]MCPTool, error) { got = cfg; return fakeTools, nil }
	w := newTestWindow(t, Deps{CheckToolApp: check})
	cfg, _ := json.Marshal(map[string]any{"command": []string{"npx", "-y", "server"}, "tool": "", "timeout_seconds": 120})
	w.OpenWorkflow("", workrun.Workflow{Name: "app", State: map[string]workrun.FieldType{"q": workrun.FieldText},
		Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "m", Type: "tool_app", Config: cfg}},
		Edges: []workrun.Edge{{From: "start", To: "m"}}})
	in := w.insp
	w.doc.Select("m", false)
	in.Widget("command").(*widget.Entry).SetText("node\nserver.js\n/tmp/dir")
	testMCP(t, in)
	var c struct {
		Command []string `json:"command"`
	}
	if err := json.Unmarshal(got, &c); err != nil || strings.Join(c.Command, " ") != "node server.js /tmp/dir" {
		t.Fatalf("tested config %s (%v)", got, err)
	}
	shown := strings.Join(texts(in.Object()), "")
	if !strings.Contains(shown, "✓ 3 tools") {
		t.Errorf("tool list not shown:\n%s", shown)
	}
	use, ok := in.Widget("use:ping").(*tooltip.Button)
	if !ok {
		t.Fatal("no Use button for ping")
	}
	use.OnTapped()
	n, _ := w.doc.Node("m")
	var after struct {
		Tool string `json:"tool"`
	}
	if json.Unmarshal(n.Config, &after); after.Tool != "ping" {
		t.Errorf("config after Use: %s", n.Config)
	}
}

// TestInspectorCleanupArguments (docs/tool-app.md T7, remote-mcp.md M14):
// the Tool App and the Remote MCP Tool edit cleanup_arguments in the
// inspector, as one JSON object whose templates may name the node's own
// outputs; the workflow holds the object, the label speaks Chinese too, and
// text that is not an object is refused, named, and changes nothing.
func TestInspectorCleanupArguments(t *testing.T) {
	for _, kind := range []string{"tool_app", "remote_mcp"} {
		t.Run(kind, func(t *testing.T) {
			w := newTestWindow(t, Deps{Engine: kindsEngine()})
			base := map[string]any{"tool": "write_file", "output": "answer", "cleanup_tool": "move_file", "timeout_seconds": 120}
			if kind == "tool_app" {
				base["command"] = []string{"npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"}
			} else {
				base["url"] = "http://127.0.0.1:41251/mcp"
			}
			cfg, _ := json.Marshal(base)
			w.OpenWorkflow("", workrun.Workflow{Name: "cleanup", State: map[string]workrun.FieldType{"q": workrun.FieldText, "answer": workrun.FieldText},
				Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "m", Type: kind, Config: cfg}},
				Edges: []workrun.Edge{{From: "start", To: "m"}}})
			w.doc.Select("m", false)
			e, ok := w.insp.Widget("cleanup_arguments").(*widget.Entry)
			if !ok {
				t.Fatalf("no cleanup_arguments editor in the %s inspector", kind)
			}
			e.SetText(`{"source": "{{answer}}", "destination": "{{answer}}.aside"}`)
			n, _ := w.doc.Node("m")
			var after struct {
				CleanupArguments map[string]string `json:"cleanup_arguments"`
			}
			if err := json.Unmarshal(n.Config, &after); err != nil || after.CleanupArguments["source"] != "{{answer}}" || after.CleanupArguments["destination"] != "{{answer}}.aside" {
				t.Fatalf("config after editing: %s (%v)", n.Config, err)
			}
			if p := w.Problems(); len(p) != 0 {
				t.Fatalf("problems: %v", p)
			}
			// Shown again (another node chosen and back): the object is there.
			w.doc.Select("start", false)
			w.doc.Select("m", false)
			if e := w.insp.Widget("cleanup_arguments").(*widget.Entry); !strings.Contains(e.Text, `"destination":"{{answer}}.aside"`) {
				t.Errorf("shown again: %q", e.Text)
			}
			w.insp.Widget("cleanup_arguments").(*widget.Entry).SetText("move it aside")
			if p := w.insp.Pending(); !strings.Contains(p, "write a JSON object") || !strings.Contains(p, "move it aside") {
				t.Errorf("text that is not an object: pending %q, want it refused, named", p)
			}
			if n, _ := w.doc.Node("m"); !strings.Contains(string(n.Config), `"destination":"{{answer}}.aside"`) {
				t.Errorf("the refused text replaced the object: %s", n.Config)
			}
			w.SetLanguage("zh-Hans")
			defer SetupLanguage("en")
			w.doc.Select("start", false)
			w.doc.Select("m", false)
			if shown := strings.Join(texts(w.insp.Object()), ""); !strings.Contains(shown, "清理工具的参数") {
				t.Errorf("no Chinese label for cleanup_arguments:\n%s", shown)
			}
		})
	}
}
