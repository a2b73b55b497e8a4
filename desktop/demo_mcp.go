package desktop

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"

	"workrun/cli"
	"workrun/mcp/demoserver"
)

// startDemoMCP serves the built-in demo MCP server on its own address
// (the one examples/remote-mcp.json and a saved sample name) or, when
// another program holds it, on any free loopback port. stop ends it.
func startDemoMCP() (string, func(), error) {
	l, err := net.Listen("tcp", cli.DemoMCPAddr)
	if err != nil {
		if l, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			return "", nil, fmt.Errorf("demo MCP server: %w", err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	srv := demoserver.New(demoserver.Options{})
	go func() {
		defer close(done)
		if err := srv.Serve(ctx, l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(os.Stderr, "demo MCP server: %v\n", err)
		}
	}()
	stop := func() { cancel(); <-done }
	return "http://" + l.Addr().String() + demoserver.Path, stop, nil
}
