package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"workrun/sse"
)

// request is a JSON-RPC request or notification (ID nil).
type request struct {
	JSONRPC string `json:"jsonrpc"`
	ID      *int64 `json:"id,omitempty"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

// envelope is any JSON-RPC message on a reply: a response, a notification or
// a request from the server.
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   *RPCError       `json:"error"`
}

func present(r json.RawMessage) bool {
	r = bytes.TrimSpace(r)
	return len(r) > 0 && !bytes.Equal(r, []byte("null"))
}

// headers sets what every request carries.
func (c *Client) headers(req *http.Request, session string) {
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	c.mu.Lock()
	v := c.version
	c.mu.Unlock()
	if v != "" {
		req.Header.Set("MCP-Protocol-Version", v)
	}
	c.authorize(req)
}

// authorize adds the credential, only for its own origin.
func (c *Client) authorize(req *http.Request) {
	cr := c.opts.Credential
	if cr == nil || cr.Kind == CredentialNone || c.credOrigin == "" || originOf(req.URL) != c.credOrigin {
		return
	}
	switch cr.Kind {
	case CredentialBearer:
		req.Header.Set("Authorization", "Bearer "+cr.Secret)
	case CredentialAPIKey:
		req.Header.Set(cr.Header, cr.Secret)
	}
}

func (c *Client) post(ctx context.Context, body []byte, extra http.Header) (*http.Response, bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, false, err
	}
	req.Header.Set("Content-Type", "application/json")
	sess := c.Session()
	c.headers(req, sess)
	for k, vs := range extra {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	resp, err := c.hc.Do(req)
	return resp, sess != "", err
}

// notify sends a notification; the server answers 202 (or 200) without a body.
func (c *Client) notify(ctx context.Context, method string, params any) error {
	b, err := json.Marshal(request{JSONRPC: "2.0", Method: method, Params: params})
	if err != nil {
		return err
	}
	resp, withSession, err := c.post(ctx, b, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return httpErrorFrom(resp, nil, withSession)
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) //nolint:errcheck // drained for reuse only
	return nil
}

// rpc sends one request and decodes the answer's result into out. needInit
// refuses the call before a session was set up.
func (c *Client) rpc(ctx context.Context, method string, params any, extra http.Header, out any, needInit bool) (http.Header, error) {
	if needInit && c.Version() == "" {
		return nil, ErrNotInitialized
	}
	return c.rpcWatch(ctx, method, params, extra, out, "")
}

// rpcWatch is rpc; with watchTask set, an input_required status of that task
// or a request from the server on the reply stream ends the wait with
// ErrInputRequired.
func (c *Client) rpcWatch(ctx context.Context, method string, params any, extra http.Header, out any, watchTask string) (http.Header, error) {
	if method != "initialize" && c.Version() == "" {
		return nil, ErrNotInitialized
	}
	id := c.nextID.Add(1)
	b, err := json.Marshal(request{JSONRPC: "2.0", ID: &id, Method: method, Params: params})
	if err != nil {
		return nil, err
	}
	resp, withSession, err := c.post(ctx, b, extra)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	wantID := strconv.AppendInt(nil, id, 10)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, httpErrorFrom(resp, wantID, withSession)
	}
	var result json.RawMessage
	switch mediaType(resp.Header.Get("Content-Type")) {
	case "text/event-stream":
		result, err = c.readStream(resp.Body, wantID, watchTask)
	case "application/json":
		result, err = c.readJSON(resp, wantID)
	default:
		return nil, fmt.Errorf("%w: reply of type %q", ErrProtocol, clipString(resp.Header.Get("Content-Type"), 60))
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(result, out); err != nil {
		return nil, fmt.Errorf("%w: result: %v", ErrProtocol, err)
	}
	return resp.Header, nil
}

func (c *Client) readJSON(resp *http.Response, wantID []byte) (json.RawMessage, error) {
	if resp.ContentLength > c.opts.MaxReplyBytes {
		return nil, fmt.Errorf("%w: over the %d-byte limit", ErrReplyTooLarge, c.opts.MaxReplyBytes)
	}
	var buf bytes.Buffer
	if resp.ContentLength > 0 {
		buf.Grow(int(resp.ContentLength) + 1)
	}
	if _, err := buf.ReadFrom(io.LimitReader(resp.Body, c.opts.MaxReplyBytes+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > c.opts.MaxReplyBytes {
		return nil, fmt.Errorf("%w: over the %d-byte limit", ErrReplyTooLarge, c.opts.MaxReplyBytes)
	}
	var env envelope
	if err := json.Unmarshal(buf.Bytes(), &env); err != nil {
		return nil, fmt.Errorf("%w: reply is not a JSON-RPC response: %v", ErrProtocol, err)
	}
	return checkResponse(&env, wantID)
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
	g := bytes.TrimSpace(got)
	if isError && (len(g) == 0 || bytes.Equal(g, []byte("null"))) {
		return true
	}
	return bytes.Equal(g, want)
}

// readStream reads an SSE reply until the response to wantID. Empty events
// (the priming event some servers send first) are skipped; notifications go
// to Options.OnNotification.
func (c *Client) readStream(body io.Reader, wantID []byte, watchTask string) (json.RawMessage, error) {
	r := sse.NewReader(body, c.opts.MaxEventBytes)
	defer r.Release()
	for {
		ev, err := r.Next()
		if err != nil {
			if errors.Is(err, sse.ErrEventTooLarge) {
				return nil, fmt.Errorf("%w: over the %d-byte limit", ErrEventTooLarge, c.opts.MaxEventBytes)
			}
			return nil, fmt.Errorf("%w: %v", ErrStreamBroken, err)
		}
		data := bytes.TrimSpace(ev.Data)
		if len(data) == 0 {
			continue
		}
		var env envelope
		if err := json.Unmarshal(data, &env); err != nil {
			return nil, fmt.Errorf("%w: stream event is not JSON-RPC: %v", ErrProtocol, err)
		}
		switch {
		case env.Method != "" && !present(env.ID):
			n := Notification{Method: env.Method, Params: env.Params}
			if c.opts.OnNotification != nil {
				c.opts.OnNotification(n)
			}
			if watchTask != "" && env.Method == "notifications/tasks/status" {
				var t Task
				if json.Unmarshal(env.Params, &t) == nil && t.TaskID == watchTask && t.Status == StatusInputRequired {
					return nil, fmt.Errorf("%w: %s", ErrInputRequired, clipString(t.StatusMessage, 500))
				}
			}
		case env.Method != "":
			if env.Method == "ping" {
				continue // answering needs a second request; a ping asks nothing
			}
			// The server asks the client something (elicitation, sampling):
			// this client declares no such capability and never answers.
			return nil, fmt.Errorf("%w: the server sent a %q request", ErrInputRequired, clipString(env.Method, 60))
		default:
			return checkResponse(&env, wantID)
		}
	}
}

// maxErrorBody bounds what is read of a non-2xx body.
const maxErrorBody = 64 << 10

func httpErrorFrom(resp *http.Response, wantID []byte, withSession bool) *HTTPError {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	e := &HTTPError{
		StatusCode:      resp.StatusCode,
		WithSession:     withSession,
		WWWAuthenticate: strings.Join(resp.Header.Values("WWW-Authenticate"), ", "),
	}
	snippet := body
	if len(snippet) > 512 {
		snippet = snippet[:512]
	}
	e.Body = string(snippet)
	var env envelope
	if json.Unmarshal(bytes.TrimSpace(body), &env) == nil && env.JSONRPC == "2.0" && env.Error != nil && (wantID == nil || idMatches(env.ID, wantID, true)) {
		e.RPC = env.Error
	}
	return e
}

// mediaType returns the lower-case media type of a Content-Type header.
func mediaType(h string) string {
	mt, _, err := mime.ParseMediaType(h)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(strings.Split(h, ";")[0]))
	}
	return mt
}
