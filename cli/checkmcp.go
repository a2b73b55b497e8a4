package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"workrun/mcp"
	"workrun/nodes/remotemcp"
	"workrun/remotecall"
)

func init() {
	register(&Command{
		Name:    "check-mcp",
		Args:    "URL [--credential NAME] [--json]",
		Summary: "connect to an MCP server and list its tools (calls no tool)",
		Run:     checkMCPCommand.run,
	})
}

// checkMCPCommand is the Remote MCP Tool's connection test from the command
// line.
var checkMCPCommand = checkCommand[remotemcp.Report]{
	name: "check-mcp",
	check: func(ctx context.Context, url string, saved *savedCredential) (remotemcp.Report, error) {
		var cred *remotecall.Credential
		if saved != nil {
			cred = &saved.remote
		}
		return remotemcp.Check(ctx, url, cred)
	},
	printText: func(w io.Writer, rep remotemcp.Report, credName string, err error) {
		if err == nil {
			printMCPReport(w, rep, credName)
		}
	},
}

// printMCPReport writes the report; what the server supplied goes through
// termLine so that it cannot drive the terminal.
func printMCPReport(w io.Writer, r remotemcp.Report, credName string) {
	tasks := "none"
	switch r.TaskForm {
	case mcp.FormCore:
		tasks = "2025-11-25 (tasks/get, tasks/result, tasks/cancel)"
	case mcp.FormExtension:
		tasks = "io.modelcontextprotocol/tasks extension (the server decides per call)"
	}
	lifecycle := fmt.Sprintf("session: %v", r.Session)
	if mcp.IsModern(r.Version) {
		lifecycle = "stateless"
	}
	fmt.Fprintf(w, "Server:   %s\nEndpoint: %s\nProtocol: %s (%s)\n", termLine(r.Server), termLine(r.Endpoint), termLine(r.Version), lifecycle)
	if len(r.SupportedVersions) > 0 {
		fmt.Fprintf(w, "Supports: %s\n", termLine(strings.Join(r.SupportedVersions, ", ")))
	}
	fmt.Fprintf(w, "Tasks:    %s\n", tasks)
	if credName != "" {
		fmt.Fprintf(w, "Credential: %s (sent)\n", termLine(credName))
	}
	fmt.Fprintf(w, "Tools (%d):\n", len(r.Tools))
	for _, t := range r.Tools {
		desc := strings.Join(strings.Fields(t.Description), " ")
		if rs := []rune(desc); len(rs) > 100 {
			desc = string(rs[:100]) + "…"
		}
		fmt.Fprintf(w, "  %-24s task %-9s %s\n", termLine(t.Name), termLine(t.TaskSupport), termLine(desc))
	}
	fmt.Fprintln(w, "OK: connected and listed the tools; no tool was called")
}
