package demoagent

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
	"workrun/remotecall"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// SDKVersion is the a2a-go module version the agent is built on.
const SDKVersion = "github.com/a2aproject/a2a-go/v2 v2.3.1"

// JSONRPCPath is where the agent serves JSON-RPC; the card names it, so clients
// must follow the card rather than POST to the base URL.
const JSONRPCPath = "/a2a"

// DefaultAPIKeyHeader is the header carrying the API key when
// Options.APIKeyHeader is empty.
const DefaultAPIKeyHeader = "X-API-Key"

// Names of the card's security schemes.
const (
	BearerSchemeName = "bearer"
	APIKeySchemeName = "apiKey"
)

// ErrBodyTooLarge is reported (as HTTP 413) for a request over Options.MaxBodyBytes.
var ErrBodyTooLarge = errors.New("demoagent: request body too large")

// Options configure an Agent. The zero value is a streaming agent without
// authentication.
type Options struct {
	// Name is the card's name; default "Workrun demo agent".
	Name string
	// BearerToken, when set, is accepted as "Authorization: Bearer <token>".
	BearerToken string
	// APIKey, when set, is accepted in the header APIKeyHeader
	// (default DefaultAPIKeyHeader). With both set, either one suffices.
	APIKey       string
	APIKeyHeader string
	// DisableStreaming makes a non-streaming instance: the card says
	// streaming:false and streaming methods answer -32004.
	DisableStreaming bool
	// SlowInterval is the pause between `slow` updates when the command does
	// not give one; default 100ms.
	SlowInterval time.Duration
	// UncancelableFor is how long `uncancelable` works before completing;
	// default 3s; negative means it stays WORKING until Close.
	UncancelableFor time.Duration
	// CancelDelay is how long `hang` takes to acknowledge a cancel.
	CancelDelay time.Duration
	// MaxBodyBytes caps a request body (HTTP 413 above it); default 64 MiB.
	MaxBodyBytes int64
	// Logger receives the SDK's logs; default discards them.
	Logger *slog.Logger
}

// Server is the demo agent: an A2A server on HTTP. Its methods are safe
// for concurrent use.
type Server struct {
	opts    Options
	rpc     http.Handler
	exec    *executor
	closed  chan struct{}
	closing sync.Once

	mu    sync.Mutex
	stats Stats
}

// Stats are the agent's request counters. Only authorised requests that reach
// the JSON-RPC handler are counted in Methods, Submissions and Cancels.
type Stats struct {
	// Methods counts JSON-RPC requests by method name.
	Methods map[string]int
	// Submissions counts SendMessage and SendStreamingMessage by messageId.
	Submissions map[string]int
	// Cancels counts CancelTask by task id.
	Cancels map[string]int
	// Unauthorized counts requests refused with 401.
	Unauthorized int
}

// New builds an agent.
func New(opts Options) *Server {
	if opts.Name == "" {
		opts.Name = "Workrun demo agent"
	}
	if opts.APIKey != "" && opts.APIKeyHeader == "" {
		opts.APIKeyHeader = DefaultAPIKeyHeader
	}
	if opts.SlowInterval == 0 {
		opts.SlowInterval = 100 * time.Millisecond
	}
	if opts.UncancelableFor == 0 {
		opts.UncancelableFor = 3 * time.Second
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = 64 << 20
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	a := &Server{
		opts:   opts,
		closed: make(chan struct{}),
		stats: Stats{
			Methods:     map[string]int{},
			Submissions: map[string]int{},
			Cancels:     map[string]int{},
		},
	}
	a.exec = newExecutor(&a.opts, a.closed)
	caps := a.capabilities()
	handler := a2asrv.NewHandler(a.exec,
		a2asrv.WithCapabilityChecks(&caps),
		a2asrv.WithLogger(opts.Logger),
	)
	a.rpc = a2asrv.NewJSONRPCHandler(handler)
	return a
}

func (a *Server) capabilities() a2a.AgentCapabilities {
	return a2a.AgentCapabilities{Streaming: !a.opts.DisableStreaming}
}

// Handler serves the card at /.well-known/agent-card.json and JSON-RPC at
// JSONRPCPath. The card's interface URL is built from the request's Host, so
// the handler works behind httptest as well as on a fixed address.
func (a *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+a2asrv.WellKnownAgentCardPath, a.serveCard)
	mux.HandleFunc("POST "+JSONRPCPath, a.serveRPC)
	return mux
}

// Start listens on addr (e.g. "127.0.0.1:0") and serves the agent. It returns
// the base URL to give a client and a stop function that shuts the server
// down and ends any work still running.
func (a *Server) Start(addr string) (url string, stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("demo agent listen %s: %w", addr, err)
	}
	srv := &http.Server{Handler: a.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln) //nolint:errcheck // ends with ErrServerClosed on stop
	stop = func() {
		a.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if srv.Shutdown(ctx) != nil {
			srv.Close()
		}
	}
	return "http://" + ln.Addr().String(), stop, nil
}

// Close ends work that is still running (hang, uncancelable); the tasks stay
// in their last state. It does not stop an http.Server.
func (a *Server) Close() {
	a.closing.Do(func() { close(a.closed) })
}

// Stats returns a copy of the counters.
func (a *Server) Stats() Stats {
	a.mu.Lock()
	defer a.mu.Unlock()
	return Stats{
		Methods:      maps.Clone(a.stats.Methods),
		Submissions:  maps.Clone(a.stats.Submissions),
		Cancels:      maps.Clone(a.stats.Cancels),
		Unauthorized: a.stats.Unauthorized,
	}
}

// SubmissionsFor is how many SendMessage/SendStreamingMessage requests carried messageID.
func (a *Server) SubmissionsFor(messageID string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stats.Submissions[messageID]
}

// Cancels is how many CancelTask requests named taskID.
func (a *Server) Cancels(taskID string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stats.Cancels[taskID]
}

// Calls is how many requests used the JSON-RPC method.
func (a *Server) Calls(method string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stats.Methods[method]
}

// Card is the agent card for a server reachable at baseURL (no trailing slash).
func (a *Server) Card(baseURL string) *a2a.AgentCard {
	card := &a2a.AgentCard{
		Name:        a.opts.Name,
		Description: "Workrun's built-in A2A demo agent. The first word of your message picks the behaviour: echo, slow N, file, hang, uncancelable, unfinished, fail, input, auth, reject, message.",
		Version:     "1.0.0",
		SupportedInterfaces: []*a2a.AgentInterface{
			a2a.NewAgentInterface(baseURL+JSONRPCPath, a2a.TransportProtocolJSONRPC),
		},
		Provider:           &a2a.AgentProvider{Org: "Workrun", URL: "https://example.invalid/workrun"},
		Capabilities:       a.capabilities(),
		DefaultInputModes:  []string{"text/plain", "application/octet-stream"},
		DefaultOutputModes: []string{"text/plain", "application/octet-stream"},
		Skills: []a2a.AgentSkill{{
			ID:          "demo",
			Name:        "Demo behaviours",
			Description: "echo, slow N, file, hang, uncancelable, unfinished, fail, input, auth, reject, message",
			Tags:        []string{"demo", "test"},
			Examples:    []string{"echo hello", "slow 3", "file", "hang"},
		}},
	}
	if a.opts.BearerToken != "" || a.opts.APIKey != "" {
		card.SecuritySchemes = a2a.NamedSecuritySchemes{}
	}
	if a.opts.BearerToken != "" {
		card.SecuritySchemes[BearerSchemeName] = a2a.HTTPAuthSecurityScheme{Scheme: "Bearer"}
		card.SecurityRequirements = append(card.SecurityRequirements, a2a.SecurityRequirements{BearerSchemeName: {}})
	}
	if a.opts.APIKey != "" {
		card.SecuritySchemes[APIKeySchemeName] = a2a.APIKeySecurityScheme{
			Location: a2a.APIKeySecuritySchemeLocationHeader,
			Name:     a.opts.APIKeyHeader,
		}
		card.SecurityRequirements = append(card.SecurityRequirements, a2a.SecurityRequirements{APIKeySchemeName: {}})
	}
	return card
}

func (a *Server) serveCard(w http.ResponseWriter, r *http.Request) {
	body, err := json.Marshal(a.Card(remotecall.RequestOrigin(r)))
	if err != nil {
		http.Error(w, "card: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(body) //nolint:errcheck // the client went away
}

// serveRPC checks the credential, reads and counts the request, then hands it
// to the SDK's JSON-RPC handler.
func (a *Server) serveRPC(w http.ResponseWriter, r *http.Request) {
	if !a.authorized(r) {
		a.mu.Lock()
		a.stats.Unauthorized++
		a.mu.Unlock()
		if a.opts.BearerToken != "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="workrun-demo-agent"`)
		} else {
			w.Header().Set("WWW-Authenticate", `ApiKey header="`+a.opts.APIKeyHeader+`"`)
		}
		http.Error(w, "unauthorized: missing or wrong credential", http.StatusUnauthorized)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, a.opts.MaxBodyBytes+1))
	if err != nil {
		http.Error(w, "read request: "+err.Error(), http.StatusBadRequest)
		return
	}
	if int64(len(body)) > a.opts.MaxBodyBytes {
		http.Error(w, fmt.Sprintf("%v: over %d bytes", ErrBodyTooLarge, a.opts.MaxBodyBytes), http.StatusRequestEntityTooLarge)
		return
	}
	if a.count(body) {
		body = returnImmediately(body)
	}
	body = a.signInFollowUp(r.Context(), body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	a.rpc.ServeHTTP(w, r)
}

func (a *Server) authorized(r *http.Request) bool {
	if a.opts.BearerToken == "" && a.opts.APIKey == "" {
		return true
	}
	if a.opts.BearerToken != "" {
		scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
		if ok && strings.EqualFold(scheme, "Bearer") && equalSecret(token, a.opts.BearerToken) {
			return true
		}
	}
	if a.opts.APIKey != "" && equalSecret(r.Header.Get(a.opts.APIKeyHeader), a.opts.APIKey) {
		return true
	}
	return false
}

func equalSecret(got, want string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// rpcPeek is the part of a JSON-RPC request the counters need.
type rpcPeek struct {
	Method string `json:"method"`
	Params struct {
		ID      string `json:"id"`
		Message struct {
			MessageID string `json:"messageId"`
			TaskID    string `json:"taskId"`
			Parts     []struct {
				Text *string `json:"text"`
			} `json:"parts"`
		} `json:"message"`
	} `json:"params"`
}

// count updates the counters and reports whether the request is a blocking
// SendMessage of `unfinished`.
func (a *Server) count(body []byte) (unfinished bool) {
	var p rpcPeek
	if json.Unmarshal(body, &p) != nil || p.Method == "" {
		return false // the SDK answers the malformed request
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.stats.Methods[p.Method]++
	switch p.Method {
	case "SendMessage", "SendStreamingMessage":
		a.stats.Submissions[p.Params.Message.MessageID]++
	case "CancelTask":
		a.stats.Cancels[p.Params.ID]++
	}
	if p.Method != "SendMessage" {
		return false
	}
	for _, part := range p.Params.Message.Parts {
		if part.Text != nil {
			f := strings.Fields(*part.Text)
			return len(f) > 0 && strings.EqualFold(f[0], "unfinished")
		}
	}
	return false
}

// returnImmediately sets params.configuration.returnImmediately in a
// SendMessage request; on any decoding trouble the body is left alone.
func returnImmediately(body []byte) []byte {
	var req map[string]json.RawMessage
	var params map[string]json.RawMessage
	if json.Unmarshal(body, &req) != nil || json.Unmarshal(req["params"], &params) != nil || params == nil {
		return body
	}
	var conf map[string]json.RawMessage
	if raw, ok := params["configuration"]; ok && json.Unmarshal(raw, &conf) != nil {
		return body
	}
	if conf == nil {
		conf = map[string]json.RawMessage{}
	}
	conf["returnImmediately"] = json.RawMessage("true")
	var err error
	if params["configuration"], err = json.Marshal(conf); err != nil {
		return body
	}
	if req["params"], err = json.Marshal(params); err != nil {
		return body
	}
	out, err := json.Marshal(req)
	if err != nil {
		return body
	}
	return out
}

// signInFollowUp turns a client's message on a task waiting in
// AUTH_REQUIRED into the sign-in that execution waits for: a2asrv refuses a
// second execution of a task whose first still runs, so the message's text
// goes to the running one, and the request becomes a SubscribeToTask (a
// stream) or, for a blocking SendMessage, a GetTask once the execution
// ended. Any other body is returned as is.
func (a *Server) signInFollowUp(ctx context.Context, body []byte) []byte {
	var p rpcPeek
	if json.Unmarshal(body, &p) != nil || (p.Method != "SendMessage" && p.Method != "SendStreamingMessage") || p.Params.Message.TaskID == "" {
		return body
	}
	text := ""
	for _, part := range p.Params.Message.Parts {
		if part.Text != nil {
			text = *part.Text
			break
		}
	}
	id := a2a.TaskID(p.Params.Message.TaskID)
	if !a.exec.signIn(id, text) {
		return body
	}
	var req map[string]json.RawMessage
	if json.Unmarshal(body, &req) != nil {
		return body
	}
	method := "SubscribeToTask"
	if p.Method == "SendMessage" {
		method = "GetTask"
		for a.exec.running(id) && ctx.Err() == nil {
			time.Sleep(10 * time.Millisecond)
		}
	}
	req["method"], _ = json.Marshal(method)
	req["params"], _ = json.Marshal(map[string]string{"id": string(id)})
	out, err := json.Marshal(req)
	if err != nil {
		return body
	}
	return out
}
