package remotecall

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"unicode"
)

// ErrBadOrigin is returned for a URL or origin that names no http(s)
// service a credential can be bound to.
var ErrBadOrigin = errors.New("bad service origin")

// Origin is scheme://host:port of a remote service: the unit a credential is
// bound to and the one thing every request of a call is checked against.
// It is the only origin type of the project: the credential store, both
// protocol clients' transports, both remote node kinds and the window's
// credential dialog normalise and compare origins with it
// (docs/remote-agent.md R3.3). The zero Origin names nothing.
type Origin struct {
	scheme string // "http" or "https"
	host   string // lower case, no trailing dot; an IPv6 address without brackets
	port   int
}

// ParseOrigin normalises raw — an origin or any absolute http(s) URL; path,
// query and fragment are dropped — to its Origin: scheme and host lower
// case, a trailing dot dropped, the default port (443, 80) made explicit,
// leading zeros of the port dropped, IPv6 hosts kept bracketed in String.
// It refuses (ErrBadOrigin) other schemes, user information, an empty or
// malformed host, an IPv6 zone and a port outside 1–65535.
func ParseOrigin(raw string) (Origin, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return Origin{}, texts.Fail(ErrBadOrigin, msgOriginBad, clipText(raw))
	}
	return OriginOf(u)
}

// OriginOf is the Origin of an already parsed URL (see ParseOrigin).
func OriginOf(u *url.URL) (Origin, error) {
	raw := u.String()
	scheme := strings.ToLower(u.Scheme)
	var def int
	switch scheme {
	case "https":
		def = 443
	case "http":
		def = 80
	default:
		return Origin{}, texts.Fail(ErrBadOrigin, msgOriginScheme, clipText(raw))
	}
	if u.User != nil {
		return Origin{}, texts.Fail(ErrBadOrigin, msgURLUserinfo)
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if host == "" || !validHost(host) {
		return Origin{}, texts.Fail(ErrBadOrigin, msgOriginHost, clipText(raw))
	}
	port := def
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return Origin{}, texts.Fail(ErrBadOrigin, msgOriginPort, clipText(raw))
		}
		port = n
	} else if strings.HasSuffix(u.Host, ":") {
		return Origin{}, texts.Fail(ErrBadOrigin, msgOriginPort, clipText(raw))
	}
	return Origin{scheme: scheme, host: host, port: port}, nil
}

// validHost accepts an IP address without zone (fe80::1%eth0 names a local
// interface, not a service) or a name of non-empty labels of letters,
// digits, '-' and '_'.
func validHost(host string) bool {
	if strings.Contains(host, ":") { // only an IPv6 address has a colon here
		ip := net.ParseIP(host)
		return ip != nil && !strings.Contains(host, "%")
	}
	if net.ParseIP(host) != nil {
		return true
	}
	for label := range strings.SplitSeq(host, ".") {
		if label == "" {
			return false
		}
		for _, r := range label {
			if !(r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
				return false
			}
		}
	}
	return true
}

// String is scheme://host:port, an IPv6 host in brackets; "" for the zero
// Origin.
func (o Origin) String() string {
	if o.IsZero() {
		return ""
	}
	return o.scheme + "://" + net.JoinHostPort(o.host, strconv.Itoa(o.port))
}

// IsZero reports whether o names nothing.
func (o Origin) IsZero() bool { return o.scheme == "" }

// Scheme is "http" or "https".
func (o Origin) Scheme() string { return o.scheme }

// Host is the host without brackets or port.
func (o Origin) Host() string { return o.host }

// Loopback reports whether o's host names this machine (IsLoopbackHost).
func (o Origin) Loopback() bool { return IsLoopbackHost(o.host) }

// Matches reports whether u is on origin o.
func (o Origin) Matches(u *url.URL) bool {
	got, err := OriginOf(u)
	return err == nil && got == o
}

// IsLoopbackHost reports whether host (without port; brackets allowed)
// names this machine: an address in 127.0.0.0/8 or ::1, "localhost", or a
// name under ".localhost". The last two count because RFC 6761 §6.3 reserves
// them for loopback; the transport does not take the name's word for it:
// over plain http with a credential it refuses a connection whose peer
// address is not a loopback one (Transport's dial check), so a resolver that
// maps such a name elsewhere gets no secret.
func IsLoopbackHost(host string) bool {
	h := strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// ListenAddrLoopback reports whether a listen address (HOST:PORT, as
// net.Listen takes it) binds only this machine's loopback interface. An
// empty host binds every interface, so it is not loopback. The serving side
// uses it for its rule that a non-loopback listener needs TLS and tokens
// (docs/serve.md).
func ListenAddrLoopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("listen address %q: %w", addr, err)
	}
	return host != "" && IsLoopbackHost(host), nil
}

// PlainHTTPAllowed is the plain-http rule: a credential may be sent over
// http only to a loopback origin; https always. It returns the error shown
// when it may not (docs/remote-agent.md R3.3, docs/product.md W8).
func (o Origin) PlainHTTPAllowed() error {
	if o.scheme == "http" && !o.Loopback() {
		return texts.Fail(ErrInsecureCredential, msgURLPlainHTTP, o.String())
	}
	return nil
}

// CredentialOrigin is the origin a credential for a call to target belongs
// to, checked once for every node kind and the connection tests: bound is
// the credential's own origin ("" binds it to target's), and a credential
// bound elsewhere (ErrOtherOrigin) or sent over plain http to a host that is
// not loopback (ErrInsecureCredential) is refused before anything is sent.
func CredentialOrigin(bound, target string) (Origin, error) {
	want, err := ParseOrigin(target)
	if err != nil {
		return Origin{}, err
	}
	if bound != "" {
		have, err := ParseOrigin(bound)
		if err != nil {
			return Origin{}, err
		}
		if have != want {
			return Origin{}, texts.Fail(ErrOtherOrigin, msgOtherOrigin, have.String(), want.String())
		}
	}
	if err := want.PlainHTTPAllowed(); err != nil {
		return Origin{}, err
	}
	return want, nil
}

// CheckCredentialOrigin is the check of the window's credential dialog and
// of `workrun credential add`: raw is normalised, and an origin a secret
// could only reach over plain http to another machine is refused, since
// Workrun would never send it there.
func CheckCredentialOrigin(raw string) (string, error) {
	o, err := ParseOrigin(raw)
	if err != nil {
		return "", err
	}
	if err := o.PlainHTTPAllowed(); err != nil {
		return "", err
	}
	return o.String(), nil
}

// clipText shortens what a person or a server wrote before it goes into
// an error.
func clipText(s string) string {
	if len(s) <= 200 {
		return s
	}
	cut := 200
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
