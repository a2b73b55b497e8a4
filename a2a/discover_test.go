package a2a

import (
	"workrun/remotecall"

	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDiscover_PicksFirstJSONRPC10InterfaceAndTenant(t *testing.T) {
	a := newFakeAgent(t)
	a.CardFunc = func(w http.ResponseWriter, r *http.Request) {
		if got := r.Header.Get("A2A-Version"); got != "1.0" {
			t.Errorf("card fetch A2A-Version = %q", got)
		}
		writeJSON(w, 200, `{"name":"Multi","version":"1","supportedInterfaces":[
			{"url":"`+a.srv.URL+`/grpc","protocolBinding":"GRPC","protocolVersion":"1.0"},
			{"url":"/legacy","protocolBinding":"JSONRPC","protocolVersion":"0.3"},
			{"url":"/rpc","protocolBinding":"jsonrpc","protocolVersion":"1.0","tenant":"acme"},
			{"url":"/other","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],
			"capabilities":{"streaming":true},"unknownField":{"x":1}}`)
	}
	a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
		writeJSON(w, 200, resultJSON(in.ID, taskJSON("t1", "TASK_STATE_WORKING")))
	}
	c := a.client(t, Options{})
	if got, want := c.Endpoint(), a.srv.URL+"/rpc"; got != want {
		t.Errorf("Endpoint = %q, want %q", got, want)
	}
	if !c.Streaming() || c.tenant != "acme" || c.Card().Name != "Multi" {
		t.Errorf("Streaming=%v Tenant=%q Card=%q", c.Streaming(), c.tenant, c.Card().Name)
	}
	if _, err := c.GetTask(t.Context(), "t1"); err != nil {
		t.Fatal(err)
	}
	calls := a.Calls()
	if diff := cmp.Diff(`{"id":"t1","tenant":"acme"}`, string(calls[0].Params)); diff != "" {
		t.Errorf("params carry the tenant (-want +got):\n%s", diff)
	}
}

func TestDiscover_CardURLForms(t *testing.T) {
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		switch r.URL.Path {
		case "/agents/x/.well-known/agent-card.json", "/cards/mine.json":
			writeJSON(w, 200, cardJSON("http://"+r.Host+"/rpc", ""))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	tests := []struct {
		name      string
		url       string
		wantPaths []string
	}{
		{"base URL with path", srv.URL + "/agents/x/", []string{"/agents/x/.well-known/agent-card.json"}},
		{"direct card URL", srv.URL + "/cards/mine.json", []string{"/cards/mine.json"}},
		{"path without card falls back to root", srv.URL + "/nothing", []string{"/nothing/.well-known/agent-card.json", "/.well-known/agent-card.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			paths = nil
			_, _ = Discover(t.Context(), tt.url, Options{})
			if diff := cmp.Diff(tt.wantPaths, paths); diff != "" {
				t.Errorf("paths tried (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDiscover_Errors(t *testing.T) {
	big := `{"name":"x","description":"` + strings.Repeat("a", 2<<20) + `"}`
	tests := []struct {
		name    string
		handler http.HandlerFunc
		want    error
		msg     string
	}{
		{"404", http.NotFound, ErrNotA2A, "not an A2A agent: no Agent Card at "},
		{"HTML page", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<!doctype html><html><body>Welcome</body></html>")
		}, ErrNotA2A, "not an A2A agent: no Agent Card at "},
		{"chat API 404 JSON", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 404, `{"error":{"message":"Invalid URL (GET /v1/chat/completions/.well-known/agent-card.json)","type":"invalid_request_error"}}`)
		}, ErrNotA2A, "not an A2A agent"},
		{"chat API 200 JSON", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, `{"object":"list","data":[{"id":"gpt-x","object":"model"}]}`)
		}, ErrNotA2A, "not an A2A agent"},
		{"0.3 card", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, `{"name":"Old","url":"http://`+r.Host+`/","protocolVersion":"0.3.0","preferredTransport":"JSONRPC","capabilities":{}}`)
		}, ErrLegacyA2A03, "speaks A2A 0.3 only"},
		{"0.3 interfaces only", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, `{"name":"Old","supportedInterfaces":[{"url":"/","protocolBinding":"JSONRPC","protocolVersion":"0.3"}]}`)
		}, ErrLegacyA2A03, "speaks A2A 0.3 only"},
		{"no JSONRPC 1.0", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, `{"name":"G","supportedInterfaces":[{"url":"/g","protocolBinding":"GRPC","protocolVersion":"1.0"},{"url":"/h","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"}]}`)
		}, ErrNoJSONRPCInterface, "(it offers: GRPC 1.0, HTTP+JSON 1.0)"},
		{"card too large", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, big)
		}, ErrCardTooLarge, "over the 1048576-byte limit"},
		{"invalid JSON", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, `{"name":"x",`)
		}, ErrInvalidCard, "not valid JSON"},
		{"card behind auth", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="x"`)
			w.WriteHeader(401)
		}, ErrUnauthorized, `WWW-Authenticate: Bearer realm="x"`},
		{"server error", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(503)
		}, ErrServer, "HTTP 503"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			url := srv.URL + "/v1/chat/completions"
			_, err := Discover(t.Context(), url, Options{})
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("message %q lacks %q", err, tt.msg)
			}
		})
	}
}

func TestDiscover_NotA2ANamesTheURL(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	_, err := Discover(t.Context(), srv.URL+"/v1", Options{})
	want := fmt.Sprintf("not an A2A agent: no Agent Card at %s/v1", srv.URL)
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

func TestDiscover_InvalidURL(t *testing.T) {
	for _, u := range []string{"", "agent.example.com", "ftp://x/", "http://"} {
		if _, err := Discover(t.Context(), u, Options{}); err == nil {
			t.Errorf("Discover(%q) succeeded", u)
		}
	}
}

func TestDiscover_CardFetchCarriesNoCredential(t *testing.T) {
	a := newFakeAgent(t)
	a.CardFunc = func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" || r.Header.Get("X-API-Key") != "" {
			t.Errorf("card fetch carried a credential")
		}
		writeJSON(w, 200, cardJSON(a.srv.URL+"/rpc", ""))
	}
	a.client(t, CredentialOptions(t, a.srv.URL, remotecall.Credential{Kind: remotecall.CredentialAPIKey, Header: "X-API-Key", Secret: "k"}))
}
