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
	"strings"
	"time"
)

// toolSpec is one demo tool: its listing and what it does.
type toolSpec struct {
	name, title, description string
	schema                   map[string]any
	// taskSupport is execution.taskSupport as listed ("forbidden" for the
	// sync and legacy tools).
	taskSupport string
	run         func(ctx context.Context, s *Server, args json.RawMessage, p progress) (result, error)
}

// progress lets a running tool report its status (task tools only).
type progress func(status, message string)

// result is a CallToolResult in wire form.
type result struct {
	Content           []map[string]any `json:"content"`
	StructuredContent any              `json:"structuredContent,omitempty"`
	IsError           bool             `json:"isError,omitempty"`
}

func textResult(s string) result {
	return result{Content: []map[string]any{{"type": "text", "text": s}}}
}

func object(props map[string]any, required ...string) map[string]any {
	s := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }

func tools() []toolSpec {
	return []toolSpec{
		{
			name: "echo", title: "Echo", description: "Answers at once with the text it was given (a plain synchronous tool).",
			schema:      object(map[string]any{"text": str("Text to echo")}, "text"),
			taskSupport: "forbidden",
			run: func(_ context.Context, _ *Server, raw json.RawMessage, _ progress) (result, error) {
				var a struct {
					Text string `json:"text"`
				}
				if err := json.Unmarshal(raw, &a); err != nil {
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
			run: func(context.Context, *Server, json.RawMessage, progress) (result, error) {
				r := textResult("the solver diverged at step 3")
				r.IsError = true
				return r, nil
			},
		},
		{
			name: "research", title: "Research (long-running)",
			description: "Researches a topic in stages (one per second by default) and returns a report, a chart and a CSV file. Long-running: runs as a task when the client asks for one.",
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
			run: func(ctx context.Context, _ *Server, _ json.RawMessage, p progress) (result, error) {
				p("working", "waiting forever")
				<-ctx.Done()
				return result{}, ctx.Err()
			},
		},
		{
			name: "ask", title: "Needs input", description: "A task that stops after one stage and asks for input (input_required).",
			schema:      object(map[string]any{"question": str("What to ask")}),
			taskSupport: "required",
			run: func(ctx context.Context, s *Server, raw json.RawMessage, p progress) (result, error) {
				var a struct {
					Question string `json:"question"`
				}
				json.Unmarshal(raw, &a) //nolint:errcheck // the question is optional
				if a.Question == "" {
					a.Question = "Which region should the survey cover?"
				}
				p("working", "preparing the survey")
				if err := sleep(ctx, s.opts.StageDuration); err != nil {
					return result{}, err
				}
				p("input_required", a.Question)
				<-ctx.Done()
				return result{}, ctx.Err()
			},
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

func runResearch(ctx context.Context, s *Server, raw json.RawMessage, p progress) (result, error) {
	var a struct {
		Topic  string `json:"topic"`
		Stages int    `json:"stages"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return result{}, fmt.Errorf("arguments: %w", err)
	}
	if a.Stages <= 0 {
		a.Stages = 4
	}
	a.Stages = min(a.Stages, 20)
	names := []string{"gathering sources", "reading", "comparing", "writing the report"}
	var findings []string
	for i := 1; i <= a.Stages; i++ {
		name := names[(i-1)%len(names)]
		p("working", fmt.Sprintf("stage %d/%d: %s", i, a.Stages, name))
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
	return r, nil
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
