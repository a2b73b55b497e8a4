package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"workrun/jsonrpc"
)

// JSON-RPC error codes; an *RPCError with one of them matches the sentinel
// with errors.Is.
var (
	ErrParse          = errors.New("mcp: JSON-RPC parse error")      // -32700
	ErrInvalidRequest = errors.New("mcp: JSON-RPC invalid request")  // -32600
	ErrMethodNotFound = errors.New("mcp: JSON-RPC method not found") // -32601
	ErrInvalidParams  = errors.New("mcp: JSON-RPC invalid params")   // -32602
	ErrInternal       = errors.New("mcp: JSON-RPC internal error")   // -32603
)

// Transport, session and protocol errors.
var (
	// ErrUnauthorized: HTTP 401 or 403.
	ErrUnauthorized = errors.New("mcp: not authorized")
	// ErrServer: HTTP 5xx.
	ErrServer = errors.New("mcp: server error")
	// ErrPayloadTooLarge: HTTP 413.
	ErrPayloadTooLarge = errors.New("mcp: request rejected as too large (HTTP 413)")
	// ErrProtocol: a reply that is not a valid JSON-RPC 2.0 answer to this
	// request (wrong id, wrong task, garbage, missing result). Never accepted.
	ErrProtocol = errors.New("mcp: protocol error")
	// ErrStreamBroken: an SSE reply ended (or was cut) before the answer to
	// the request arrived. The request may have been handled.
	ErrStreamBroken = errors.New("mcp: reply stream ended before the answer")
	// ErrReplyTooLarge: a JSON reply body over Options.MaxReplyBytes.
	ErrReplyTooLarge = errors.New("mcp: reply too large")
	// ErrEventTooLarge: one SSE event over Options.MaxEventBytes.
	ErrEventTooLarge = errors.New("mcp: stream event too large")
	// ErrSessionNotFound: the server no longer knows the session (HTTP 404
	// for a request carrying a session id, or a "no valid session" 400).
	ErrSessionNotFound = errors.New("mcp: the server no longer has this session")
	// ErrTaskNotFound: the server does not know the task: -32602 (invalid
	// params) to tasks/get, tasks/result or tasks/cancel, whose only
	// parameter is the task id.
	ErrTaskNotFound = errors.New("mcp: task not found")
	// ErrUnsupportedVersion: the server speaks none of this client's
	// protocol versions (-32022 without a common one, or an initialize
	// answer naming another version).
	ErrUnsupportedVersion = errors.New("mcp: unsupported protocol version")
	// ErrHeaderMismatch: -32020, the server found a request header missing
	// or not matching the body.
	ErrHeaderMismatch = errors.New("mcp: the server refused a request header")
	// ErrMissingCapability: -32021, the request needs a client capability
	// this client did not declare.
	ErrMissingCapability = errors.New("mcp: the server requires a client capability that was not declared")
	// ErrInputRequired: while waiting for a task's result the server asked
	// for input (an input_required status or a request to the client).
	ErrInputRequired = errors.New("mcp: the task needs input")
	// ErrNotInitialized: a method other than Initialize was called before a
	// session was set up (Initialize or Attach).
	ErrNotInitialized = errors.New("mcp: client is not initialized")
)

// RPCError is a JSON-RPC error object. errors.Is matches the sentinel for its
// code; a legacy server's "no valid session" error (no code of its own)
// also matches ErrSessionNotFound.
type RPCError = jsonrpc.RPCError[protocol]

// HTTPError is a non-2xx HTTP answer. It matches ErrUnauthorized (401, 403),
// ErrPayloadTooLarge (413), ErrServer (5xx) or ErrSessionNotFound (404 to a
// request that carried a session id, unless the body says -32601: a modern
// server's "method not found"); a JSON-RPC error in the body is unwrapped
// too.
type HTTPError = jsonrpc.HTTPError[protocol]

// protocol is MCP for package jsonrpc.
type protocol struct{}

func (protocol) Wire() *jsonrpc.Wire { return &wire }

var wire = jsonrpc.Wire{
	Name: "mcp", Peer: "server", ServerError: "server error",
	Unauthorized: ErrUnauthorized, TooLarge: ErrPayloadTooLarge, Server: ErrServer,
	Sentinel: codeSentinel, MatchRPC: matchRPC, RPCText: rpcText, HTTPNote: httpNote,
}

// matchRPC: a legacy server's "no valid session" error has no code of its own.
func matchRPC(e jsonrpc.RPCErrorFields, target error) (bool, bool) {
	if target != ErrSessionNotFound {
		return false, false
	}
	m := strings.ToLower(e.Message)
	return strings.Contains(m, "session") && (strings.Contains(m, "no valid") || strings.Contains(m, "not found") || strings.Contains(m, "unknown") || strings.Contains(m, "expired")), true
}

// rpcText words the 2026-07-28 protocol errors.
func rpcText(e jsonrpc.RPCErrorFields) (string, bool) {
	switch e.Code {
	case codeHeaderMismatch:
		return fmt.Sprintf("%v (-32020: a header such as MCP-Protocol-Version, Mcp-Method, Mcp-Name or Mcp-Param-* is missing or differs from the body): %s", ErrHeaderMismatch, clipString(e.Message, 300)), true
	case codeMissingCapability:
		return fmt.Sprintf("%v (-32021): it requires %s: %s", ErrMissingCapability, requiredCapabilities(e), clipString(e.Message, 300)), true
	case codeUnsupportedVersion:
		sup, req := versions(&RPCError{Code: e.Code, Message: e.Message, Data: e.Data})
		return fmt.Sprintf("%v (-32022): the server does not support %s; it supports %s", ErrUnsupportedVersion, display(req), display(strings.Join(sup, ", "))), true
	}
	return "", false
}

// httpNote: a 404 to a request that carried a session id means the session
// is gone, unless the body says -32601 (a modern server's "method not found").
func httpNote(e jsonrpc.HTTPErrorFields) (string, error) {
	if e.StatusCode == 404 && e.WithSession && (e.RPC == nil || e.RPC.Code != -32601) {
		return "session not found", ErrSessionNotFound
	}
	return "", nil
}

// Protocol error codes of 2026-07-28 (basic/index "Error Codes").
const (
	codeHeaderMismatch     = -32020
	codeMissingCapability  = -32021
	codeUnsupportedVersion = -32022
)

// versions reads a -32022 error's data: the versions the server supports
// and the one that was requested.
func versions(e *RPCError) (supported []string, requested string) {
	var d struct {
		Supported []string `json:"supported"`
		Requested string   `json:"requested"`
	}
	if json.Unmarshal(e.Data, &d) == nil {
		for _, v := range d.Supported {
			supported = append(supported, clipString(v, 40))
		}
		if len(supported) > 20 {
			supported = supported[:20]
		}
	}
	return supported, clipString(d.Requested, 40)
}

// requiredCapabilities names a -32021 error's data.requiredCapabilities.
func requiredCapabilities(e jsonrpc.RPCErrorFields) string {
	var d struct {
		Required struct {
			Extensions map[string]json.RawMessage `json:"extensions"`
		} `json:"requiredCapabilities"`
	}
	var raw struct {
		Required map[string]json.RawMessage `json:"requiredCapabilities"`
	}
	var names []string
	if json.Unmarshal(e.Data, &d) == nil {
		for k := range d.Required.Extensions {
			names = append(names, "the extension "+clipString(k, 80))
		}
	}
	if json.Unmarshal(e.Data, &raw) == nil {
		for k := range raw.Required {
			if k != "extensions" {
				names = append(names, "the capability "+clipString(k, 80))
			}
		}
	}
	if len(names) == 0 {
		return "a capability it did not name"
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func codeSentinel(code int) error {
	switch code {
	case -32700:
		return ErrParse
	case -32600:
		return ErrInvalidRequest
	case -32601:
		return ErrMethodNotFound
	case -32602:
		return ErrInvalidParams
	case -32603:
		return ErrInternal
	case codeHeaderMismatch:
		return ErrHeaderMismatch
	case codeMissingCapability:
		return ErrMissingCapability
	case codeUnsupportedVersion:
		return ErrUnsupportedVersion
	}
	return nil
}

// clipString shortens server-supplied text before it goes into an error.
func clipString(s string, n int) string { return jsonrpc.Clip(s, n) }
func display(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
