package credentials

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"unicode"
)

// ErrBadOrigin is returned for a URL that cannot be bound to a credential.
var ErrBadOrigin = errors.New("bad service origin")

// NormalizeOrigin returns the origin of raw as scheme://host:port: scheme
// and host lower-cased, the default port (443 for https, 80 for http) made
// explicit, IPv6 hosts bracketed; path, query and fragment are dropped.
// Only http and https are accepted, and never a URL with user information.
func NormalizeOrigin(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("%w: %q: %v", ErrBadOrigin, raw, err)
	}
	scheme := strings.ToLower(u.Scheme)
	var def string
	switch scheme {
	case "https":
		def = "443"
	case "http":
		def = "80"
	default:
		return "", fmt.Errorf("%w: %q: scheme must be http or https", ErrBadOrigin, raw)
	}
	if u.User != nil {
		return "", fmt.Errorf("%w: %q: user information in the URL", ErrBadOrigin, raw)
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if host == "" {
		return "", fmt.Errorf("%w: %q: no host", ErrBadOrigin, raw)
	}
	if !validHost(host) {
		return "", fmt.Errorf("%w: %q: bad host", ErrBadOrigin, raw)
	}
	port := u.Port()
	if port == "" {
		port = def
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return "", fmt.Errorf("%w: %q: bad port", ErrBadOrigin, raw)
	}
	port = strconv.Itoa(n) // "0443" -> "443"
	return scheme + "://" + net.JoinHostPort(host, port), nil
}

// validHost accepts an IP address without zone (fe80::1%eth0 names a local
// interface, not a service) or a name of non-empty labels of letters,
// digits, '-' and '_'.
func validHost(host string) bool {
	if ip := net.ParseIP(host); ip != nil {
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
