package ui

import (
	"errors"
	"fmt"

	"workrun/ui/document"
	"workrun/workrun"
)

// DemoMCPURL is where Workrun starts its built-in demo MCP server when the
// port is free: the address `workrun demo-mcp` serves on and
// examples/remote-mcp.json names, so a saved sample keeps working after a
// restart.
const DemoMCPURL = "http://127.0.0.1:41251/mcp"

// demoMCP is the demo MCP server started from Help (empty when none).
type demoMCP struct {
	mcpURL  string
	mcpStop func()
}

// SampleMCP is the Remote MCP demo: the demo MCP server's research tool
// runs as a task (progress, a report, JSON findings and a file) on a topic.
func SampleMCP(loc workrun.Localizer, serverURL string) workrun.Workflow {
	return workrun.Workflow{
		Name: loc.X("sample.mcp.name", "Remote MCP demo"),
		State: map[string]workrun.FieldType{
			"topic": workrun.FieldText, "report": workrun.FieldText, "findings": workrun.FieldJSON, "files": workrun.FieldFiles,
		},
		Nodes: []workrun.NodeSpec{
			{ID: "start", Type: "start", Title: loc.X("sample.mcp.start", "Topic"), Position: pos(40, 140)},
			{ID: "research", Type: "remote_mcp", Title: loc.X("sample.mcp.research", "Research with the demo MCP server"), Position: pos(300, 140),
				Config: document.EncodeConfig(map[string]any{
					"url": serverURL, "tool": "research",
					"arguments": map[string]any{"topic": "{{topic}}", "stages": 3},
					"output":    "report", "output_json": "findings", "output_files": "files",
					"task": "auto", "timeout_seconds": workrun.RemoteTimeoutDefaultSeconds,
				})},
			{ID: "end", Type: "output", Title: loc.X("sample.mcp.end", "Report"), Position: pos(560, 140), Config: document.EncodeConfig(map[string]any{"fields": []string{"report", "findings", "files"}})},
		},
		Edges: []workrun.Edge{{From: "start", To: "research"}, {From: "research", To: "end"}},
	}
}

func init() {
	noteSample("sample.mcp.name", "Remote MCP demo", map[string][2]string{"topic": {"sample.mcp.topic", "solar panels on flat roofs"}})
}

// builtIn is a demo server the window starts on loopback: the demo agent
// or the demo MCP server.
type builtIn struct {
	url   *string // where it runs once started
	stop  *func()
	start func() (string, func(), error) // nil: the build has none
	// running precedes the URL in the status bar; missing is the error
	// without start; failed names the step in a start error.
	running, missing, failed string
}

// startBuiltIn starts s once and says where it runs.
func (w *Window) startBuiltIn(s builtIn) {
	if *s.url != "" {
		w.setStatus(s.running + " " + *s.url)
		return
	}
	if s.start == nil {
		w.showError(errors.New(s.missing))
		return
	}
	u, stop, err := s.start()
	if err != nil {
		w.showError(fmt.Errorf("%s: %w", s.failed, err))
		return
	}
	*s.url, *s.stop = u, stop
	w.setStatus(s.running + " " + u)
}

// startDemoMCP starts the demo MCP server once and says where it runs.
func (w *Window) startDemoMCP() {
	w.startBuiltIn(builtIn{url: &w.mcpURL, stop: &w.mcpStop, start: w.deps.StartDemoMCP,
		running: w.loc.X("help.demo_mcp_running", "Demo MCP server running at"),
		missing: w.loc.X("help.demo_mcp_missing", "this build has no demo MCP server"),
		failed:  w.loc.X("help.demo_mcp_failed", "start the demo MCP server")})
}

// openMCPSample is Help → Sample: Remote MCP demo: it starts the demo MCP
// server and opens the sample pointing at it, ready to run.
func (w *Window) openMCPSample() {
	if w.mcpURL == "" && w.deps.StartDemoMCP != nil {
		w.startDemoMCP()
	}
	u := w.mcpURL
	if u == "" {
		u = DemoMCPURL
	}
	w.openSampleAt(SampleMCP(w.loc, u), u, workrun.ProtocolMCP)
}

// usesDemoMCP reports whether a node of wf calls the demo MCP server's
// fixed address.
func usesDemoMCP(wf workrun.Workflow) bool { return callsURL(wf, workrun.ProtocolMCP, DemoMCPURL) }

// sampleHint is what the run-inputs dialog says above a sample's inputs:
// the demo agent's words for a workflow that calls it, what the demo MCP
// server does for one that calls it, nothing otherwise.
func sampleHint(loc workrun.Localizer, wf workrun.Workflow) string {
	calls := func(protocol string) bool {
		for _, n := range wf.Nodes {
			if len(keysOf(n.Type, workrun.ValueURL, protocol)) > 0 {
				return true
			}
		}
		return false
	}
	sample := SampleInputs[wf.Name] != nil
	switch {
	case usesDemo(wf) || sample && calls(workrun.ProtocolA2A):
		return DemoWords(loc)
	case usesDemoMCP(wf) || sample && calls(workrun.ProtocolMCP):
		return loc.X("help.demo_mcp_words", "The demo MCP server's research tool studies the topic in stages as a task (watch its progress in the run panel), then returns a report, findings as JSON and a CSV file.")
	}
	return ""
}
