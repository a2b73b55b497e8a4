package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// FuzzReadStream feeds any bytes to the SSE reply reader: it never panics,
// and it accepts a reply only when one event is a JSON-RPC 2.0 response to
// the request's id; every error is classified.
func FuzzReadStream(f *testing.F) {
	f.Add([]byte("id: 0\ndata:\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[]}}\n\n"))
	f.Add([]byte("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tasks/status\",\"params\":{\"taskId\":\"t\",\"status\":\"input_required\"}}\n\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		c := &Client{opts: Options{MaxEventBytes: 1 << 16}}
		res, err := c.readStream(bytes.NewReader(in), []byte("7"), "t")
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
			if !errors.Is(err, ErrProtocol) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if (res.Task == nil) == (res.Result == nil) || (res.Task != nil && res.Task.TaskID == "") {
			t.Fatalf("decoded %q into %+v", in, res)
		}
	})
}
