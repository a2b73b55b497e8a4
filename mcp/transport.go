package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"iter"
	"net/http"
)

// Transport carries JSON-RPC messages to one MCP server. The client builds
// every message and reads every reply; a transport only moves them. The
// Streamable HTTP transport (NewHTTPTransport) is one; the stdio transport of
// the local Tool App is another.
type Transport interface {
	// Send delivers one message. For a request the Reply yields every
	// message the server sends for it, in order, ending with its response;
	// for a notification Reply.Messages may be nil. A refusal before any
	// reply (HTTP 4xx/5xx) is an error here (*HTTPError on HTTP).
	Send(ctx context.Context, m *Message) (*Reply, error)
	// EndSession ends the legacy session m.Session (HTTP: DELETE with m's
	// headers). A transport without sessions returns nil.
	EndSession(ctx context.Context, m *Message) error
}

// Message is one outgoing JSON-RPC message.
type Message struct {
	// ID is the request id; 0 for a notification.
	ID     int64
	Method string
	// Body is the whole JSON-RPC message.
	Body []byte
	// Header holds the request metadata headers (MCP-Protocol-Version,
	// Mcp-Method, Mcp-Name, Mcp-Param-*, Idempotency-Key). Transports other
	// than HTTP may ignore them.
	Header http.Header
	// Session is the legacy Mcp-Session-Id ("" on 2026-07-28 and stdio).
	Session string
	// Resumable: a legacy (2025-11-25 and earlier) request whose SSE reply
	// may be resumed with GET and Last-Event-ID when it breaks.
	Resumable bool
	// spool, when set, takes the long values of a tool result in a JSON
	// reply (HTTP; other transports ignore it).
	spool *spoolSet
}

// Reply is what the server sends back for one message.
type Reply struct {
	// Session is the Mcp-Session-Id the server named (HTTP only).
	Session string
	// Messages yields the raw JSON-RPC messages of the reply. The caller
	// ranges over it; breaking early releases the reply. A reply that ends
	// before the response yields an error wrapping ErrStreamBroken.
	Messages iter.Seq2[json.RawMessage, error]
}

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
