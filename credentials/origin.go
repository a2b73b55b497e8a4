package credentials

import "workrun/remotecall"

// ErrBadOrigin is returned for a URL that cannot be bound to a credential.
var ErrBadOrigin = remotecall.ErrBadOrigin

// NormalizeOrigin returns the origin of raw as scheme://host:port, by the
// remote layer's one origin rule (remotecall.ParseOrigin): scheme and host
// lower-cased, the default port made explicit, IPv6 hosts bracketed; path,
// query and fragment are dropped. Only http and https are accepted, and
// never a URL with user information.
func NormalizeOrigin(raw string) (string, error) {
	o, err := remotecall.ParseOrigin(raw)
	if err != nil {
		return "", err
	}
	return o.String(), nil
}
