package remotecall

import (
	"net"
	"net/http"
	"net/url"
)

// The serving side's half of the origin rule: what a server of ours reads
// from a request it receives. The client side and every server (serve's A2A
// and MCP fronts, the demo servers) share these, so the loopback and origin
// rules stay written once (docs/ARCHITECTURE.md).

// RequestOrigin is the origin a request was addressed to, as its client
// wrote it: the scheme the connection used (https over TLS) and the Host
// header. A server that advertises its own URL (an agent card) builds it
// from this.
func RequestOrigin(r *http.Request) string {
	u := url.URL{Scheme: "http", Host: r.Host}
	if r.TLS != nil {
		u.Scheme = "https"
	}
	return u.String()
}

// RebindingSafe guards a server listening on loopback against DNS
// rebinding: on a loopback listener the Host header must name a loopback
// host, and an Origin, when sent, a loopback origin (docs/serve.md M8). A
// request on any other listener passes: there TLS and tokens guard it.
func RebindingSafe(r *http.Request) bool {
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if local == nil {
		return true
	}
	loop, err := ListenAddrLoopback(local.String())
	if err != nil || !loop {
		return true
	}
	u, err := url.Parse("//" + r.Host)
	if err != nil || !IsLoopbackHost(u.Hostname()) {
		return false
	}
	if o := r.Header.Get("Origin"); o != "" {
		origin, err := ParseOrigin(o)
		if err != nil || !origin.Loopback() {
			return false
		}
	}
	return true
}
