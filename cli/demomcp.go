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
	lang, err := readerLanguage(env, "")
	if err != nil {
		return usageError(env, "demo-mcp: "+err.Error())
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(env.Stderr, texts.In(lang, msgDemoMCPFailed, err.Error()))
		return ExitFailed
	}
	srv := demoserver.New(demoserver.Options{Fixtures: *fixtures})
	fmt.Fprintf(env.Stdout, "http://%s%s\n", l.Addr(), demoserver.Path)
	fmt.Fprint(env.Stderr, texts.In(lang, msgDemoMCPBanner))
	if err := srv.Serve(ctx, l); err != nil {
		fmt.Fprintln(env.Stderr, texts.In(lang, msgDemoMCPFailed, err.Error()))
		return ExitFailed
	}
	return ExitOK
}
