package a2aserve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"workrun/a2a"
	"workrun/serve"
	"workrun/workrun"
)

// call is one JSON-RPC request of one caller to one publication.
type call struct {
	s      *Server
	pub    serve.Publication
	caller string
	id     json.RawMessage
}

func decodeParams(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		return fail(codeInvalidParams, "params are required")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fail(codeInvalidParams, "params do not fit the method")
	}
	return nil
}

type taskIDParams struct {
	ID            string `json:"id"`
	HistoryLength *int32 `json:"historyLength,omitempty"`
}

type listParams struct {
	ContextID            string     `json:"contextId,omitempty"`
	Status               string     `json:"status,omitempty"`
	PageSize             *int32     `json:"pageSize,omitempty"`
	PageToken            string     `json:"pageToken,omitempty"`
	HistoryLength        *int32     `json:"historyLength,omitempty"`
	StatusTimestampAfter *time.Time `json:"statusTimestampAfter,omitempty"`
	IncludeArtifacts     bool       `json:"includeArtifacts,omitempty"`
}

type listResult struct {
	Tasks         []*a2a.Task `json:"tasks"`
	NextPageToken string      `json:"nextPageToken"`
	PageSize      int         `json:"pageSize"`
	TotalSize     int         `json:"totalSize"`
}

func (c *call) method(ctx context.Context, name string, params json.RawMessage) (any, error) {
	switch name {
	case "SendMessage":
		var req a2a.SendMessageRequest
		if err := decodeParams(params, &req); err != nil {
			return nil, err
		}
		blocking := req.Configuration == nil || !req.Configuration.ReturnImmediately
		t, err := c.send(ctx, req, blocking)
		if err != nil {
			return nil, err
		}
		if blocking && !t.State.Final() && t.State != serve.StateInputRequired {
			if t, err = c.s.svc.Wait(ctx, c.caller, t.ID); err != nil {
				return nil, err
			}
		}
		var hl *int32
		if req.Configuration != nil {
			hl = req.Configuration.HistoryLength
		}
		return a2a.SendResult{Task: c.task(ctx, t, hl, true)}, nil
	case "GetTask":
		var p taskIDParams
		if err := decodeParams(params, &p); err != nil {
			return nil, err
		}
		t, err := c.get(ctx, p.ID)
		if err != nil {
			return nil, err
		}
		return c.task(ctx, t, p.HistoryLength, true), nil
	case "CancelTask":
		var p taskIDParams
		if err := decodeParams(params, &p); err != nil {
			return nil, err
		}
		if _, err := c.get(ctx, p.ID); err != nil {
			return nil, err
		}
		t, err := c.s.svc.Cancel(ctx, c.caller, p.ID)
		if err != nil {
			return nil, err
		}
		return c.task(ctx, t, nil, true), nil
	case "ListTasks":
		var p listParams
		if len(params) > 0 {
			if err := decodeParams(params, &p); err != nil {
				return nil, err
			}
		}
		return c.list(ctx, p)
	case "GetExtendedAgentCard":
		return nil, fail(codeUnsupported, "this agent has no extended card")
	case "CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig", "ListTaskPushNotificationConfigs",
		"ListTaskPushNotificationConfig", "DeleteTaskPushNotificationConfig":
		return nil, fail(codePushNotSupported, "push notifications are not supported")
	}
	return nil, fail(codeMethodNotFound, "method not found")
}

// get reads a task of this caller and this publication.
func (c *call) get(ctx context.Context, id string) (serve.Task, error) {
	if id == "" {
		return serve.Task{}, fail(codeInvalidParams, "id is required")
	}
	t, err := c.s.svc.Get(ctx, c.caller, id)
	if err != nil {
		return serve.Task{}, err
	}
	if t.Publication != c.pub.ID {
		return serve.Task{}, serve.ErrTaskNotFound
	}
	return t, nil
}

func (c *call) list(ctx context.Context, p listParams) (any, error) {
	size := 50
	if p.PageSize != nil {
		if *p.PageSize < 1 || *p.PageSize > 100 {
			return nil, fail(codeInvalidParams, "pageSize must be 1 to 100")
		}
		size = int(*p.PageSize)
	}
	f := serve.ListFilter{Publication: c.pub.ID, ContextID: p.ContextID, Limit: size, Before: p.PageToken}
	if p.StatusTimestampAfter != nil {
		f.StatusAfter = *p.StatusTimestampAfter
	}
	// TASK_STATE_UNSPECIFIED is protobuf's unset value: no filter.
	if p.Status != "" && p.Status != "TASK_STATE_UNSPECIFIED" {
		st, ok := stateFromWire(a2a.TaskState(p.Status))
		if !ok {
			return nil, fail(codeInvalidParams, "status is not a task state this agent uses")
		}
		f.State = st
	}
	if p.PageToken != "" {
		if _, err := c.get(ctx, p.PageToken); err != nil {
			return nil, fail(codeInvalidParams, "pageToken is not valid")
		}
	}
	tasks, next, err := c.s.svc.List(ctx, c.caller, f)
	if err != nil {
		return nil, err
	}
	total, err := c.s.svc.Count(ctx, c.caller, f)
	if err != nil {
		return nil, err
	}
	res := listResult{Tasks: []*a2a.Task{}, NextPageToken: next, PageSize: size, TotalSize: total}
	for _, t := range tasks {
		res.Tasks = append(res.Tasks, c.task(ctx, t, p.HistoryLength, p.IncludeArtifacts))
	}
	return res, nil
}

// send starts the message's run, or answers the task it names; blocking:
// the caller waits for the task to settle (serve.StartRequest.Wait).
func (c *call) send(ctx context.Context, req a2a.SendMessageRequest, blocking bool) (serve.Task, error) {
	m := req.Message
	if m.MessageID == "" {
		return serve.Task{}, fail(codeInvalidParams, "message.messageId is required")
	}
	if len(m.Parts) == 0 {
		return serve.Task{}, fail(codeInvalidParams, "message.parts is empty")
	}
	if m.TaskID != "" {
		t, err := c.get(ctx, m.TaskID)
		if err != nil {
			return serve.Task{}, err
		}
		if t.Key == m.MessageID {
			return t, nil // the first message sent again
		}
		if t.State.Final() {
			return serve.Task{}, serve.ErrFinal
		}
		if t.Question == nil {
			return serve.Task{}, fail(codeUnsupported, "the task is not waiting for input")
		}
		a, err := answerFrom(*t.Question, m.Parts)
		if err != nil {
			return serve.Task{}, err
		}
		return c.s.svc.Answer(ctx, c.caller, t.ID, a)
	}
	in, files, err := c.inputs(m.Parts)
	if err != nil {
		return serve.Task{}, err
	}
	// A message sent again is answered with its task before any file of
	// it is stored a second time.
	if len(files) > 0 {
		if t, err := c.s.svc.ByKey(ctx, c.caller, m.MessageID); err == nil {
			return t, nil
		}
		if err := c.importFiles(ctx, in, files); err != nil {
			return serve.Task{}, err
		}
	}
	raw, _ := json.Marshal(m) // a decoded message encodes again
	t, _, err := c.s.svc.Start(ctx, serve.StartRequest{Caller: c.caller, Publication: c.pub.ID, Key: m.MessageID,
		ContextID: m.ContextID, Inputs: in, Message: raw, Wait: blocking})
	return t, err
}

// fileInput is an inline file part bound for a file field.
type fileInput struct {
	field string
	part  a2a.Part
}

// inputs maps parts to run inputs; nothing is stored yet.
func (c *call) inputs(parts []a2a.Part) (workrun.Values, []fileInput, error) {
	in := workrun.Values{}
	var texts []string
	var files []fileInput
	var fileBytes int64
	for i, p := range parts {
		switch {
		case p.Data != nil:
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(p.Data, &obj); err != nil {
				return nil, nil, fail(codeInvalidParams, fmt.Sprintf("part %d: a data part must be an object of input fields", i))
			}
			for name, raw := range obj {
				f, ok := c.pub.Input(name)
				if !ok {
					return nil, nil, fail(codeInvalidParams, fmt.Sprintf("%q is not an input of %s (inputs: %s)", name, c.pub.Name, inputNames(c.pub)))
				}
				v, err := valueFor(f, raw)
				if err != nil {
					return nil, nil, err
				}
				in[name] = v
			}
		case p.URL != "":
			field, err := c.fileField(p)
			if err != nil {
				return nil, nil, err
			}
			return nil, nil, fail(codeContentType, fmt.Sprintf("part %d (%q): files by URL are not accepted; send the bytes inline", i, field))
		case p.Raw != nil:
			field, err := c.fileField(p)
			if err != nil {
				return nil, nil, err
			}
			fileBytes += int64(len(p.Raw))
			if fileBytes > c.s.opts.MaxFileBytes {
				return nil, nil, fail(codeInvalidParams, fmt.Sprintf("%q: the message's files are over this agent's cap of %d bytes", field, c.s.opts.MaxFileBytes))
			}
			files = append(files, fileInput{field, p})
		default:
			texts = append(texts, p.Text)
		}
	}
	if len(texts) > 0 {
		if c.pub.TextInput == "" {
			return nil, nil, fail(codeInvalidParams, fmt.Sprintf("%s takes no text; send a data part with its inputs (%s)", c.pub.Name, inputNames(c.pub)))
		}
		if _, set := in[c.pub.TextInput]; set {
			return nil, nil, fail(codeInvalidParams, fmt.Sprintf("%q is given by both a text and a data part", c.pub.TextInput))
		}
		in[c.pub.TextInput] = strings.Join(texts, "\n")
	}
	for _, f := range files {
		if _, set := in[f.field]; set {
			return nil, nil, fail(codeInvalidParams, fmt.Sprintf("%q is given by both a file and a data part", f.field))
		}
	}
	return in, files, nil
}

// fileField is the file input a file part fills: the one its metadata's
// "field" names, else the publication's only file input.
func (c *call) fileField(p a2a.Part) (string, error) {
	var meta struct {
		Field string `json:"field"`
	}
	if len(p.Metadata) > 0 {
		_ = json.Unmarshal(p.Metadata, &meta) // other metadata is the caller's own
	}
	var fileInputs []string
	for _, f := range c.pub.Inputs {
		if f.Type == workrun.FieldFile || f.Type == workrun.FieldFiles {
			fileInputs = append(fileInputs, f.Name)
		}
	}
	if meta.Field != "" {
		if !slices.Contains(fileInputs, meta.Field) {
			return "", fail(codeInvalidParams, fmt.Sprintf("%q is not a file input of %s", meta.Field, c.pub.Name))
		}
		return meta.Field, nil
	}
	if len(fileInputs) != 1 {
		return "", fail(codeInvalidParams, fmt.Sprintf(`%s has %d file inputs; name one in the part's metadata {"field": NAME}`, c.pub.Name, len(fileInputs)))
	}
	return fileInputs[0], nil
}

func (c *call) importFiles(ctx context.Context, in workrun.Values, files []fileInput) error {
	if c.s.opts.Artifacts == nil {
		return fail(codeContentType, "this server takes no files")
	}
	for _, f := range files {
		field, _ := c.pub.Input(f.field)
		if field.Type == workrun.FieldFile {
			if _, dup := in[f.field]; dup {
				return fail(codeInvalidParams, fmt.Sprintf("%q takes one file", f.field))
			}
		}
		name := f.part.Filename
		if name == "" {
			name = f.field
		}
		info, err := c.s.opts.Artifacts.Put(ctx, name, f.part.MediaType, bytes.NewReader(f.part.Raw), "", "")
		if err != nil {
			return fail(codeInvalidParams, fmt.Sprintf("%q: the file was not accepted", f.field))
		}
		if field.Type == workrun.FieldFile {
			in[f.field] = info.ID
		} else {
			list, _ := in[f.field].([]any)
			in[f.field] = append(list, info.ID)
		}
	}
	return nil
}

func inputNames(p serve.Publication) string {
	if len(p.Inputs) == 0 {
		return "none"
	}
	var n []string
	for _, f := range p.Inputs {
		n = append(n, f.Name+" "+string(f.Type))
	}
	return strings.Join(n, ", ")
}

// valueFor decodes raw as field f's value.
func valueFor(f serve.Field, raw json.RawMessage) (any, error) {
	bad := fail(codeInvalidParams, fmt.Sprintf("%q takes a %s value", f.Name, f.Type))
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, bad
	}
	switch f.Type {
	case workrun.FieldText:
		if _, ok := v.(string); !ok {
			return nil, bad
		}
	case workrun.FieldNumber:
		if _, ok := v.(float64); !ok {
			return nil, bad
		}
	case workrun.FieldBoolean:
		if _, ok := v.(bool); !ok {
			return nil, bad
		}
	case workrun.FieldFile, workrun.FieldFiles:
		return nil, fail(codeInvalidParams, fmt.Sprintf("%q is a file input: send it as a file part", f.Name))
	}
	return v, nil
}

// answerFrom reads a caller's answer to q: a data part with the form's
// fields, or text ("approve"/"reject" for a review, the answer for Ask Human).
func answerFrom(q serve.Question, parts []a2a.Part) (serve.Answer, error) {
	var text []string
	var data json.RawMessage
	for _, p := range parts {
		switch {
		case p.Data != nil:
			data = p.Data
		case p.Raw != nil || p.URL != "":
			return serve.Answer{}, fail(codeContentType, "an answer takes text or a data part")
		default:
			text = append(text, p.Text)
		}
	}
	joined := strings.TrimSpace(strings.Join(text, "\n"))
	if q.Remote != nil {
		if data == nil {
			return serve.Answer{Text: joined}, nil
		}
		return serve.Answer{Content: data}, nil
	}
	switch q.Type {
	case "human_review":
		if data != nil {
			var f struct {
				Approved *bool  `json:"approved"`
				Comment  string `json:"comment"`
			}
			if json.Unmarshal(data, &f) != nil || f.Approved == nil {
				return serve.Answer{}, fail(codeInvalidParams, `a review answer is {"approved": true|false, "comment": TEXT}`)
			}
			return serve.Answer{Approved: *f.Approved, Text: f.Comment}, nil
		}
		word, rest, _ := strings.Cut(joined, " ")
		switch strings.ToLower(strings.TrimRight(word, ".:,")) {
		case "approve", "approved", "yes":
			return serve.Answer{Approved: true, Text: strings.TrimSpace(rest)}, nil
		case "reject", "rejected", "no":
			return serve.Answer{Approved: false, Text: strings.TrimSpace(rest)}, nil
		}
		return serve.Answer{}, fail(codeInvalidParams, `a review answer is the text "approve" or "reject" (a comment may follow)`)
	default:
		if data != nil {
			var f map[string]any
			if json.Unmarshal(data, &f) != nil {
				return serve.Answer{}, fail(codeInvalidParams, `an answer is {"answer": TEXT}`)
			}
			s, ok := f["answer"].(string)
			if !ok && q.Field != "" {
				s, ok = f[q.Field].(string)
			}
			if !ok {
				return serve.Answer{}, fail(codeInvalidParams, `an answer is {"answer": TEXT}`)
			}
			return serve.Answer{Text: s}, nil
		}
		if joined == "" {
			return serve.Answer{}, fail(codeInvalidParams, "the answer is empty")
		}
		return serve.Answer{Text: joined}, nil
	}
}

func stateFromWire(s a2a.TaskState) (serve.State, bool) {
	switch s {
	case a2a.TaskStateWorking:
		return serve.StateWorking, true
	case a2a.TaskStateInputRequired:
		return serve.StateInputRequired, true
	case a2a.TaskStateCompleted:
		return serve.StateCompleted, true
	case a2a.TaskStateFailed:
		return serve.StateFailed, true
	case a2a.TaskStateCanceled:
		return serve.StateCanceled, true
	}
	return "", false
}

func wireState(s serve.State) a2a.TaskState {
	switch s {
	case serve.StateInputRequired:
		return a2a.TaskStateInputRequired
	case serve.StateCompleted:
		return a2a.TaskStateCompleted
	case serve.StateFailed:
		return a2a.TaskStateFailed
	case serve.StateCanceled:
		return a2a.TaskStateCanceled
	}
	return a2a.TaskStateWorking
}

// status is the task's A2A status, with the question or the reason.
func status(t serve.Task) a2a.TaskStatus {
	ts := statusTime(t)
	st := a2a.TaskStatus{State: wireState(t.State), Timestamp: &ts}
	agent := func(parts ...a2a.Part) *a2a.Message {
		return &a2a.Message{MessageID: t.ID + "-status-" + strconv.FormatInt(ts.UnixNano(), 36), TaskID: t.ID, ContextID: t.ContextID, Role: a2a.RoleAgent, Parts: parts}
	}
	switch t.State {
	case serve.StateFailed:
		reason := t.Reason
		if reason == "" {
			reason = "the run failed"
		}
		st.Message = agent(a2a.Part{Text: capText(reason)})
	case serve.StateInputRequired:
		q := t.Question
		form := map[string]any{"node": q.NodeID, "type": q.Type}
		switch {
		case q.Remote != nil && len(q.Remote.Schema) > 0:
			form["schema"] = q.Remote.Schema
		case q.Type == "human_review":
			form["answer"] = map[string]string{"approved": "boolean", "comment": "text (optional)"}
			form["text"] = "approve | reject"
		default:
			form["answer"] = map[string]string{"answer": "text"}
		}
		data, _ := json.Marshal(form) // plain values
		st.Message = agent(a2a.Part{Text: capText(q.Prompt)}, a2a.Part{Data: data})
	}
	return st
}

// task is t on the wire.
func (c *call) task(ctx context.Context, t serve.Task, historyLength *int32, artifacts bool) *a2a.Task {
	out := &a2a.Task{ID: t.ID, ContextID: t.ContextID, Status: status(t)}
	if artifacts && t.State == serve.StateCompleted {
		out.Artifacts = c.artifacts(ctx, t)
	}
	if historyLength == nil || *historyLength > 0 {
		var m a2a.Message
		if len(t.Message) > 0 && json.Unmarshal(t.Message, &m) == nil {
			m.TaskID, m.ContextID = t.ID, t.ContextID
			out.History = []a2a.Message{m}
		}
		if st := out.Status.Message; st != nil {
			out.History = append(out.History, *st)
		}
		if historyLength != nil && len(out.History) > int(*historyLength) {
			out.History = out.History[len(out.History)-int(*historyLength):]
		}
	}
	return out
}

// artifacts are the published outputs, one artifact each.
func (c *call) artifacts(ctx context.Context, t serve.Task) []a2a.Artifact {
	var out []a2a.Artifact
	budget := c.s.opts.MaxFileBytes
	for _, f := range c.pub.Outputs {
		v, ok := t.Outputs[f.Name]
		if !ok {
			continue
		}
		a := a2a.Artifact{ArtifactID: f.Name, Name: f.Name}
		switch f.Type {
		case workrun.FieldText:
			s, _ := v.(string)
			a.Parts = []a2a.Part{{Text: s}}
		case workrun.FieldFile, workrun.FieldFiles:
			var ids []string
			switch x := v.(type) {
			case string:
				ids = []string{x}
			case []any:
				for _, e := range x {
					if s, ok := e.(string); ok {
						ids = append(ids, s)
					}
				}
			}
			for _, id := range ids {
				p, n := c.filePart(ctx, id, budget)
				budget -= n
				a.Parts = append(a.Parts, p)
			}
		default:
			data, err := json.Marshal(v)
			if err != nil {
				continue
			}
			a.Parts = []a2a.Part{{Data: data}}
		}
		if len(a.Parts) > 0 {
			out = append(out, a)
		}
	}
	return out
}

// filePart reads artifact id inline, within budget bytes; a file over it
// is named with a text part instead.
func (c *call) filePart(ctx context.Context, id string, budget int64) (a2a.Part, int64) {
	if c.s.opts.Artifacts == nil {
		return a2a.Part{Text: "(file not available)"}, 0
	}
	rc, info, err := c.s.opts.Artifacts.Open(ctx, id)
	if err != nil {
		c.s.opts.Logger.Error("open output file", "err", err)
		return a2a.Part{Text: "(file not available)"}, 0
	}
	defer rc.Close()
	if info.Size > budget {
		return a2a.Part{Text: fmt.Sprintf("(%s: %d bytes, over this agent's %d byte cap)", info.Name, info.Size, c.s.opts.MaxFileBytes)}, 0
	}
	b, err := io.ReadAll(io.LimitReader(rc, budget))
	if err != nil {
		c.s.opts.Logger.Error("read output file", "err", err)
		return a2a.Part{Text: "(file not available)"}, 0
	}
	return a2a.Part{Raw: b, Filename: info.Name, MediaType: info.MediaType}, int64(len(b))
}

// maxEventText caps one status text sent to a caller.
const maxEventText = 64 << 10

func capText(s string) string {
	if len(s) <= maxEventText {
		return s
	}
	return s[:maxEventText] + "…"
}

// stream answers SendStreamingMessage (send) or SubscribeToTask as SSE.
func (c *call) stream(w http.ResponseWriter, r *http.Request, params json.RawMessage, send bool) {
	ctx := r.Context()
	var id string
	if send {
		var req a2a.SendMessageRequest
		if err := decodeParams(params, &req); err != nil {
			writeReply(w, rpcReply{JSONRPC: "2.0", ID: c.id, Error: c.s.rpcErr(err)})
			return
		}
		t, err := c.send(ctx, req, false)
		if err != nil {
			writeReply(w, rpcReply{JSONRPC: "2.0", ID: c.id, Error: c.s.rpcErr(err)})
			return
		}
		id = t.ID
	} else {
		var p taskIDParams
		if err := decodeParams(params, &p); err != nil {
			writeReply(w, rpcReply{JSONRPC: "2.0", ID: c.id, Error: c.s.rpcErr(err)})
			return
		}
		t, err := c.get(ctx, p.ID)
		if err != nil {
			writeReply(w, rpcReply{JSONRPC: "2.0", ID: c.id, Error: c.s.rpcErr(err)})
			return
		}
		if t.State.Final() {
			writeReply(w, rpcReply{JSONRPC: "2.0", ID: c.id, Error: &rpcError{codeUnsupported, "the task is final; read it with GetTask"}})
			return
		}
		id = t.ID
	}
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	emit := func(ev a2a.StreamEvent) bool {
		b, err := json.Marshal(rpcReply{JSONRPC: "2.0", ID: c.id, Result: ev})
		if err != nil {
			c.s.opts.Logger.Error("encode stream event", "err", err)
			return false
		}
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	first := true
	var contextID string // every event names the task's context (A2A 1.0 TaskStatusUpdateEvent)
	for ev, err := range c.s.svc.Events(ctx, c.caller, id) {
		if err != nil {
			if ctx.Err() == nil {
				b, _ := json.Marshal(rpcReply{JSONRPC: "2.0", ID: c.id, Error: c.s.rpcErr(err)})
				fmt.Fprintf(w, "data: %s\n\n", b) //nolint:errcheck // the stream ends here anyway
			}
			return
		}
		switch {
		case ev.Task != nil && first:
			first = false
			contextID = ev.Task.ContextID
			if !emit(a2a.StreamEvent{Task: c.task(ctx, *ev.Task, nil, true)}) {
				return
			}
		case ev.Task != nil:
			t := *ev.Task
			if t.State == serve.StateCompleted {
				for _, a := range c.artifacts(ctx, t) {
					if !emit(a2a.StreamEvent{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{TaskID: t.ID, ContextID: t.ContextID, Artifact: a, LastChunk: true}}) {
						return
					}
				}
			}
			if !emit(a2a.StreamEvent{StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: t.ID, ContextID: t.ContextID, Status: status(t)}}) {
				return
			}
		case ev.Message != nil:
			m := ev.Message
			text := capText(m.In("en"))
			st := a2a.TaskStatus{State: a2a.TaskStateWorking, Timestamp: &m.Time, Message: &a2a.Message{
				MessageID: fmt.Sprintf("%s-%s-%d-%d", id, m.NodeID, m.Seq, m.Time.UnixNano()), TaskID: id, ContextID: contextID, Role: a2a.RoleAgent,
				Parts: []a2a.Part{{Text: "[" + m.NodeID + "] " + text}}}}
			if !emit(a2a.StreamEvent{StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: id, ContextID: contextID, Status: st}}) {
				return
			}
		}
	}
}
