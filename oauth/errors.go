package oauth

import (
	"errors"
	"fmt"
)

var (
	// ErrSignInRequired: no valid token can be had without the person
	// signing in again (none saved, the refresh was refused, the
	// authorization server changed, more scopes are needed). A run never
	// opens a browser; it stops with this error. Its text names the origin.
	ErrSignInRequired = errors.New("sign in required")
	// ErrBadURL: a URL that cannot be used.
	ErrBadURL = errors.New("bad URL")
	// ErrInsecure: an authorization server or metadata URL on plain http
	// that is not loopback.
	ErrInsecure = errors.New("refused: not https")
	// ErrTooLarge: a reply over its size cap.
	ErrTooLarge = errors.New("reply too large")
	// ErrNoMetadata: no metadata document at any of the well-known URLs.
	ErrNoMetadata = errors.New("no OAuth metadata")
	// ErrBadMetadata: a metadata document that cannot be used.
	ErrBadMetadata = errors.New("bad OAuth metadata")
	// ErrResourceMismatch: the protected resource metadata is for another
	// resource than the URL asked.
	ErrResourceMismatch = errors.New("protected resource metadata is for another resource")
	// ErrIssuerMismatch: the authorization server metadata's issuer, or the
	// iss of the authorization response (RFC 9207), is not the issuer
	// identifier Workrun started from (compared exactly).
	ErrIssuerMismatch = errors.New("authorization server issuer mismatch")
	// ErrNoPKCE: the authorization server does not offer PKCE with S256.
	ErrNoPKCE = errors.New("the authorization server does not support PKCE S256")
	// ErrNoRegistration: there is no way to obtain a client id (no
	// pre-registered id, no Client ID Metadata Document support, no dynamic
	// registration); the person has to enter a client id.
	ErrNoRegistration = errors.New("no way to register a client with the authorization server; enter a client id")
	// ErrDenied: the person or the server denied the sign-in.
	ErrDenied = errors.New("sign-in denied")
	// ErrState: the redirect's state is not the one sent.
	ErrState = errors.New("sign-in redirect with a wrong state")
	// ErrSignInTimeout: the browser did not come back in time.
	ErrSignInTimeout = errors.New("sign-in timed out")
	// ErrUnsupported: the server offers no flow Workrun can use.
	ErrUnsupported = errors.New("unsupported OAuth flow")
)

// SignInError is ErrSignInRequired for one origin, with the reason.
type SignInError struct {
	Origin string
	Reason string
	Err    error // the cause, if any
}

func (e *SignInError) Error() string {
	s := fmt.Sprintf("sign in to %s again", e.Origin)
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *SignInError) Is(target error) bool { return target == ErrSignInRequired }
func (e *SignInError) Unwrap() error        { return e.Err }
