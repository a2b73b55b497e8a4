package demoserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// session is one 2025-11-25 session (initialize … DELETE).
type session struct {
	id, version string
	ctx         context.Context
	cancel      context.CancelFunc

	mu         sync.Mutex
	streams    map[string]*stream
	nextStream int
}

// stream is one resumable SSE reply of a session: its events are kept so a
// client that lost the connection resumes with GET and Last-Event-ID.
type stream struct {
	id      string
	mu      sync.Mutex
	events  []json.RawMessage
	done    bool
	changed chan struct{}
}

func (st *stream) add(v any, last bool) {
	b, _ := json.Marshal(v)
	st.mu.Lock()
	defer st.mu.Unlock()
	st.events = append(st.events, b)
	st.done = st.done || last
	close(st.changed)
	st.changed = make(chan struct{})
}

func (st *stream) read(from int) ([]json.RawMessage, bool, <-chan struct{}) {
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []json.RawMessage
	if from < len(st.events) {
		out = st.events[from:]
	}
	return out, st.done, st.changed
}

func (ss *session) newStream() *stream {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.nextStream++
	st := &stream{id: strconv.Itoa(ss.nextStream), changed: make(chan struct{})}
	ss.streams[st.id] = st
	return st
}

// initialize opens a 2025-11-25 session. The version is the client's if it
// is one of legacyVersions, else the newest of them (2026-07-28 is never
// spoken in a session).
func (s *Server) initialize(w http.ResponseWriter, r *http.Request, msg *rpcMessage) {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	json.Unmarshal(msg.Params, &p) //nolint:errcheck // a missing version gets the newest
	version := Legacy
	if slices.Contains(legacyVersions, p.ProtocolVersion) {
		version = p.ProtocolVersion
	}
	ctx, cancel := context.WithCancel(context.Background())
	sess := &session{id: randomID(), version: version, ctx: ctx, cancel: cancel, streams: map[string]*stream{}}
	s.mu.Lock()
	s.sessions[sess.id] = sess
	s.mu.Unlock()
	s.record(r, msg, envelope{}, version, sess.id)
	caps := map[string]any{
		"tools": map[string]any{"listChanged": false},
		"tasks": map[string]any{"list": map[string]any{}, "cancel": map[string]any{},
			"requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}},
	}
	if !s.opts.CoreOnly {
		caps["extensions"] = map[string]any{TasksExtension: map[string]any{}}
	}
	w.Header().Set("Mcp-Session-Id", sess.id)
	writeResult(w, msg.ID, map[string]any{"protocolVersion": version, "capabilities": caps,
		"serverInfo": serverInfo(), "instructions": instructions})
}

// serveLegacy serves one request of a 2025-11-25 session.
func (s *Server) serveLegacy(w http.ResponseWriter, r *http.Request, msg *rpcMessage, env envelope, sess *session) {
	s.record(r, msg, env, sess.version, sess.id)
	if !msg.isRequest() {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if hv := r.Header.Get("MCP-Protocol-Version"); hv != "" && hv != sess.version {
		writeStatusError(w, http.StatusBadRequest, msg.ID, codeInvalidRequest,
			fmt.Sprintf("Bad Request: MCP-Protocol-Version %q is not this session's version %q", hv, sess.version))
		return
	}
	switch msg.Method {
	case "initialize":
		writeStatusError(w, http.StatusBadRequest, msg.ID, codeInvalidRequest, "Invalid Request: the session is already initialized")
	case "ping":
		writeResult(w, msg.ID, map[string]any{})
	case "tools/list":
		writeResult(w, msg.ID, map[string]any{"tools": s.toolList()})
	case "tools/call":
		s.legacyCall(w, r, msg, env, sess)
	case "tasks/result":
		s.taskResult(w, r, msg, sess)
	case "tasks/get", "tasks/cancel", "tasks/list", "tasks/update":
		res, err := s.taskMethod(r.Context(), sess.id, msg.Method, msg.Params)
		writeTaskAnswer(w, msg.ID, res, err, false)
	default:
		writeStatusError(w, http.StatusOK, msg.ID, codeNoMethod, "Method not found: "+msg.Method)
	}
}

func (s *Server) legacyCall(w http.ResponseWriter, r *http.Request, msg *rpcMessage, env envelope, sess *session) {
	cp, spec, perr := s.parseCall(msg.Params)
	if perr != nil {
		writeRPCError(w, http.StatusOK, msg.ID, perr)
		return
	}
	form := ""
	switch {
	case spec.taskSupport == "forbidden":
	case env.DeclaresExtension(TasksExtension) && !s.opts.CoreOnly:
		form = formExtension
	case cp.Task != nil:
		form = formCore
	}
	if form == "" && spec.taskSupport == "required" {
		writeStatusError(w, http.StatusOK, msg.ID, codeNoMethod, fmt.Sprintf("tool %s must be called as a task", cp.Name))
		return
	}
	noInput := func(context.Context, map[string]inputRequest) (map[string]json.RawMessage, error) {
		return nil, errNoInputChannel
	}
	c := &call{args: cp.Arguments, status: func(string) {}, notify: func(float64, float64, string) {}, ask: noInput}
	if spec.gather != nil {
		writeRPCError(w, http.StatusOK, msg.ID, errorf(codeInvalidRequest, "tool %s asks for input before it starts; call it over %s", spec.name, Modern))
		return
	}
	if form != "" {
		t := s.startTask(sess.id, r.Header.Get("Idempotency-Key"), form, spec, c)
		writeResult(w, msg.ID, s.created(t))
		return
	}
	streamed := spec.name == "test_reconnection" || len(cp.Meta.ProgressToken) > 0
	if !streamed || !acceptsSSE(r) {
		res, err := spec.run(r.Context(), s, c)
		s.writeLegacyToolAnswer(w, msg.ID, res, err)
		return
	}
	// A resumable stream: the tool runs on the session's lifetime, so a
	// broken connection loses nothing; GET with Last-Event-ID resumes.
	st := sess.newStream()
	if token := cp.Meta.ProgressToken; len(token) > 0 {
		c.notify = func(progress, total float64, message string) {
			st.add(map[string]any{"jsonrpc": "2.0", "method": "notifications/progress",
				"params": map[string]any{"progressToken": token, "progress": progress, "total": total, "message": message}}, false)
		}
	}
	ctx, cancel := s.lifetime(sess)
	go func() {
		defer cancel()
		res, err := spec.run(ctx, s, c)
		st.add(legacyToolAnswer(msg.ID, res, err), true)
	}()
	s.tail(w, r, st, 0, true, spec.name == "test_reconnection")
}

var errNoInputChannel = errors.New("this tool asks for input: call it as a task with the " + TasksExtension + " extension, or over " + Modern)

func legacyToolAnswer(id json.RawMessage, res result, err error) map[string]any {
	if err != nil {
		var re *rpcError
		if errors.As(err, &re) {
			return map[string]any{"jsonrpc": "2.0", "id": id, "error": re}
		}
		// A failure inside the tool is the tool's error, as SDK servers answer it.
		return map[string]any{"jsonrpc": "2.0", "id": id, "result": errorResult(err.Error())}
	}
	return map[string]any{"jsonrpc": "2.0", "id": id, "result": res}
}

func (s *Server) writeLegacyToolAnswer(w http.ResponseWriter, id json.RawMessage, res result, err error) {
	writeJSON(w, http.StatusOK, legacyToolAnswer(id, res, err))
}

// taskResult answers tasks/result with a resumable stream: a
// notifications/tasks/status per change, then the CallToolResult.
func (s *Server) taskResult(w http.ResponseWriter, r *http.Request, msg *rpcMessage, sess *session) {
	var p taskParams
	json.Unmarshal(msg.Params, &p) //nolint:errcheck // an empty id is not found
	t, ok := s.lookup(sess.id, p.TaskID)
	if !ok {
		writeRPCError(w, http.StatusOK, msg.ID, errTaskNotFound)
		return
	}
	st := sess.newStream()
	ctx, cancel := s.lifetime(sess)
	go func() {
		defer cancel()
		last := ""
		for {
			snap, changed := t.snapshot(s.opts.PollInterval.Milliseconds(), false)
			status := snap["status"].(string)
			if status != last && last != "" || status != "working" && last == "" {
				st.add(map[string]any{"jsonrpc": "2.0", "method": "notifications/tasks/status", "params": snap}, false)
			}
			last = status
			if terminal(status) {
				st.add(coreTaskAnswer(msg.ID, t), true)
				return
			}
			select {
			case <-changed:
			case <-ctx.Done():
				return
			}
		}
	}()
	s.mu.Lock()
	cut := s.cuts < s.opts.CutResultStreams
	if cut {
		s.cuts++
	}
	s.mu.Unlock()
	s.tail(w, r, st, 0, true, cut)
}

// tail writes a stream's events after event id after (the priming event
// first when priming) until its last event; cut ends the response right
// after the priming event, as a broken connection would.
func (s *Server) tail(w http.ResponseWriter, r *http.Request, st *stream, after int, priming, cut bool) {
	out := newSSEWriter(w)
	if priming {
		out.send(st.id+":0", strconv.FormatInt(s.opts.SSERetry.Milliseconds(), 10), nil)
		if cut {
			return
		}
	}
	for {
		events, done, changed := st.read(after)
		for _, e := range events {
			after++ // events[i] has id i+1
			out.send(st.id+":"+strconv.Itoa(after), "", e)
		}
		if done {
			return // read returns everything up to the last event
		}
		select {
		case <-changed:
		case <-r.Context().Done():
			return
		}
	}
}

// serveGet resumes a session's stream after Last-Event-ID. Other GETs get
// 405: the demo offers no standalone stream, and 2026-07-28 has none.
func (s *Server) serveGet(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	sess := s.sessions[r.Header.Get("Mcp-Session-Id")]
	s.mu.Unlock()
	last := r.Header.Get("Last-Event-ID")
	if sess == nil || last == "" || s.opts.NoResume {
		if sess == nil && r.Header.Get("Mcp-Session-Id") != "" {
			writeStatusError(w, http.StatusNotFound, nil, -32001, "Session not found")
			return
		}
		w.Header().Set("Allow", "POST")
		writeStatusError(w, http.StatusMethodNotAllowed, nil, codeInvalidRequest, "Method Not Allowed: POST JSON-RPC requests; GET only resumes a 2025-11-25 stream (Last-Event-ID)")
		return
	}
	s.mu.Lock()
	s.log = append(s.log, Request{Method: "GET", Session: sess.id, Version: sess.version, Header: r.Header.Clone(), Time: time.Now()})
	s.mu.Unlock()
	sid, n, ok := strings.Cut(last, ":")
	seq, err := strconv.Atoi(n)
	sess.mu.Lock()
	st := sess.streams[sid]
	sess.mu.Unlock()
	if !ok || err != nil || st == nil || seq < 0 {
		writeStatusError(w, http.StatusBadRequest, nil, codeInvalidRequest, "Bad Request: Last-Event-ID "+strconv.Quote(last)+" names no stream of this session")
		return
	}
	s.tail(w, r, st, seq, false, false)
}

// serveDelete ends a 2025-11-25 session and its tasks.
func (s *Server) serveDelete(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get("Mcp-Session-Id")
	if id == "" {
		w.Header().Set("Allow", "POST")
		writeStatusError(w, http.StatusMethodNotAllowed, nil, codeInvalidRequest, "Method Not Allowed: no session to end (2026-07-28 has none)")
		return
	}
	s.mu.Lock()
	sess := s.sessions[id]
	delete(s.sessions, id)
	for tid, t := range s.tasks {
		if t.owner == id {
			t.stop()
			delete(s.tasks, tid)
		}
	}
	s.mu.Unlock()
	if sess == nil {
		writeStatusError(w, http.StatusNotFound, nil, -32001, "Session not found")
		return
	}
	sess.cancel()
	w.WriteHeader(http.StatusOK)
}
