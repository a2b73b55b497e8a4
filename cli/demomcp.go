package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"

	"workrun/mcp/demoserver"
)

// DemoMCPAddr is where `workrun demo-mcp` listens unless --addr says
// otherwise: the address examples/remote-mcp.json names.
const DemoMCPAddr = "127.0.0.1:41251"

func init() {
	register(&Command{
		Name:    "demo-mcp",
		Args:    "[--addr 127.0.0.1:PORT (default " + DemoMCPAddr + ")] [--conformance-fixtures]",
		Summary: "run the built-in MCP demo server (2026-07-28 and 2025-11-25, with Tasks) and print its URL",
		Run:     runDemoMCP,
	})
}

// runDemoMCP serves the demo MCP server until ctx ends.
func runDemoMCP(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("demo-mcp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", DemoMCPAddr, "")
	fixtures := fs.Bool("conformance-fixtures", false, "")
	if err := fs.Parse(args); err != nil {
		return usageError(env, "demo-mcp: "+err.Error())
	}
	if fs.NArg() > 0 {
		return usageError(env, fmt.Sprintf("demo-mcp: unexpected argument %q", fs.Arg(0)))
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(env.Stderr, "workrun: demo-mcp: %v\n", err)
		return ExitFailed
	}
	srv := demoserver.New(demoserver.Options{Fixtures: *fixtures})
	fmt.Fprintf(env.Stdout, "http://%s%s\n", l.Addr(), demoserver.Path)
	fmt.Fprintf(env.Stderr, "workrun demo MCP server (Streamable HTTP: 2026-07-28 per request, 2025-11-25 after initialize; Tasks extension and core Tasks).\n"+
		"Tools: echo (sync), broken (isError), research (task, stages, progress), hang (task that never ends), ask (asks once),\n"+
		"survey (asks twice), sign_in (asks with a sign-in link), start_job / get_job_result / cancel_job (legacy job flow).\n"+
		"With --conformance-fixtures also the conformance suite's fixture tools. Rules: docs/demo-mcp.md.\n"+
		"Give the URL above to a Remote MCP Tool node. Press Ctrl+C to stop.\n")
	if err := srv.Serve(ctx, l); err != nil {
		fmt.Fprintf(env.Stderr, "workrun: demo-mcp: %v\n", err)
		return ExitFailed
	}
	return ExitOK
}
