package demoserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// fixtures are the tools the conformance suite's server scenarios name
// (Options.Fixtures; docs/demo-mcp.md lists which scenario needs which).
func fixtures() []toolSpec {
	return []toolSpec{
		{
			name: "greet", title: "Greet", description: "Conformance fixture: answers Hello, {name}! at once.",
			schema:      object(map[string]any{"name": str("Who to greet")}),
			taskSupport: "forbidden",
			run: func(_ context.Context, _ *Server, c *call) (result, error) {
				var a struct {
					Name string `json:"name"`
				}
				if err := decodeArgs(c.args, &a); err != nil {
					return result{}, err
				}
				return textResult("Hello, " + a.Name + "!"), nil
			},
		},
		{
			name: "slow_compute", title: "Slow compute", description: "Conformance fixture: sleeps `seconds` seconds, then answers; a task when Tasks are offered.",
			schema:      object(map[string]any{"seconds": map[string]any{"type": "number"}, "label": str("A label")}),
			taskSupport: "optional",
			run: func(ctx context.Context, _ *Server, c *call) (result, error) {
				var a struct {
					Seconds float64 `json:"seconds"`
					Label   string  `json:"label"`
				}
				if err := decodeArgs(c.args, &a); err != nil {
					return result{}, err
				}
				c.status("computing " + a.Label)
				if err := sleep(ctx, time.Duration(a.Seconds*float64(time.Second))); err != nil {
					return result{}, err
				}
				return textResult(fmt.Sprintf("computed %s after %gs", a.Label, a.Seconds)), nil
			},
		},
		{
			name: "failing_job", title: "Failing job", description: "Conformance fixture: a task that reports a tool error (isError) after about a second.",
			schema:      object(map[string]any{}),
			taskSupport: "required",
			run: func(ctx context.Context, _ *Server, _ *call) (result, error) {
				if err := sleep(ctx, time.Second); err != nil {
					return result{}, err
				}
				return errorResult("the job failed on purpose"), nil
			},
		},
		{
			name: "protocol_error_job", title: "Protocol error job", description: "Conformance fixture: a task that fails with a JSON-RPC error.",
			schema:      object(map[string]any{}),
			taskSupport: "required",
			run: func(context.Context, *Server, *call) (result, error) {
				return result{}, errors.New("internal failure on purpose")
			},
		},
		{
			name: "confirm_delete", title: "Confirm delete", description: "Conformance fixture: a task that asks once for confirmation, then completes.",
			schema:      object(map[string]any{"filename": str("The file")}),
			taskSupport: "required",
			run: func(ctx context.Context, _ *Server, c *call) (result, error) {
				var a struct {
					Filename string `json:"filename"`
				}
				if err := decodeArgs(c.args, &a); err != nil {
					return result{}, err
				}
				answers, err := c.ask(ctx, map[string]inputRequest{
					"confirm": elicit("Delete "+a.Filename+"?", map[string]any{"confirm": map[string]any{"type": "boolean"}}, "confirm")})
				if err != nil {
					return result{}, err
				}
				if action, content := elicitAnswer(answers["confirm"]); action == "accept" && content["confirm"] == true {
					return textResult("deleted " + a.Filename), nil
				}
				return textResult("kept " + a.Filename), nil
			},
		},
		{
			name: "multi_input", title: "Two questions at once", description: "Conformance fixture: a task that asks two questions at the same time.",
			schema:      object(map[string]any{}),
			taskSupport: "required",
			run: func(ctx context.Context, _ *Server, c *call) (result, error) {
				answers, err := c.ask(ctx, map[string]inputRequest{
					"first":  elicit("First name?", map[string]any{"name": str("A name")}),
					"second": elicit("Second name?", map[string]any{"name": str("A name")}),
				})
				if err != nil {
					return result{}, err
				}
				_, a := elicitAnswer(answers["first"])
				_, b := elicitAnswer(answers["second"])
				return textResult(fmt.Sprintf("got %v and %v", a["name"], b["name"])), nil
			},
		},
		{
			name: "test_tool_with_task", title: "Input, then a task", description: "Conformance fixture: asks for user_name the multi-round way, then runs as a task.",
			schema:      object(map[string]any{}),
			taskSupport: "required",
			gather: func(ctx context.Context, _ *Server, c *call) (json.RawMessage, error) {
				answers, err := c.ask(ctx, map[string]inputRequest{
					"user_name": elicit("What is your name?", map[string]any{"name": str("Your name")}, "name")})
				if err != nil {
					return nil, err
				}
				return answers["user_name"], nil
			},
			run: func(ctx context.Context, _ *Server, c *call) (result, error) {
				_, content := elicitAnswer(c.gathered)
				if err := sleep(ctx, 200*time.Millisecond); err != nil {
					return result{}, err
				}
				return textResult(fmt.Sprintf("Hello, %v, from a task.", content["name"])), nil
			},
		},
		{
			name: "test_reconnection", title: "Reconnection", description: "Conformance fixture (2025-11-25): closes its SSE stream after the priming event; the answer arrives on the resumed stream (GET with Last-Event-ID).",
			schema:      object(map[string]any{}),
			taskSupport: "forbidden",
			run: func(ctx context.Context, _ *Server, _ *call) (result, error) {
				if err := sleep(ctx, 300*time.Millisecond); err != nil {
					return result{}, err
				}
				return textResult("reconnection test done"), nil
			},
		},
		{
			name: "test_missing_capability", title: "Needs sampling", description: "Conformance fixture (2026-07-28): needs the client's sampling capability; -32021 without it.",
			schema: object(map[string]any{}), taskSupport: "forbidden", needs: "sampling",
			run: func(context.Context, *Server, *call) (result, error) {
				return textResult("sampling is declared"), nil
			},
		},
		{
			name: "test_streaming_elicitation", title: "Asks at once", description: "Conformance fixture (2026-07-28): asks for input with an InputRequiredResult, never with a request on the stream.",
			schema: object(map[string]any{}), taskSupport: "forbidden", needs: "elicitation",
			run: func(ctx context.Context, _ *Server, c *call) (result, error) {
				answers, err := c.ask(ctx, map[string]inputRequest{"confirm": elicit("Go on?", map[string]any{"ok": map[string]any{"type": "boolean"}})})
				if err != nil {
					return result{}, err
				}
				action, _ := elicitAnswer(answers["confirm"])
				return textResult("answered: " + action), nil
			},
		},
		{
			name: "test_logging_tool", title: "Would log", description: "Conformance fixture (2026-07-28): logs only when the request sets _meta logLevel (the demo never does).",
			schema: object(map[string]any{}), taskSupport: "forbidden",
			run: func(context.Context, *Server, *call) (result, error) {
				return textResult("nothing logged: no log level was asked for"), nil
			},
		},
	}
}
