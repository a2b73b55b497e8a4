package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// Default limits.
const (
	DefaultMaxReplyBytes   = 64 << 20
	DefaultMaxEventBytes   = 64 << 20
	DefaultMaxRequestBytes = 32 << 20
	DefaultCardMaxBytes    = 1 << 20
)

// Options configure a Client. Zero values choose the defaults.
type Options struct {
	// HTTPClient sends every request, the card fetch included; its Timeout
	// is ignored (a timeout cuts streams; deadlines come from the context).
	// The credential, its origin binding, redirects and redaction of what
	// the agent echoes are its transport's (remotecall.Transport in the
	// product). Nil means a fresh http.Client.
	HTTPClient *http.Client
	// CardHTTPClient fetches the Agent Card; nil means HTTPClient.
	CardHTTPClient *http.Client
	// MaxReplyBytes caps a non-stream reply body.
	MaxReplyBytes int64
	// MaxEventBytes caps one SSE event's data.
	MaxEventBytes int64
	// MaxRequestBytes is the transport's request size limit; a larger
	// encoded request is refused before anything is sent (docs/remote-agent.md R14).
	MaxRequestBytes int64
	// CardMaxBytes caps the Agent Card.
	CardMaxBytes int64
}

// Client talks A2A 1.0 JSON-RPC to one agent interface. It is safe for
// concurrent use.
type Client struct {
	card     *AgentCard
	cardURL  string
	endpoint string
	tenant   string
	opts     Options
	hc       *http.Client
	nextID   atomic.Int64
}

// Card returns the card the client was built from (nil if none).
func (c *Client) Card() *AgentCard { return c.card }

// Endpoint returns the JSON-RPC interface URL requests are posted to.
func (c *Client) Endpoint() string { return c.endpoint }

// Streaming reports whether the card declares capabilities.streaming.
func (c *Client) Streaming() bool { return c.card != nil && c.card.Capabilities.Streaming }

// SendMessage sends a message and waits for the answer (blocking unless
// req.Configuration.ReturnImmediately): a task or a message. A task in the
// answer must be the one req.Message.TaskID names, if it names one.
func (c *Client) SendMessage(ctx context.Context, req SendMessageRequest) (*SendResult, error) {
	const method = "SendMessage"
	id := c.nextID.Add(1)
	body, err := sendBody(id, method, sendParams{c.tenant, &req})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	res, err := roundTrip[SendResult](ctx, c, body, id)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	switch {
	case (res.Task == nil) == (res.Message == nil):
		return nil, fmt.Errorf("%s: %w: result must hold exactly one of task and message", method, ErrProtocol)
	case res.Task != nil && res.Task.ID == "":
		return nil, fmt.Errorf("%s: %w: result task has no id", method, ErrProtocol)
	case res.Task != nil && res.Task.checkIDs() != nil:
		return nil, fmt.Errorf("%s: %w", method, res.Task.checkIDs())
	case res.Message != nil && res.Message.checkIDs() != nil:
		return nil, fmt.Errorf("%s: %w", method, res.Message.checkIDs())
	case res.Task != nil && req.Message.TaskID != "" && res.Task.ID != req.Message.TaskID:
		return nil, fmt.Errorf("%s: %w: result names task %q, the message continues %q", method, ErrProtocol, clip([]byte(res.Task.ID)), req.Message.TaskID)
	}
	return res, nil
}

// SendStreamingMessage sends a message and yields the stream's events. The
// first event that names a task fixes the task; later events must name the
// same one. The sequence ends after a message, a terminal or an interrupted
// state; a body that ends earlier yields ErrStreamBroken (the task may still
// run: GetTask, then SubscribeToTask). Breaking the loop closes the body.
// The sequence is one-shot: ranging it again yields only ErrStreamReused
// rather than submitting the message a second time.
func (c *Client) SendStreamingMessage(ctx context.Context, req SendMessageRequest) iter.Seq2[StreamEvent, error] {
	const method = "SendStreamingMessage"
	id := c.nextID.Add(1)
	body, err := sendBody(id, method, sendParams{c.tenant, &req})
	if err != nil {
		return func(yield func(StreamEvent, error) bool) { yield(StreamEvent{}, fmt.Errorf("%s: %w", method, err)) }
	}
	return c.openStream(ctx, method, body, id, req.Message.TaskID)
}

// SubscribeToTask follows an existing task; the first event is its current
// snapshot. It ends like SendStreamingMessage. On an ended task agents answer
// ErrUnsupportedOperation (or ErrTaskNotFound). One-shot like
// SendStreamingMessage.
func (c *Client) SubscribeToTask(ctx context.Context, taskID string) iter.Seq2[StreamEvent, error] {
	const method = "SubscribeToTask"
	id := c.nextID.Add(1)
	b, err := json.Marshal(rpcRequest{JSONRPC: "2.0", ID: id, Method: method, Params: rpcParams{taskID, c.tenant}})
	if err != nil {
		return func(yield func(StreamEvent, error) bool) { yield(StreamEvent{}, fmt.Errorf("%s: %w", method, err)) }
	}
	return c.openStream(ctx, method, bytesBody(b), id, taskID)
}

// GetTask reads a task's current snapshot. The reply must name taskID.
func (c *Client) GetTask(ctx context.Context, taskID string) (*Task, error) {
	return c.taskCall(ctx, "GetTask", taskID)
}

// CancelTask asks the agent to cancel a task and returns the task as the
// agent reports it; that state may still be WORKING (docs/remote-agent.md R10, R16).
func (c *Client) CancelTask(ctx context.Context, taskID string) (*Task, error) {
	return c.taskCall(ctx, "CancelTask", taskID)
}

func (c *Client) taskCall(ctx context.Context, method, taskID string) (*Task, error) {
	t, err := call[Task](ctx, c, method, rpcParams{taskID, c.tenant})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	if err := t.checkIDs(); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	if t.ID != taskID {
		return nil, fmt.Errorf("%s: %w: reply names task %q, asked for %q", method, ErrProtocol, clip([]byte(t.ID)), taskID)
	}
	return t, nil
}

// CheckAccess verifies that the agent accepts the client's credential without
// submitting any work: it reads a task id that cannot exist. A JSON-RPC
// answer over HTTP 2xx (normally ErrTaskNotFound) means access is granted;
// HTTP 401/403 or a JSON-RPC unauthenticated code gives ErrUnauthorized, any
// other HTTP error is returned. It is the product's connection test
// (remoteagent.CheckAgent), so the interop suite runs it against other SDKs.
func (c *Client) CheckAccess(ctx context.Context) error {
	_, err := c.GetTask(ctx, "workrun-access-check-"+strconv.FormatInt(time.Now().UnixNano(), 36))
	var h *HTTPError
	var rpc *RPCError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &h), errors.Is(err, ErrUnauthorized):
		return err
	case errors.As(err, &rpc):
		return nil
	}
	return err
}
