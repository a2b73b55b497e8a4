package oauth

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"workrun/remotecall"
)

// Grant flows.
const (
	FlowAuthorizationCode = "authorization_code"
	FlowClientCredentials = "client_credentials"
	FlowDeviceCode        = "urn:ietf:params:oauth:grant-type:device_code"
	// FlowJWTBearer: a workload signs in with a JWT of its identity
	// provider as the grant (RFC 7523 §2.1).
	FlowJWTBearer = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	// FlowEnterprise: enterprise-managed authorization — the person's ID
	// token is exchanged at their identity provider for an ID-JAG (RFC
	// 8693), which is the JWT bearer grant at the authorization server.
	FlowEnterprise = "enterprise_id_jag"
)

// Grant is everything a sign-in produced for one protected resource: the
// tokens, the client registration and where they are valid. It is secret
// as a whole and is kept only in the OS keyring (package credentials).
type Grant struct {
	// Origin and Resource say where the token may be sent: requests only
	// to Origin, and Resource is the RFC 8707 indicator it was issued for.
	Origin   string `json:"origin"`
	Resource string `json:"resource"`
	// ResourceURL is the URL signed in to (its metadata is read again when
	// a 401 says the token is no longer good).
	ResourceURL string `json:"resource_url"`
	// Issuer is the authorization server that issued the tokens.
	Issuer        string `json:"issuer"`
	TokenURL      string `json:"token_url"`
	RevocationURL string `json:"revocation_url,omitempty"`
	Flow          string `json:"flow"`
	Client        Client `json:"client"`
	// Scheme is the A2A card's security scheme the sign-in used ("" for
	// an MCP server's Protected Resource Metadata): its authorization
	// server comes from the card, so a 401 is not a reason to look for
	// resource metadata again.
	Scheme string `json:"scheme,omitempty"`

	AccessToken  string    `json:"access_token"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	TokenType    string    `json:"token_type,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
	// Scopes are the scopes granted (the token response's scope, else the
	// ones asked for).
	Scopes []string `json:"scopes,omitempty"`
	// WantScopes are scopes a server asked for later (403
	// insufficient_scope in a run); the next sign-in asks for them too.
	WantScopes []string `json:"want_scopes,omitempty"`
	// Subject is who signed in, when the server says (id_token or
	// token response); may be empty.
	Subject string `json:"subject,omitempty"`
	// DPoPKey is the PKCS#8 PEM P-256 key the tokens are bound to (RFC
	// 9449), "" for tokens that are not DPoP-bound. Secret.
	DPoPKey string `json:"dpop_key,omitempty"`
	// AssertionFile is the file a JWT bearer grant reads its assertion
	// from (FlowJWTBearer: the workload identity token; FlowEnterprise: the
	// person's ID token), read again at every token request so that a
	// rotated token is picked up.
	AssertionFile string `json:"assertion_file,omitempty"`
	// IdP is the identity provider of FlowEnterprise.
	IdP *IdP `json:"idp,omitempty"`
	// PastTokens are the last tokens this grant replaced (at most
	// maxPastTokens): no longer sent, but a server may still echo one (a
	// task's result computed with it), so they stay redacted.
	PastTokens []string `json:"past_tokens,omitempty"`
}

// maxPastTokens bounds Grant.PastTokens.
const maxPastTokens = 16

// Remember keeps old tokens (of this grant, or of the grant this one
// replaces) in PastTokens.
func (g *Grant) Remember(old ...string) {
	for _, t := range old {
		if t == "" || t == g.AccessToken || t == g.RefreshToken || slices.Contains(g.PastTokens, t) {
			continue
		}
		g.PastTokens = append(g.PastTokens, t)
	}
	if n := len(g.PastTokens) - maxPastTokens; n > 0 {
		g.PastTokens = g.PastTokens[n:]
	}
}

// Secrets are every secret of the grant: its tokens, past ones included,
// and its client's secret and key — what must never be shown.
func (g Grant) Secrets() []string {
	var out []string
	for _, s := range append([]string{g.AccessToken, g.RefreshToken, g.Client.Secret, g.Client.PrivateKeyPEM, g.DPoPKey}, g.PastTokens...) {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Valid reports whether the access token can be used now (more than skew
// before its expiry; a token without expiry counts as valid).
func (g Grant) Valid(now time.Time, skew time.Duration) bool {
	return g.AccessToken != "" && (g.Expiry.IsZero() || now.Add(skew).Before(g.Expiry))
}

// RefreshSkew is how long before expiry a token is refreshed.
const RefreshSkew = 60 * time.Second

// config is the x/oauth2 configuration for g's client.
func (c Client) config(authURL, tokenURL, redirect string, scopes []string) *oauth2.Config {
	style := oauth2.AuthStyleInParams
	if c.AuthMethod == AuthClientSecretBasic {
		style = oauth2.AuthStyleInHeader
	}
	secret := c.Secret
	if c.AuthMethod == AuthNone || c.AuthMethod == AuthPrivateKeyJWT {
		secret = ""
	}
	return &oauth2.Config{ClientID: c.ID, ClientSecret: secret, RedirectURL: redirect, Scopes: scopes,
		Endpoint: oauth2.Endpoint{AuthURL: authURL, TokenURL: tokenURL, AuthStyle: style}}
}

// tokenContext makes x/oauth2 use hc (caps, loopback rules of the
// caller); with key, every token request carries a DPoP proof of it.
func tokenContext(ctx context.Context, hc *http.Client, key *dpopKey) context.Context {
	if hc == nil {
		hc = http.DefaultClient
	}
	capped := *hc
	capped.Timeout = MaxReplyTime
	if key != nil {
		base := capped.Transport
		if base == nil {
			base = http.DefaultTransport
		}
		capped.Transport = &dpopTokenTransport{base: base, key: key}
	}
	return context.WithValue(ctx, oauth2.HTTPClient, &capped)
}

// dpop is the grant's DPoP key, nil when its tokens are not bound.
func (g Grant) dpop() (*dpopKey, error) {
	if g.DPoPKey == "" {
		return nil, nil
	}
	return parseDPoPKey(g.DPoPKey)
}

// DPoPBound reports whether the access token is presented with the DPoP
// scheme: a key is kept and the token response said token_type DPoP.
func (g Grant) DPoPBound() bool {
	return g.DPoPKey != "" && strings.EqualFold(g.TokenType, TokenTypeDPoP)
}

// fromToken fills g's token fields from a token response.
func (g *Grant) fromToken(t *oauth2.Token, asked []string) {
	oldAccess, oldRefresh := g.AccessToken, g.RefreshToken
	defer g.Remember(oldAccess, oldRefresh)
	g.AccessToken = t.AccessToken
	if t.RefreshToken != "" {
		g.RefreshToken = t.RefreshToken
	}
	g.TokenType = t.TokenType
	g.Expiry = t.Expiry
	if s, ok := t.Extra("scope").(string); ok && s != "" {
		g.Scopes = strings.Fields(s)
	} else if len(asked) > 0 {
		g.Scopes = slices.Clone(asked)
	}
}

// SelectScopes is the scope to ask for: the challenge's scope, else the
// resource metadata's scopes_supported, else none (the parameter is then
// omitted); plus extra (earlier grants and step-up needs, unioned), plus
// offline_access when the authorization server lists it and hands out
// refresh tokens, so that a run can refresh.
func SelectScopes(d *Discovery, ch Challenge, extra []string) []string {
	var s []string
	switch {
	case len(ch.Scope) > 0:
		s = slices.Clone(ch.Scope)
	case d.ResourceMetadata != nil && len(d.ResourceMetadata.ScopesSupported) > 0:
		s = slices.Clone(d.ResourceMetadata.ScopesSupported)
	}
	for _, e := range extra {
		if !slices.Contains(s, e) {
			s = append(s, e)
		}
	}
	if len(s) > 0 && !slices.Contains(s, "offline_access") &&
		slices.Contains(d.Server.ScopesSupported, "offline_access") && d.Server.supportsGrant("refresh_token") {
		s = append(s, "offline_access")
	}
	return s
}

// originOf is raw's origin as remotecall normalises it (the one origin
// rule): scheme://host:port, the default port explicit.
func originOf(raw string) (string, error) {
	o, err := remotecall.ParseOrigin(raw)
	if err != nil {
		return "", fmt.Errorf("%w: %q: %w", ErrBadURL, clip(raw), err)
	}
	return o.String(), nil
}

// newGrant starts a grant for d with client c, with a DPoP key of its own
// when the sign-in binds its tokens (bindDPoP, challenge ch).
func newGrant(d *Discovery, c Client, flow string, ch Challenge) (Grant, error) {
	origin, err := originOf(d.ResourceURL)
	if err != nil {
		return Grant{}, err
	}
	g := Grant{Origin: origin, Resource: d.Resource, ResourceURL: d.ResourceURL, Issuer: d.IssuerID,
		TokenURL: d.Server.TokenEndpoint, RevocationURL: d.Server.RevocationEndpoint, Flow: flow, Client: c, Scheme: d.Scheme}
	if err := g.bindDPoP(d, ch); err != nil {
		return Grant{}, err
	}
	return g, nil
}
