package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/google/uuid"

	"workrun/mcp"
	"workrun/serve"
	"workrun/workrun"
)

// wireErr turns a serve error into what the caller reads: a sentinel's
// text, or "internal error" (logged here). Never a secret nor an inner
// detail (docs/serve.md M7).
func (s *Server) wireErr(err error) *mcp.WireError {
	var we *mcp.WireError
	switch {
	case errors.As(err, &we):
		return we
	case errors.Is(err, serve.ErrTaskNotFound):
		return &mcp.WireError{Code: mcp.CodeInvalidParams, Message: "Invalid params: " + serve.ErrTaskNotFound.Error()}
	case errors.Is(err, serve.ErrNotCancelable), errors.Is(err, serve.ErrFinal), errors.Is(err, serve.ErrNoQuestion),
		errors.Is(err, serve.ErrAnswered), errors.Is(err, serve.ErrNoPublication):
		return &mcp.WireError{Code: mcp.CodeInvalidParams, Message: "Invalid params: " + sentinelText(err)}
	case errors.Is(err, serve.ErrBadInput):
		return &mcp.WireError{Code: mcp.CodeInvalidParams, Message: "Invalid params: " + clip(err.Error())}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return &mcp.WireError{Code: mcp.CodeInternalError, Message: "the request ended before an answer"}
	}
	s.opts.Logger.Error("mcp request failed", "err", err)
	return &mcp.WireError{Code: mcp.CodeInternalError, Message: "internal error"}
}

func sentinelText(err error) string {
	for _, e := range []error{serve.ErrNotCancelable, serve.ErrFinal, serve.ErrNoQuestion, serve.ErrAnswered, serve.ErrNoPublication} {
		if errors.Is(err, e) {
			return e.Error()
		}
	}
	return "refused"
}

// idempotencyKey is the call's key: the Idempotency-Key header or
// _meta io.workrun/idempotencyKey; else, inside a 2025-11-25 session, the
// session and JSON-RPC id (a resent request); else a new one (M6).
func idempotencyKey(r *http.Request, meta map[string]json.RawMessage, sess *session, id json.RawMessage) string {
	if k := r.Header.Get("Idempotency-Key"); k != "" {
		return "mcp:" + clip(k)
	}
	var k string
	if json.Unmarshal(meta[mcp.MetaIdempotencyKey], &k) == nil && k != "" {
		return "mcp:" + clip(k)
	}
	if sess != nil && len(id) > 0 {
		return "mcp-session:" + sess.id + ":" + string(id)
	}
	return "mcp-once:" + uuid.NewString()
}

// start starts or finds the task of a tools/call.
func (s *Server) start(ctx context.Context, caller string, cp callParams, key string, raw json.RawMessage) (serve.Task, *mcp.WireError) {
	pub, ok := s.svc.Publication(cp.Name)
	if !ok {
		return serve.Task{}, &mcp.WireError{Code: mcp.CodeInvalidParams, Message: "Invalid params: unknown tool " + strconv.Quote(clip(cp.Name))}
	}
	in, werr := inputs(pub, cp.Arguments)
	if werr != nil {
		return serve.Task{}, werr
	}
	t, _, err := s.svc.Start(ctx, serve.StartRequest{Caller: caller, Publication: pub.ID, Key: key, Inputs: in, Message: raw, Via: workrun.StartedByMCP})
	if err != nil {
		return serve.Task{}, s.wireErr(err)
	}
	return t, nil
}

// wait follows the task until it is final or needs input, or bound
// passes (bound 0: no bound); settled says which. Each node message goes
// to onMessage: every message of the run after seq *after, also those
// logged before this call subscribed (serve.EventsSince: a run logs its
// first message while the call is still opening its stream); *after
// moves to the last one sent.
func (s *Server) wait(ctx context.Context, caller, id string, bound time.Duration, onMessage func(workrun.Message), after *int64) (serve.Task, bool, error) {
	wctx := ctx
	if bound > 0 {
		var cancel context.CancelFunc
		wctx, cancel = context.WithTimeout(ctx, bound)
		defer cancel()
	}
	var last serve.Task
	events := s.svc.Events(wctx, caller, id)
	if onMessage != nil {
		events = s.svc.EventsSince(wctx, caller, id, *after)
	}
	for ev, err := range events {
		if err != nil {
			if ctx.Err() == nil && wctx.Err() != nil && last.ID != "" {
				return last, false, nil
			}
			return last, false, err
		}
		if ev.Message != nil && onMessage != nil {
			onMessage(*ev.Message)
			*after = max(*after, ev.Message.Seq)
		}
		if ev.Task != nil {
			last = *ev.Task
		}
	}
	return last, last.State.Final() || last.State == serve.StateInputRequired, nil
}

// questionKey names a question in inputRequests.
func questionKey(q serve.Question) string {
	if q.Remote != nil {
		return q.NodeID + "#" + strconv.Itoa(q.Remote.Round)
	}
	return q.NodeID
}

// answer answers the task's open question from an inputResponses map;
// answered false when it holds no answer to it.
func (s *Server) answer(ctx context.Context, caller string, t serve.Task, responses map[string]json.RawMessage) (bool, *mcp.WireError) {
	if t.Question == nil || len(responses) == 0 {
		return false, nil
	}
	raw, ok := responses[questionKey(*t.Question)]
	if !ok {
		return false, nil
	}
	a, ok, werr := answerOf(*t.Question, raw)
	if werr != nil {
		return false, werr
	}
	if !ok {
		return false, &mcp.WireError{Code: mcp.CodeInvalidParams, Message: "Invalid params: " + texts.In("en", msgNotAnswered, questionText(*t.Question))}
	}
	if _, err := s.svc.Answer(ctx, caller, t.ID, a); err != nil {
		return false, s.wireErr(err)
	}
	return true, nil
}

// progressSender sends node messages as notifications/progress when the
// caller gave a progress token and takes a stream.
func progressSender(out *sseWriter, token json.RawMessage, nextID func() string) func(workrun.Message) {
	if out == nil || len(token) == 0 {
		return nil
	}
	n := 0
	return func(m workrun.Message) {
		n++
		text := m.In("en")
		if m.NodeID != "" {
			text = "[" + m.NodeID + "] " + text
		}
		out.send(nextID(), map[string]any{"jsonrpc": "2.0", "method": "notifications/progress",
			"params": map[string]any{"progressToken": token, "progress": n, "message": clip(text)}})
	}
}

// modernCall serves a 2026-07-28 tools/call (docs/serve.md M5, M6, M8).
func (s *Server) modernCall(w http.ResponseWriter, r *http.Request, msg *message, meta mcp.RequestMeta, caller string) {
	cp, werr := parseCall(msg.Params)
	if werr != nil {
		writeError(w, http.StatusOK, msg.ID, werr)
		return
	}
	ctx := r.Context()
	var t serve.Task
	if cp.RequestState != "" {
		var err error
		t, err = s.svc.Get(ctx, caller, cp.RequestState)
		if err != nil || t.Publication != cp.Name {
			writeError(w, http.StatusOK, msg.ID, &mcp.WireError{Code: mcp.CodeInvalidParams, Message: "Invalid params: requestState is not one this server issued to you"})
			return
		}
	} else {
		t, werr = s.start(ctx, caller, cp, idempotencyKey(r, cp.Meta, nil, nil), msg.Params)
		if werr != nil {
			writeError(w, http.StatusOK, msg.ID, werr)
			return
		}
	}
	used := map[string]bool{}
	if t.Question != nil {
		used[questionKey(*t.Question)] = true
	}
	if _, werr := s.answer(ctx, caller, t, cp.InputResponses); werr != nil {
		writeError(w, http.StatusOK, msg.ID, werr)
		return
	}
	tasks := meta.DeclaresExtension(mcp.TasksExtension)
	var out *sseWriter
	if len(cp.Meta["progressToken"]) > 0 && acceptsSSE(r) {
		out = newSSE(w, nil)
	}
	reply := func(v any) {
		ans := map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": v}
		if out != nil {
			out.send("", ans)
			return
		}
		writeJSON(w, http.StatusOK, ans)
	}
	replyErr := func(e *mcp.WireError) {
		if out != nil {
			out.send("", map[string]any{"jsonrpc": "2.0", "id": msg.ID, "error": e})
			return
		}
		writeError(w, http.StatusOK, msg.ID, e)
	}
	var bound time.Duration
	if tasks {
		bound = s.opts.SyncBound
	}
	onMsg := progressSender(out, cp.Meta["progressToken"], func() string { return "" })
	var sent int64
	t, settled, err := s.wait(ctx, caller, t.ID, bound, onMsg, &sent)
	// Answers sent with the call to a question the run asks only now
	// (inputResponses given up front) are taken once each.
	for err == nil && settled && t.State == serve.StateInputRequired && !used[questionKey(*t.Question)] && cp.InputResponses[questionKey(*t.Question)] != nil {
		used[questionKey(*t.Question)] = true
		if _, werr := s.answer(ctx, caller, t, cp.InputResponses); werr != nil {
			replyErr(werr)
			return
		}
		t, settled, err = s.wait(ctx, caller, t.ID, bound, onMsg, &sent)
	}
	switch {
	case err != nil:
		replyErr(s.wireErr(err))
	case !settled, tasks && t.State == serve.StateInputRequired:
		// Still going, or waiting for an answer: a task for a caller that
		// takes them (tasks/get shows the inputRequests, tasks/update answers).
		snap := s.snapshot(t, false)
		snap["resultType"] = "task"
		reply(snap)
	case t.State == serve.StateInputRequired:
		if !meta.Declares("elicitation") {
			reply(withType(errorResult(texts.In("en", msgNoElicitation, questionText(*t.Question))), "complete"))
			return
		}
		reply(map[string]any{"resultType": "input_required", "requestState": t.ID,
			"inputRequests": map[string]any{questionKey(*t.Question): map[string]any{"method": "elicitation/create", "params": elicitParams(*t.Question)}}})
	default:
		reply(withType(toolResult(t), "complete"))
	}
}

func withType(m map[string]any, rt string) map[string]any {
	m["resultType"] = rt
	return m
}

// taskParams are tasks/* params.
type taskParams struct {
	TaskID         string                     `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
}

// modernTask serves the Tasks extension's tasks/get, tasks/update and
// tasks/cancel (M6).
func (s *Server) modernTask(ctx context.Context, caller, method string, params json.RawMessage) (any, *mcp.WireError) {
	var p taskParams
	if err := json.Unmarshal(params, &p); err != nil || p.TaskID == "" {
		return nil, &mcp.WireError{Code: mcp.CodeInvalidParams, Message: "Invalid params: taskId is required"}
	}
	t, err := s.svc.Get(ctx, caller, p.TaskID)
	if err != nil {
		return nil, s.wireErr(err)
	}
	switch method {
	case "tasks/get":
		snap := s.snapshot(t, false)
		snap["resultType"] = "complete"
		switch {
		case t.State.Final() && t.State != serve.StateCanceled:
			snap["result"] = withType(toolResult(t), "complete")
		case t.State == serve.StateInputRequired:
			snap["inputRequests"] = map[string]any{questionKey(*t.Question): map[string]any{"method": "elicitation/create", "params": elicitParams(*t.Question)}}
		}
		return snap, nil
	case "tasks/update":
		// Acknowledged; keys that answer no open question are ignored
		// (the task stays input_required, tasks/get says so).
		if _, werr := s.answer(ctx, caller, t, p.InputResponses); werr != nil {
			return nil, werr
		}
		return map[string]any{"resultType": "complete"}, nil
	case "tasks/cancel":
		// Acknowledged with an empty result, also for a task already final
		// (the extension's cancel is idempotent).
		if _, err := s.svc.Cancel(ctx, caller, t.ID); err != nil && !errors.Is(err, serve.ErrNotCancelable) {
			return nil, s.wireErr(err)
		}
		return map[string]any{"resultType": "complete"}, nil
	}
	return nil, &mcp.WireError{Code: mcp.CodeMethodNotFound, Message: "Method not found: " + method}
}

// serveModern serves one 2026-07-28 request: the checks, then the method.
func (s *Server) serveModern(w http.ResponseWriter, r *http.Request, msg *message, meta mcp.RequestMeta, caller string) {
	if !msg.isRequest() {
		w.WriteHeader(http.StatusAccepted) // no client notification is defined on 2026-07-28 HTTP
		return
	}
	if e := mcp.CheckStateless(r.Header, msg.Method, msg.Params, []string{Modern}); e != nil {
		if e.Code == mcp.CodeUnsupportedVer {
			e.Data = map[string]any{"supported": []string{Modern}, "requested": versionOf(meta)}
		}
		writeError(w, e.Status, msg.ID, e)
		return
	}
	switch msg.Method {
	case "server/discover":
		writeResult(w, msg.ID, map[string]any{
			"resultType": "complete", "supportedVersions": []string{Modern}, "ttlMs": 0, "cacheScope": "public",
			"capabilities": map[string]any{"tools": map[string]any{}, "extensions": map[string]any{mcp.TasksExtension: map[string]any{}}},
			"serverInfo":   s.serverInfo(), "instructions": texts.In("en", msgInstructions),
			"_meta": map[string]any{"io.modelcontextprotocol/serverInfo": s.serverInfo()},
		})
	case "tools/list":
		writeResult(w, msg.ID, map[string]any{"resultType": "complete", "tools": s.tools(false), "ttlMs": 0, "cacheScope": "public"})
	case "tools/call":
		s.modernCall(w, r, msg, meta, caller)
	case "subscriptions/listen":
		s.listen(w, r, msg, meta, caller)
	case "tasks/get", "tasks/update", "tasks/cancel":
		if !meta.DeclaresExtension(mcp.TasksExtension) {
			writeError(w, http.StatusBadRequest, msg.ID, &mcp.WireError{Code: mcp.CodeMissingCapability,
				Message: "Missing required client capability: " + msg.Method + " needs the " + mcp.TasksExtension + " extension in _meta clientCapabilities",
				Data:    map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{mcp.TasksExtension: map[string]any{}}}}})
			return
		}
		res, werr := s.modernTask(r.Context(), caller, msg.Method, msg.Params)
		if werr != nil {
			writeError(w, http.StatusOK, msg.ID, werr)
			return
		}
		writeResult(w, msg.ID, res)
	default:
		// 2026-07-28 answers an unknown (or removed: initialize, ping, …) method with HTTP 404.
		writeError(w, http.StatusNotFound, msg.ID, &mcp.WireError{Code: mcp.CodeMethodNotFound, Message: "Method not found: " + strconv.Quote(clip(msg.Method))})
	}
}

func versionOf(m mcp.RequestMeta) string {
	v, _ := m.ProtocolVersion()
	return v
}
