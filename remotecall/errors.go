package remotecall

import "errors"

// Errors of the credential-bound transport; each matches with errors.Is
// through the catalogue text that carries it.
var (
	// ErrOtherOrigin: a credential, a request or a redirect for an origin
	// other than the one the call is bound to. Nothing was sent there.
	ErrOtherOrigin = errors.New("credential refused for another origin")
	// ErrInsecureCredential: a credential would go over plain http to a
	// host that is not this machine.
	ErrInsecureCredential = errors.New("credential refused over plain http; use https")
	// ErrRequestTooLarge: the request body is over the transport's limit;
	// nothing was sent.
	ErrRequestTooLarge = errors.New("request too large")
	// ErrCallBytes: the server sent more bytes in one call (all its
	// requests together) than the call's bound.
	ErrCallBytes = errors.New("server sent too much in one call")
	// ErrBadCredential: a credential that cannot be put on a request (no
	// secret, a line break in it, a bad header name, an unknown kind).
	ErrBadCredential = errors.New("bad credential")
)
