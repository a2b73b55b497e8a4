package demoserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strings"
	"sync"
	"time"
	"workrun/mcp"
	"workrun/remotecall"
)

// Path is where Handler serves MCP when mounted by ListenAndServe.
const Path = "/mcp"

// TasksExtension is the 2026-07-28 Tasks extension's identifier.
const TasksExtension = "io.modelcontextprotocol/tasks"

// Protocol revisions the server speaks.
const (
	// Modern is the stateless revision, served per request.
	Modern = "2026-07-28"
	// Legacy is the newest initialize-based revision, served per session.
	Legacy = "2025-11-25"
)

// legacyVersions are the initialize-based revisions the server accepts in
// initialize, newest first.
var legacyVersions = []string{Legacy, "2025-06-18", "2025-03-26"}

// JSON-RPC error codes the server answers with (docs/demo-mcp.md).
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeNoMethod       = -32601
	codeInvalidParams  = -32602
	codeInternal       = -32603
	codeHeaderMismatch = -32020
	codeMissingCap     = -32021
	codeUnsupportedVer = -32022
)

// Options configure a demo server. Zero values choose the defaults.
type Options struct {
	// StageDuration is how long one stage of research (and ask's first
	// stage) takes; default 1 s.
	StageDuration time.Duration
	// PollInterval is the poll interval the tasks announce; default 1 s.
	PollInterval time.Duration
	// CancelDelay holds every tasks/cancel answer back this long (or until
	// the request is cancelled): a cancel that hangs.
	CancelDelay time.Duration
	// CutResultStreams cuts the first n tasks/result streams (2025-11-25)
	// right after their priming event, before any answer: a broken
	// connection. The stream can be resumed with GET and Last-Event-ID.
	CutResultStreams int
	// CoreOnly makes a server of the 2025-11-25 generation: sessions and
	// core Tasks only — no Tasks extension in initialize's capabilities,
	// and no 2026-07-28: a request without a session is refused as such a
	// server refuses it (HTTP 400, no JSON-RPC error body), so a dual-era
	// client falls back to initialize.
	CoreOnly bool
	// LegacyOnly makes the demo as it was before 2026-07-28: a 2025-11-25
	// server only (refusing session-less requests as CoreOnly does), that
	// still offers the Tasks extension's form inside a session.
	LegacyOnly bool
	// NoResume answers a GET with Last-Event-ID 405, as a server without an
	// event store does: a broken 2025-11-25 reply cannot be resumed.
	NoResume bool
	// Fixtures adds the conformance suite's fixture tools (greet,
	// slow_compute, failing_job, …; docs/demo-mcp.md) to the list.
	Fixtures bool
	// SSERetry is the retry: field of a 2025-11-25 SSE stream's priming
	// event; default 500 ms.
	SSERetry time.Duration
}

// Request is one JSON-RPC request the server received, for tests and logs.
// A GET that resumes a 2025-11-25 stream is logged too, with Method "GET".
type Request struct {
	Method  string
	Tool    string // tools/call
	TaskID  string // tasks/*
	Key     string // Idempotency-Key header of a tools/call
	Session string
	// Version is the revision the request was served under: Modern, or the
	// session's negotiated revision ("" for a request refused before that
	// was known).
	Version string
	// Extension says the request declared the Tasks extension in its
	// _meta client capabilities.
	Extension bool
	// Header is a copy of the request's HTTP headers.
	Header http.Header
	// Params is the request's params object as sent.
	Params json.RawMessage
	Time   time.Time
}

// Server is the demo MCP server: one task store behind two front doors,
// stateless 2026-07-28 and session-based 2025-11-25 (docs/demo-mcp.md).
type Server struct {
	opts     Options
	specs    map[string]toolSpec
	order    []string
	stateKey []byte // signs MRTR requestState

	mu        sync.Mutex
	sessions  map[string]*session
	tasks     map[string]*task
	byKey     map[string]*task // owner + "\x00" + idempotency key
	jobs      map[string]*job
	listeners map[*listener]struct{}
	nextJob   int
	nextTask  int
	cuts      int
	log       []Request
	closed    bool
}

// New returns a demo server.
func New(opts Options) *Server {
	if opts.StageDuration <= 0 {
		opts.StageDuration = time.Second
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = time.Second
	}
	if opts.SSERetry <= 0 {
		opts.SSERetry = 500 * time.Millisecond
	}
	s := &Server{
		opts: opts, specs: map[string]toolSpec{}, stateKey: randomBytes(32),
		sessions: map[string]*session{}, tasks: map[string]*task{}, byKey: map[string]*task{},
		jobs: map[string]*job{}, listeners: map[*listener]struct{}{},
	}
	list := tools()
	if opts.Fixtures {
		list = append(list, fixtures()...)
	}
	for _, t := range list {
		s.specs[t.name] = t
		s.order = append(s.order, t.name)
	}
	return s
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b) //nolint:errcheck // crypto/rand.Read never fails (Go ≥ 1.24)
	return b
}

func randomID() string { return hex.EncodeToString(randomBytes(16)) }

// Requests returns every JSON-RPC request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.log...)
}

// DropSessions forgets every session and every task, as a restarted server
// would.
func (s *Server) DropSessions() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.tasks {
		t.stop()
	}
	for _, ss := range s.sessions {
		ss.cancel()
	}
	s.sessions, s.tasks, s.byKey = map[string]*session{}, map[string]*task{}, map[string]*task{}
}

// Close stops every running task and ends every open stream.
func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for _, t := range s.tasks {
		t.stop()
	}
	for _, ss := range s.sessions {
		ss.cancel()
	}
	for l := range s.listeners {
		l.close()
	}
}

// rpcMessage is one JSON-RPC message as the server reads it.
type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
	// Result and Error mark a response, which clients must not send.
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

// isRequest says the message expects an answer.
func (m *rpcMessage) isRequest() bool { return len(m.ID) > 0 && string(m.ID) != "null" }

// Meta keys of a 2026-07-28 request.
const (
	metaSubscription = "io.modelcontextprotocol/subscriptionId"
	metaServerInfo   = "io.modelcontextprotocol/serverInfo"
)

// envelope is the part of every params object the server reads first: the
// one reader every Workrun server uses (mcp/serverwire.go).
type envelope = mcp.RequestMeta

func readEnvelope(params json.RawMessage) (envelope, bool) { return mcp.ReadRequestMeta(params) }

// ServeHTTP serves MCP Streamable HTTP. The era is chosen per request as
// docs/demo-mcp.md says: a request with 2026-07-28 _meta is served
// statelessly; initialize, or a known Mcp-Session-Id, selects 2025-11-25.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !remotecall.RebindingSafe(r) {
		writeStatusError(w, http.StatusForbidden, nil, codeInvalidRequest, "Forbidden: the Host or Origin header is not this local server")
		return
	}
	switch r.Method {
	case http.MethodPost:
	case http.MethodGet:
		s.serveGet(w, r)
		return
	case http.MethodDelete:
		s.serveDelete(w, r)
		return
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		writeStatusError(w, http.StatusMethodNotAllowed, nil, codeInvalidRequest, "Method Not Allowed")
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	if err != nil {
		writeStatusError(w, http.StatusBadRequest, nil, codeParse, "read body: "+err.Error())
		return
	}
	var msg rpcMessage
	if err := json.Unmarshal(body, &msg); err != nil {
		writeStatusError(w, http.StatusBadRequest, nil, codeParse, "Parse error: the body is not one JSON-RPC message")
		return
	}
	if msg.JSONRPC != "2.0" || (msg.Method == "" && (msg.Result != nil || msg.Error != nil)) {
		// A response from the client (2025-11-25 elicitation answers) is
		// accepted and ignored: the demo never sends requests on streams.
		if msg.JSONRPC == "2.0" {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		writeStatusError(w, http.StatusBadRequest, msg.ID, codeInvalidRequest, "Invalid Request: not a JSON-RPC 2.0 request")
		return
	}
	if msg.Method == "" {
		writeStatusError(w, http.StatusBadRequest, msg.ID, codeInvalidRequest, "Invalid Request: no method")
		return
	}
	env, ok := readEnvelope(msg.Params)
	if !ok {
		writeStatusError(w, http.StatusBadRequest, msg.ID, codeInvalidParams, "Invalid params: params must be an object")
		return
	}
	sessID := r.Header.Get("Mcp-Session-Id")
	_, modern := env.ProtocolVersion()
	s.mu.Lock()
	sess := s.sessions[sessID]
	s.mu.Unlock()
	switch {
	case (s.opts.CoreOnly || s.opts.LegacyOnly) && sessID == "" && msg.Method != "initialize":
		s.record(r, &msg, env, "", "")
		http.Error(w, "Bad Request: no valid session ID provided", http.StatusBadRequest)
	case modern:
		// A stray session id on a 2026-07-28 request is ignored.
		s.serveModern(w, r, &msg, env)
	case msg.Method == "initialize" && sessID == "":
		s.initialize(w, r, &msg)
	case sess != nil:
		s.serveLegacy(w, r, &msg, env, sess)
	case sessID != "":
		s.record(r, &msg, env, "", "")
		writeStatusError(w, http.StatusNotFound, nil, -32001, "Session not found")
	default:
		// Neither era's opening: served as 2026-07-28, which answers what
		// is missing (the _meta protocol version).
		s.serveModern(w, r, &msg, env)
	}
}

// record logs a request (not a notification) for Requests.
func (s *Server) record(r *http.Request, msg *rpcMessage, env envelope, version, session string) {
	if !msg.isRequest() {
		return
	}
	rec := Request{Method: msg.Method, Session: session, Version: version, Extension: env.DeclaresExtension(TasksExtension),
		Header: r.Header.Clone(), Params: append(json.RawMessage(nil), msg.Params...), Time: time.Now()}
	var p struct {
		Name   string `json:"name"`
		TaskID string `json:"taskId"`
	}
	json.Unmarshal(msg.Params, &p) //nolint:errcheck // a log of what arrived; bad params are answered elsewhere
	switch {
	case msg.Method == "tools/call":
		rec.Tool = p.Name
		rec.Key = r.Header.Get("Idempotency-Key")
	case strings.HasPrefix(msg.Method, "tasks/"):
		rec.TaskID = p.TaskID
	}
	s.mu.Lock()
	s.log = append(s.log, rec)
	s.mu.Unlock()
}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
	// httpStatus, when set, is the HTTP status a 2026-07-28 answer carries.
	httpStatus int
}

func (e *rpcError) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Message) }

// status is the HTTP status a 2026-07-28 answer carries for this error.
func (e *rpcError) status() int {
	if e.httpStatus != 0 {
		return e.httpStatus
	}
	switch e.Code {
	case codeNoMethod:
		return http.StatusNotFound
	case codeHeaderMismatch, codeMissingCap, codeUnsupportedVer, codeParse, codeInvalidRequest:
		return http.StatusBadRequest
	}
	return http.StatusOK
}

func errorf(code int, format string, args ...any) *rpcError {
	return &rpcError{Code: code, Message: fmt.Sprintf(format, args...)}
}

func missingTasks(what string) *rpcError {
	return &rpcError{Code: codeMissingCap,
		Message: "Missing required client capability: " + what + " needs the " + TasksExtension + " extension declared in _meta clientCapabilities.extensions",
		Data:    map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{TasksExtension: map[string]any{}}}}}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v) //nolint:errcheck // the client went away
}

func idOrNull(id json.RawMessage) json.RawMessage {
	if len(id) == 0 {
		return json.RawMessage("null")
	}
	return id
}

func writeResult(w http.ResponseWriter, id json.RawMessage, result any) {
	writeJSON(w, http.StatusOK, map[string]any{"jsonrpc": "2.0", "id": idOrNull(id), "result": result})
}

func writeStatusError(w http.ResponseWriter, status int, id json.RawMessage, code int, message string) {
	writeRPCError(w, status, id, &rpcError{Code: code, Message: message})
}

func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, e *rpcError) {
	writeJSON(w, status, map[string]any{"jsonrpc": "2.0", "id": idOrNull(id), "error": e})
}

// toRPCError turns a handler's error into the JSON-RPC error it answers.
func toRPCError(err error) *rpcError {
	var re *rpcError
	if errors.As(err, &re) {
		return re
	}
	return &rpcError{Code: codeInternal, Message: err.Error()}
}

// serverInfo names the server in initialize and server/discover.
func serverInfo() map[string]any {
	return map[string]any{"name": "workrun-demo-mcp", "title": "Workrun demo MCP server", "version": "2.0.0"}
}

const instructions = "Workrun's demo MCP server: echo answers at once, research runs as a task, survey asks for input twice, hang waits until cancelled."

// withResultType adds resultType "complete" (2026-07-28 results carry it).
func withResultType(m map[string]any) map[string]any {
	out := maps.Clone(m)
	if out == nil {
		out = map[string]any{}
	}
	if _, ok := out["resultType"]; !ok {
		out["resultType"] = "complete"
	}
	return out
}

// lifetime is a context that ends when the server closes or, for a
// 2025-11-25 session's work, when the session ends.
func (s *Server) lifetime(sess *session) (context.Context, context.CancelFunc) {
	if sess != nil {
		return context.WithCancel(sess.ctx)
	}
	return context.WithCancel(context.Background())
}
