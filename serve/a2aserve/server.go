package a2aserve

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"workrun/remotecall"

	"workrun/a2a"
	"workrun/serve"
	"workrun/workrun"
)

// Authenticator says whose a bearer token is. *cli's token book implements it.
type Authenticator interface {
	// Caller returns the token's label, ok false for an unknown token.
	Caller(ctx context.Context, token string) (label string, ok bool)
}

// Options configure a Server.
type Options struct {
	// BaseURL is the server's scheme://host:port as callers reach it.
	BaseURL string
	// Tokens, when set, is required: every JSON-RPC request needs a
	// known bearer token (else HTTP 401), and a caller is the token's label.
	Tokens Authenticator
	// Artifacts holds file inputs and outputs.
	Artifacts workrun.ArtifactStore
	// Version is the cards' version.
	Version string
	// MaxBodyBytes caps a request body; default 32 MiB (the client's cap).
	MaxBodyBytes int64
	// MaxFileBytes caps a message's inline file bytes and a task's file
	// artifacts; default 20 MiB (the client's cap).
	MaxFileBytes int64
	// Logger receives internal errors (never shown to callers); default discards.
	Logger *slog.Logger
}

// Server serves the publications of a serve.Service over A2A.
type Server struct {
	svc  *serve.Service
	opts Options
}

// New builds a Server.
func New(svc *serve.Service, opts Options) *Server {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = 32 << 20
	}
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = 20 << 20
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	opts.BaseURL = strings.TrimRight(opts.BaseURL, "/")
	return &Server{svc: svc, opts: opts}
}

// PathPrefix is where the agents live: BASE/a2a/ID.
const PathPrefix = "/a2a/"

// CardPath is the card's path under an agent's URL.
const CardPath = "/.well-known/agent-card.json"

// URL is the agent URL of publication id.
func (s *Server) URL(id string) string { return s.opts.BaseURL + PathPrefix + id }

// Handler serves every publication's card and JSON-RPC endpoint.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rest, ok := strings.CutPrefix(r.URL.Path, PathPrefix)
		if !ok {
			http.NotFound(w, r)
			return
		}
		id, card := strings.CutSuffix(rest, CardPath)
		pub, ok := s.svc.Publication(id)
		if !ok {
			http.NotFound(w, r)
			return
		}
		switch {
		case card && (r.Method == http.MethodGet || r.Method == http.MethodHead):
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Cache-Control", "no-cache")
			json.NewEncoder(w).Encode(s.card(pub)) //nolint:errcheck // the caller went away
		case !card && r.Method == http.MethodPost:
			s.serveRPC(w, r, pub)
		default:
			w.Header().Set("Allow", "GET, POST")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		}
	})
}

// Names of the card's security scheme.
const bearerScheme = "bearer"

func (s *Server) card(p serve.Publication) *a2a.AgentCard {
	var in []string
	for _, f := range p.Inputs {
		in = append(in, f.Name+" ("+string(f.Type)+")")
	}
	var out []string
	for _, f := range p.Outputs {
		out = append(out, f.Name+" ("+string(f.Type)+")")
	}
	desc := p.Description
	if desc == "" {
		desc = "Workrun workflow " + p.Name
	}
	skillDesc := desc
	if len(in) > 0 {
		skillDesc += "\nInputs (data part by name" + textNote(p) + "): " + strings.Join(in, ", ")
	}
	if len(out) > 0 {
		skillDesc += "\nOutputs (one artifact each): " + strings.Join(out, ", ")
	}
	c := &a2a.AgentCard{
		Name:        p.Name,
		Description: desc,
		Version:     s.opts.Version,
		SupportedInterfaces: []a2a.AgentInterface{{
			URL: s.URL(p.ID), ProtocolBinding: "JSONRPC", ProtocolVersion: a2a.ProtocolVersion,
		}},
		Capabilities:       a2a.AgentCapabilities{Streaming: true},
		DefaultInputModes:  []string{"text/plain", "application/json"},
		DefaultOutputModes: []string{"text/plain", "application/json"},
		Skills: []a2a.AgentSkill{{
			ID: p.ID, Name: p.Name, Description: skillDesc, Tags: []string{"workrun", "workflow"},
		}},
	}
	if s.opts.Tokens != nil {
		c.SecuritySchemes = map[string]a2a.SecurityScheme{bearerScheme: {HTTPAuth: &a2a.HTTPAuthSecurityScheme{
			Scheme: "Bearer", Description: "a token from `workrun serve token create`"}}}
		c.SecurityRequirements = []a2a.SecurityRequirement{{Schemes: map[string][]string{bearerScheme: {}}}}
	}
	return c
}

func textNote(p serve.Publication) string {
	if p.TextInput == "" {
		return ""
	}
	return "; a text part fills " + p.TextInput
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

// rpcRequest is a JSON-RPC 2.0 request.
type rpcRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type rpcReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// A2A and JSON-RPC error codes (docs/serve.md S10).
const (
	codeParse               = -32700
	codeInvalidRequest      = -32600
	codeMethodNotFound      = -32601
	codeInvalidParams       = -32602
	codeInternal            = -32603
	codeTaskNotFound        = -32001
	codeTaskNotCancelable   = -32002
	codePushNotSupported    = -32003
	codeUnsupported         = -32004
	codeContentType         = -32005
	codeVersionNotSupported = -32009
)

// callerError is an error whose text the caller may read.
type callerError struct {
	code int
	text string
}

func (e *callerError) Error() string { return e.text }

func fail(code int, text string) error { return &callerError{code, text} }

func (s *Server) serveRPC(w http.ResponseWriter, r *http.Request, pub serve.Publication) {
	caller, ok := s.caller(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="workrun"`)
		http.Error(w, "a bearer token is required", http.StatusUnauthorized)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "cannot read the request", http.StatusBadRequest)
		return
	}
	var req rpcRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeReply(w, rpcReply{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &rpcError{codeParse, "parse error"}})
		return
	}
	if req.JSONRPC != "2.0" || req.Method == "" || !validID(req.ID) {
		writeReply(w, rpcReply{JSONRPC: "2.0", ID: orNull(req.ID), Error: &rpcError{codeInvalidRequest, "invalid JSON-RPC request"}})
		return
	}
	if !versionOK(r) {
		writeReply(w, rpcReply{JSONRPC: "2.0", ID: req.ID, Error: &rpcError{codeVersionNotSupported,
			"this agent speaks A2A 1.0; send the header A2A-Version: 1.0"}})
		return
	}
	c := &call{s: s, pub: pub, caller: caller, id: req.ID}
	switch req.Method {
	case "SendStreamingMessage":
		c.stream(w, r, req.Params, true)
		return
	case "SubscribeToTask":
		c.stream(w, r, req.Params, false)
		return
	}
	result, err := c.method(r.Context(), req.Method, req.Params)
	if err != nil {
		writeReply(w, rpcReply{JSONRPC: "2.0", ID: req.ID, Error: s.rpcErr(err)})
		return
	}
	writeReply(w, rpcReply{JSONRPC: "2.0", ID: req.ID, Result: result})
}

// rpcErr turns err into what the caller reads: a caller error or serve
// sentinel as it is, anything else "internal error" (logged here).
func (s *Server) rpcErr(err error) *rpcError {
	var ce *callerError
	switch {
	case errors.As(err, &ce):
		return &rpcError{ce.code, ce.text}
	case errors.Is(err, serve.ErrTaskNotFound):
		return &rpcError{codeTaskNotFound, serve.ErrTaskNotFound.Error()}
	case errors.Is(err, serve.ErrNotCancelable):
		return &rpcError{codeTaskNotCancelable, serve.ErrNotCancelable.Error()}
	case errors.Is(err, serve.ErrFinal):
		return &rpcError{codeUnsupported, "the task is final; send a new message without taskId"}
	case errors.Is(err, serve.ErrNoQuestion):
		return &rpcError{codeUnsupported, serve.ErrNoQuestion.Error()}
	case errors.Is(err, serve.ErrAnswered):
		return &rpcError{codeUnsupported, serve.ErrAnswered.Error()}
	case errors.Is(err, serve.ErrBadInput):
		return &rpcError{codeInvalidParams, safeText(err)}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return &rpcError{codeInternal, "the request ended before an answer"}
	}
	s.opts.Logger.Error("a2a request failed", "err", err)
	return &rpcError{codeInternal, "internal error"}
}

// safeText is a bad-input error's text: serve names the field and the
// type, never a value.
func safeText(err error) string {
	t := err.Error()
	if len(t) > 500 {
		t = t[:500]
	}
	return t
}

func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	switch id[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return true
	}
	return false
}

func orNull(id json.RawMessage) json.RawMessage {
	if validID(id) {
		return id
	}
	return json.RawMessage("null")
}

// versionOK: A2A-Version (header or query) names major version 1. A
// missing one means 0.3 (A2A 1.0 §3.6), which this agent does not speak.
func versionOK(r *http.Request) bool {
	v := r.Header.Get("A2A-Version")
	if v == "" {
		v = r.URL.Query().Get("A2A-Version")
	}
	v = strings.TrimSpace(v)
	return v == "1" || strings.HasPrefix(v, "1.")
}

func writeReply(w http.ResponseWriter, rep rpcReply) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(rep) //nolint:errcheck // the caller went away
}

// statusTime is the time a task's status was last saved.
func statusTime(t serve.Task) time.Time { return t.StatusTime() }
