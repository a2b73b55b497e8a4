package mcpserve

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"workrun/mcp"
	"workrun/serve"
)

// elicitation is a question sent on a 2025-11-25 stream, waiting for the
// client's response.
type elicitation struct {
	caller string
	got    chan json.RawMessage // the ElicitResult, or nil on an error response
}

// initialize opens a 2025-11-25 session (M4).
func (s *Server) initialize(w http.ResponseWriter, r *http.Request, msg *message, caller string) {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
		Capabilities    struct {
			Elicitation json.RawMessage `json:"elicitation"`
			Tasks       json.RawMessage `json:"tasks"`
		} `json:"capabilities"`
	}
	if json.Unmarshal(msg.Params, &p) != nil {
		writeError(w, http.StatusBadRequest, msg.ID, &mcp.WireError{Code: mcp.CodeInvalidParams, Message: "Invalid params: initialize params do not fit"})
		return
	}
	version := Legacy
	if slices.Contains(legacyVersions, p.ProtocolVersion) {
		version = p.ProtocolVersion
	}
	sess := &session{id: randomID(), caller: caller, version: version, created: time.Now(),
		elicitation: len(p.Capabilities.Elicitation) > 0, tasks: len(p.Capabilities.Tasks) > 0}
	s.mu.Lock()
	if len(s.sessions) >= maxSessions {
		s.dropOldestLocked()
	}
	s.sessions[sess.id] = sess
	s.mu.Unlock()
	w.Header().Set("Mcp-Session-Id", sess.id)
	writeResult(w, msg.ID, map[string]any{
		"protocolVersion": version,
		"capabilities": map[string]any{
			"tools": map[string]any{"listChanged": false},
			"tasks": map[string]any{"list": map[string]any{}, "cancel": map[string]any{}, "requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}},
		},
		"serverInfo":   s.serverInfo(),
		"instructions": texts.In("en", msgInstructions),
	})
}

// maxSessions caps the sessions kept in memory; the oldest goes first.
const maxSessions = 1000

func (s *Server) dropOldestLocked() {
	var oldest *session
	for _, ss := range s.sessions {
		if oldest == nil || ss.created.Before(oldest.created) {
			oldest = ss
		}
	}
	if oldest != nil {
		delete(s.sessions, oldest.id)
	}
}

// serveLegacy serves a request inside a 2025-11-25 session.
func (s *Server) serveLegacy(w http.ResponseWriter, r *http.Request, msg *message, sess *session) {
	if hv := r.Header.Get("MCP-Protocol-Version"); hv != "" && !slices.Contains(legacyVersions, hv) {
		writeError(w, http.StatusBadRequest, msg.ID, &mcp.WireError{Code: mcp.CodeInvalidRequest, Message: "Bad Request: unsupported MCP-Protocol-Version " + strconv.Quote(clip(hv))})
		return
	}
	if !msg.isRequest() {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	ctx := r.Context()
	switch msg.Method {
	case "ping":
		writeResult(w, msg.ID, map[string]any{})
	case "tools/list":
		writeResult(w, msg.ID, map[string]any{"tools": s.tools(true)})
	case "tools/call":
		s.legacyCall(w, r, msg, sess)
	case "tasks/get", "tasks/cancel":
		var p taskParams
		if json.Unmarshal(msg.Params, &p) != nil || p.TaskID == "" {
			writeError(w, http.StatusOK, msg.ID, &mcp.WireError{Code: mcp.CodeInvalidParams, Message: "Invalid params: taskId is required"})
			return
		}
		var t serve.Task
		var err error
		if msg.Method == "tasks/cancel" {
			t, err = s.svc.Cancel(ctx, sess.caller, p.TaskID)
		} else {
			t, err = s.svc.Get(ctx, sess.caller, p.TaskID)
		}
		if err != nil {
			writeError(w, http.StatusOK, msg.ID, s.wireErr(err))
			return
		}
		writeResult(w, msg.ID, s.snapshot(t, true))
	case "tasks/list":
		list, _, err := s.svc.List(ctx, sess.caller, serve.ListFilter{Limit: 100})
		if err != nil {
			writeError(w, http.StatusOK, msg.ID, s.wireErr(err))
			return
		}
		out := []map[string]any{}
		for _, t := range list {
			if _, ok := s.svc.Publication(t.Publication); ok {
				out = append(out, s.snapshot(t, true))
			}
		}
		writeResult(w, msg.ID, map[string]any{"tasks": out})
	case "tasks/result":
		var p taskParams
		if json.Unmarshal(msg.Params, &p) != nil || p.TaskID == "" {
			writeError(w, http.StatusOK, msg.ID, &mcp.WireError{Code: mcp.CodeInvalidParams, Message: "Invalid params: taskId is required"})
			return
		}
		t, err := s.svc.Get(ctx, sess.caller, p.TaskID)
		if err != nil {
			writeError(w, http.StatusOK, msg.ID, s.wireErr(err))
			return
		}
		s.settle(w, r, msg, sess, t, json.RawMessage(nil), true)
	default:
		writeError(w, http.StatusOK, msg.ID, &mcp.WireError{Code: mcp.CodeMethodNotFound, Message: "Method not found: " + strconv.Quote(clip(msg.Method))})
	}
}

// legacyCall serves a 2025-11-25 tools/call: a task at once when the
// caller asked for one (params.task), else the run to its end (M5, M6).
func (s *Server) legacyCall(w http.ResponseWriter, r *http.Request, msg *message, sess *session) {
	cp, werr := parseCall(msg.Params)
	if werr != nil {
		writeError(w, http.StatusOK, msg.ID, werr)
		return
	}
	t, werr := s.start(r.Context(), sess.caller, cp, idempotencyKey(r, cp.Meta, sess, msg.ID), msg.Params)
	if werr != nil {
		writeError(w, http.StatusOK, msg.ID, werr)
		return
	}
	if cp.Task != nil {
		writeResult(w, msg.ID, map[string]any{"task": s.snapshot(t, true)})
		s.watch(sess, t)
		return
	}
	s.settle(w, r, msg, sess, t, cp.Meta["progressToken"], false)
}

// settle follows t to its end and answers msg with its CallToolResult.
// On a stream (the client accepts SSE) node messages go as progress when
// a token was given, and a question goes as elicitation/create when the
// session declared elicitation; the client's answer comes back as a POST.
// Without either, a question ends the call with an error naming it (the
// person can still answer in the window) — except for tasks/result, which
// waits for that answer.
func (s *Server) settle(w http.ResponseWriter, r *http.Request, msg *message, sess *session, t serve.Task, progress json.RawMessage, taskResult bool) {
	ctx := r.Context()
	var out *sseWriter
	stream := randomID()[:8]
	n := 0
	nextID := func() string { n++; return stream + "-" + strconv.Itoa(n) }
	if acceptsSSE(r) {
		out = newSSE(w, nil)
		out.retry(500, nextID()) // priming event: the stream can be resumed by GET and Last-Event-ID
	}
	reply := func(v map[string]any) {
		if taskResult {
			v["_meta"] = map[string]any{"io.modelcontextprotocol/related-task": map[string]any{"taskId": t.ID}}
		}
		ans := map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": v}
		if out != nil {
			s.remember(sess, out, nextID(), ans)
			return
		}
		writeJSON(w, http.StatusOK, ans)
	}
	replyErr := func(e *mcp.WireError) {
		ans := map[string]any{"jsonrpc": "2.0", "id": msg.ID, "error": e}
		if out != nil {
			s.remember(sess, out, nextID(), ans)
			return
		}
		writeJSON(w, http.StatusOK, ans)
	}
	onMsg := progressSender(out, progress, nextID)
	var sent int64
	for {
		cur, _, err := s.wait(ctx, sess.caller, t.ID, 0, onMsg, &sent)
		if err != nil {
			replyErr(s.wireErr(err))
			return
		}
		if cur.State != serve.StateInputRequired {
			reply(toolResult(cur))
			return
		}
		q := *cur.Question
		if out == nil || !sess.elicitation || (taskResult && s.asksOnGet(sess, t.ID)) {
			if taskResult {
				if err := waitOther(ctx, s, sess.caller, cur); err != nil {
					replyErr(s.wireErr(err))
					return
				}
				continue
			}
			reply(errorResult(texts.In("en", msgNoElicitation, questionText(q))))
			return
		}
		eid := "elicit-" + randomID()
		e := &elicitation{caller: sess.caller, got: make(chan json.RawMessage, 1)}
		s.mu.Lock()
		s.pending[eid] = e
		s.mu.Unlock()
		params := elicitParams(q)
		if taskResult {
			params["_meta"] = map[string]any{"io.modelcontextprotocol/related-task": map[string]any{"taskId": t.ID}}
		}
		s.remember(sess, out, nextID(), map[string]any{"jsonrpc": "2.0", "id": eid, "method": "elicitation/create", "params": params})
		raw, err := s.await(ctx, e, cur)
		s.mu.Lock()
		delete(s.pending, eid)
		s.mu.Unlock()
		if err != nil {
			replyErr(s.wireErr(err))
			return
		}
		if raw == nil {
			continue // answered elsewhere (the window), or an error response: look again
		}
		if _, werr := s.answer(ctx, sess.caller, cur, map[string]json.RawMessage{questionKey(q): raw}); werr != nil {
			if werr.Message == "Invalid params: "+texts.In("en", msgNotAnswered, questionText(q)) {
				reply(errorResult(texts.In("en", msgNotAnswered, questionText(q))))
				return
			}
			replyErr(werr)
			return
		}
	}
}

// await waits for the client's answer to e, or for the question to be
// answered another way (nil).
func (s *Server) await(ctx context.Context, e *elicitation, cur serve.Task) (json.RawMessage, error) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case raw := <-e.got:
			return raw, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-tick.C:
			t, err := s.svc.Get(ctx, e.caller, cur.ID)
			if err != nil {
				return nil, err
			}
			if t.State != serve.StateInputRequired || t.Question == nil || questionKey(*t.Question) != questionKey(*cur.Question) {
				return nil, nil
			}
		}
	}
}

// waitOther waits until the task no longer waits on the question it has.
func waitOther(ctx context.Context, s *Server, caller string, cur serve.Task) error {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
			t, err := s.svc.Get(ctx, caller, cur.ID)
			if err != nil {
				return err
			}
			if t.State != serve.StateInputRequired || questionKey(*t.Question) != questionKey(*cur.Question) {
				return nil
			}
		}
	}
}

// takeResponse delivers a client's JSON-RPC response to the elicitation
// it answers; anything else is dropped.
func (s *Server) takeResponse(msg *message, caller string) {
	var id string
	if json.Unmarshal(msg.ID, &id) != nil {
		return
	}
	s.mu.Lock()
	e := s.pending[id]
	s.mu.Unlock()
	if e == nil || e.caller != caller {
		return
	}
	var raw json.RawMessage
	if msg.Error == nil {
		raw = msg.Result
	}
	select {
	case e.got <- raw:
	default:
	}
}

// remember sends ev on out and keeps it in the session's history, so a
// GET with Last-Event-ID replays what a broken stream lost (M4).
func (s *Server) remember(sess *session, out *sseWriter, id string, v any) {
	data, _ := json.Marshal(v)
	sess.mu.Lock()
	sess.events = append(sess.events, sseEvent{id: id, data: data})
	if len(sess.events) > 1000 {
		sess.events = sess.events[len(sess.events)-1000:]
	}
	sess.mu.Unlock()
	out.send(id, json.RawMessage(data))
}

// serveGet: on 2025-11-25 a session's stream (Last-Event-ID replays the
// events of the broken stream after it); 2026-07-28 has none (405).
func (s *Server) serveGet(w http.ResponseWriter, r *http.Request, caller string) {
	s.mu.Lock()
	sess := s.sessions[r.Header.Get("Mcp-Session-Id")]
	s.mu.Unlock()
	if sess == nil || sess.caller != caller {
		w.Header().Set("Allow", "POST")
		writeError(w, http.StatusMethodNotAllowed, nil, &mcp.WireError{Code: mcp.CodeInvalidRequest, Message: "Method Not Allowed: no session stream"})
		return
	}
	if !acceptsSSE(r) {
		writeError(w, http.StatusNotAcceptable, nil, &mcp.WireError{Code: mcp.CodeInvalidRequest, Message: "Not Acceptable: the client must accept text/event-stream"})
		return
	}
	last := r.Header.Get("Last-Event-ID")
	out := newSSE(w, nil)
	if last != "" {
		stream, _, _ := strings.Cut(last, "-")
		seen := false
		sess.mu.Lock()
		var replay []sseEvent
		for _, ev := range sess.events {
			if ev.id == last {
				seen = true
				continue
			}
			if seen && strings.HasPrefix(ev.id, stream+"-") {
				replay = append(replay, ev)
			}
		}
		sess.mu.Unlock()
		for _, ev := range replay {
			out.send(ev.id, json.RawMessage(ev.data))
		}
		return
	}
	// The stream stays open for what the server sends unasked: the status
	// notifications and questions of the session's tasks (watch).
	prefix := randomID()[:8]
	sess.mu.Lock()
	sess.get, sess.getID, sess.getN = out, prefix, 0
	sess.mu.Unlock()
	out.retry(500, prefix+"-0")
	<-r.Context().Done()
	sess.mu.Lock()
	if sess.get == out {
		sess.get = nil
	}
	sess.mu.Unlock()
	out.close()
}

// push sends v on the session's open GET stream; false when none is open.
func (s *Server) push(sess *session, v any) bool {
	sess.mu.Lock()
	out := sess.get
	sess.getN++
	id := sess.getID + "-" + strconv.Itoa(sess.getN)
	sess.mu.Unlock()
	if out == nil {
		return false
	}
	s.remember(sess, out, id, v)
	return true
}

// asksOnGet reports whether the session's GET stream carries the task's
// questions (watch), so tasks/result does not ask them a second time.
func (s *Server) asksOnGet(sess *session, taskID string) bool {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.get != nil && sess.watched[taskID]
}

// watch follows a task the session created (2025-11-25 core Tasks,
// docs/serve.md M6): each status change goes as notifications/tasks/status
// on the session's GET stream while one is open, and a question as
// elicitation/create with the related-task _meta there (the client polls
// tasks/get and listens on that stream; it calls tasks/result once the
// task is final). The answer is POSTed back as for a call's stream; an
// answer from the window, or through tasks/result, is taken as well.
// The first notification is created, the state the call answered: a run
// that asked before the watch began is still seen to go from working to
// input_required, never starting halfway.
func (s *Server) watch(sess *session, created serve.Task) {
	taskID := created.ID
	sess.mu.Lock()
	if sess.watched == nil {
		sess.watched = map[string]bool{}
	}
	if sess.watched[taskID] {
		sess.mu.Unlock()
		return
	}
	sess.watched[taskID] = true
	sess.mu.Unlock()
	go func() {
		ctx := context.Background() // the task outlives the request; it ends final
		related := map[string]any{"io.modelcontextprotocol/related-task": map[string]any{"taskId": taskID}}
		last := statusOf(created, true)
		s.push(sess, map[string]any{"jsonrpc": "2.0", "method": "notifications/tasks/status", "params": s.snapshot(created, true)})
		asked := ""
		// One subscription to the end: the question is asked beside it, so
		// the statuses after the answer are followed as they happen.
		for ev, err := range s.svc.EventsToEnd(ctx, sess.caller, taskID) {
			if err != nil {
				s.opts.Logger.Error("mcp task watch", "task", taskID, "err", err)
				return
			}
			if ev.Task == nil {
				continue
			}
			cur := *ev.Task
			if st := statusOf(cur, true); st != last {
				last = st
				s.push(sess, map[string]any{"jsonrpc": "2.0", "method": "notifications/tasks/status", "params": s.snapshot(cur, true)})
			}
			if cur.State == serve.StateInputRequired && cur.Question != nil && questionKey(*cur.Question) != asked {
				asked = questionKey(*cur.Question)
				go func() {
					if err := s.askOnGet(ctx, sess, cur, related); err != nil {
						s.opts.Logger.Error("mcp task watch", "task", taskID, "err", err)
					}
				}()
			}
		}
	}()
}

// askOnGet asks the task's open question on the session's GET stream and
// takes the answer; without a stream or elicitation it waits until the
// question is answered another way.
func (s *Server) askOnGet(ctx context.Context, sess *session, cur serve.Task, meta map[string]any) error {
	q := *cur.Question
	eid := "elicit-" + randomID()
	e := &elicitation{caller: sess.caller, got: make(chan json.RawMessage, 1)}
	s.mu.Lock()
	s.pending[eid] = e
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.pending, eid)
		s.mu.Unlock()
	}()
	params := elicitParams(q)
	params["_meta"] = meta
	if !sess.elicitation || !s.push(sess, map[string]any{"jsonrpc": "2.0", "id": eid, "method": "elicitation/create", "params": params}) {
		return waitOther(ctx, s, sess.caller, cur)
	}
	raw, err := s.await(ctx, e, cur)
	if err != nil || raw == nil {
		return err // nil, nil: answered elsewhere
	}
	if _, werr := s.answer(ctx, sess.caller, cur, map[string]json.RawMessage{questionKey(q): raw}); werr != nil {
		if werr.Message == "Invalid params: "+texts.In("en", msgNotAnswered, questionText(q)) {
			return waitOther(ctx, s, sess.caller, cur) // cancelled: the question stays open
		}
		return werr
	}
	return nil
}

// serveDelete ends a 2025-11-25 session.
func (s *Server) serveDelete(w http.ResponseWriter, r *http.Request, caller string) {
	id := r.Header.Get("Mcp-Session-Id")
	s.mu.Lock()
	sess := s.sessions[id]
	if sess != nil && sess.caller == caller {
		delete(s.sessions, id)
	}
	s.mu.Unlock()
	if sess == nil || sess.caller != caller {
		w.Header().Set("Allow", "POST")
		writeError(w, http.StatusMethodNotAllowed, nil, &mcp.WireError{Code: mcp.CodeInvalidRequest, Message: "Method Not Allowed: no such session"})
		return
	}
	w.WriteHeader(http.StatusOK)
}
