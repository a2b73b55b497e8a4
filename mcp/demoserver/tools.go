package demoserver

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/url"
	"strings"
	"time"
)

// toolSpec is one demo tool: its listing and what it does.
type toolSpec struct {
	name, title, description string
	schema                   map[string]any
	// taskSupport says how the tool runs: "forbidden" (always at once),
	// "optional" (a task when the client declares the Tasks extension or
	// asks for a 2025-11-25 task, at once otherwise) or "required" (only
	// as a task; -32021 without the extension).
	taskSupport string
	// gather, when set, runs before the task is created, at once, asking
	// for input the 2026-07-28 multi-round way (InputRequiredResult); what
	// it returns reaches run as call.gathered.
	gather func(ctx context.Context, s *Server, c *call) (json.RawMessage, error)
	run    func(ctx context.Context, s *Server, c *call) (result, error)
	// needs names a client capability the tool cannot run without
	// (2026-07-28 answers -32021 when the request does not declare it).
	needs string
}

// call is one run of a tool: its arguments and how it reports and asks.
type call struct {
	args     json.RawMessage
	gathered json.RawMessage
	// status sets the task's status message (a no-op outside a task).
	status func(message string)
	// notify sends notifications/progress when the client gave a
	// progressToken (a no-op otherwise).
	notify func(progress, total float64, message string)
	// ask asks the client for input and returns the answers by key. In a
	// 2026-07-28 task it parks the task in input_required until tasks/update
	// answered every key; in a call answered at once it ends the call with
	// an InputRequiredResult unless the retry carried the answers.
	ask func(ctx context.Context, requests map[string]inputRequest) (map[string]json.RawMessage, error)
}

// inputRequest is one server-to-client request inside inputRequests.
type inputRequest struct {
	Method string         `json:"method"`
	Params map[string]any `json:"params"`
}

// elicit is an elicitation/create input request for a form.
func elicit(message string, properties map[string]any, required ...string) inputRequest {
	return inputRequest{Method: "elicitation/create", Params: map[string]any{
		"mode": "form", "message": message, "requestedSchema": object(properties, required...)}}
}

// elicitAnswer reads an elicitation answer: the action and the content.
func elicitAnswer(raw json.RawMessage) (action string, content map[string]any) {
	var a struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	if json.Unmarshal(raw, &a) != nil {
		return "", nil
	}
	return a.Action, a.Content
}

// result is a CallToolResult in wire form.
type result struct {
	Content           []map[string]any `json:"content"`
	StructuredContent any              `json:"structuredContent,omitempty"`
	IsError           bool             `json:"isError,omitempty"`
}

func textResult(s string) result {
	return result{Content: []map[string]any{{"type": "text", "text": s}}}
}

func errorResult(s string) result {
	r := textResult(s)
	r.IsError = true
	return r
}

func object(props map[string]any, required ...string) map[string]any {
	s := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }

// withHeader annotates a property with x-mcp-header: a 2026-07-28 client
// mirrors its value in the Mcp-Param-{name} header.
func withHeader(prop map[string]any, name string) map[string]any {
	prop["x-mcp-header"] = name
	return prop
}

func decodeArgs(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return errorf(codeInvalidParams, "Invalid params: arguments: %v", err)
	}
	return nil
}

func tools() []toolSpec {
	return []toolSpec{
		{
			name: "echo", title: "Echo", description: "Answers at once with the text it was given (a plain synchronous tool).",
			// text is mirrored in the Mcp-Param-Text header on 2026-07-28.
			schema:      object(map[string]any{"text": withHeader(str("Text to echo"), "Text")}),
			taskSupport: "forbidden",
			run: func(_ context.Context, _ *Server, c *call) (result, error) {
				var a struct {
					Text string `json:"text"`
				}
				if err := decodeArgs(c.args, &a); err != nil {
					return result{}, err
				}
				r := textResult("echo: " + a.Text)
				r.StructuredContent = map[string]any{"echo": a.Text, "length": len([]rune(a.Text))}
				return r, nil
			},
		},
		{
			name: "broken", title: "Broken solver", description: "Always reports a tool error (isError) with its own text.",
			schema:      object(map[string]any{}),
			taskSupport: "forbidden",
			run: func(context.Context, *Server, *call) (result, error) {
				return errorResult("the solver diverged at step 3"), nil
			},
		},
		{
			name: "research", title: "Research (long-running)",
			description: "Researches a topic in stages (one per second by default) and returns a report, a chart and a CSV file. Long-running: runs as a task when the client offers Tasks; reports progress when given a progressToken.",
			schema: object(map[string]any{
				"topic":  str("What to research"),
				"stages": map[string]any{"type": "integer", "minimum": 1, "maximum": 20, "description": "Number of stages (default 4)"},
			}, "topic"),
			taskSupport: "optional",
			run:         runResearch,
		},
		{
			name: "hang", title: "Hanging task", description: "A task that never ends until it is cancelled.",
			schema:      object(map[string]any{}),
			taskSupport: "required",
			run: func(ctx context.Context, _ *Server, c *call) (result, error) {
				c.status("waiting forever")
				<-ctx.Done()
				return result{}, ctx.Err()
			},
		},
		{
			name: "ask", title: "Needs input", description: "A task that stops after one stage and asks one question (input_required); answered with tasks/update it completes with the answer.",
			schema:      object(map[string]any{"question": str("What to ask")}),
			taskSupport: "required",
			run: func(ctx context.Context, s *Server, c *call) (result, error) {
				var a struct {
					Question string `json:"question"`
				}
				if err := decodeArgs(c.args, &a); err != nil {
					return result{}, err
				}
				if a.Question == "" {
					a.Question = "Which region should the survey cover?"
				}
				c.status("preparing the survey")
				if err := sleep(ctx, s.opts.StageDuration); err != nil {
					return result{}, err
				}
				answers, err := c.ask(ctx, map[string]inputRequest{
					"answer": elicit(a.Question, map[string]any{"answer": str(a.Question)}, "answer")})
				if err != nil {
					return result{}, err
				}
				action, content := elicitAnswer(answers["answer"])
				if action != "accept" {
					return textResult("no answer (" + action + ")"), nil
				}
				return textResult(fmt.Sprintf("answer: %v", content["answer"])), nil
			},
		},
		{
			name: "survey", title: "Survey (asks twice)",
			description: "Asks for input twice, one question after the other (a region, then how deep to go), then reports. As a 2026-07-28 task it waits in input_required for tasks/update; answered at once it asks with InputRequiredResult over two rounds.",
			schema:      object(map[string]any{"topic": str("What the survey is about")}),
			taskSupport: "optional",
			run:         runSurvey,
		},
		{
			name: "sign_in", title: "Needs a sign-in (URL elicitation)",
			description: "Asks the person to sign in somewhere else: one URL-mode elicitation (a link to open, never opened by the client itself); once the person says they are done, it reports that the sign-in was confirmed. As a 2026-07-28 task it waits in input_required for tasks/update.",
			schema:      object(map[string]any{"service": str("What to sign in to")}),
			taskSupport: "optional",
			run:         runSignIn,
		},
		{
			name: "start_job", title: "Start a job (legacy)",
			description: "Long-running; returns a job id at once. Poll with get_job_result(job_id=…); cancel with cancel_job(job_id=…).",
			schema:      object(map[string]any{"seconds": map[string]any{"type": "number", "description": "How long the job runs (default 3)"}, "label": str("A label for the job")}),
			taskSupport: "forbidden",
			run:         startJob,
		},
		{
			name: "get_job_result", title: "Get a job's result", description: "Returns a job's status, and its result once it is finished.",
			schema:      object(map[string]any{"job_id": str("The job id start_job returned")}, "job_id"),
			taskSupport: "forbidden",
			run:         getJob,
		},
		{
			name: "cancel_job", title: "Cancel a job", description: "Cancels a running job.",
			schema:      object(map[string]any{"job_id": str("The job id start_job returned")}, "job_id"),
			taskSupport: "forbidden",
			run:         cancelJob,
		},
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func runResearch(ctx context.Context, s *Server, c *call) (result, error) {
	var a struct {
		Topic  string `json:"topic"`
		Stages int    `json:"stages"`
	}
	if err := decodeArgs(c.args, &a); err != nil {
		return result{}, err
	}
	if a.Stages <= 0 {
		a.Stages = 4
	}
	a.Stages = min(a.Stages, 20)
	names := []string{"gathering sources", "reading", "comparing", "writing the report"}
	var findings []string
	for i := 1; i <= a.Stages; i++ {
		name := names[(i-1)%len(names)]
		msg := fmt.Sprintf("stage %d/%d: %s", i, a.Stages, name)
		c.status(msg)
		c.notify(float64(i-1), float64(a.Stages), msg)
		if err := sleep(ctx, s.opts.StageDuration); err != nil {
			return result{}, err
		}
		findings = append(findings, fmt.Sprintf("finding %d about %s", i, a.Topic))
	}
	var csv strings.Builder
	csv.WriteString("stage,finding\n")
	for i, f := range findings {
		fmt.Fprintf(&csv, "%d,%s\n", i+1, f)
	}
	r := result{Content: []map[string]any{
		{"type": "text", "text": fmt.Sprintf("Research on %s: %d stages done.", a.Topic, a.Stages)},
		{"type": "image", "data": base64.StdEncoding.EncodeToString(chartPNG()), "mimeType": "image/png"},
		{"type": "resource", "resource": map[string]any{
			"uri": "demo://research/findings.csv", "mimeType": "text/csv",
			"blob": base64.StdEncoding.EncodeToString([]byte(csv.String())),
		}},
		{"type": "resource_link", "uri": "https://example.invalid/research/sources?token=secret", "name": "sources", "mimeType": "text/html"},
	}}
	r.StructuredContent = map[string]any{"topic": a.Topic, "stages": a.Stages, "findings": findings}
	c.notify(float64(a.Stages), float64(a.Stages), "done")
	return r, nil
}

// runSurvey asks twice, one question after the other: the keys differ, so a
// 2026-07-28 retry can carry both answers and a task never reuses a key.
func runSurvey(ctx context.Context, _ *Server, c *call) (result, error) {
	var a struct {
		Topic string `json:"topic"`
	}
	if err := decodeArgs(c.args, &a); err != nil {
		return result{}, err
	}
	if a.Topic == "" {
		a.Topic = "the demo"
	}
	c.status("asking for the region")
	first, err := c.ask(ctx, map[string]inputRequest{
		"region": elicit("Which region should the survey of "+a.Topic+" cover?", map[string]any{"region": str("A region")}, "region")})
	if err != nil {
		return result{}, err
	}
	action, content := elicitAnswer(first["region"])
	if action != "accept" {
		return textResult("survey stopped: no region (" + action + ")"), nil
	}
	region := fmt.Sprint(content["region"])
	c.status("asking how deep to go")
	second, err := c.ask(ctx, map[string]inputRequest{
		"depth": elicit("How deep should the survey of "+region+" go?", map[string]any{
			"depth": map[string]any{"type": "string", "enum": []string{"quick", "thorough"}, "description": "Depth"}}, "depth")})
	if err != nil {
		return result{}, err
	}
	action, content = elicitAnswer(second["depth"])
	if action != "accept" {
		return textResult("survey stopped: no depth (" + action + ")"), nil
	}
	depth := fmt.Sprint(content["depth"])
	r := textResult(fmt.Sprintf("Survey of %s: region %s, %s.", a.Topic, region, depth))
	r.StructuredContent = map[string]any{"topic": a.Topic, "region": region, "depth": depth}
	return r, nil
}

// runSignIn asks one URL-mode elicitation (docs/demo-mcp.md D5): the
// answer carries no content, only the action.
func runSignIn(ctx context.Context, _ *Server, c *call) (result, error) {
	var a struct {
		Service string `json:"service"`
	}
	if err := decodeArgs(c.args, &a); err != nil {
		return result{}, err
	}
	if a.Service == "" {
		a.Service = "the demo service"
	}
	c.status("waiting for the sign-in")
	answers, err := c.ask(ctx, map[string]inputRequest{"signin": {Method: "elicitation/create", Params: map[string]any{
		"mode": "url", "elicitationId": "demo-sign-in", "url": "https://example.invalid/sign-in?service=" + url.QueryEscape(a.Service),
		"message": "Sign in to " + a.Service + " in your browser, then say you are done."}}})
	if err != nil {
		return result{}, err
	}
	if action, _ := elicitAnswer(answers["signin"]); action != "accept" {
		return textResult("sign-in to " + a.Service + " not done (" + action + ")"), nil
	}
	return textResult("signed in to " + a.Service), nil
}

// chartPNG is a tiny bar chart, so the result carries a real image.
func chartPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for x := range 16 {
		for y := range 16 {
			c := color.RGBA{255, 255, 255, 255}
			if y >= 16-(x/4+1)*3 {
				c = color.RGBA{40, 90, 200, 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img) //nolint:errcheck // writing to memory cannot fail
	return b.Bytes()
}
