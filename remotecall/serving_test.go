package remotecall

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestRebindingSafe(t *testing.T) {
	loop := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8470}
	wide := &net.TCPAddr{IP: net.IPv4(10, 1, 2, 3), Port: 8470}
	cases := []struct {
		name   string
		local  net.Addr
		host   string
		origin string
		want   bool
	}{
		{"loopback host", loop, "127.0.0.1:8470", "", true},
		{"localhost name", loop, "localhost:8470", "http://localhost:8470", true},
		{"ipv6 loopback", loop, "[::1]:8470", "", true},
		{"rebound name", loop, "evil.example:8470", "", false},
		{"foreign page", loop, "127.0.0.1:8470", "https://evil.example", false},
		{"bad origin", loop, "127.0.0.1:8470", "::", false},
		{"wide listener", wide, "evil.example", "https://evil.example", true},
		{"no listener known", nil, "evil.example", "", true},
	}
	for _, c := range cases {
		r := httptest.NewRequest("POST", "/mcp", nil)
		r.Host = c.host
		if c.origin != "" {
			r.Header.Set("Origin", c.origin)
		}
		if c.local != nil {
			r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, c.local))
		}
		if got := RebindingSafe(r); got != c.want {
			t.Errorf("%s: RebindingSafe = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestRequestOrigin(t *testing.T) {
	r := httptest.NewRequest("GET", "/.well-known/agent-card.json", nil)
	r.Host = "127.0.0.1:41241"
	if got := RequestOrigin(r); got != "http://127.0.0.1:41241" {
		t.Errorf("plain: %q", got)
	}
	r.TLS = &tls.ConnectionState{}
	r.Host = "agents.example"
	if got := RequestOrigin(r); got != "https://agents.example" {
		t.Errorf("tls: %q", got)
	}
}
