package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

// FuzzReadStream feeds any bytes to the SSE reply reader: it never panics,
// and it accepts a reply only when one event is a JSON-RPC 2.0 response to
// the request's id; every error is classified.
func FuzzReadStream(f *testing.F) {
	f.Add([]byte("id: 0\ndata:\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[]}}\n\n"))
	f.Add([]byte("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tasks/status\",\"params\":{\"taskId\":\"t\",\"status\":\"input_required\"}}\n\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		c := &Client{t: sinkTransport{}}
		tr := &HTTPTransport{maxEvent: 1 << 16}
		resp := &http.Response{Body: io.NopCloser(bytes.NewReader(in))}
		res, err := c.readReply(t.Context(), tr.stream(t.Context(), resp, &Message{ID: 7}), []byte("7"), "t")
		if err != nil {
			for _, s := range []error{ErrStreamBroken, ErrProtocol, ErrEventTooLarge, ErrInputRequired} {
				if errors.Is(err, s) {
					return
				}
			}
			if errors.As(err, new(*RPCError)) {
				return
			}
			t.Fatalf("unclassified error %v", err)
		}
		if !json.Valid(res) || !bytes.Contains(in, []byte("2.0")) {
			t.Fatalf("accepted %q from %q", res, in)
		}
	})
}

// FuzzCallResult: any tools/call result either decodes into exactly one of
// a result and a task with an id, or is a protocol error.
func FuzzCallResult(f *testing.F) {
	f.Add([]byte(`{"resultType":"task","taskId":"x","status":"working","pollIntervalMs":1000}`))
	f.Add([]byte(`{"task":{"taskId":"c","status":"working"}}`))
	f.Add([]byte(`{"content":[{"type":"text","text":"hi"}],"isError":true}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		res, err := decodeCallResult(in)
		if err != nil {
			if !errors.Is(err, ErrProtocol) && !errors.Is(err, ErrInputRequired) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if (res.Task == nil) == (res.Result == nil) || (res.Task != nil && res.Task.TaskID == "") {
			t.Fatalf("decoded %q into %+v", in, res)
		}
	})
}

// FuzzHeaderParams: any inputSchema either yields annotations that are
// header tokens, unique regardless of case, or is refused; and any
// arguments give only well-formed Mcp-Param-* values.
func FuzzHeaderParams(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"Region"}}}`), []byte(`{"r":"Hello, 世界"}`))
	f.Add([]byte(`{"properties":{"a":{"type":"object","properties":{"b":{"type":"integer","x-mcp-header":"B"}}}}}`), []byte(`{"a":{"b":42}}`))
	f.Add([]byte(`{"$defs":{"x":{"type":"string","x-mcp-header":"X"}}}`), []byte(`{}`))
	f.Fuzz(func(t *testing.T, schema, args []byte) {
		hp, err := headerParams(schema)
		if err != nil {
			if !errors.Is(err, errBadHeaderAnnotation) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, p := range hp {
			if !isToken(p.Name) || seen[strings.ToLower(p.Name)] {
				t.Fatalf("accepted annotation %q", p.Name)
			}
			seen[strings.ToLower(p.Name)] = true
		}
		h, err := paramHeaders(hp, args)
		if err != nil {
			return
		}
		for k, vs := range h {
			for _, v := range vs {
				for i := 0; i < len(v); i++ {
					if v[i] < 0x20 || v[i] > 0x7e {
						t.Fatalf("header %s value %q is not visible ASCII", k, v)
					}
				}
			}
		}
	})
}

// FuzzRPCErrorText: any error data gives a message without panicking.
func FuzzRPCErrorText(f *testing.F) {
	f.Add(-32022, []byte(`{"supported":["2025-11-25"],"requested":"2026-07-28"}`))
	f.Add(-32021, []byte(`{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`))
	f.Fuzz(func(t *testing.T, code int, data []byte) {
		e := &RPCError{Code: code, Message: "m", Data: data}
		if e.Error() == "" {
			t.Fatal("empty message")
		}
		legacyAnswer(e)
	})
}

// sinkTransport takes what the client sends (answers to the server's
// requests) and replies nothing.
type sinkTransport struct{}

func (sinkTransport) Send(context.Context, *Message) (*Reply, error) { return &Reply{}, nil }
func (sinkTransport) EndSession(context.Context, *Message) error     { return nil }
