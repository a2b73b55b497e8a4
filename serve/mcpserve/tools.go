package mcpserve

import (
	"encoding/json"
	"fmt"
	"time"

	"workrun/mcp"
	"workrun/serve"
	"workrun/workrun"
)

// schemaOf is a field's JSON Schema (docs/serve.md M3).
func schemaOf(f serve.Field, role string) map[string]any {
	desc := fmt.Sprintf("%s field %q of the workflow (%s)", role, f.Name, f.Type)
	switch f.Type {
	case workrun.FieldText:
		return map[string]any{"type": "string", "description": desc}
	case workrun.FieldNumber:
		return map[string]any{"type": "number", "description": desc}
	case workrun.FieldBoolean:
		return map[string]any{"type": "boolean", "description": desc}
	case workrun.FieldFile:
		return map[string]any{"type": "string", "description": desc + ": a Workrun artifact id"}
	case workrun.FieldFiles:
		return map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": desc + ": Workrun artifact ids"}
	}
	return map[string]any{"description": desc} // json: any value
}

const schemaDialect = "https://json-schema.org/draft/2020-12/schema"

// tool is a publication as an MCP Tool.
func tool(p serve.Publication, legacy bool) map[string]any {
	in := map[string]any{}
	for _, f := range p.Inputs {
		in[f.Name] = schemaOf(f, "input")
	}
	out := map[string]any{}
	for _, f := range p.Outputs {
		out[f.Name] = schemaOf(f, "output")
	}
	desc := p.Description
	if desc == "" {
		desc = "Workrun workflow " + p.Name
	}
	t := map[string]any{
		"name": p.ID, "title": p.Name, "description": desc,
		"inputSchema":  map[string]any{"$schema": schemaDialect, "type": "object", "properties": in, "additionalProperties": false},
		"outputSchema": map[string]any{"$schema": schemaDialect, "type": "object", "properties": out},
	}
	if legacy {
		t["execution"] = map[string]any{"taskSupport": "optional"}
	}
	return t
}

func (s *Server) tools(legacy bool) []map[string]any {
	out := []map[string]any{}
	for _, p := range s.svc.Publications() {
		out = append(out, tool(p, legacy))
	}
	return out
}

// callParams are a tools/call's params.
type callParams struct {
	Name           string                     `json:"name"`
	Arguments      json.RawMessage            `json:"arguments"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
	RequestState   string                     `json:"requestState"`
	Task           *struct {
		TTL *int64 `json:"ttl"`
	} `json:"task"`
	Meta map[string]json.RawMessage `json:"_meta"`
}

func parseCall(params json.RawMessage) (callParams, *mcp.WireError) {
	var cp callParams
	if err := json.Unmarshal(params, &cp); err != nil {
		return cp, &mcp.WireError{Code: mcp.CodeInvalidParams, Message: "Invalid params: tools/call params do not fit"}
	}
	return cp, nil
}

// inputs reads the arguments (an object) as the publication's inputs.
func inputs(p serve.Publication, args json.RawMessage) (workrun.Values, *mcp.WireError) {
	in := workrun.Values{}
	if len(args) == 0 || string(args) == "null" {
		return in, nil
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return nil, &mcp.WireError{Code: mcp.CodeInvalidParams, Message: "Invalid params: arguments must be an object"}
	}
	if _, err := p.CheckInputs(in); err != nil {
		return nil, &mcp.WireError{Code: mcp.CodeInvalidParams, Message: "Invalid params: " + clip(err.Error())}
	}
	return in, nil
}

func clip(s string) string {
	if len(s) > 500 {
		return s[:500]
	}
	return s
}

// toolResult is a final task as a CallToolResult (docs/serve.md M5).
func toolResult(t serve.Task) map[string]any {
	switch t.State {
	case serve.StateCompleted:
		outs := map[string]any{}
		for k, v := range t.Outputs {
			outs[k] = v
		}
		text := ""
		if len(outs) == 1 {
			for _, v := range outs {
				if s, ok := v.(string); ok {
					text = s
				}
			}
		}
		if text == "" {
			b, _ := json.Marshal(outs)
			text = string(b)
		}
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "structuredContent": outs, "isError": false}
	case serve.StateFailed:
		reason := t.Reason
		if reason == "" {
			reason = "the workflow failed"
		}
		return errorResult(texts.In("en", msgRunFailed, clip(reason)))
	case serve.StateCanceled:
		return errorResult(texts.In("en", msgRunStopped))
	}
	return errorResult(texts.In("en", msgRunNotFinal))
}

func errorResult(text string) map[string]any {
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "isError": true}
}

// statusOf is a task's MCP status. A failed run is a tool execution
// error (isError): on 2025-11-25 the task is "failed", on the Tasks
// extension "completed" with the isError result (docs/serve.md M6).
func statusOf(t serve.Task, core bool) string {
	switch t.State {
	case serve.StateCompleted:
		return "completed"
	case serve.StateFailed:
		if !core {
			return "completed"
		}
		return "failed"
	case serve.StateCanceled:
		return "cancelled"
	case serve.StateInputRequired:
		return "input_required"
	}
	return "working"
}

const taskTTL = 24 * time.Hour

// snapshot is a task as tasks/get shows it; form core (2025-11-25) or
// extension (2026-07-28).
func (s *Server) snapshot(t serve.Task, core bool) map[string]any {
	updated := t.Run.EndedAt
	if updated.IsZero() {
		updated = t.Run.CreatedAt
	}
	m := map[string]any{
		"taskId": t.ID, "status": statusOf(t, core),
		"createdAt": t.CreatedAt.UTC().Format(time.RFC3339Nano), "lastUpdatedAt": updated.UTC().Format(time.RFC3339Nano),
	}
	switch {
	case t.State == serve.StateFailed:
		m["statusMessage"] = clip(t.Reason)
	case t.Question != nil:
		m["statusMessage"] = clip(questionText(*t.Question))
	}
	if core {
		m["ttl"] = taskTTL.Milliseconds()
		m["pollInterval"] = s.opts.PollInterval.Milliseconds()
	} else {
		m["ttlMs"] = taskTTL.Milliseconds()
		m["pollIntervalMs"] = s.opts.PollInterval.Milliseconds()
	}
	return m
}

// questionText names what the workflow asks.
func questionText(q serve.Question) string {
	if q.Prompt != "" {
		return q.Prompt
	}
	return texts.In("en", msgQuestionNoPrompt, q.NodeID)
}

// elicitParams is a question as elicitation/create params (form mode).
func elicitParams(q serve.Question) map[string]any {
	var schema any
	switch {
	case q.Remote != nil && len(q.Remote.Schema) > 0:
		schema = json.RawMessage(q.Remote.Schema)
	case q.Type == "human_review":
		schema = map[string]any{"type": "object", "properties": map[string]any{
			"approved": map[string]any{"type": "boolean", "title": "Approve", "description": "true approves, false rejects"},
			"comment":  map[string]any{"type": "string", "title": "Comment"},
		}, "required": []string{"approved"}}
	default:
		schema = map[string]any{"type": "object", "properties": map[string]any{
			"answer": map[string]any{"type": "string", "title": "Answer"},
		}, "required": []string{"answer"}}
	}
	return map[string]any{"mode": "form", "message": questionText(q), "requestedSchema": schema}
}

// elicitResult is a client's ElicitResult.
type elicitResult struct {
	Action  string          `json:"action"`
	Content json.RawMessage `json:"content"`
}

// answerOf turns an ElicitResult into serve's Answer. Decline rejects a
// review; cancel answers nothing (ok false).
func answerOf(q serve.Question, raw json.RawMessage) (serve.Answer, bool, *mcp.WireError) {
	var er elicitResult
	if err := json.Unmarshal(raw, &er); err != nil {
		return serve.Answer{}, false, &mcp.WireError{Code: mcp.CodeInvalidParams, Message: "Invalid params: the answer is not an ElicitResult"}
	}
	switch er.Action {
	case "accept":
	case "decline":
		if q.Type == "human_review" && q.Remote == nil {
			return serve.Answer{Approved: false}, true, nil
		}
		if q.Remote != nil {
			return serve.Answer{Approved: false, Content: []byte("{}")}, true, nil
		}
		return serve.Answer{}, false, nil
	default:
		return serve.Answer{}, false, nil
	}
	if q.Remote != nil {
		c := er.Content
		if len(c) == 0 {
			c = []byte("{}")
		}
		return serve.Answer{Approved: true, Content: c}, true, nil
	}
	var c struct {
		Approved *bool   `json:"approved"`
		Comment  string  `json:"comment"`
		Answer   *string `json:"answer"`
	}
	if len(er.Content) > 0 && json.Unmarshal(er.Content, &c) != nil {
		return serve.Answer{}, false, &mcp.WireError{Code: mcp.CodeInvalidParams, Message: "Invalid params: the answer's content must be an object"}
	}
	if q.Type == "human_review" {
		if c.Approved == nil {
			// A client that filled a form of its own: its only boolean is the decision.
			var m map[string]any
			json.Unmarshal(er.Content, &m) //nolint:errcheck // read as an object above
			var bools []bool
			for _, v := range m {
				if b, ok := v.(bool); ok {
					bools = append(bools, b)
				}
			}
			if len(bools) == 1 {
				c.Approved = &bools[0]
			}
		}
		if c.Approved == nil {
			return serve.Answer{}, false, &mcp.WireError{Code: mcp.CodeInvalidParams, Message: `Invalid params: a review answer needs "approved" (true or false)`}
		}
		return serve.Answer{Approved: *c.Approved, Text: c.Comment}, true, nil
	}
	if c.Answer == nil {
		// A client that filled a form of its own: its only text value is the answer.
		var m map[string]any
		json.Unmarshal(er.Content, &m) //nolint:errcheck // read as an object above
		var texts []string
		for _, v := range m {
			if s, ok := v.(string); ok {
				texts = append(texts, s)
			}
		}
		if len(texts) != 1 {
			return serve.Answer{}, false, &mcp.WireError{Code: mcp.CodeInvalidParams, Message: `Invalid params: the answer needs "answer" (text)`}
		}
		c.Answer = &texts[0]
	}
	return serve.Answer{Approved: true, Text: *c.Answer}, true, nil
}
