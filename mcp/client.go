package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Credential kinds.
const (
	CredentialNone   = ""
	CredentialBearer = "bearer"
	CredentialAPIKey = "apikey"
	// CredentialOAuth: Wrap supplies the transport that adds the token
	// (package oauth: refresh before expiry and after a 401).
	CredentialOAuth = "oauth"
)

// Credential authenticates requests to one origin; it is sent only there.
type Credential struct {
	// Kind is CredentialNone, CredentialBearer or CredentialAPIKey.
	Kind string
	// Header is the API key's header name; bearer uses Authorization.
	Header string
	// Secret is never logged or put in errors.
	Secret string
	// Origin is the scheme://host:port the credential belongs to; empty
	// means the endpoint's origin.
	Origin string
	// Wrap, for CredentialOAuth, wraps the HTTP transport; the wrapper sets
	// the Authorization header itself.
	Wrap func(http.RoundTripper) http.RoundTripper
}

// Default limits.
const (
	DefaultMaxReplyBytes = 64 << 20
	DefaultMaxEventBytes = 64 << 20
)

// Options configure a Client. Zero values choose the defaults.
type Options struct {
	// HTTPClient is copied; its Timeout is ignored (a timeout cuts SSE
	// replies; deadlines come from contexts) and redirects to another origin
	// are refused. Nil means a fresh http.Client.
	HTTPClient *http.Client
	Credential *Credential
	// MaxReplyBytes caps a JSON reply body; MaxEventBytes one SSE event.
	MaxReplyBytes int64
	MaxEventBytes int64
	// ClientInfo names this client in initialize.
	ClientInfo Implementation
	// Version is the protocol version offered in initialize; default the
	// newest in SupportedVersions.
	Version string
	// OnNotification, if set, sees every server notification that arrives
	// on a reply stream (progress, logging, task status). It runs on the
	// calling goroutine and must not block.
	OnNotification func(Notification)
}

// Client speaks MCP Streamable HTTP to one endpoint. It is safe for
// concurrent use once initialized (or attached).
type Client struct {
	endpoint   string
	opts       Options
	hc         *http.Client
	credOrigin string
	nextID     atomic.Int64

	mu      sync.Mutex
	session string
	version string
	init    *InitializeResult
}

// New returns a client for endpoint (the server's MCP URL). It checks the
// credential's origin and, over plain http, that the host is loopback.
func New(endpoint string, opts Options) (*Client, error) {
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("mcp: endpoint %q is not an http(s) URL", endpoint)
	}
	if u.User != nil {
		return nil, fmt.Errorf("mcp: endpoint must not carry a user name or password")
	}
	if opts.MaxReplyBytes <= 0 {
		opts.MaxReplyBytes = DefaultMaxReplyBytes
	}
	if opts.MaxEventBytes <= 0 {
		opts.MaxEventBytes = DefaultMaxEventBytes
	}
	if opts.ClientInfo.Name == "" {
		opts.ClientInfo = Implementation{Name: "workrun", Version: "1"}
	}
	if opts.Version == "" {
		opts.Version = SupportedVersions[0]
	}
	c := &Client{endpoint: u.String(), opts: opts}
	if cr := opts.Credential; cr != nil && cr.Kind != CredentialNone {
		if err := c.bindCredential(cr, u); err != nil {
			return nil, err
		}
	}
	hc := &http.Client{}
	if opts.HTTPClient != nil {
		*hc = *opts.HTTPClient
	}
	hc.Timeout = 0
	if cr := opts.Credential; cr != nil && cr.Kind == CredentialOAuth {
		hc.Transport = cr.Wrap(hc.Transport)
	}
	origin := originOf(u)
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		// Session ids and credentials stay on the endpoint's origin.
		if originOf(req.URL) != origin {
			return fmt.Errorf("mcp: redirect to another origin (%s) refused", originOf(req.URL))
		}
		return nil
	}
	c.hc = hc
	return c, nil
}

func (c *Client) bindCredential(cr *Credential, ep *url.URL) error {
	switch cr.Kind {
	case CredentialBearer:
	case CredentialOAuth:
		if cr.Wrap == nil {
			return errors.New("mcp: OAuth credential without its transport")
		}
	case CredentialAPIKey:
		if strings.TrimSpace(cr.Header) == "" {
			return errors.New("mcp: API key credential has no header name")
		}
	default:
		return fmt.Errorf("mcp: unknown credential kind %q", cr.Kind)
	}
	want := originOf(ep)
	if cr.Origin != "" {
		u, err := url.Parse(cr.Origin)
		if err != nil || u.Host == "" {
			return fmt.Errorf("%w: origin %q is not an http(s) origin", ErrCrossOriginCredential, cr.Origin)
		}
		if have := originOf(u); have != want {
			return fmt.Errorf("%w: it belongs to %s, not %s", ErrCrossOriginCredential, have, want)
		}
	}
	if ep.Scheme == "http" && !IsLoopback(ep.Hostname()) {
		return fmt.Errorf("%w (%s)", ErrInsecureCredential, want)
	}
	c.credOrigin = want
	return nil
}

// originOf returns scheme://host:port with the default port made explicit.
func originOf(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// IsLoopback reports whether host (without port) names the local machine.
func IsLoopback(host string) bool {
	h := strings.ToLower(strings.Trim(host, "[]"))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// Endpoint returns the URL requests go to.
func (c *Client) Endpoint() string { return c.endpoint }

// Session returns the Mcp-Session-Id in use ("" when the server gave none).
func (c *Client) Session() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.session
}

// Version returns the negotiated protocol version ("" before Initialize).
func (c *Client) Version() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version
}

// InitializeResult returns the server's initialize answer (nil when the
// client was attached to a saved session instead).
func (c *Client) InitializeResult() *InitializeResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.init
}

// Initialize opens a session: initialize (offering Options.Version), then
// notifications/initialized. The server's Mcp-Session-Id and the negotiated
// version are sent with every later request.
func (c *Client) Initialize(ctx context.Context) (*InitializeResult, error) {
	params := map[string]any{
		"protocolVersion": c.opts.Version,
		"capabilities":    map[string]any{},
		"clientInfo":      c.opts.ClientInfo,
	}
	var res InitializeResult
	hdr, err := c.rpc(ctx, "initialize", params, nil, &res, false)
	if err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if !slices.Contains(SupportedVersions, res.ProtocolVersion) {
		return nil, fmt.Errorf("initialize: %w: the server answered %q", ErrUnsupportedVersion, clipString(res.ProtocolVersion, 40))
	}
	c.mu.Lock()
	c.session = hdr.Get("Mcp-Session-Id")
	c.version = res.ProtocolVersion
	c.init = &res
	c.mu.Unlock()
	if err := c.notify(ctx, "notifications/initialized", map[string]any{}); err != nil {
		return nil, fmt.Errorf("notifications/initialized: %w", err)
	}
	return &res, nil
}

// Attach continues a session opened earlier (by this or another process):
// later requests carry session and version. Nothing is sent.
func (c *Client) Attach(session, version string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.session, c.version = session, version
}

// Close ends the session with DELETE. A server that does not allow it (405)
// or no longer knows the session (404) counts as closed.
func (c *Client) Close(ctx context.Context) error {
	sess := c.Session()
	if sess == "" {
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, c.endpoint, nil)
	if err != nil {
		return err
	}
	c.headers(req, sess)
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode <= 299, resp.StatusCode == 404, resp.StatusCode == 405:
		return nil
	}
	return fmt.Errorf("end session: %w", httpErrorFrom(resp, nil, true))
}

// ListTools returns every tool, following nextCursor (at most 100 pages).
func (c *Client) ListTools(ctx context.Context) ([]Tool, error) {
	var out []Tool
	cursor := ""
	for range 100 {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var page struct {
			Tools      []Tool `json:"tools"`
			NextCursor string `json:"nextCursor,omitempty"`
		}
		if _, err := c.rpc(ctx, "tools/list", params, nil, &page, true); err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		out = append(out, page.Tools...)
		if page.NextCursor == "" {
			return out, nil
		}
		cursor = page.NextCursor
	}
	return nil, fmt.Errorf("tools/list: %w: more than 100 pages", ErrProtocol)
}

// CallTool calls a tool. The answer is a final result, or a task when the
// server ran the call as one (in either form). With an IdempotencyKey the
// request carries it as a header and in _meta.
func (c *Client) CallTool(ctx context.Context, p CallParams) (*CallResult, error) {
	args := p.Arguments
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	params := callToolParams{Name: p.Name, Arguments: args}
	meta := map[string]any{}
	if p.IdempotencyKey != "" {
		meta[MetaIdempotencyKey] = p.IdempotencyKey
	}
	switch p.Task {
	case FormCore:
		params.Task = &taskParams{}
		if p.TTLMillis > 0 {
			params.Task.TTL = p.TTLMillis
		}
	case FormExtension:
		meta[MetaClientCapabilities] = map[string]any{"extensions": map[string]any{TasksExtension: map[string]any{}}}
	}
	if len(meta) > 0 {
		params.Meta = meta
	}
	var extra http.Header
	if p.IdempotencyKey != "" {
		extra = http.Header{"Idempotency-Key": {p.IdempotencyKey}}
	}
	var raw json.RawMessage
	if _, err := c.rpc(ctx, "tools/call", params, extra, &raw, true); err != nil {
		return nil, fmt.Errorf("tools/call %s: %w", p.Name, err)
	}
	res, err := decodeCallResult(raw)
	if err != nil {
		return nil, fmt.Errorf("tools/call %s: %w", p.Name, err)
	}
	return res, nil
}

// callResultWire is every shape of a tools/call result at once, so one
// decode tells a task (either form) from a final result.
type callResultWire struct {
	ResultType string `json:"resultType"`
	TaskObj    *Task  `json:"task"`
	Task
	ToolResult
}

// decodeCallResult tells a task answer (either form) from a final result.
func decodeCallResult(raw json.RawMessage) (*CallResult, error) {
	var w callResultWire
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, fmt.Errorf("%w: tools/call result: %v", ErrProtocol, err)
	}
	switch {
	case w.ResultType == "task":
		t := w.Task
		if t.TaskID == "" && w.TaskObj != nil {
			t = *w.TaskObj
		}
		if t.TaskID == "" {
			return nil, fmt.Errorf("%w: the task has no taskId", ErrProtocol)
		}
		return &CallResult{Task: &t, Form: FormExtension}, nil
	case w.TaskObj != nil:
		if w.TaskObj.TaskID == "" {
			return nil, fmt.Errorf("%w: the task has no taskId", ErrProtocol)
		}
		return &CallResult{Task: w.TaskObj, Form: FormCore}, nil
	case w.ResultType != "" && w.ResultType != "complete":
		return nil, fmt.Errorf("%w: unknown resultType %q", ErrProtocol, clipString(w.ResultType, 40))
	}
	r := w.ToolResult
	return &CallResult{Result: &r}, nil
}

type callToolParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Task      *taskParams     `json:"task,omitempty"`
	Meta      map[string]any  `json:"_meta,omitempty"`
}

type taskParams struct {
	TTL int64 `json:"ttl,omitempty"`
}

// decodeTask reads a task at the top level or under "task"; want, if set,
// is the task id the reply must name.
func decodeTask(raw json.RawMessage, want string) (*Task, error) {
	var t Task
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("%w: task: %v", ErrProtocol, err)
	}
	if t.TaskID == "" {
		var wrapped struct {
			Task *Task `json:"task"`
		}
		if json.Unmarshal(raw, &wrapped) == nil && wrapped.Task != nil {
			t = *wrapped.Task
		}
	}
	if t.TaskID == "" {
		return nil, fmt.Errorf("%w: the task has no taskId", ErrProtocol)
	}
	if want != "" && t.TaskID != want {
		return nil, fmt.Errorf("%w: reply names task %q, asked for %q", ErrProtocol, clipString(t.TaskID, 64), want)
	}
	return &t, nil
}

// GetTask reads a task; the reply must name it. In the extension form a
// terminal task carries its result or error.
func (c *Client) GetTask(ctx context.Context, taskID string) (*Task, error) {
	return c.taskCall(ctx, "tasks/get", taskID)
}

// CancelTask asks the server to cancel a task and returns the task as the
// server reports it (it may still be working).
func (c *Client) CancelTask(ctx context.Context, taskID string) (*Task, error) {
	return c.taskCall(ctx, "tasks/cancel", taskID)
}

func (c *Client) taskCall(ctx context.Context, method, taskID string) (*Task, error) {
	var raw json.RawMessage
	if _, err := c.rpc(ctx, method, map[string]any{"taskId": taskID}, nil, &raw, true); err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, taskID, err)
	}
	t, err := decodeTask(raw, taskID)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, taskID, err)
	}
	return t, nil
}

// TaskResult waits for a task's result (core form: tasks/result blocks until
// the task ends). It returns ErrInputRequired when, meanwhile, the server
// reports the task input_required or sends the client a request.
func (c *Client) TaskResult(ctx context.Context, taskID string) (*ToolResult, error) {
	var r ToolResult
	if _, err := c.rpcWatch(ctx, "tasks/result", map[string]any{"taskId": taskID}, nil, &r, taskID); err != nil {
		return nil, fmt.Errorf("tasks/result %s: %w", taskID, err)
	}
	return &r, nil
}
