package a2a

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/url"
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

func FuzzEnvelope(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":7,"result":{"task":{"id":"t1","status":{"state":"TASK_STATE_WORKING"}}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"x","data":[{"@type":"t"}]}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		want := []byte("7")
		var env struct {
			ID json.RawMessage `json:"id"`
		}
		idOK := json.Unmarshal(body, &env) == nil && string(bytes.TrimSpace(env.ID)) == "7"

		if res, err := decodeResponse[SendResult](body, want); err == nil {
			if res == nil || !idOK {
				t.Fatalf("accepted %q (id ok %v)", body, idOK)
			}
		} else if !errors.Is(err, ErrProtocol) && !errors.As(err, new(*RPCError)) {
			t.Fatalf("unclassified error %v", err)
		}

		for _, follow := range []string{"", "t1"} {
			f := &taskFollower{id: follow}
			ev, err := decodeEvent(body, want, f)
			if err != nil {
				if !errors.Is(err, ErrProtocol) && !errors.As(err, new(*RPCError)) {
					t.Fatalf("unclassified error %v", err)
				}
				continue
			}
			if !idOK || ev.members() != 1 {
				t.Fatalf("accepted event %q", body)
			}
			if follow != "" && ev.TaskID() != follow && !(ev.Message != nil && ev.TaskID() == "") {
				t.Fatalf("event for task %q accepted while following %q", ev.TaskID(), follow)
			}
		}
	})
}

func FuzzCardDecode(f *testing.F) {
	f.Add([]byte(`{"name":"a","supportedInterfaces":[{"url":"/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}`), "application/json")
	f.Add([]byte(`<html></html>`), "text/html")
	base, _ := url.Parse("http://127.0.0.1:9/.well-known/agent-card.json")
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		card, err := ParseCard(body, contentType)
		if err != nil {
			if !errors.Is(err, ErrNotA2A) && !errors.Is(err, ErrInvalidCard) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		iface, err := ChooseInterface(card)
		if err != nil {
			if !errors.Is(err, ErrLegacyA2A03) && !errors.Is(err, ErrNoJSONRPCInterface) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if !strings.EqualFold(strings.TrimSpace(iface.ProtocolBinding), "JSONRPC") {
			t.Fatalf("chose %+v", iface)
		}
		if v := strings.TrimSpace(iface.ProtocolVersion); v != "" && strings.SplitN(v, ".", 2)[0] != "1" {
			t.Fatalf("chose version %q", v)
		}
		c, err := newClient(card, base, originOf(base), Options{}.withDefaults())
		if err == nil {
			u, perr := url.Parse(c.Endpoint())
			if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				t.Fatalf("endpoint %q", c.Endpoint())
			}
		}
	})
}
