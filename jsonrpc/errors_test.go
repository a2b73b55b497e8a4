package jsonrpc_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"workrun/jsonrpc"
)

var (
	errUnauthorized = errors.New("p: not authorized")
	errTooLarge     = errors.New("p: too large")
	errServer       = errors.New("p: server error")
	errNotFound     = errors.New("p: not found")
	errGone         = errors.New("p: gone")
)

// proto is a protocol for the tests: -1 is "not found", -2 words itself,
// a message "gone" matches errGone, a 410 is noted.
type proto struct{}

func (proto) Wire() *jsonrpc.Wire { return &testWire }

var testWire = jsonrpc.Wire{
	Name: "p", Peer: "peer", ServerError: "peer server error",
	Unauthorized: errUnauthorized, TooLarge: errTooLarge, Server: errServer,
	Sentinel: func(code int) error {
		if code == -1 {
			return errNotFound
		}
		return nil
	},
	MatchRPC: func(e jsonrpc.RPCErrorFields, target error) (bool, bool) {
		if target == errGone {
			return e.Message == "gone", true
		}
		return false, false
	},
	RPCText: func(e jsonrpc.RPCErrorFields) (string, bool) { return "p: its own words", e.Code == -2 },
	HTTPNote: func(e jsonrpc.HTTPErrorFields) (string, error) {
		if e.StatusCode == 410 {
			return "gone for good", errGone
		}
		return "", nil
	},
}

type (
	rpcError  = jsonrpc.RPCError[proto]
	httpError = jsonrpc.HTTPError[proto]
)

func TestRPCError(t *testing.T) {
	for _, tc := range []struct {
		err  *rpcError
		text string
		is   []error
		not  []error
	}{
		{&rpcError{Code: -1, Message: "no such task"}, "p: not found (-1): no such task", []error{errNotFound}, []error{errGone}},
		{&rpcError{Code: -1}, "p: not found (-1)", []error{errNotFound}, nil},
		{&rpcError{Code: -2, Message: "x"}, "p: its own words", nil, []error{errNotFound}},
		{&rpcError{Code: 7, Message: "gone"}, "p: JSON-RPC error 7: gone", []error{errGone}, []error{errNotFound}},
		{&rpcError{Code: 7, Message: strings.Repeat("é", 400)}, "p: JSON-RPC error 7: " + strings.Repeat("é", 300) + "…", nil, nil},
	} {
		if got := tc.err.Error(); got != tc.text {
			t.Errorf("%+v: text %q, want %q", tc.err, got, tc.text)
		}
		for _, s := range tc.is {
			if !errors.Is(tc.err, s) {
				t.Errorf("%+v is not %v", tc.err, s)
			}
		}
		for _, s := range tc.not {
			if errors.Is(tc.err, s) {
				t.Errorf("%+v is %v", tc.err, s)
			}
		}
	}
}

func TestHTTPError(t *testing.T) {
	for _, tc := range []struct {
		err  *httpError
		text string
		is   error
	}{
		{&httpError{StatusCode: 401, WWWAuthenticate: `Bearer realm="x"`}, `p: HTTP 401 (not authorized; WWW-Authenticate: Bearer realm="x")`, errUnauthorized},
		{&httpError{StatusCode: 403}, "p: HTTP 403 (not authorized)", errUnauthorized},
		{&httpError{StatusCode: 413}, "p: HTTP 413 (request too large for the peer or a proxy in front of it)", errTooLarge},
		{&httpError{StatusCode: 502}, "p: HTTP 502 (peer server error)", errServer},
		{&httpError{StatusCode: 410}, "p: HTTP 410 (gone for good)", errGone},
		{&httpError{StatusCode: 400, RPC: &rpcError{Code: -1, Message: "m"}}, "p: HTTP 400: p: not found (-1): m", errNotFound},
	} {
		if got := tc.err.Error(); got != tc.text {
			t.Errorf("text %q, want %q", got, tc.text)
		}
		if !errors.Is(tc.err, tc.is) {
			t.Errorf("%q is not %v", tc.text, tc.is)
		}
		for _, other := range []error{errUnauthorized, errTooLarge, errServer, errGone} {
			if other != tc.is && errors.Is(tc.err, other) {
				t.Errorf("%q is also %v", tc.text, other)
			}
		}
		var rpc *rpcError
		if errors.As(tc.err, &rpc) != (tc.err.RPC != nil) {
			t.Errorf("%q: errors.As RPCError = %v", tc.text, rpc)
		}
	}
}

func reply(status int, body string) *http.Response {
	return &http.Response{StatusCode: status, Header: http.Header{"Www-Authenticate": {"Bearer a", "Basic b"}}, Body: io.NopCloser(strings.NewReader(body))}
}

// TestReadHTTPError: the body's start is kept (512 bytes), the challenges
// joined, and a JSON-RPC error only when keep accepts its id.
func TestReadHTTPError(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"m"}}` + strings.Repeat(" ", 1000)
	e := jsonrpc.ReadHTTPError[proto](reply(400, body), true, nil)
	if e.StatusCode != 400 || !e.WithSession || e.WWWAuthenticate != "Bearer a, Basic b" || len(e.Body) != 512 || e.RPC == nil || e.RPC.Code != -1 {
		t.Errorf("%+v", e)
	}
	e = jsonrpc.ReadHTTPError[proto](reply(400, body), false, func(id json.RawMessage) bool { return string(id) == "4" })
	if e.RPC != nil {
		t.Errorf("kept the error of another id: %+v", e.RPC)
	}
	e = jsonrpc.ReadHTTPError[proto](reply(500, "<html>oops</html>"), false, nil)
	if e.RPC != nil || e.Body != "<html>oops</html>" || !errors.Is(e, errServer) {
		t.Errorf("%+v", e)
	}
}

// FuzzReadHTTPError: any body gives an error with a bounded snippet, never
// a panic.
func FuzzReadHTTPError(f *testing.F) {
	f.Add(`{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"m","data":{}}}`)
	f.Add(`{"jsonrpc":"2.0","error":null}`)
	f.Add("\xff\xfe")
	f.Fuzz(func(t *testing.T, body string) {
		e := jsonrpc.ReadHTTPError[proto](reply(418, body), false, nil)
		if len(e.Body) > 512 {
			t.Fatalf("snippet of %d bytes", len(e.Body))
		}
		_ = e.Error()
	})
}
