package a2a

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"testing"
)

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
		c, err := newClient(card, base, Options{}.withDefaults())
		if err == nil {
			u, perr := url.Parse(c.Endpoint())
			if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				t.Fatalf("endpoint %q", c.Endpoint())
			}
		}
	})
}
