package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"workrun/mcp"
	"workrun/workrun"
)

// The conformance client: what the official MCP conformance suite runs as
// "the client under test" (docs/remote-mcp.md "Conformance"). It drives the
// same mcp.Client the Remote MCP Tool node uses: connect (the revision the
// suite asks for, or the node's own choice), list the tools, call them.
func init() {
	register(&Command{
		Name:    "mcp-conformance-client",
		Args:    "[--protocol-version V] [--context JSON] [--answers JSON] [--timeout SECONDS] URL",
		Summary: "connect to an MCP server, list its tools and call each (for the MCP conformance suite)",
		Run:     runMCPConformanceClient,
		Hidden:  true,
	})
}

// conformanceContext is the part of MCP_CONFORMANCE_CONTEXT this client
// reads: the calls a scenario wants made.
type conformanceContext struct {
	ToolCalls []struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"toolCalls"`
}

func runMCPConformanceClient(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("mcp-conformance-client", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	version := fs.String("protocol-version", env.Getenv("MCP_CONFORMANCE_PROTOCOL_VERSION"), "")
	rawCtx := fs.String("context", env.Getenv("MCP_CONFORMANCE_CONTEXT"), "")
	timeout := fs.Int("timeout", 25, "")
	rawAnswers := fs.String("answers", "", "")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 || *timeout < 1 {
		return usageError(env, "mcp-conformance-client takes [--protocol-version V] [--context JSON] [--answers JSON] [--timeout SECONDS] URL")
	}
	// --answers pre-answers every form the server asks for, as a Remote
	// MCP Tool node's "answers" does (docs/remote-mcp.md M15): the given
	// fields, the form's defaults for the rest. Without it nothing is
	// declared and the server must not ask.
	var answers map[string]any
	if *rawAnswers != "" {
		if err := json.Unmarshal([]byte(*rawAnswers), &answers); err != nil || answers == nil {
			fmt.Fprintf(env.Stderr, "mcp-conformance-client: --answers is not a JSON object: %v\n", err)
			return ExitUsage
		}
	}
	var cc conformanceContext
	if strings.TrimSpace(*rawCtx) != "" {
		if err := json.Unmarshal([]byte(*rawCtx), &cc); err != nil {
			fmt.Fprintf(env.Stderr, "mcp-conformance-client: --context is not JSON: %v\n", err)
			return ExitUsage
		}
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(*timeout)*time.Second)
	defer cancel()
	opts := mcp.Options{
		Version:    *version,
		ClientInfo: mcp.Implementation{Name: "workrun", Version: env.Deps.Version},
		Warn:       func(s string) { fmt.Fprintf(env.Stdout, "warning: %s\n", termLine(s)) },
		OnNotification: func(n mcp.Notification) {
			fmt.Fprintf(env.Stdout, "notification %s\n", termLine(n.Method))
		},
	}
	if answers != nil {
		opts.Elicitation = mcp.ElicitationModes{Form: true}
		opts.OnRequest = func(_ context.Context, r mcp.InputRequest) (json.RawMessage, error) {
			res := preAnswer(r, answers)
			fmt.Fprintf(env.Stdout, "answered %s: %s\n", termLine(r.Method), res.Action)
			return res.JSON(), nil
		}
	}
	c, err := mcp.New(fs.Arg(0), opts)
	if err != nil {
		fmt.Fprintf(env.Stderr, "mcp-conformance-client: %v\n", err)
		return ExitUsage
	}
	srv, err := c.Connect(ctx)
	if err != nil {
		fmt.Fprintf(env.Stderr, "mcp-conformance-client: connect: %v\n", err)
		return ExitFailed
	}
	fmt.Fprintf(env.Stdout, "connected: MCP %s, server %s\n", termLine(c.Version()), termLine(srv.ServerInfo.Name))
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := c.Close(cctx); err != nil {
			fmt.Fprintf(env.Stderr, "mcp-conformance-client: %v\n", err)
		}
	}()
	if answers != nil && !mcp.IsModern(c.Version()) {
		// A legacy server may ask outside any reply, on the GET stream.
		if err := c.Listen(ctx, nil); err != nil && !errors.Is(err, mcp.ErrNoListenStream) {
			fmt.Fprintf(env.Stderr, "mcp-conformance-client: %v\n", err)
		}
	}
	tools, err := c.ListTools(ctx)
	if err != nil {
		fmt.Fprintf(env.Stderr, "mcp-conformance-client: %v\n", err)
		return ExitFailed
	}
	fmt.Fprintf(env.Stdout, "tools: %d\n", len(tools))
	type call struct {
		name string
		args json.RawMessage
	}
	var calls []call
	for _, tc := range cc.ToolCalls {
		calls = append(calls, call{tc.Name, tc.Arguments})
	}
	if len(calls) == 0 {
		for _, t := range tools {
			calls = append(calls, call{t.Name, exampleArguments(t.InputSchema)})
		}
	}
	status := ExitOK
	for _, k := range calls {
		p := mcp.CallParams{Name: k.name, Arguments: k.args}
		res, err := c.CallTool(ctx, p)
		// MRTR: answer the input requests and call again, echoing the
		// request state, for as many rounds as the server asks (bounded).
		var ask *mcp.InputRequiredError
		for round := 1; answers != nil && errors.As(err, &ask) && len(ask.StreamID) == 0 && ask.TaskID == "" && round <= 10; round++ {
			p.InputResponses = map[string]json.RawMessage{}
			for key, r := range ask.Requests {
				res := preAnswer(r, answers)
				fmt.Fprintf(env.Stdout, "call %s: round %d: answered %s: %s\n", termLine(k.name), round, termLine(key), res.Action)
				p.InputResponses[key] = res.JSON()
			}
			p.RequestState = ask.RequestState
			res, err = c.CallTool(ctx, p)
		}
		var rpc *mcp.RPCError
		switch {
		case errors.As(err, &rpc):
			// The server's refusal is an answer: the exchange was sound.
			fmt.Fprintf(env.Stdout, "call %s: error answer: %s\n", termLine(k.name), termLine(rpc.Error()))
		case err != nil:
			fmt.Fprintf(env.Stderr, "mcp-conformance-client: %v\n", err)
			status = ExitFailed
		case res.Task != nil:
			fmt.Fprintf(env.Stdout, "call %s: task %s (%s)\n", termLine(k.name), termLine(res.Task.TaskID), termLine(res.Task.Status))
		default:
			fmt.Fprintf(env.Stdout, "call %s: isError=%v %s\n", termLine(k.name), res.Result.IsError, termLine(clipRunes(res.Result.Text(), 200)))
		}
	}
	return status
}

// exampleArguments fills a tool's required properties with a plain value
// of their type ("example", 1, true, {} or []), so a tool can be called
// without knowing it.
func exampleArguments(schema json.RawMessage) json.RawMessage {
	var s struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return json.RawMessage("{}")
	}
	args := map[string]any{}
	req := append([]string(nil), s.Required...)
	sort.Strings(req)
	for _, name := range req {
		typ, _ := s.Properties[name].Type.(string)
		switch typ {
		case "integer", "number":
			args[name] = 1
		case "boolean":
			args[name] = true
		case "object":
			args[name] = map[string]any{}
		case "array":
			args[name] = []any{}
		default:
			args[name] = "example"
		}
	}
	b, _ := json.Marshal(args)
	return b
}

func clipRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// preAnswer answers one input request from the --answers values: a form
// is accepted with the values of its own fields (one set of answers serves
// every form) and the form's defaults, when that fits the engine's form
// rule (workrun.Form.Answer), else declined; anything else (URL mode,
// sampling) is declined.
func preAnswer(r mcp.InputRequest, answers map[string]any) mcp.ElicitResult {
	e, err := r.Elicitation()
	if err != nil || e.Mode != mcp.ElicitForm {
		return mcp.ElicitResult{Action: mcp.ActionDecline}
	}
	form, err := workrun.ParseForm(e.RequestedSchema)
	if err != nil {
		return mcp.ElicitResult{Action: mcp.ActionDecline}
	}
	values := map[string]any{}
	for k, v := range answers {
		if _, ok := form.Field(k); ok {
			values[k] = v
		}
	}
	content, err := form.Answer(values)
	if err != nil {
		return mcp.ElicitResult{Action: mcp.ActionDecline}
	}
	return mcp.ElicitResult{Action: mcp.ActionAccept, Content: content}
}
