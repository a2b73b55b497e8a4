package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Input requests: what a server asks the client (docs/remote-mcp.md M15).
// On 2026-07-28 they come inside an input_required result (MRTR) or a task
// in input_required (tasks/get's inputRequests); on 2025-11-25 as requests
// on a reply stream or the GET stream. This client answers elicitation
// (form, and URL mode when declared); sampling and roots it declines.

// Elicitation modes a client may declare (Options.Elicitation).
type ElicitationModes struct {
	Form bool // form mode: a requestedSchema answered with content
	URL  bool // URL mode: the person visits a link, the answer has no content
}

func (m ElicitationModes) any() bool { return m.Form || m.URL }

// capability is the elicitation capability object ({} when not declared:
// the caller leaves it out).
func (m ElicitationModes) capability() map[string]any {
	c := map[string]any{}
	if m.Form {
		c["form"] = map[string]any{}
	}
	if m.URL {
		c["url"] = map[string]any{}
	}
	return c
}

// Elicitation request modes.
const (
	ElicitForm = "form"
	ElicitURL  = "url"
)

// Elicitation answer actions.
const (
	ActionAccept  = "accept"
	ActionDecline = "decline"
	ActionCancel  = "cancel"
)

// Methods of the requests a server may send the client.
const (
	MethodElicit    = "elicitation/create"
	MethodSampling  = "sampling/createMessage"
	MethodRootsList = "roots/list"
	MethodPing      = "ping"
)

// InputRequest is one request from the server to the client.
type InputRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// Elicitation is an elicitation/create request's parameters.
type Elicitation struct {
	// Mode is "form" (also when the server sent none) or "url".
	Mode            string          `json:"mode,omitempty"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema,omitempty"`
	URL             string          `json:"url,omitempty"`
	ElicitationID   string          `json:"elicitationId,omitempty"`
}

// Elicitation decodes an elicitation/create request (ErrProtocol when the
// request is another method or malformed).
func (r InputRequest) Elicitation() (*Elicitation, error) {
	if r.Method != MethodElicit {
		return nil, fmt.Errorf("%w: %q is not an elicitation request", ErrProtocol, clipString(r.Method, 60))
	}
	var e Elicitation
	if err := json.Unmarshal(r.Params, &e); err != nil {
		return nil, fmt.Errorf("%w: elicitation/create params: %v", ErrProtocol, err)
	}
	if e.Mode == "" {
		e.Mode = ElicitForm
	}
	switch e.Mode {
	case ElicitForm:
	case ElicitURL:
		if e.URL == "" {
			return nil, fmt.Errorf("%w: a URL-mode elicitation without a url", ErrProtocol)
		}
	default:
		return nil, fmt.Errorf("%w: elicitation mode %q", ErrProtocol, clipString(e.Mode, 40))
	}
	return &e, nil
}

// ElicitResult is the answer to an elicitation request. Content is sent
// only with accept in form mode.
type ElicitResult struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

// JSON returns the result in wire form.
func (r ElicitResult) JSON() json.RawMessage {
	if r.Action != ActionAccept {
		r.Content = nil
	}
	b, _ := json.Marshal(r) // plain values only
	return b
}

// InputRequiredError is the answer of a request the server cannot finish
// without input (it wraps ErrInputRequired): an MRTR input_required result
// (Requests by the server's keys, RequestState to echo), a task waiting in
// input_required (TaskID), or a request on a legacy stream that no handler
// answered (StreamID: its JSON-RPC id, answered later with Respond).
type InputRequiredError struct {
	Requests map[string]InputRequest
	// RequestState is the opaque state to echo on the retry; nil when the
	// server sent none (then the retry must carry none).
	RequestState *string
	// StreamID is the JSON-RPC id of a legacy stream request ("" for MRTR).
	StreamID json.RawMessage
	// TaskID is set when the request came while following a task.
	TaskID string
	// Message is a task's status message, if any.
	Message string
}

func (e *InputRequiredError) Error() string {
	var ms []string
	for _, k := range slices.Sorted(keysOf(e.Requests)) {
		ms = append(ms, clipString(e.Requests[k].Method, 60))
	}
	where := "the server asks for input"
	switch {
	case e.TaskID != "":
		where = "task " + clipString(e.TaskID, 64) + " asks for input"
	case len(e.StreamID) > 0:
		where = "the server sent a request"
	}
	if len(ms) > 0 {
		where += " (" + strings.Join(ms, ", ") + ")"
	}
	if e.Message != "" {
		where += ": " + clipString(e.Message, 500)
	}
	return fmt.Sprintf("%v: %s", ErrInputRequired, where)
}

func (e *InputRequiredError) Unwrap() error { return ErrInputRequired }

func keysOf[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// ErrAskPerson is what a RequestHandler returns when only a person can
// answer: the wait ends with an *InputRequiredError carrying the request.
var ErrAskPerson = errors.New("mcp: the request needs a person's answer")

// RequestHandler answers a request the server sends on a legacy stream
// (elicitation): the result in wire form, or ErrAskPerson. It runs on the
// goroutine reading the stream and should not block long.
type RequestHandler func(ctx context.Context, r InputRequest) (json.RawMessage, error)

// declined is the error answer to a request this client does not serve:
// sampling is refused as a person would refuse it (-1, the sampling
// spec's "user rejected"), everything else is method not found.
func declined(method string) *RPCError {
	switch method {
	case MethodSampling:
		return &RPCError{Code: -1, Message: "Workrun declines sampling: it has no model to sample"}
	case MethodRootsList:
		return &RPCError{Code: -32601, Message: "Method not found: Workrun shares no roots"}
	}
	return &RPCError{Code: -32601, Message: "Method not found: " + clipString(method, 60)}
}

// Respond answers the server's request id (a legacy stream request) with
// result, or with rpcErr when it is not nil. The answer is a POST in the
// session; the server acknowledges it with 202.
func (c *Client) Respond(ctx context.Context, id json.RawMessage, result json.RawMessage, rpcErr *RPCError) error {
	if len(bytes.TrimSpace(id)) == 0 {
		return fmt.Errorf("respond: %w: no request id", ErrProtocol)
	}
	msg := map[string]any{"jsonrpc": "2.0", "id": id}
	if rpcErr != nil {
		msg["error"] = rpcErr
	} else {
		if len(result) == 0 {
			result = json.RawMessage("{}")
		}
		msg["result"] = result
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("respond: %w", err)
	}
	h := http.Header{}
	if v := c.Version(); v != "" {
		h.Set("MCP-Protocol-Version", v)
	}
	if _, err := c.t.Send(ctx, &Message{Body: b, Header: h, Session: c.Session()}); err != nil {
		return fmt.Errorf("respond to request %s: %w", clipString(string(id), 64), err)
	}
	return nil
}

// serveRequest handles a request from the server on a legacy stream: ping
// and the methods this client does not serve are answered at once; an
// elicitation goes to the handler, and when it needs a person (or there is
// none) it comes back as an *InputRequiredError.
func (c *Client) serveRequest(ctx context.Context, env *envelope, taskID string) error {
	req := InputRequest{Method: env.Method, Params: env.Params}
	switch {
	case env.Method == MethodPing:
		return c.Respond(ctx, env.ID, nil, nil)
	case env.Method == MethodElicit && c.opts.Elicitation.any():
		ask := &InputRequiredError{Requests: map[string]InputRequest{string(bytes.TrimSpace(env.ID)): req},
			StreamID: append(json.RawMessage(nil), env.ID...), TaskID: taskID}
		e, err := req.Elicitation()
		if err != nil || (e.Mode == ElicitURL && !c.opts.Elicitation.URL) || (e.Mode == ElicitForm && !c.opts.Elicitation.Form) {
			return c.Respond(ctx, env.ID, nil, &RPCError{Code: -32602, Message: "Invalid params: an elicitation mode this client did not declare"})
		}
		if c.opts.OnRequest == nil {
			return ask
		}
		res, err := c.opts.OnRequest(ctx, req)
		if errors.Is(err, ErrAskPerson) {
			return ask
		}
		if err != nil {
			return err
		}
		return c.Respond(ctx, env.ID, res, nil)
	}
	return c.Respond(ctx, env.ID, nil, declined(env.Method))
}

// UpdateTask answers a 2026-07-28 task's input requests (tasks/update with
// inputResponses by the keys of the task's inputRequests). The server
// acknowledges with an empty result and ignores keys that are not
// outstanding, so a repeat of the same answers changes nothing.
func (c *Client) UpdateTask(ctx context.Context, taskID string, responses map[string]json.RawMessage) error {
	if len(taskID) > MaxTaskIDBytes {
		return fmt.Errorf("tasks/update: %w (%d bytes)", ErrTaskIDTooLong, len(taskID))
	}
	var raw json.RawMessage
	err := c.request(ctx, "tasks/update", map[string]any{"taskId": taskID, "inputResponses": responses}, reqOpts{name: taskID, tasks: true}, &raw)
	return taskError("tasks/update", taskID, err)
}

// ErrNoListenStream: the server offers no GET stream (405) for requests
// outside a reply.
var ErrNoListenStream = errors.New("mcp: the server offers no stream for its own requests")

// Listen opens the legacy GET stream on which a server sends requests
// that belong to no client request (2025-11-25 elicitation outside a
// reply) and answers them as a reply stream's are. The stream is optional
// and never gates anything (docs/remote-mcp.md M15 "Side streams"): Listen
// returns when the server has answered the GET, or after at most
// listenHeadStart without an answer, and the stream is read beside the
// caller's requests, in the background, until ctx ends or the server
// closes it. An answer to a request of ours that comes on it ends that
// request's wait (roundTrip). A request
// only a person can answer goes to onAsk (the stream goes on). If the
// stream cannot be opened, or breaks for good, onGiveUp hears why, once
// (ErrNoListenStream when the server offers none: 405); a late opening is
// used when it comes. Listen's own error is only that this conversation has
// no such stream: 2026-07-28, or not over HTTP (ErrNoListenStream).
func (c *Client) Listen(ctx context.Context, onAsk func(*InputRequiredError), onGiveUp func(error)) error {
	v, sess := c.Version(), c.Session()
	if v == "" || IsModern(v) {
		return fmt.Errorf("listen: %w (MCP %s)", ErrNoListenStream, display(v))
	}
	op, ok := c.t.(streamOpener)
	if !ok {
		return fmt.Errorf("listen: %w (not over HTTP)", ErrNoListenStream)
	}
	giveUp := func(err error) {
		if onGiveUp != nil && ctx.Err() == nil {
			onGiveUp(err)
		}
	}
	// The GET goes first: Listen returns once the server has answered it
	// (its response headers, or a refusal) or after listenHeadStart,
	// whichever comes first. A request written is not enough: the server
	// may still take the call first, and a server that sends a request of
	// its own only on a GET stream it already has (the TypeScript SDK's)
	// drops the request it makes during the call. A proxy that holds the
	// headers costs the call listenHeadStart, once, and holds nothing.
	answered := make(chan struct{})
	go func() {
		rep, err := op.OpenStream(ctx, &Message{Header: http.Header{"MCP-Protocol-Version": {v}}, Session: sess, Resumable: true})
		close(answered)
		if err != nil {
			var h *HTTPError
			if errors.As(err, &h) && h.StatusCode == http.StatusMethodNotAllowed {
				err = ErrNoListenStream
			}
			giveUp(fmt.Errorf("listen: %w", err))
			return
		}
		for data, err := range rep.Messages {
			if err != nil {
				giveUp(fmt.Errorf("listen: %w", err))
				return
			}
			var env envelope
			if json.Unmarshal(data, &env) != nil {
				continue
			}
			if env.Method == "" {
				// An answer to a request of ours that the server sent
				// here rather than on the request's reply stream.
				if present(env.ID) {
					c.answerOnSide(env)
				}
				continue
			}
			if !present(env.ID) {
				if c.opts.OnNotification != nil {
					c.opts.OnNotification(Notification{Method: env.Method, Params: env.Params})
				}
				continue
			}
			var ask *InputRequiredError
			if err := c.serveRequest(ctx, &env, ""); errors.As(err, &ask) && onAsk != nil {
				onAsk(ask)
			}
		}
	}()
	t := time.NewTimer(listenHeadStart)
	defer t.Stop()
	select {
	case <-answered:
	case <-t.C:
	case <-ctx.Done():
	}
	return nil
}

// listenHeadStart bounds how long Listen waits for the server's answer to
// the GET (a proxy that holds it, or a connection that cannot be made,
// delays the call by this much at most).
const listenHeadStart = 2 * time.Second

// streamOpener is a transport that can open a stream for the server's own
// messages (HTTP: GET on the endpoint).
type streamOpener interface {
	OpenStream(ctx context.Context, m *Message) (*Reply, error)
}

// inputRequired reads an input_required result (MRTR).
func inputRequired(raw json.RawMessage) error {
	var w struct {
		InputRequests map[string]InputRequest `json:"inputRequests"`
		RequestState  *string                 `json:"requestState"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return fmt.Errorf("%w: input_required result: %v", ErrProtocol, err)
	}
	if len(w.InputRequests) == 0 && w.RequestState == nil {
		return fmt.Errorf("%w: an input_required result with neither inputRequests nor requestState", ErrProtocol)
	}
	return &InputRequiredError{Requests: w.InputRequests, RequestState: w.RequestState}
}
