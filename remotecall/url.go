package remotecall

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// CheckURL accepts an absolute http(s) URL of service ("an A2A service")
// without a user name or password; with a credential, plain http only to a
// host isLoopback accepts (docs/remote-agent.md R3.3, docs/product.md W8).
// The error names the url key.
func CheckURL(raw, service string, withCredential bool, isLoopback func(host string) bool) error {
	if strings.TrimSpace(raw) == "" {
		return texts.Fail(nil, msgURLRequired)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return texts.Fail(nil, msgURLNotAbsolute, raw, service)
	}
	if u.User != nil {
		return texts.Fail(nil, msgURLUserinfo)
	}
	if withCredential && u.Scheme == "http" && !isLoopback(u.Hostname()) {
		return texts.Fail(nil, msgURLPlainHTTP, u.Host)
	}
	return nil
}

// Origin returns scheme://host:port of an absolute URL, with the default port
// made explicit, so two spellings of one origin compare equal.
func Origin(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("origin of %q: not an absolute URL", raw)
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port), nil
}
