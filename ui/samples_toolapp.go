package ui

import (
	"workrun/workrun"

	"workrun/ui/document"
)

// SampleToolApp is the Tool App demo (docs/tool-app.md): Workrun starts the
// MCP reference server on this machine over stdio (with npx, which fetches
// it once) and calls its echo tool. It needs no agent; the URL is unused.
func SampleToolApp(loc workrun.Localizer, _ string) workrun.Workflow {
	return workrun.Workflow{
		Name:  loc.X("sample.tool_app.name", "Tool App demo"),
		State: map[string]workrun.FieldType{"name": workrun.FieldText, "answer": workrun.FieldText},
		Nodes: []workrun.NodeSpec{
			{ID: "start", Type: "start", Title: loc.X("sample.tool_app.start", "Name"), Position: pos(40, 140)},
			{ID: "echo", Type: "tool_app", Title: loc.X("sample.tool_app.echo", "Echo with the MCP reference server (stdio)"), Position: pos(300, 140),
				Config: document.EncodeConfig(map[string]any{
					"command":   []string{"npx", "-y", "@modelcontextprotocol/server-everything@2026.8.31", "stdio"},
					"tool":      "echo",
					"arguments": map[string]any{"message": loc.X("sample.tool_app.message", "Hello, {{name}}!")},
					"output":    "answer", "timeout_seconds": workrun.RemoteTimeoutDefaultSeconds,
				})},
			{ID: "end", Type: "output", Title: loc.X("sample.tool_app.end", "Answer"), Position: pos(560, 140), Config: document.EncodeConfig(map[string]any{"fields": []string{"answer"}})},
		},
		Edges: []workrun.Edge{{From: "start", To: "echo"}, {From: "echo", To: "end"}},
	}
}
