package cli

import (
	"net/http"

	"workrun/serve"
	"workrun/serve/a2aserve"
	"workrun/serve/mcpserve"
)

// withMCP mounts the MCP front (serve/mcpserve, one endpoint for every
// published workflow: docs/serve.md M1) beside the A2A agents, on the same
// core, tokens and logger. It returns the handler to serve and what prints
// the `mcp URL` line.
func withMCP(core *serve.Service, opts a2aserve.Options, agents http.Handler) (http.Handler, string) {
	mo := mcpserve.Options{BaseURL: opts.BaseURL, Version: opts.Version, Logger: opts.Logger}
	if opts.Tokens != nil {
		mo.Tokens = opts.Tokens
	}
	front := mcpserve.New(core, mo)
	mux := http.NewServeMux()
	mux.Handle(mcpserve.Path, front)
	mux.Handle("/", agents)
	return mux, "mcp " + front.URL()
}
