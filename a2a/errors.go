package a2a

import (
	"errors"

	"workrun/jsonrpc"
)

// A2A error codes (A2A 1.0 §7); an *RPCError with one of these codes matches
// the sentinel with errors.Is.
var (
	ErrTaskNotFound                 = errors.New("a2a: task not found")                     // -32001
	ErrTaskNotCancelable            = errors.New("a2a: task not cancelable")                // -32002
	ErrPushNotificationNotSupported = errors.New("a2a: push notifications not supported")   // -32003
	ErrUnsupportedOperation         = errors.New("a2a: unsupported operation")              // -32004
	ErrContentTypeNotSupported      = errors.New("a2a: content type not supported")         // -32005
	ErrInvalidAgentResponse         = errors.New("a2a: invalid agent response")             // -32006
	ErrExtendedCardNotConfigured    = errors.New("a2a: extended agent card not configured") // -32007
	ErrExtensionSupportRequired     = errors.New("a2a: extension support required")         // -32008
	ErrVersionNotSupported          = errors.New("a2a: protocol version not supported")     // -32009
	ErrParse                        = errors.New("a2a: JSON-RPC parse error")               // -32700
	ErrInvalidRequest               = errors.New("a2a: JSON-RPC invalid request")           // -32600
	ErrMethodNotFound               = errors.New("a2a: JSON-RPC method not found")          // -32601
	ErrInvalidParams                = errors.New("a2a: JSON-RPC invalid params")            // -32602
	ErrInternal                     = errors.New("a2a: JSON-RPC internal error")            // -32603
	ErrServerError                  = errors.New("a2a: JSON-RPC server error")              // -32000 (a2a-go)
)

// Transport and protocol errors.
var (
	// ErrUnauthorized: HTTP 401 or 403 (see HTTPError.WWWAuthenticate).
	ErrUnauthorized = errors.New("a2a: not authorized")
	// ErrPayloadTooLarge: HTTP 413 from the agent or a proxy, whatever the body.
	ErrPayloadTooLarge = errors.New("a2a: request rejected as too large (HTTP 413)")
	// ErrServer: HTTP 5xx.
	ErrServer = errors.New("a2a: agent server error")
	// ErrProtocol: a reply that is not a valid JSON-RPC 2.0 answer to this
	// request: wrong id, wrong task, garbage, missing result. Never accepted.
	ErrProtocol = errors.New("a2a: protocol error")
	// ErrStreamBroken: the stream ended (or was cut) before a message or a
	// terminal or interrupted state. The remote work may still be running:
	// read it with GetTask (docs/remote-agent.md R6, R7).
	ErrStreamBroken = errors.New("a2a: stream ended before the task finished")
	// ErrStreamReused: a stream sequence was ranged a second time. Each
	// sequence posts its request once; ask the client for a new one.
	ErrStreamReused = errors.New("a2a: stream already read; a second read would send the request again")
	// ErrReplyTooLarge: a reply body over Options.MaxReplyBytes.
	ErrReplyTooLarge = errors.New("a2a: reply too large")
	// ErrEventTooLarge: one SSE event over Options.MaxEventBytes.
	ErrEventTooLarge = errors.New("a2a: stream event too large")
	// ErrRequestTooLarge: the encoded request exceeds Options.MaxRequestBytes;
	// nothing was sent (docs/remote-agent.md R14).
	ErrRequestTooLarge = errors.New("a2a: request too large")
)

// Discovery and credential errors; their messages are shown to users.
var (
	ErrNotA2A             = errors.New("not an A2A agent")
	ErrLegacyA2A03        = errors.New("speaks A2A 0.3 only; Workrun needs an A2A 1.0 JSON-RPC interface")
	ErrNoJSONRPCInterface = errors.New("offers no A2A 1.0 JSON-RPC interface")
	ErrCardTooLarge       = errors.New("agent card too large")
	ErrInvalidCard        = errors.New("agent card is not valid JSON")
)

// RPCError is a JSON-RPC error object. errors.Is matches the sentinel for its
// code (ErrTaskNotFound for -32001, …); the a2a-go codes -31401
// (unauthenticated) and -31403 (unauthorized) match ErrUnauthorized.
type RPCError = jsonrpc.RPCError[protocol]

// HTTPError is a non-2xx HTTP answer. It matches ErrUnauthorized (401, 403),
// ErrPayloadTooLarge (413) or ErrServer (5xx); if the body held a JSON-RPC
// error, that *RPCError is unwrapped too.
type HTTPError = jsonrpc.HTTPError[protocol]

// protocol is A2A for package jsonrpc.
type protocol struct{}

func (protocol) Wire() *jsonrpc.Wire { return &wire }

var wire = jsonrpc.Wire{
	Name: "a2a", Peer: "agent", ServerError: "agent server error",
	Unauthorized: ErrUnauthorized, TooLarge: ErrPayloadTooLarge, Server: ErrServer,
	Sentinel: codeSentinel,
	// a2a-go answers -31401 (unauthenticated) and -31403 (unauthorized).
	MatchRPC: func(e jsonrpc.RPCErrorFields, target error) (bool, bool) {
		if target == ErrUnauthorized {
			return e.Code == -31401 || e.Code == -31403, true
		}
		return false, false
	},
}

func codeSentinel(code int) error {
	switch code {
	case -32001:
		return ErrTaskNotFound
	case -32002:
		return ErrTaskNotCancelable
	case -32003:
		return ErrPushNotificationNotSupported
	case -32004:
		return ErrUnsupportedOperation
	case -32005:
		return ErrContentTypeNotSupported
	case -32006:
		return ErrInvalidAgentResponse
	case -32007:
		return ErrExtendedCardNotConfigured
	case -32008:
		return ErrExtensionSupportRequired
	case -32009:
		return ErrVersionNotSupported
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
	case -32000:
		return ErrServerError
	}
	return nil
}
