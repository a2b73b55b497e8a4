package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

// refEvent is what both SSE parsers report for one event.
type refEvent struct {
	Event, ID, Data string
}

// referenceSSE is a deliberately naive SSE parser (split into lines, then the
// WHATWG rules) used to cross-check sseReader.
func referenceSSE(in []byte) ([]refEvent, bool) {
	var out []refEvent
	text := string(in)
	lines := strings.Split(text, "\n")
	last := lines[len(lines)-1]
	lines = lines[:len(lines)-1]
	var data []string
	var ev refEvent
	pending := false
	for _, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		if l == "" {
			if len(data) > 0 {
				ev.Data = strings.Join(data, "\n")
				out = append(out, ev)
			}
			data, ev, pending = nil, refEvent{}, false
			continue
		}
		if l[0] == ':' {
			continue
		}
		pending = true
		field, value, found := strings.Cut(l, ":")
		if found {
			value = strings.TrimPrefix(value, " ")
		}
		switch field {
		case "data":
			data = append(data, value)
		case "event":
			ev.Event = value
		case "id":
			if !strings.Contains(value, "\x00") {
				ev.ID = value
			}
		}
	}
	truncated := pending || (last != "" && last[0] != ':')
	return out, truncated
}

func FuzzSSEReader(f *testing.F) {
	f.Add([]byte("data: {\"a\":1}\n\n"))
	f.Add([]byte("id: 1\r\nevent: error\r\ndata:x\r\ndata: y\r\n\r\n: keep-alive\n\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		r := newSSEReader(bytes.NewReader(in), 1<<20)
		var got []refEvent
		var err error
		for {
			var ev sseEvent
			ev, err = r.next()
			if err != nil {
				break
			}
			got = append(got, refEvent{ev.Event, ev.ID, string(ev.Data)})
		}
		want, truncated := referenceSSE(in)
		if truncated != errors.Is(err, errTruncatedEvent) || (!truncated && err != io.EOF) {
			t.Fatalf("end: err %v, reference truncated=%v", err, truncated)
		}
		if len(got) != len(want) {
			t.Fatalf("got %d events %q, reference %d %q", len(got), got, len(want), want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("event %d: got %+v, reference %+v", i, got[i], want[i])
			}
		}
	})
}

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
