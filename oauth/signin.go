package oauth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"golang.org/x/oauth2"

	"workrun/remotecall"
)

// DefaultSignInTimeout is how long a sign-in waits for the browser.
const DefaultSignInTimeout = 5 * time.Minute

// SignIn runs the flows that need the person: the authorization code flow
// in their browser, or the device code flow.
type SignIn struct {
	HTTP   *http.Client
	Client ClientConfig
	// Open shows the authorization URL to the person: OpenBrowser, or a
	// printer for headless use. Required for AuthorizationCode.
	Open func(ctx context.Context, authURL string) error
	// Timeout bounds the wait for the browser; 0 means DefaultSignInTimeout.
	Timeout time.Duration
	// Prev is the grant being replaced, if any: its client is reused at the
	// same issuer, and its scopes are asked for again.
	Prev *Grant
}

func (s SignIn) prevClient(issuer string) *Client {
	if s.Prev == nil || s.Prev.Client.Issuer != issuer || s.Prev.Client.Source != ClientDynamic {
		return nil
	}
	c := s.Prev.Client
	return &c
}

func (s SignIn) prevScopes(issuer string) []string {
	if s.Prev == nil || s.Prev.Issuer != issuer {
		return nil
	}
	return append(slices.Clone(s.Prev.Scopes), s.Prev.WantScopes...)
}

func randomString() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return base64.RawURLEncoding.EncodeToString(b)
}

// AuthorizationCode signs in with the authorization code flow and PKCE
// S256, with the resource indicator on both the authorization and the token
// request, the redirect coming back to a loopback listener. ch is the
// challenge that asked for it; extra scopes (step-up) are added.
func (s SignIn) AuthorizationCode(ctx context.Context, d *Discovery, ch Challenge, extra []string) (Grant, error) {
	m := d.Server
	if m.AuthorizationEndpoint == "" || !slices.Contains(m.CodeChallengeMethodsSupported, "S256") {
		if m.AuthorizationEndpoint == "" {
			return Grant{}, fmt.Errorf("sign in: %w: no authorization endpoint", ErrUnsupported)
		}
		return Grant{}, fmt.Errorf("sign in: %w", ErrNoPKCE)
	}
	if s.Open == nil {
		return Grant{}, errors.New("sign in: no way to show the sign-in page")
	}
	state := randomString()
	l, err := Listen(state)
	if err != nil {
		return Grant{}, err
	}
	defer l.Close()
	grants := []string{"authorization_code", "refresh_token"}
	c, err := ChooseClient(ctx, s.HTTP, d, s.Client, l.RedirectURI(), grants, s.prevClient(d.IssuerID))
	if err != nil {
		return Grant{}, fmt.Errorf("sign in: %w", err)
	}
	scopes := SelectScopes(d, ch, append(s.prevScopes(d.IssuerID), extra...))
	cfg := c.config(m.AuthorizationEndpoint, m.TokenEndpoint, l.RedirectURI(), scopes)
	verifier := oauth2.GenerateVerifier()
	resource := oauth2.SetAuthURLParam("resource", d.Resource)
	authURL := cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), resource)
	if err := s.Open(ctx, authURL); err != nil {
		return Grant{}, fmt.Errorf("sign in: %w", err)
	}
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = DefaultSignInTimeout
	}
	r, err := l.Wait(ctx, timeout)
	if err != nil {
		return Grant{}, fmt.Errorf("sign in: %w", err)
	}
	if err := checkIss(r, m); err != nil {
		return Grant{}, fmt.Errorf("sign in: %w", err)
	}
	g, err := newGrant(d, c, FlowAuthorizationCode, ch)
	if err != nil {
		return Grant{}, err
	}
	key, err := g.dpop()
	if err != nil {
		return Grant{}, err
	}
	tctx := tokenContext(ctx, s.HTTP, key)
	opts := []oauth2.AuthCodeOption{oauth2.VerifierOption(verifier), resource}
	if c.AuthMethod == AuthPrivateKeyJWT {
		a, err := assertionOptions(c, m.Issuer)
		if err != nil {
			return Grant{}, fmt.Errorf("sign in: %w", err)
		}
		opts = append(opts, a...)
	}
	tok, err := cfg.Exchange(tctx, r.Code, opts...)
	if err != nil {
		return Grant{}, fmt.Errorf("sign in: token request: %w", tokenError(err, c.Secret, r.Code, verifier))
	}
	g.fromToken(tok, scopes)
	return g, nil
}

// Device signs in with the device authorization grant (RFC 8628): show
// gets the verification URL and the code for the person to enter.
func (s SignIn) Device(ctx context.Context, d *Discovery, ch Challenge, show func(verificationURL, userCode string)) (Grant, error) {
	m := d.Server
	if m.DeviceAuthorizationEndpoint == "" {
		return Grant{}, fmt.Errorf("sign in: %w: the server offers no device code flow", ErrUnsupported)
	}
	c, err := ChooseClient(ctx, s.HTTP, d, s.Client, "", []string{FlowDeviceCode, "refresh_token"}, s.prevClient(d.IssuerID))
	if err != nil {
		return Grant{}, fmt.Errorf("sign in: %w", err)
	}
	scopes := SelectScopes(d, ch, s.prevScopes(d.IssuerID))
	cfg := c.config(m.AuthorizationEndpoint, m.TokenEndpoint, "", scopes)
	cfg.Endpoint.DeviceAuthURL = m.DeviceAuthorizationEndpoint
	g, err := newGrant(d, c, FlowDeviceCode, ch)
	if err != nil {
		return Grant{}, err
	}
	key, err := g.dpop()
	if err != nil {
		return Grant{}, err
	}
	resource := oauth2.SetAuthURLParam("resource", d.Resource)
	da, err := cfg.DeviceAuth(tokenContext(ctx, s.HTTP, nil), resource)
	if err != nil {
		return Grant{}, fmt.Errorf("sign in: device authorization: %w", tokenError(err, c.Secret))
	}
	uri := da.VerificationURIComplete
	if uri == "" {
		uri = da.VerificationURI
	}
	show(uri, da.UserCode)
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = DefaultSignInTimeout
	}
	wctx, cancel := context.WithTimeoutCause(tokenContext(ctx, s.HTTP, key), timeout, ErrSignInTimeout)
	defer cancel()
	tok, err := cfg.DeviceAccessToken(wctx, da, resource)
	if err != nil {
		if errors.Is(context.Cause(wctx), ErrSignInTimeout) {
			return Grant{}, fmt.Errorf("sign in: %w after %s", ErrSignInTimeout, timeout)
		}
		return Grant{}, fmt.Errorf("sign in: %w", tokenError(err, c.Secret, da.DeviceCode))
	}
	g.fromToken(tok, scopes)
	return g, nil
}

// ClientCredentials gets a token for a machine client (no person): a
// client secret or a private_key_jwt assertion authenticates it.
func ClientCredentials(ctx context.Context, hc *http.Client, d *Discovery, cfg ClientConfig, ch Challenge) (Grant, error) {
	if cfg.ID == "" {
		return Grant{}, fmt.Errorf("client credentials: %w: a client id is needed", ErrNoRegistration)
	}
	c, err := ChooseClient(ctx, hc, d, cfg, "", []string{FlowClientCredentials}, nil)
	if err != nil {
		return Grant{}, err
	}
	g, err := newGrant(d, c, FlowClientCredentials, ch)
	if err != nil {
		return Grant{}, err
	}
	g.Scopes = SelectScopes(d, ch, nil)
	if err := g.clientCredentialsToken(ctx, hc); err != nil {
		return Grant{}, err
	}
	return g, nil
}

func (g *Grant) clientCredentialsToken(ctx context.Context, hc *http.Client) error {
	return g.grantToken(ctx, hc, "client credentials", map[string][]string{})
}

// bindDPoP gives the grant a new DPoP key when the sign-in with d binds
// its tokens (SupportsDPoP).
func (g *Grant) bindDPoP(d *Discovery, ch Challenge) error {
	if !SupportsDPoP(d, ch) {
		return nil
	}
	p, err := newDPoPKeyPEM()
	if err != nil {
		return fmt.Errorf("sign in: %w", err)
	}
	g.DPoPKey = p
	return nil
}

// refresh gets a new access token: with the refresh token, or for a
// machine client by asking again. A refusal is ErrSignInRequired.
func (g *Grant) refresh(ctx context.Context, hc *http.Client) error {
	switch g.Flow {
	case FlowClientCredentials:
		return g.clientCredentialsToken(ctx, hc)
	case FlowJWTBearer, FlowEnterprise:
		return g.assertionToken(ctx, hc)
	}
	if g.RefreshToken == "" {
		return &SignInError{Origin: g.Origin, Reason: "the token expired and the server gave no refresh token"}
	}
	key, err := g.dpop()
	if err != nil {
		return err
	}
	cfg := g.Client.config("", g.TokenURL, "", nil)
	old := &oauth2.Token{RefreshToken: g.RefreshToken, Expiry: time.Unix(1, 0)}
	tok, err := cfg.TokenSource(tokenContext(ctx, hc, key), old).Token()
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode >= 400 && re.Response.StatusCode < 500 {
			return &SignInError{Origin: g.Origin, Reason: "the authorization server refused to refresh the token", Err: tokenError(err, g.Secrets()...)}
		}
		return fmt.Errorf("refresh the token for %s: %w", g.Origin, tokenError(err, g.Secrets()...))
	}
	g.fromToken(tok, g.Scopes)
	return nil
}

// tokenError keeps an OAuth error reply's code and description and drops
// its body (a server may echo what it was sent). secrets are what the
// request carried (client secret, refresh token, code, verifier): a server
// that echoes one in its description gets it replaced, so no error text
// carries it.
func tokenError(err error, secrets ...string) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		s := "HTTP error"
		if re.Response != nil {
			s = fmt.Sprintf("HTTP %d", re.Response.StatusCode)
		}
		if re.ErrorCode != "" {
			// Replaced before clip, which could cut a secret in two.
			s += ": " + clip(withoutSecrets(re.ErrorCode, secrets))
			if re.ErrorDescription != "" {
				s += ": " + clip(withoutSecrets(re.ErrorDescription, secrets))
			}
			if re.ErrorCode == "access_denied" {
				return fmt.Errorf("%w: %s", ErrDenied, s)
			}
		}
		return errors.New(s)
	}
	if s := withoutSecrets(err.Error(), secrets); s != err.Error() {
		return errors.New(s)
	}
	return err
}

// withoutSecrets replaces every secret in s with remotecall's Redactor,
// the one redaction rule (a JSON-escaped echo is caught too).
func withoutSecrets(s string, secrets []string) string {
	return remotecall.NewRedactor(secrets...).String(s)
}
