package remotecall

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// CheckURL accepts an absolute http(s) URL of service ("an A2A service")
// without a user name or password; with a credential, plain http only to a
// host isLoopback accepts (docs/remote-agent.md R3.3, docs/product.md W8).
// The error names the url key.
func CheckURL(raw, service string, withCredential bool, isLoopback func(host string) bool) error {
	if strings.TrimSpace(raw) == "" {
		return errors.New("url is required")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("url %q is not an absolute http(s) URL of %s", raw, service)
	}
	if u.User != nil {
		return errors.New("url must not carry a user name or password; save a credential instead")
	}
	if withCredential && u.Scheme == "http" && !isLoopback(u.Hostname()) {
		return fmt.Errorf("a credential is sent over plain http only to a loopback address; use https for %s", u.Host)
	}
	return nil
}
