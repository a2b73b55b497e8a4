package demoserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Path is where Handler serves MCP when mounted by ListenAndServe.
const Path = "/mcp"

// TasksExtension is the 2026-07-28 Tasks extension's identifier.
const TasksExtension = "io.modelcontextprotocol/tasks"

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
	// CutResultStreams cuts the first n tasks/result streams right after
	// their priming event, before any answer: a broken connection.
	CutResultStreams int
	// CoreOnly offers only the 2025-11-25 task form (no Tasks extension in
	// the capabilities), as servers of that generation do.
	CoreOnly bool
}

// Request is one JSON-RPC request the server received, for tests and logs.
type Request struct {
	Method  string
	Tool    string // tools/call
	TaskID  string // tasks/*
	Key     string // Idempotency-Key header of a tools/call
	Session string
	Time    time.Time
}

// Server is the demo MCP server.
type Server struct {
	opts  Options
	sdk   *sdk.Server
	inner http.Handler
	specs map[string]toolSpec

	mu       sync.Mutex
	sessions map[string]bool
	tasks    map[string]*task
	byKey    map[string]*task // session + "\x00" + idempotency key
	jobs     map[string]*job
	nextJob  int
	nextTask int
	cuts     int
	log      []Request
}

// New returns a demo server.
func New(opts Options) *Server {
	if opts.StageDuration <= 0 {
		opts.StageDuration = time.Second
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = time.Second
	}
	s := &Server{
		opts: opts, specs: map[string]toolSpec{},
		sessions: map[string]bool{}, tasks: map[string]*task{}, byKey: map[string]*task{}, jobs: map[string]*job{},
	}
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: "workrun-demo-mcp", Title: "Workrun demo MCP server", Version: "1.0.0"}, nil)
	for _, t := range tools() {
		s.specs[t.name] = t
		spec := t
		s.sdk.AddTool(&sdk.Tool{Name: t.name, Title: t.title, Description: t.description, InputSchema: t.schema},
			func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				r, err := spec.run(ctx, s, req.Params.Arguments, func(string, string) {})
				if err != nil {
					return nil, err
				}
				b, err := json.Marshal(r)
				if err != nil {
					return nil, err
				}
				var out sdk.CallToolResult
				if err := json.Unmarshal(b, &out); err != nil {
					return nil, err
				}
				return &out, nil
			})
	}
	s.inner = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk }, &sdk.StreamableHTTPOptions{JSONResponse: true})
	return s
}

// Requests returns every JSON-RPC request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.log...)
}

// DropSessions forgets every session and its tasks, as a restarted server
// would.
func (s *Server) DropSessions() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.tasks {
		t.stop()
	}
	s.sessions, s.tasks, s.byKey = map[string]bool{}, map[string]*task{}, map[string]*task{}
}

// Close stops every running task.
func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.tasks {
		t.stop()
	}
}

// rpcMessage is the part of a JSON-RPC request the wrapper reads.
type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

type callParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Task      *struct {
		TTL *int64 `json:"ttl"`
	} `json:"task"`
	Meta map[string]json.RawMessage `json:"_meta"`
}

// ServeHTTP serves MCP Streamable HTTP. The SDK handles sessions, initialize,
// tools/list and plain tools/call; the Tasks methods, which the SDK lacks,
// are handled here in front of it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		if r.Method == http.MethodDelete {
			s.mu.Lock()
			delete(s.sessions, r.Header.Get("Mcp-Session-Id"))
			s.mu.Unlock()
		}
		s.inner.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		http.Error(w, "read body: "+err.Error(), http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	var msg rpcMessage
	if json.Unmarshal(body, &msg) != nil || msg.Method == "" {
		s.inner.ServeHTTP(w, r)
		return
	}
	sess := r.Header.Get("Mcp-Session-Id")
	rec := Request{Method: msg.Method, Session: sess, Time: time.Now()}
	var cp callParams
	var taskParam struct {
		TaskID string `json:"taskId"`
	}
	switch {
	case msg.Method == "tools/call":
		json.Unmarshal(msg.Params, &cp) //nolint:errcheck // the SDK reports bad params
		rec.Tool = cp.Name
		rec.Key = r.Header.Get("Idempotency-Key")
	case strings.HasPrefix(msg.Method, "tasks/"):
		json.Unmarshal(msg.Params, &taskParam) //nolint:errcheck // checked below
		rec.TaskID = taskParam.TaskID
	}
	if len(msg.ID) > 0 {
		s.mu.Lock()
		s.log = append(s.log, rec)
		s.mu.Unlock()
	}

	switch {
	case msg.Method == "initialize":
		s.initialize(w, r)
		return
	case msg.Method == "tools/list":
		s.listTools(w, r)
		return
	case msg.Method == "tools/call":
		spec, ok := s.specs[cp.Name]
		if !ok || spec.taskSupport == "forbidden" {
			break
		}
		form := ""
		switch {
		case wantsExtension(cp.Meta) && !s.opts.CoreOnly:
			form = "extension"
		case cp.Task != nil:
			form = "core"
		}
		if form == "" && spec.taskSupport == "required" {
			writeError(w, msg.ID, -32601, fmt.Sprintf("tool %s must be called as a task", cp.Name))
			return
		}
		if form == "" {
			break
		}
		if !s.knownSession(w, msg.ID, sess) {
			return
		}
		s.startTask(w, msg.ID, sess, rec.Key, form, spec, cp.Arguments)
		return
	case strings.HasPrefix(msg.Method, "tasks/"):
		if !s.knownSession(w, msg.ID, sess) {
			return
		}
		s.taskMethod(w, r, msg, sess, taskParam.TaskID)
		return
	}
	s.inner.ServeHTTP(w, r)
}

func wantsExtension(meta map[string]json.RawMessage) bool {
	var caps struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	if json.Unmarshal(meta["io.modelcontextprotocol/clientCapabilities"], &caps) != nil {
		return false
	}
	_, ok := caps.Extensions[TasksExtension]
	return ok
}

func (s *Server) knownSession(w http.ResponseWriter, id json.RawMessage, sess string) bool {
	s.mu.Lock()
	ok := s.sessions[sess]
	s.mu.Unlock()
	if !ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": nil, //nolint:errcheck // the client went away
			"error": map[string]any{"code": -32001, "message": "Session not found"}})
		return false
	}
	return true
}

// recorder captures the SDK's answer so the wrapper can add what the SDK
// does not know (the tasks capability, execution.taskSupport).
type recorder struct {
	h    http.Header
	code int
	body bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.h }
func (r *recorder) WriteHeader(code int)        { r.code = code }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }

func (s *Server) record(r *http.Request) *recorder {
	rec := &recorder{h: http.Header{}, code: http.StatusOK}
	s.inner.ServeHTTP(rec, r)
	return rec
}

// rewrite applies edit to the result of a JSON reply and writes it out.
func rewrite(w http.ResponseWriter, rec *recorder, edit func(map[string]any)) {
	for k, v := range rec.h {
		w.Header()[k] = v
	}
	var env map[string]any
	if rec.code == http.StatusOK && json.Unmarshal(rec.body.Bytes(), &env) == nil {
		if res, ok := env["result"].(map[string]any); ok {
			edit(res)
			if b, err := json.Marshal(env); err == nil {
				w.Header().Del("Content-Length")
				w.WriteHeader(rec.code)
				w.Write(b) //nolint:errcheck // the client went away
				return
			}
		}
	}
	w.WriteHeader(rec.code)
	w.Write(rec.body.Bytes()) //nolint:errcheck // the client went away
}

func (s *Server) initialize(w http.ResponseWriter, r *http.Request) {
	rec := s.record(r)
	if sess := rec.h.Get("Mcp-Session-Id"); sess != "" && rec.code == http.StatusOK {
		s.mu.Lock()
		s.sessions[sess] = true
		s.mu.Unlock()
	}
	rewrite(w, rec, func(res map[string]any) {
		caps, _ := res["capabilities"].(map[string]any)
		if caps == nil {
			caps = map[string]any{}
			res["capabilities"] = caps
		}
		caps["tasks"] = map[string]any{"list": map[string]any{}, "cancel": map[string]any{},
			"requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}
		if !s.opts.CoreOnly {
			caps["extensions"] = map[string]any{TasksExtension: map[string]any{}}
		}
	})
}

func (s *Server) listTools(w http.ResponseWriter, r *http.Request) {
	rec := s.record(r)
	rewrite(w, rec, func(res map[string]any) {
		list, _ := res["tools"].([]any)
		for _, x := range list {
			t, _ := x.(map[string]any)
			if t == nil {
				continue
			}
			name, _ := t["name"].(string)
			if spec, ok := s.specs[name]; ok {
				t["execution"] = map[string]any{"taskSupport": spec.taskSupport}
			}
		}
	})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v) //nolint:errcheck // the client went away
}

func writeResult(w http.ResponseWriter, id json.RawMessage, result any) {
	writeJSON(w, map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func writeError(w http.ResponseWriter, id json.RawMessage, code int, message string) {
	writeJSON(w, map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": message}})
}

var errTaskGone = errors.New("task not found")
