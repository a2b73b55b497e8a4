package remotecall

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// CredentialSource resolves a saved credential by name, secret included; T
// is the protocol client's credential type.
type CredentialSource[T any] interface {
	Credential(ctx context.Context, name string) (T, error)
}

// NamedCredential is the credential a node names: nil for "", and an error
// naming it when there is no credential store or the store cannot give it.
func NamedCredential[T any](ctx context.Context, src CredentialSource[T], name string) (*T, error) {
	if name == "" {
		return nil, nil
	}
	if src == nil {
		return nil, fmt.Errorf("credential %q: no credential store is available", name)
	}
	cred, err := src.Credential(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("credential %q: %w", name, err)
	}
	return &cred, nil
}

// Credential kinds.
const (
	CredentialBearer = "bearer"
	CredentialAPIKey = "apikey"
	// CredentialOAuth: Wrap supplies the transport that puts the token on
	// each request and renews it (package oauth).
	CredentialOAuth = "oauth"
	// CredentialDPoP: a DPoP-bound access token (RFC 9449 §7.1), sent as
	// "Authorization: DPoP TOKEN"; package oauth adds the proof header.
	CredentialDPoP = "dpop"
)

// Credential is a saved credential with its secret, as both remote node
// kinds receive it from the credential store: the one credential type of
// the remote layer. It is sent only to Origin ("" means the origin of the
// URL the node calls), never on a redirect elsewhere.
type Credential struct {
	// Kind is CredentialBearer or CredentialAPIKey.
	Kind string
	// Header is the API key's header name (e.g. "X-API-Key"); bearer uses
	// Authorization.
	Header string
	// Secret is the token or key; it is never put in an error or message.
	Secret string
	// Origin is scheme://host:port the credential belongs to.
	Origin string
	// Wrap, for CredentialOAuth, wraps the transport under the call's
	// Transport (Binding.Wrap): the wrapper sets Authorization itself.
	Wrap func(http.RoundTripper) http.RoundTripper
	// Known, for CredentialOAuth, are secrets of the credential that this
	// call may not send but a server may still echo (earlier tokens, the
	// refresh token, the client secret): redacted all the same.
	Known []string
}

// Authorizer puts a credential on each request the transport sends to its
// bound origin. The static credentials (bearer token, API key) are
// StaticAuth; an OAuth token source implements it too, refreshing its
// token when the server answers 401. The transport learns every secret from
// the header values Authorize sets and redacts them from what it lets out,
// so an Authorizer need not report them.
type Authorizer interface {
	// Authorize sets the credential's header(s) on req (a clone the
	// transport owns). It is called for every request, a retry included,
	// so a token source hands out its current token each time.
	Authorize(req *http.Request) error
	// Refresh is called once when the bound origin answered a request with
	// HTTP 401; challenge is its WWW-Authenticate values. true means a new
	// credential is ready and the request is sent once more (when its body
	// can be replayed); false leaves the 401 as the answer.
	Refresh(ctx context.Context, challenge []string) (bool, error)
}

// StaticAuth is a bearer token or an API key that never changes.
type StaticAuth struct{ cred Credential }

// NewStaticAuth checks c can go on a request (ErrBadCredential naming why).
func NewStaticAuth(c Credential) (StaticAuth, error) {
	switch c.Kind {
	case CredentialBearer, CredentialDPoP:
	case CredentialAPIKey:
		if strings.TrimSpace(c.Header) == "" {
			return StaticAuth{}, texts.Fail(ErrBadCredential, msgBadCredential, "an API key needs its header name")
		}
		if !validHeaderName(c.Header) {
			return StaticAuth{}, texts.Fail(ErrBadCredential, msgBadCredential, fmt.Sprintf("header name %q is not a valid HTTP header name", clipText(c.Header)))
		}
		if strings.EqualFold(c.Header, "Host") || strings.EqualFold(c.Header, "Content-Length") {
			return StaticAuth{}, texts.Fail(ErrBadCredential, msgBadCredential, fmt.Sprintf("header name %q is reserved", c.Header))
		}
	case CredentialOAuth:
		return StaticAuth{}, texts.Fail(ErrBadCredential, msgBadCredential, "an OAuth credential has no static secret; bind it with Binding.Wrap")
	default:
		return StaticAuth{}, texts.Fail(ErrBadCredential, msgBadCredential, fmt.Sprintf("unknown kind %q", clipText(c.Kind)))
	}
	if c.Secret == "" {
		return StaticAuth{}, texts.Fail(ErrBadCredential, msgBadCredential, "it has no secret")
	}
	if strings.ContainsAny(c.Secret, "\r\n\x00") {
		return StaticAuth{}, texts.Fail(ErrBadCredential, msgBadCredential, "its secret contains a line break or NUL")
	}
	return StaticAuth{cred: c}, nil
}

// Authorize implements Authorizer.
func (a StaticAuth) Authorize(req *http.Request) error {
	switch a.cred.Kind {
	case CredentialBearer:
		req.Header.Set("Authorization", "Bearer "+a.cred.Secret)
	case CredentialDPoP:
		req.Header.Set("Authorization", "DPoP "+a.cred.Secret)
	default:
		req.Header.Set(a.cred.Header, a.cred.Secret)
	}
	return nil
}

// Refresh implements Authorizer: a static secret has nothing newer.
func (StaticAuth) Refresh(context.Context, []string) (bool, error) { return false, nil }

// Secret is the credential's secret (for a redactor made before any
// request).
func (a StaticAuth) Secret() string { return a.cred.Secret }

// HeaderName is the header the credential travels in.
func (a StaticAuth) HeaderName() string {
	if a.cred.Kind == CredentialBearer || a.cred.Kind == CredentialDPoP {
		return "Authorization"
	}
	return http.CanonicalHeaderKey(a.cred.Header)
}

// validHeaderName reports whether s is an RFC 9110 token.
func validHeaderName(s string) bool {
	for _, r := range s {
		if r >= 0x80 || r <= ' ' || strings.ContainsRune("\"(),/:;<=>?@[\\]{}", r) {
			return false
		}
	}
	return s != ""
}

// BindCredential is the binding of a call to target that carries cred: its
// origin checked against target (CredentialOrigin), the credential checked
// and put behind its Authorizer (StaticAuth) or, for OAuth, its own
// transport (Binding.Wrap). Both node kinds and the connection tests build
// their Transport from it; nil cred gives an unbound binding.
func BindCredential(cred *Credential, target string) (Binding, error) {
	if cred == nil {
		return Binding{}, nil
	}
	origin, err := CredentialOrigin(cred.Origin, target)
	if err != nil {
		return Binding{}, err
	}
	if cred.Kind == CredentialOAuth {
		if cred.Wrap == nil {
			return Binding{}, texts.Fail(ErrBadCredential, msgBadCredential, "an OAuth credential without its transport")
		}
		return Binding{Origin: origin, Wrap: cred.Wrap, Known: cred.Known}, nil
	}
	auth, err := NewStaticAuth(*cred)
	if err != nil {
		return Binding{}, err
	}
	return Binding{Origin: origin, Auth: auth}, nil
}

// CredentialHeader is the header a binding's credential travels in ("" for
// none).
func (b Binding) CredentialHeader() string {
	switch a := b.Auth.(type) {
	case nil:
		if b.Wrap != nil {
			return "Authorization"
		}
		return ""
	case StaticAuth:
		return a.HeaderName()
	}
	return "Authorization"
}

// RequestBearer is the token of a request's "Authorization: Bearer TOKEN"
// header (the scheme case-insensitive, RFC 6750 §2.1), or false. The
// serving side reads its callers' tokens with it, so the bearer rule is
// written once for both directions.
func RequestBearer(r *http.Request) (string, bool) {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	tok = strings.TrimSpace(tok)
	if !ok || !strings.EqualFold(scheme, "bearer") || tok == "" {
		return "", false
	}
	return tok, true
}
