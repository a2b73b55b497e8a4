package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

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
	in.widgets["command"].(*widget.Entry).SetText("node\nserver.js\n/tmp/dir")
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
	use, ok := in.widgets["use:ping"].(*tipButton)
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
