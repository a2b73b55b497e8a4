package mcpserve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"workrun/mcp"
	"workrun/remotecall"
	"workrun/serve"
)

// Authenticator says whose a bearer token is (serve.Tokens implements it).
type Authenticator interface {
	Caller(ctx context.Context, token string) (label string, ok bool)
}

// Options configure a Server.
type Options struct {
	// BaseURL is the server's scheme://host:port as callers reach it.
	BaseURL string
	// Tokens, when set, is required: every request needs a known bearer
	// token (else HTTP 401), and a caller is the token's label.
	Tokens Authenticator
	// MaxBodyBytes caps a request body; default 32 MiB.
	MaxBodyBytes int64
	// SyncBound is how long tools/call waits for the run before it answers
	// with a task (for a caller that takes tasks); default 1 s.
	SyncBound time.Duration
	// PollInterval is the poll interval tasks announce; default 1 s.
	PollInterval time.Duration
	// Version is serverInfo's version.
	Version string
	// Logger receives internal errors (never shown to callers).
	Logger *slog.Logger
}

// Revisions served.
const (
	Modern = mcp.Version20260728
	Legacy = mcp.Version20251125
)

var legacyVersions = []string{Legacy, mcp.Version20250618, mcp.Version20250326}

// Path is the one MCP endpoint: BASE/mcp (docs/serve.md M1).
const Path = "/mcp"

// Server serves every publication of a serve.Service as an MCP tool.
type Server struct {
	svc  *serve.Service
	opts Options

	mu       sync.Mutex
	sessions map[string]*session
	pending  map[string]*elicitation // 2025-11-25 elicitation id → waiting call
}

// New builds a Server.
func New(svc *serve.Service, opts Options) *Server {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = 32 << 20
	}
	if opts.SyncBound <= 0 {
		opts.SyncBound = time.Second
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Version == "" {
		opts.Version = "workrun"
	}
	opts.BaseURL = strings.TrimRight(opts.BaseURL, "/")
	return &Server{svc: svc, opts: opts, sessions: map[string]*session{}, pending: map[string]*elicitation{}}
}

// URL is the MCP endpoint.
func (s *Server) URL() string { return s.opts.BaseURL + Path }

// session is one 2025-11-25 session (kept in memory: after a restart the
// client initializes again; its tasks belong to its caller and survive).
type session struct {
	id          string
	caller      string
	version     string
	elicitation bool
	tasks       bool
	created     time.Time

	mu      sync.Mutex
	events  []sseEvent // the session's streams' history, for Last-Event-ID
	get     *sseWriter // the open GET stream (server-sent messages), or nil
	getID   string     // its event id prefix
	getN    int
	watched map[string]bool // tasks this session created, followed on the GET stream
}

type sseEvent struct {
	id   string
	data []byte
}

func randomID() string {
	b := make([]byte, 16)
	rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}

// message is one JSON-RPC message as read.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   json.RawMessage `json:"error,omitempty"`
}

func (m *message) isRequest() bool { return len(m.ID) > 0 && string(m.ID) != "null" }

// Handler serves the endpoint at Path.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != Path {
			http.NotFound(w, r)
			return
		}
		s.ServeHTTP(w, r)
	})
}

// ServeHTTP serves MCP Streamable HTTP (docs/serve.md M2–M4).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !remotecall.RebindingSafe(r) {
		writeError(w, http.StatusForbidden, nil, &mcp.WireError{Code: mcp.CodeInvalidRequest, Message: texts.In("en", msgForbiddenHost)})
		return
	}
	caller, ok := s.caller(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="workrun"`)
		http.Error(w, texts.In("en", msgTokenRequired), http.StatusUnauthorized)
		return
	}
	switch r.Method {
	case http.MethodPost:
	case http.MethodGet:
		s.serveGet(w, r, caller)
		return
	case http.MethodDelete:
		s.serveDelete(w, r, caller)
		return
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		writeError(w, http.StatusMethodNotAllowed, nil, &mcp.WireError{Code: mcp.CodeInvalidRequest, Message: "Method Not Allowed"})
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			writeError(w, http.StatusRequestEntityTooLarge, nil, &mcp.WireError{Code: mcp.CodeInvalidRequest, Message: "request body too large"})
			return
		}
		writeError(w, http.StatusBadRequest, nil, &mcp.WireError{Code: mcp.CodeParseError, Message: "cannot read the request"})
		return
	}
	msg, werr := parseMessage(body)
	if werr != nil {
		writeError(w, werr.Status, idOf(msg), werr)
		return
	}
	if msg.Method == "" { // a response: an answer to our elicitation (2025-11-25)
		s.takeResponse(msg, caller)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	meta, _ := mcp.ReadRequestMeta(msg.Params)
	_, modern := meta.ProtocolVersion()
	sessID := r.Header.Get("Mcp-Session-Id")
	s.mu.Lock()
	sess := s.sessions[sessID]
	s.mu.Unlock()
	if sess != nil && sess.caller != caller {
		sess = nil // another caller's session is no session of this one
	}
	switch {
	case modern:
		s.serveModern(w, r, msg, meta, caller)
	case msg.Method == "initialize" && sessID == "":
		s.initialize(w, r, msg, caller)
	case sess != nil:
		s.serveLegacy(w, r, msg, sess)
	case sessID != "":
		writeError(w, http.StatusNotFound, msg.ID, &mcp.WireError{Code: -32001, Message: "Session not found"})
	default:
		s.serveModern(w, r, msg, meta, caller) // answers what is missing
	}
}

// parseMessage reads one JSON-RPC message; a batch, a non-object, a wrong
// version or a request without a method is refused (HTTP 400).
func parseMessage(body []byte) (*message, *mcp.WireError) {
	var msg message
	trimmed := strings.TrimSpace(string(body))
	if strings.HasPrefix(trimmed, "[") {
		return nil, &mcp.WireError{Code: mcp.CodeInvalidRequest, Message: "Invalid Request: batches are not accepted", Status: http.StatusBadRequest}
	}
	if err := json.Unmarshal(body, &msg); err != nil {
		return nil, &mcp.WireError{Code: mcp.CodeParseError, Message: "Parse error: the body is not one JSON-RPC message", Status: http.StatusBadRequest}
	}
	if msg.JSONRPC != "2.0" {
		return &msg, &mcp.WireError{Code: mcp.CodeInvalidRequest, Message: "Invalid Request: not a JSON-RPC 2.0 message", Status: http.StatusBadRequest}
	}
	if len(msg.ID) > 0 && !validID(msg.ID) {
		return nil, &mcp.WireError{Code: mcp.CodeInvalidRequest, Message: "Invalid Request: the id must be a string or a number", Status: http.StatusBadRequest}
	}
	if msg.Method == "" && msg.Result == nil && msg.Error == nil {
		return &msg, &mcp.WireError{Code: mcp.CodeInvalidRequest, Message: "Invalid Request: no method", Status: http.StatusBadRequest}
	}
	if msg.Method != "" {
		if _, ok := mcp.ReadRequestMeta(msg.Params); !ok {
			return &msg, &mcp.WireError{Code: mcp.CodeInvalidParams, Message: "Invalid params: params must be an object", Status: http.StatusBadRequest}
		}
	}
	return &msg, nil
}

func validID(id json.RawMessage) bool {
	if string(id) == "null" {
		return true
	}
	var v any
	if json.Unmarshal(id, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}

func idOf(m *message) json.RawMessage {
	if m == nil {
		return nil
	}
	return m.ID
}

// caller authenticates r: the token's label, "" without tokens.
func (s *Server) caller(r *http.Request) (string, bool) {
	if s.opts.Tokens == nil {
		return "", true
	}
	tok, ok := remotecall.RequestBearer(r)
	if !ok {
		return "", false
	}
	return s.opts.Tokens.Caller(r.Context(), tok)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v) //nolint:errcheck // the client went away
}

func orNull(id json.RawMessage) json.RawMessage {
	if len(id) == 0 {
		return json.RawMessage("null")
	}
	return id
}

func writeResult(w http.ResponseWriter, id json.RawMessage, result any) {
	writeJSON(w, http.StatusOK, map[string]any{"jsonrpc": "2.0", "id": orNull(id), "result": result})
}

func writeError(w http.ResponseWriter, status int, id json.RawMessage, e *mcp.WireError) {
	if status == 0 {
		status = http.StatusOK
	}
	writeJSON(w, status, map[string]any{"jsonrpc": "2.0", "id": orNull(id), "error": e})
}

// sseWriter writes one SSE response; ids are set on resumable streams.
type sseWriter struct {
	mu     sync.Mutex
	w      http.ResponseWriter
	fl     http.Flusher
	closed bool // the handler returned: nothing may be written now
}

// close ends the stream for senders on other goroutines; the handler
// calls it before it returns.
func (s *sseWriter) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}

func newSSE(w http.ResponseWriter, h http.Header) *sseWriter {
	for k, v := range h {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	if fl != nil {
		fl.Flush()
	}
	return &sseWriter{w: w, fl: fl}
}

func (s *sseWriter) send(id string, v any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	var b strings.Builder
	if id != "" {
		b.WriteString("id: " + id + "\n")
	}
	if v == nil {
		b.WriteString("data: \n\n")
	} else {
		data, _ := json.Marshal(v)
		b.WriteString("event: message\ndata: ")
		b.Write(data)
		b.WriteString("\n\n")
	}
	io.WriteString(s.w, b.String()) //nolint:errcheck // the client went away; the request context ends
	if s.fl != nil {
		s.fl.Flush()
	}
}

func (s *sseWriter) retry(ms int64, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	io.WriteString(s.w, "id: "+id+"\nretry: "+itoa(ms)+"\ndata: \n\n") //nolint:errcheck // the client went away
	if s.fl != nil {
		s.fl.Flush()
	}
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func acceptsSSE(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}

// serverInfo names the server.
func (s *Server) serverInfo() map[string]any {
	return map[string]any{"name": "workrun", "title": "Workrun workflows", "version": s.opts.Version}
}
