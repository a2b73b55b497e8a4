package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"workrun/a2a/demoagent"
)

// DemoAgentAddr is where `workrun demo-agent` listens unless --addr says
// otherwise: the address examples/remote-agent.json and the window's Remote
// Agent sample name, so the example runs against the command out of the box.
const DemoAgentAddr = "127.0.0.1:41241"

func init() {
	register(&Command{
		Name:    "demo-agent",
		Args:    "[--addr 127.0.0.1:PORT (default " + DemoAgentAddr + ")] [--bearer-env VAR] [--api-key-env VAR [--api-key-header NAME]] [--no-streaming]",
		Summary: "run the built-in A2A 1.0 demo agent and print its URL",
		Run:     runDemoAgent,
	})
}

// runDemoAgent serves the demo agent until ctx ends. Secrets come from
// environment variables named on the command line, never from the arguments
// themselves (they would show in the process list).
func runDemoAgent(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("demo-agent", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", DemoAgentAddr, "")
	bearerEnv := fs.String("bearer-env", "", "")
	apiKeyEnv := fs.String("api-key-env", "", "")
	apiKeyHeader := fs.String("api-key-header", demoagent.DefaultAPIKeyHeader, "")
	noStreaming := fs.Bool("no-streaming", false, "")
	if err := fs.Parse(args); err != nil {
		return usageError(env, "demo-agent: "+err.Error())
	}
	if fs.NArg() > 0 {
		return usageError(env, fmt.Sprintf("demo-agent: unexpected argument %q", fs.Arg(0)))
	}
	opts := demoagent.Options{DisableStreaming: *noStreaming, APIKeyHeader: *apiKeyHeader}
	for _, s := range []struct {
		flag, name string
		dst        *string
	}{{"--bearer-env", *bearerEnv, &opts.BearerToken}, {"--api-key-env", *apiKeyEnv, &opts.APIKey}} {
		if s.name == "" {
			continue
		}
		if *s.dst = env.Getenv(s.name); *s.dst == "" {
			return usageError(env, fmt.Sprintf("demo-agent: %s %s: the variable is empty or unset", s.flag, s.name))
		}
	}

	agent := demoagent.New(opts)
	url, stop, err := agent.Start(*addr)
	if err != nil {
		fmt.Fprintf(env.Stderr, "workrun: %v\n", err)
		return ExitFailed
	}
	defer stop()
	fmt.Fprintln(env.Stdout, url)
	auth := "no authentication"
	switch {
	case opts.BearerToken != "" && opts.APIKey != "":
		auth = "bearer token or API key in " + opts.APIKeyHeader
	case opts.BearerToken != "":
		auth = "bearer token"
	case opts.APIKey != "":
		auth = "API key in " + opts.APIKeyHeader
	}
	fmt.Fprintf(env.Stderr, "workrun demo agent (A2A 1.0 JSON-RPC on %s), %s, streaming %v.\n"+
		"Give the URL above to a Remote Agent node. First word of the message: %s.\n"+
		"Press Ctrl+C to stop.\n",
		demoagent.SDKVersion, auth, !opts.DisableStreaming, "echo, slow N, file, hang, uncancelable, unfinished, fail, input, auth, reject, message")
	<-ctx.Done()
	return ExitOK
}
