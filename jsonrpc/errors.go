package jsonrpc

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Protocol is a protocol client's type for this package: its Wire says
// how the protocol names itself and its errors. Wire is called on the zero
// value.
type Protocol interface {
	Wire() *Wire
}

// Wire is what a protocol client tells this package about itself.
type Wire struct {
	// Name starts every error text ("a2a", "mcp").
	Name string
	// Peer names who answers in HTTP error texts ("agent", "server");
	// ServerError is the words of a 5xx ("agent server error").
	Peer, ServerError string
	// The sentinels an HTTP status class matches: 401/403, 413, 5xx.
	Unauthorized, TooLarge, Server error
	// Sentinel is the protocol's sentinel for a JSON-RPC error code, or nil.
	Sentinel func(code int) error
	// MatchRPC, if set, decides errors.Is for e and target when the code's
	// sentinel alone does not (ok false: it does not decide).
	MatchRPC func(e RPCErrorFields, target error) (match, ok bool)
	// RPCText, if set, words an error itself (ok false: the common wording).
	RPCText func(e RPCErrorFields) (text string, ok bool)
	// HTTPNote, if set, is the protocol's own remark on an HTTP error (the
	// text in parentheses, and the sentinel it matches), or "".
	HTTPNote func(e HTTPErrorFields) (note string, matches error)
}

func wireOf[P Protocol]() *Wire {
	var p P
	return p.Wire()
}

// RPCErrorFields is an RPCError seen by its Protocol.
type RPCErrorFields struct {
	Code    int
	Message string
	Data    json.RawMessage
}

// HTTPErrorFields is an HTTPError seen by its Protocol.
type HTTPErrorFields struct {
	StatusCode  int
	WithSession bool
	RPC         *RPCErrorFields
}

// RPCError is a JSON-RPC error object. errors.Is matches the protocol's
// sentinel for its code.
type RPCError[P Protocol] struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *RPCError[P]) fields() RPCErrorFields {
	return RPCErrorFields{Code: e.Code, Message: e.Message, Data: e.Data}
}

func (e *RPCError[P]) Error() string {
	w := wireOf[P]()
	if w.RPCText != nil {
		if s, ok := w.RPCText(e.fields()); ok {
			return s
		}
	}
	msg := Clip(e.Message, 300)
	if s := w.Sentinel(e.Code); s != nil {
		if msg == "" {
			return fmt.Sprintf("%v (%d)", s, e.Code)
		}
		return fmt.Sprintf("%v (%d): %s", s, e.Code, msg)
	}
	return fmt.Sprintf("%s: JSON-RPC error %d: %s", w.Name, e.Code, msg)
}

// Is matches the sentinel for the error's code (and what the protocol's
// MatchRPC adds).
func (e *RPCError[P]) Is(target error) bool {
	w := wireOf[P]()
	if w.MatchRPC != nil {
		if m, ok := w.MatchRPC(e.fields(), target); ok {
			return m
		}
	}
	s := w.Sentinel(e.Code)
	return s != nil && s == target
}

// HTTPError is a non-2xx HTTP answer. It matches the protocol's
// unauthorized (401, 403), too-large (413) and server (5xx) sentinels and
// what its HTTPNote names; a JSON-RPC error in the body is unwrapped too.
type HTTPError[P Protocol] struct {
	StatusCode int
	// WithSession: the request carried a session id (MCP's legacy
	// Mcp-Session-Id).
	WithSession bool
	// WWWAuthenticate is the challenge of a 401/403, kept verbatim.
	WWWAuthenticate string
	// Body is the start of the body (at most 512 bytes), for diagnostics.
	Body string
	RPC  *RPCError[P]
}

func (e *HTTPError[P]) fields() HTTPErrorFields {
	f := HTTPErrorFields{StatusCode: e.StatusCode, WithSession: e.WithSession}
	if e.RPC != nil {
		r := e.RPC.fields()
		f.RPC = &r
	}
	return f
}

func (e *HTTPError[P]) Error() string {
	w := wireOf[P]()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: HTTP %d", w.Name, e.StatusCode)
	note, _ := e.note(w)
	switch {
	case e.StatusCode == 401 || e.StatusCode == 403:
		b.WriteString(" (not authorized")
		if e.WWWAuthenticate != "" {
			fmt.Fprintf(&b, "; WWW-Authenticate: %s", Clip(e.WWWAuthenticate, 200))
		}
		b.WriteString(")")
	case note != "":
		fmt.Fprintf(&b, " (%s)", note)
	case e.StatusCode == 413:
		fmt.Fprintf(&b, " (request too large for the %s or a proxy in front of it)", w.Peer)
	case e.StatusCode >= 500:
		fmt.Fprintf(&b, " (%s)", w.ServerError)
	}
	if e.RPC != nil {
		fmt.Fprintf(&b, ": %v", e.RPC)
	}
	return b.String()
}

// Is matches the status-class sentinel.
func (e *HTTPError[P]) Is(target error) bool {
	w := wireOf[P]()
	switch target {
	case w.Unauthorized:
		return e.StatusCode == 401 || e.StatusCode == 403
	case w.TooLarge:
		return e.StatusCode == 413
	case w.Server:
		return e.StatusCode >= 500 && e.StatusCode <= 599
	}
	note, m := e.note(w)
	return note != "" && m != nil && m == target
}

func (e *HTTPError[P]) note(w *Wire) (string, error) {
	if w.HTTPNote == nil {
		return "", nil
	}
	return w.HTTPNote(e.fields())
}

// Unwrap exposes the JSON-RPC error carried in the body, if any.
func (e *HTTPError[P]) Unwrap() error {
	if e.RPC == nil {
		return nil
	}
	return e.RPC
}

// MaxErrorBody bounds what is read of a non-2xx body (413 pages can be big).
const MaxErrorBody = 64 << 10

// ReadHTTPError builds the error of a non-2xx reply. A JSON-RPC error in
// the body is kept when keep accepts the reply's id (nil: any id).
func ReadHTTPError[P Protocol](resp *http.Response, withSession bool, keep func(id json.RawMessage) bool) *HTTPError[P] {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, MaxErrorBody))
	e := &HTTPError[P]{
		StatusCode:      resp.StatusCode,
		WithSession:     withSession,
		WWWAuthenticate: strings.Join(resp.Header.Values("WWW-Authenticate"), ", "),
	}
	snippet := body
	if len(snippet) > 512 {
		snippet = snippet[:512]
	}
	e.Body = string(snippet)
	var env struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *RPCError[P]    `json:"error"`
	}
	if json.Unmarshal(body, &env) == nil && env.JSONRPC == "2.0" && env.Error != nil && (keep == nil || keep(env.ID)) {
		e.RPC = env.Error
	}
	return e
}

// Clip shortens server-supplied text before it goes into an error.
func Clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
