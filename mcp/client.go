package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Default limits.
const (
	DefaultMaxReplyBytes = 64 << 20
	DefaultMaxEventBytes = 64 << 20
)

// Options configure a Client. Zero values choose the defaults.
type Options struct {
	// HTTPClient is copied; its Timeout is ignored (a timeout cuts SSE
	// replies; deadlines come from contexts). A node gives the remote
	// layer's credential-bound client (remotecall.Transport.Client); nil
	// means a fresh http.Client, which sends no credential. HTTP only.
	HTTPClient *http.Client
	// MaxReplyBytes caps a JSON reply body; MaxEventBytes one SSE event.
	MaxReplyBytes int64
	MaxEventBytes int64
	// ClientInfo names this client (initialize, and _meta on 2026-07-28).
	ClientInfo Implementation
	// Version pins the protocol revision. "" (the default) tries 2026-07-28
	// first and falls back to the initialize handshake when the server is
	// legacy; 2026-07-28 never falls back; a legacy version goes straight to
	// initialize offering it.
	Version string
	// OnNotification, if set, sees every server notification that arrives
	// on a reply stream (progress, logging, task status). It runs on the
	// calling goroutine and must not block.
	OnNotification func(Notification)
	// Warn, if set, hears what the client decided on its own, such as a
	// tool left out of tools/list for an invalid x-mcp-header.
	Warn func(string)
	// Elicitation declares the elicitation modes this client answers
	// (initialize's capabilities, and every 2026-07-28 request's
	// clientCapabilities); none declared means the server must not ask.
	Elicitation ElicitationModes
	// OnRequest answers an elicitation a legacy server sends on a stream;
	// nil (or ErrAskPerson) ends the wait with an *InputRequiredError.
	OnRequest RequestHandler
	// Spool, if set, makes the spool files a long tool result waits in
	// (tools/call, tasks/result, tasks/get in a JSON reply over HTTP): the
	// result's memory then does not grow with it (docs/remote-mcp.md
	// "Large results"), and the reply may be up to MaxSpoolBytes.
	Spool func() (SpoolFile, error)
	// MaxSpoolBytes caps a reply read with Spool, spooled values included.
	MaxSpoolBytes int64
}

func (o Options) withDefaults() Options {
	if o.MaxReplyBytes <= 0 {
		o.MaxReplyBytes = DefaultMaxReplyBytes
	}
	if o.MaxEventBytes <= 0 {
		o.MaxEventBytes = DefaultMaxEventBytes
	}
	if o.MaxSpoolBytes <= 0 {
		o.MaxSpoolBytes = DefaultMaxSpoolBytes
	}
	if o.ClientInfo.Name == "" {
		o.ClientInfo = Implementation{Name: "workrun", Version: "1"}
	}
	return o
}

// Client speaks MCP to one server over a Transport. It is safe for
// concurrent use once connected (or attached).
type Client struct {
	t        Transport
	endpoint string
	opts     Options
	nextID   atomic.Int64

	mu      sync.Mutex
	session string
	version string // "" until Connect, Initialize or Attach
	server  *InitializeResult
	params  map[string][]headerParam // x-mcp-header annotations by tool, from tools/list
	// waiting: legacy requests waiting for an answer, by id, which may come
	// on the GET stream (Listen).
	waiting map[int64]chan envelope
}

// New returns a client for endpoint (the server's MCP URL) over the
// Streamable HTTP transport.
func New(endpoint string, opts Options) (*Client, error) {
	t, err := NewHTTPTransport(endpoint, opts)
	if err != nil {
		return nil, err
	}
	c := NewClient(t, opts)
	c.endpoint = t.Endpoint()
	return c, nil
}

// NewClient returns a client over any transport (HTTP, stdio).
func NewClient(t Transport, opts Options) *Client {
	return &Client{t: t, opts: opts.withDefaults()}
}

// Endpoint returns the URL requests go to ("" for a non-HTTP transport).
func (c *Client) Endpoint() string { return c.endpoint }

// Session returns the legacy Mcp-Session-Id in use ("" on 2026-07-28, or
// when the server gave none).
func (c *Client) Session() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.session
}

// Version returns the protocol revision spoken ("" before Connect).
func (c *Client) Version() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version
}

// InitializeResult returns what the server said of itself (nil when the
// client was attached to a saved call instead).
func (c *Client) InitializeResult() *InitializeResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.server
}

// Connect chooses the revision as docs/remote-mcp.md M2 "Detection" says:
// unless Options.Version pins a legacy one, it sends server/discover on
// 2026-07-28. The server is a 2026-07-28 server only when the answer is a
// valid discover result (ParseDiscoverResult) listing a modern version this
// client speaks; on -32022 it retries with a version from the error's
// supported list. An empty or malformed result, a result listing only legacy
// versions, a garbage reply, a JSON-RPC error that is no modern one, or HTTP
// 400/404/405/406 falls back to Initialize; when that fails too, the error
// names what the server answered to both. A pinned 2026-07-28 never falls
// back. It never offers 2026-07-28 inside initialize.
func (c *Client) Connect(ctx context.Context) (*InitializeResult, error) {
	pinned := c.opts.Version
	if pinned != "" && !IsModern(pinned) {
		return c.Initialize(ctx)
	}
	v := pinned
	if v == "" {
		v = ModernVersions[0]
	}
	c.setState(v, "")
	res, err := c.Discover(ctx)
	if err == nil {
		if slices.Contains(res.SupportedVersions, v) {
			return res, nil
		}
		// A valid result that lists other versions: choose from its list.
		if m := pickModern(res.SupportedVersions); m != "" && pinned == "" {
			c.setState(m, "")
			return c.Discover(ctx)
		}
		offer := ""
		for _, l := range LegacyVersions {
			if slices.Contains(res.SupportedVersions, l) {
				offer = l
				break
			}
		}
		if pinned != "" || offer == "" {
			return nil, fmt.Errorf("server/discover: %w: the server supports %s", ErrUnsupportedVersion, clipString(strings.Join(res.SupportedVersions, ", "), 200))
		}
		// A legacy SDK that knows server/discover.
		c.setState("", "")
		return c.initialize(ctx, offer)
	}
	legacy, offer := legacyAnswer(err)
	if pinned != "" || !legacy {
		return nil, err
	}
	c.setState("", "")
	res, ierr := c.initialize(ctx, offer)
	if ierr != nil {
		return nil, fmt.Errorf("%w: the server speaks neither revision: to server/discover (2026-07-28) it answered: %v; to initialize (%s): %w", ErrUnsupportedVersion, err, offer, ierr)
	}
	return res, nil
}

// legacyAnswer reports whether a failed modern request says the server is
// legacy (streamable-http "Backward Compatibility"): a 400, 404, 405 or 406
// whose body is no recognised modern error, or a JSON-RPC error that is not
// one, or -32022 listing only legacy versions; offer is the legacy version
// to initialize with.
func legacyAnswer(err error) (legacy bool, offer string) {
	offer = LegacyVersions[0]
	if errors.Is(err, ErrNotDiscoverResult) {
		return true, offer
	}
	var rpc *RPCError
	if errors.As(err, &rpc) {
		switch rpc.Code {
		case codeUnsupportedVersion:
			sup, _ := versions(rpc)
			for _, v := range LegacyVersions {
				if slices.Contains(sup, v) {
					return true, v
				}
			}
			return false, ""
		case codeHeaderMismatch, codeMissingCapability:
			return false, ""
		}
	}
	var h *HTTPError
	if errors.As(err, &h) {
		switch h.StatusCode {
		case 400, 404, 405, 406:
			return true, offer
		}
		return false, ""
	}
	if rpc != nil {
		return true, offer
	}
	// A 2xx reply that is no JSON-RPC answer at all (garbage, HTML, plain
	// text): not a 2026-07-28 server; initialize says what it is.
	return errors.Is(err, ErrProtocol), offer
}

func (c *Client) setState(version, session string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.version, c.session = version, session
}

// Discover sends server/discover (2026-07-28) and keeps what it says. An
// answer that is no valid discover result is ErrNotDiscoverResult
// (ParseDiscoverResult).
func (c *Client) Discover(ctx context.Context) (*InitializeResult, error) {
	var raw json.RawMessage
	if err := c.request(ctx, "server/discover", map[string]any{}, reqOpts{}, &raw); err != nil {
		return nil, fmt.Errorf("server/discover: %w", err)
	}
	res, err := ParseDiscoverResult(raw)
	if err != nil {
		return nil, fmt.Errorf("server/discover: %w", err)
	}
	res.ProtocolVersion = c.Version()
	c.mu.Lock()
	c.server = res
	c.mu.Unlock()
	return res, nil
}

// Initialize opens a legacy session: initialize (offering Options.Version
// when it is legacy, else 2025-11-25), then notifications/initialized. The
// server's Mcp-Session-Id and the negotiated version go with every later
// request.
func (c *Client) Initialize(ctx context.Context) (*InitializeResult, error) {
	offer := c.opts.Version
	if offer == "" || IsModern(offer) {
		offer = LegacyVersions[0]
	}
	return c.initialize(ctx, offer)
}

func (c *Client) initialize(ctx context.Context, offer string) (*InitializeResult, error) {
	caps := map[string]any{}
	if c.opts.Elicitation.any() {
		caps["elicitation"] = c.opts.Elicitation.capability()
	}
	params := map[string]any{
		"protocolVersion": offer,
		"capabilities":    caps,
		"clientInfo":      c.opts.ClientInfo,
	}
	var res InitializeResult
	var session string
	if err := c.requestSession(ctx, "initialize", params, reqOpts{}, &res, &session); err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if !slices.Contains(LegacyVersions, res.ProtocolVersion) {
		return nil, fmt.Errorf("initialize: %w: the server answered %q", ErrUnsupportedVersion, clipString(res.ProtocolVersion, 40))
	}
	c.mu.Lock()
	c.session, c.version, c.server = session, res.ProtocolVersion, &res
	c.mu.Unlock()
	if err := c.notify(ctx, "notifications/initialized"); err != nil {
		return nil, fmt.Errorf("notifications/initialized: %w", err)
	}
	return &res, nil
}

// Attach continues a call begun earlier (by this or another process) on the
// revision it used; a legacy call also continues its session. Nothing is
// sent.
func (c *Client) Attach(session, version string) {
	if IsModern(version) {
		session = ""
	}
	c.setState(version, session)
}

// Close ends a legacy session with DELETE; a 2026-07-28 conversation has
// none.
func (c *Client) Close(ctx context.Context) error {
	v := c.Version()
	if IsModern(v) || c.Session() == "" {
		return nil
	}
	return c.t.EndSession(ctx, &Message{Session: c.Session(), Header: http.Header{"MCP-Protocol-Version": {v}}})
}

// reqOpts are the per-request extras.
type reqOpts struct {
	name      string      // Mcp-Name (tool name or task id)
	header    http.Header // Idempotency-Key, Mcp-Param-*
	tasks     bool        // declare the Tasks extension (2026-07-28)
	watchTask string      // end the wait when this task needs input
	spool     *spoolSet   // takes a tool result's long values (newSpool)
}

// newSpool is the spool for one request whose reply may be a tool result;
// nil without Options.Spool. The caller attaches it to the result or
// releases it.
func (c *Client) newSpool() *spoolSet {
	if c.opts.Spool == nil {
		return nil
	}
	return newSpoolSet(c.opts.Spool, c.opts.MaxSpoolBytes)
}

// clientCapabilities is what a 2026-07-28 request declares: the Tasks
// extension when asked, elicitation when Options.Elicitation says so.
func (c *Client) clientCapabilities(tasks bool) map[string]any {
	caps := map[string]any{}
	if tasks {
		caps["extensions"] = map[string]any{TasksExtension: map[string]any{}}
	}
	if c.opts.Elicitation.any() {
		caps["elicitation"] = c.opts.Elicitation.capability()
	}
	return caps
}

func (c *Client) request(ctx context.Context, method string, params map[string]any, o reqOpts, out any) error {
	return c.requestSession(ctx, method, params, o, out, nil)
}

// requestSession sends one request and decodes its result into out. On
// 2026-07-28 it adds the _meta and headers every request carries, and on
// -32022 retries once with a version from the error's supported list.
// session, if set, receives the reply's Mcp-Session-Id.
func (c *Client) requestSession(ctx context.Context, method string, params map[string]any, o reqOpts, out any, session *string) error {
	for attempt := 0; ; attempt++ {
		version, sess := c.Version(), c.Session()
		if version == "" && method != "initialize" {
			return ErrNotInitialized
		}
		modern := IsModern(version)
		p := maps.Clone(params)
		if p == nil {
			p = map[string]any{}
		}
		h := http.Header{"Mcp-Method": {method}}
		if o.name != "" {
			h["Mcp-Name"] = []string{headerValue(o.name)}
		}
		if version != "" {
			h.Set("MCP-Protocol-Version", version)
		}
		for k, vs := range o.header {
			h[k] = vs
		}
		if modern {
			meta, _ := p["_meta"].(map[string]any)
			meta = maps.Clone(meta)
			if meta == nil {
				meta = map[string]any{}
			}
			meta[MetaProtocolVersion] = version
			meta[MetaClientCapabilities] = c.clientCapabilities(o.tasks)
			meta[MetaClientInfo] = c.opts.ClientInfo
			p["_meta"] = meta
			sess = "" // a stray session id is neither kept nor sent
		}
		raw, rsess, err := c.roundTrip(ctx, method, p, h, sess, !modern && version != "", o)
		if err != nil {
			var rpc *RPCError
			if modern && attempt == 0 && errors.As(err, &rpc) && rpc.Code == codeUnsupportedVersion {
				sup, _ := versions(rpc)
				if v := pickModern(sup); v != "" {
					c.setState(v, "")
					continue
				}
			}
			return err
		}
		if session != nil {
			*session = rsess
		}
		if err := json.Unmarshal(raw, out); err != nil {
			return fmt.Errorf("%w: result: %v", ErrProtocol, err)
		}
		return nil
	}
}

// pickModern returns the newest modern version this client speaks that the
// server lists.
func pickModern(supported []string) string {
	for _, v := range ModernVersions {
		if slices.Contains(supported, v) {
			return v
		}
	}
	return ""
}

// notify sends a notification (legacy only: 2026-07-28 defines none over HTTP).
func (c *Client) notify(ctx context.Context, method string) error {
	b, err := json.Marshal(request{JSONRPC: "2.0", Method: method, Params: map[string]any{}})
	if err != nil {
		return err
	}
	h := http.Header{"Mcp-Method": {method}}
	if v := c.Version(); v != "" {
		h.Set("MCP-Protocol-Version", v)
	}
	_, err = c.t.Send(ctx, &Message{Method: method, Body: b, Header: h, Session: c.Session()})
	return err
}

// roundTrip sends one request and reads its reply until the response.
// Notifications go to Options.OnNotification; with watchTask set, an
// input_required status of that task, or a request from the server, ends
// the wait with ErrInputRequired.
func (c *Client) roundTrip(ctx context.Context, method string, params map[string]any, h http.Header, session string, resumable bool, o reqOpts) (json.RawMessage, string, error) {
	id := c.nextID.Add(1)
	b, err := json.Marshal(request{JSONRPC: "2.0", ID: &id, Method: method, Params: params})
	if err != nil {
		return nil, "", err
	}
	wantID := strconv.AppendInt(nil, id, 10)
	// A legacy server may send the answer on the session's GET stream
	// instead of the request's own (or resumed) reply stream: Listen hands
	// it over, and the wait on the reply stream ends with it.
	var side atomic.Pointer[envelope]
	if resumable {
		rctx, stop := context.WithCancel(ctx)
		defer stop()
		ch := c.await(id)
		defer c.unawait(id)
		go func() {
			select {
			case e := <-ch:
				side.Store(&e)
				stop()
			case <-rctx.Done():
			}
		}()
		ctx = rctx
	}
	sideAnswer := func(err error) (json.RawMessage, error) {
		if e := side.Load(); e != nil && err != nil {
			return checkResponse(e, wantID)
		}
		return nil, err
	}
	rep, err := c.t.Send(ctx, &Message{ID: id, Method: method, Body: b, Header: h, Session: session, Resumable: resumable, spool: o.spool})
	if err != nil {
		res, err := sideAnswer(err)
		return res, session, err
	}
	if rep.Messages == nil {
		res, err := sideAnswer(fmt.Errorf("%w: no reply", ErrStreamBroken))
		return res, rep.Session, err
	}
	res, err := c.readReply(ctx, rep.Messages, wantID, o.watchTask)
	if err != nil {
		res, err = sideAnswer(err)
	}
	return res, rep.Session, err
}

// await registers a legacy request waiting for its answer, which Listen
// may find on the GET stream; unawait ends the wait.
func (c *Client) await(id int64) <-chan envelope {
	ch := make(chan envelope, 1)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.waiting == nil {
		c.waiting = map[int64]chan envelope{}
	}
	c.waiting[id] = ch
	return ch
}

func (c *Client) unawait(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.waiting, id)
}

// answerOnSide hands an answer that came on the GET stream to the request
// waiting for it; it reports whether one was.
func (c *Client) answerOnSide(env envelope) bool {
	id, err := strconv.ParseInt(string(env.ID), 10, 64)
	if err != nil {
		return false
	}
	c.mu.Lock()
	ch, ok := c.waiting[id]
	delete(c.waiting, id)
	c.mu.Unlock()
	if ok {
		ch <- env // buffered, sent once
	}
	return ok
}

func (c *Client) readReply(ctx context.Context, msgs iter.Seq2[json.RawMessage, error], wantID []byte, watchTask string) (json.RawMessage, error) {
	for data, err := range msgs {
		if err != nil {
			return nil, err
		}
		var env envelope
		if err := json.Unmarshal(data, &env); err != nil {
			return nil, fmt.Errorf("%w: reply is not JSON-RPC: %v", ErrProtocol, err)
		}
		switch {
		case env.Method != "" && !present(env.ID):
			if c.opts.OnNotification != nil {
				c.opts.OnNotification(Notification{Method: env.Method, Params: env.Params})
			}
			if watchTask != "" && !c.opts.Elicitation.any() && (env.Method == "notifications/tasks/status" || env.Method == "notifications/tasks") {
				// Without elicitation declared nothing can answer the task:
				// the wait ends. (With it, the request follows on this
				// stream.)
				var t Task
				if json.Unmarshal(env.Params, &t) == nil && t.TaskID == watchTask && t.Status == StatusInputRequired {
					return nil, &InputRequiredError{TaskID: watchTask, Message: clipString(t.StatusMessage, 500)}
				}
			}
		case env.Method != "":
			// The server asks the client something (docs/remote-mcp.md M15).
			if err := c.serveRequest(ctx, &env, watchTask); err != nil {
				return nil, err
			}
		default:
			return checkResponse(&env, wantID)
		}
	}
	return nil, fmt.Errorf("%w: the reply ended without a response", ErrStreamBroken)
}

// checkResponse applies the envelope rules: JSON-RPC 2.0, our id, exactly
// one of result and error.
func checkResponse(env *envelope, wantID []byte) (json.RawMessage, error) {
	if env.JSONRPC != "2.0" {
		return nil, fmt.Errorf("%w: reply is not JSON-RPC 2.0", ErrProtocol)
	}
	hasResult := present(env.Result)
	if env.Error != nil && hasResult {
		return nil, fmt.Errorf("%w: reply has both result and error", ErrProtocol)
	}
	if !idMatches(env.ID, wantID, env.Error != nil) {
		return nil, fmt.Errorf("%w: reply id %s does not match request id %s", ErrProtocol, clipString(string(env.ID), 64), wantID)
	}
	if env.Error != nil {
		return nil, env.Error
	}
	if !hasResult {
		return nil, fmt.Errorf("%w: reply has no result", ErrProtocol)
	}
	return env.Result, nil
}

// idMatches reports whether a reply id is the request's id; an error reply
// may carry a null id (the server could not read ours).
func idMatches(got json.RawMessage, want []byte, isError bool) bool {
	g := trimSpace(got)
	if isError && (len(g) == 0 || string(g) == "null") {
		return true
	}
	return string(g) == string(want)
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// ListTools returns every tool, following nextCursor (at most 100 pages).
// On 2026-07-28 a tool whose x-mcp-header annotations are invalid is left
// out (Options.Warn hears why), and the others' annotations are kept for
// CallTool's Mcp-Param-* headers.
func (c *Client) ListTools(ctx context.Context) ([]Tool, error) {
	var out []Tool
	cursor := ""
	params := map[string][]headerParam{}
	modern := IsModern(c.Version())
	for range 100 {
		p := map[string]any{}
		if cursor != "" {
			p["cursor"] = cursor
		}
		var page struct {
			Tools      []Tool `json:"tools"`
			NextCursor string `json:"nextCursor,omitempty"`
		}
		if err := c.request(ctx, "tools/list", p, reqOpts{}, &page); err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		for _, t := range page.Tools {
			if modern {
				hp, err := headerParams(t.InputSchema)
				if err != nil {
					if c.opts.Warn != nil {
						c.opts.Warn(fmt.Sprintf("tool %s left out: %v", clipString(t.Name, 100), err))
					}
					continue
				}
				params[t.Name] = hp
			}
			out = append(out, t)
		}
		if page.NextCursor == "" {
			c.mu.Lock()
			c.params = params
			c.mu.Unlock()
			return out, nil
		}
		cursor = page.NextCursor
	}
	return nil, fmt.Errorf("tools/list: %w: more than 100 pages", ErrProtocol)
}

// CallTool calls a tool. The answer is a final result, or a task when the
// server ran the call as one (in either form). With an IdempotencyKey the
// request carries it as a header and in _meta; on 2026-07-28 the tool's
// x-mcp-header arguments (from the last ListTools) go out as Mcp-Param-*.
func (c *Client) CallTool(ctx context.Context, p CallParams) (*CallResult, error) {
	args := p.Arguments
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	params := map[string]any{"name": p.Name, "arguments": args}
	meta := map[string]any{}
	if p.IdempotencyKey != "" {
		meta[MetaIdempotencyKey] = p.IdempotencyKey
	}
	if p.ProgressToken != "" {
		meta["progressToken"] = p.ProgressToken
	}
	if len(p.InputResponses) > 0 {
		params["inputResponses"] = p.InputResponses
	}
	if p.RequestState != nil {
		params["requestState"] = *p.RequestState
	}
	o := reqOpts{name: p.Name, header: http.Header{}}
	modern := IsModern(c.Version())
	switch {
	case p.Task == FormCore && !modern:
		task := map[string]any{}
		if p.TTLMillis > 0 {
			task["ttl"] = p.TTLMillis
		}
		params["task"] = task
	case p.Task == FormExtension && modern:
		o.tasks = true
	}
	if len(meta) > 0 {
		params["_meta"] = meta
	}
	if p.IdempotencyKey != "" {
		o.header.Set("Idempotency-Key", p.IdempotencyKey)
	}
	if modern {
		c.mu.Lock()
		hp := c.params[p.Name]
		c.mu.Unlock()
		ph, err := paramHeaders(hp, args)
		if err != nil {
			return nil, fmt.Errorf("tools/call %s: %w", p.Name, err)
		}
		maps.Copy(o.header, ph)
	}
	o.spool = c.newSpool()
	defer o.spool.release(false) //nolint:errcheck // an unused spool holds nothing yet
	var raw json.RawMessage
	if err := c.request(ctx, "tools/call", params, o, &raw); err != nil {
		return nil, fmt.Errorf("tools/call %s: %w", p.Name, err)
	}
	res, err := decodeCallResult(raw)
	if err != nil {
		return nil, fmt.Errorf("tools/call %s: %w", p.Name, err)
	}
	o.spool.attach(res.Result)
	if res.Task != nil {
		o.spool.attach(res.Task.Result)
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

// decodeCallResult tells a task answer (either form) from a final result;
// an input_required result is an *InputRequiredError (MRTR: answer it by
// calling again with CallParams.InputResponses and RequestState).
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
		if len(t.TaskID) > MaxTaskIDBytes {
			return nil, fmt.Errorf("%w: %w (%d bytes)", ErrProtocol, ErrTaskIDTooLong, len(t.TaskID))
		}
		return &CallResult{Task: &t, Form: FormExtension}, nil
	case w.ResultType == "input_required":
		return nil, inputRequired(raw)
	case w.TaskObj != nil:
		if w.TaskObj.TaskID == "" {
			return nil, fmt.Errorf("%w: the task has no taskId", ErrProtocol)
		}
		if len(w.TaskObj.TaskID) > MaxTaskIDBytes {
			return nil, fmt.Errorf("%w: %w (%d bytes)", ErrProtocol, ErrTaskIDTooLong, len(w.TaskObj.TaskID))
		}
		return &CallResult{Task: w.TaskObj, Form: FormCore}, nil
	case w.ResultType != "" && w.ResultType != "complete":
		return nil, fmt.Errorf("%w: unknown resultType %q", ErrProtocol, clipString(w.ResultType, 40))
	}
	r := w.ToolResult
	return &CallResult{Result: &r}, nil
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

// MaxTaskIDBytes bounds a task id this client sends or accepts; a longer
// one is refused before any request (ErrTaskIDTooLong).
const MaxTaskIDBytes = 4 << 10

// ErrTaskIDTooLong: a task id over MaxTaskIDBytes.
var ErrTaskIDTooLong = fmt.Errorf("mcp: task id longer than %d bytes", MaxTaskIDBytes)

// GetTask reads a task; the reply must name it. In the extension form a
// terminal task carries its result or error.
func (c *Client) GetTask(ctx context.Context, taskID string) (*Task, error) {
	spool := c.newSpool()
	defer spool.release(false) //nolint:errcheck // an unused spool holds nothing yet
	raw, err := c.taskRequest(ctx, "tasks/get", taskID, spool)
	if err != nil {
		return nil, err
	}
	t, err := decodeTask(raw, taskID)
	if err != nil {
		return nil, fmt.Errorf("tasks/get %s: %w", clipString(taskID, 64), err)
	}
	spool.attach(t.Result)
	return t, nil
}

// CancelTask asks the server to cancel a task. It returns the task as the
// server reports it (it may still be working), or nil when the server
// acknowledged with an empty result — on 2026-07-28 that is the answer: the
// server accepted the cancel.
func (c *Client) CancelTask(ctx context.Context, taskID string) (*Task, error) {
	raw, err := c.taskRequest(ctx, "tasks/cancel", taskID, nil)
	if err != nil {
		return nil, err
	}
	var probe struct {
		TaskID string          `json:"taskId"`
		Task   json.RawMessage `json:"task"`
	}
	if err := json.Unmarshal(raw, &probe); err != nil {
		return nil, fmt.Errorf("tasks/cancel %s: %w: %v", clipString(taskID, 64), ErrProtocol, err)
	}
	if probe.TaskID == "" && !present(probe.Task) {
		return nil, nil
	}
	t, err := decodeTask(raw, taskID)
	if err != nil {
		return nil, fmt.Errorf("tasks/cancel %s: %w", clipString(taskID, 64), err)
	}
	return t, nil
}

// taskRequest sends tasks/get or tasks/cancel: Mcp-Name is the task id and,
// on 2026-07-28, the Tasks extension is declared (the server must refuse
// tasks/* otherwise). -32602 (the id is the only parameter) is
// ErrTaskNotFound.
func (c *Client) taskRequest(ctx context.Context, method, taskID string, spool *spoolSet) (json.RawMessage, error) {
	if len(taskID) > MaxTaskIDBytes {
		return nil, fmt.Errorf("%s: %w (%d bytes)", method, ErrTaskIDTooLong, len(taskID))
	}
	var raw json.RawMessage
	err := c.request(ctx, method, map[string]any{"taskId": taskID}, reqOpts{name: taskID, tasks: true, spool: spool}, &raw)
	return raw, taskError(method, taskID, err)
}

func taskError(method, taskID string, err error) error {
	if err == nil {
		return nil
	}
	var rpc *RPCError
	if errors.As(err, &rpc) && rpc.Code == -32602 {
		return fmt.Errorf("%s %s: %w: %w", method, clipString(taskID, 64), ErrTaskNotFound, err)
	}
	return fmt.Errorf("%s %s: %w", method, clipString(taskID, 64), err)
}

// TaskResult waits for a task's result (core form: tasks/result blocks until
// the task ends). It returns ErrInputRequired when, meanwhile, the server
// reports the task input_required or sends the client a request.
func (c *Client) TaskResult(ctx context.Context, taskID string) (*ToolResult, error) {
	if len(taskID) > MaxTaskIDBytes {
		return nil, fmt.Errorf("tasks/result: %w (%d bytes)", ErrTaskIDTooLong, len(taskID))
	}
	var r ToolResult
	o := reqOpts{name: taskID, watchTask: taskID, spool: c.newSpool()}
	defer o.spool.release(false) //nolint:errcheck // an unused spool holds nothing yet
	err := c.request(ctx, "tasks/result", map[string]any{"taskId": taskID}, o, &r)
	if err != nil {
		return nil, taskError("tasks/result", taskID, err)
	}
	o.spool.attach(&r)
	return &r, nil
}
