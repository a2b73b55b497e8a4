package remotecall

import (
	"net/url"
	"strings"
)

// CheckURL accepts an absolute http(s) URL of service ("an A2A service")
// without a user name or password; with a credential, plain http only to a
// loopback host (Origin.PlainHTTPAllowed; docs/remote-agent.md R3.3,
// docs/product.md W8). The error names the url key.
func CheckURL(raw, service string, withCredential bool) error {
	if strings.TrimSpace(raw) == "" {
		return texts.Fail(nil, msgURLRequired)
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return texts.Fail(nil, msgURLNotAbsolute, raw, service)
	}
	if u.User != nil {
		return texts.Fail(nil, msgURLUserinfo)
	}
	o, err := OriginOf(u)
	if err != nil {
		return texts.Fail(err, msgURLNotAbsolute, raw, service)
	}
	if withCredential {
		if err := o.PlainHTTPAllowed(); err != nil {
			return texts.Fail(ErrInsecureCredential, msgURLPlainHTTP, u.Host)
		}
	}
	return nil
}
