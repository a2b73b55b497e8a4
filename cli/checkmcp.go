package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"workrun/credentials"
	"workrun/mcp"
	"workrun/nodes/remotemcp"
)

func init() {
	register(&Command{
		Name:    "check-mcp",
		Args:    "URL [--credential NAME] [--json]",
		Summary: "connect to an MCP server and list its tools (calls no tool)",
		Run:     runCheckMCP,
	})
}

// runCheckMCP is the Remote MCP Tool's connection test from the command line.
func runCheckMCP(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("check-mcp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	credName := fs.String("credential", "", "")
	asJSON := fs.Bool("json", false, "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(env, "check-mcp: "+err.Error())
	}
	if len(pos) != 1 {
		return usageError(env, "check-mcp needs exactly one URL")
	}
	url := pos[0]
	var cred *mcp.Credential
	if *credName != "" {
		mgr, closeFn, ok := openCredentials(ctx, env)
		if !ok {
			return ExitFailed
		}
		c, secret, err := mgr.Resolve(ctx, *credName, url)
		closeFn()
		if err != nil {
			fmt.Fprintf(env.Stderr, "workrun: check-mcp: %v\n", err)
			return ExitFailed
		}
		mc := credentials.ForMCP(c, secret)
		cred = &mc
	}
	rep, err := remotemcp.Check(ctx, url, cred)
	if *asJSON {
		out := struct {
			remotemcp.Report
			OK    bool   `json:"ok"`
			Error string `json:"error,omitempty"`
		}{Report: rep, OK: err == nil}
		if err != nil {
			out.Error = err.Error()
		}
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		if eerr := enc.Encode(out); eerr != nil {
			fmt.Fprintf(env.Stderr, "workrun: check-mcp: %v\n", eerr)
			return ExitFailed
		}
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "workrun: check-mcp: %v\n", err)
		return ExitFailed
	}
	if !*asJSON {
		printMCPReport(env.Stdout, rep, *credName)
	}
	return ExitOK
}

func printMCPReport(w io.Writer, r remotemcp.Report, credName string) {
	tasks := "none"
	switch r.TaskForm {
	case mcp.FormCore:
		tasks = "2025-11-25 (tasks/get, tasks/result, tasks/cancel)"
	case mcp.FormExtension:
		tasks = "io.modelcontextprotocol/tasks extension"
	}
	fmt.Fprintf(w, "Server:   %s\nEndpoint: %s\nProtocol: %s (session: %v)\nTasks:    %s\n", r.Server, r.Endpoint, r.Version, r.Session, tasks)
	if credName != "" {
		fmt.Fprintf(w, "Credential: %s (sent)\n", credName)
	}
	fmt.Fprintf(w, "Tools (%d):\n", len(r.Tools))
	for _, t := range r.Tools {
		desc := strings.Join(strings.Fields(t.Description), " ")
		if rs := []rune(desc); len(rs) > 100 {
			desc = string(rs[:100]) + "…"
		}
		fmt.Fprintf(w, "  %-24s task %-9s %s\n", t.Name, t.TaskSupport, desc)
	}
	fmt.Fprintln(w, "OK: initialized and listed the tools; no tool was called")
}
