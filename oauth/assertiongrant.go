package oauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// The JWT bearer grants (docs/oauth.md "Workload identity" and
// "Enterprise-managed authorization"): no person and no browser. x/oauth2
// sends them as its client credentials request with grant_type replaced,
// which it allows, so client authentication, the reply and its errors are
// x/oauth2's.

const (
	grantTokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
	tokenTypeIDToken   = "urn:ietf:params:oauth:token-type:id_token"
	tokenTypeIDJAG     = "urn:ietf:params:oauth:token-type:id-jag"
)

// maxAssertionBytes bounds an assertion file.
const maxAssertionBytes = 64 << 10

// ErrBadAssertion: the assertion file is missing, empty or not a JWT.
var ErrBadAssertion = errors.New("no usable JWT in the assertion file")

// IdP is the person's identity provider in enterprise-managed
// authorization: its token endpoint exchanges their ID token for an ID-JAG.
type IdP struct {
	Issuer   string `json:"issuer,omitempty"`
	TokenURL string `json:"token_url"`
	// ClientID is Workrun's client id at the identity provider (a public
	// client: it is sent as client_id, no secret).
	ClientID string `json:"client_id,omitempty"`
}

// AssertionConfig is what a JWT bearer sign-in needs besides the client.
type AssertionConfig struct {
	// File holds the JWT: the workload identity token (ModeJWTBearer) or
	// the person's ID token (ModeEnterprise). Read at every token request.
	File string
	// IdP is the identity provider of ModeEnterprise; TokenURL may be
	// empty when Issuer is given (its metadata names it).
	IdP IdP
}

// readAssertion reads a JWT from file.
func readAssertion(file string) (string, error) {
	if file == "" {
		return "", fmt.Errorf("%w: no file given", ErrBadAssertion)
	}
	f, err := os.Open(file)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrBadAssertion, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxAssertionBytes+1))
	if err != nil {
		return "", fmt.Errorf("%w: %s: %w", ErrBadAssertion, file, err)
	}
	if len(b) > maxAssertionBytes {
		return "", fmt.Errorf("%w: %s is over %d bytes", ErrBadAssertion, file, maxAssertionBytes)
	}
	s := strings.TrimSpace(string(b))
	if strings.Count(s, ".") != 2 || strings.ContainsAny(s, " \t\r\n") {
		return "", fmt.Errorf("%w: %s does not hold one JWT", ErrBadAssertion, file)
	}
	return s, nil
}

// JWTBearer signs a workload in with the JWT bearer grant (RFC 7523 §2.1):
// the JWT in a.File, issued by the workload's identity provider for the
// authorization server, is the grant. A refused grant is not retried, nor
// another grant tried.
func JWTBearer(ctx context.Context, hc *http.Client, d *Discovery, cfg ClientConfig, a AssertionConfig, ch Challenge) (Grant, error) {
	return assertionSignIn(ctx, hc, d, cfg, a, ch, FlowJWTBearer)
}

// Enterprise signs in with enterprise-managed authorization: the person's
// ID token (a.File) is exchanged at their identity provider for an ID-JAG
// for this authorization server and resource (RFC 8693), which is then the
// JWT bearer grant at the authorization server.
func Enterprise(ctx context.Context, hc *http.Client, d *Discovery, cfg ClientConfig, a AssertionConfig, ch Challenge) (Grant, error) {
	if a.IdP.TokenURL == "" {
		if a.IdP.Issuer == "" {
			return Grant{}, fmt.Errorf("enterprise sign-in: %w: the identity provider's issuer or token URL is needed", ErrBadURL)
		}
		m, err := ServerMetadataFor(ctx, hc, a.IdP.Issuer)
		if err != nil {
			return Grant{}, fmt.Errorf("enterprise sign-in: the identity provider: %w", err)
		}
		a.IdP.TokenURL = m.TokenEndpoint
	}
	if err := CheckServerURL(a.IdP.TokenURL); err != nil {
		return Grant{}, fmt.Errorf("enterprise sign-in: the identity provider's token URL: %w", err)
	}
	return assertionSignIn(ctx, hc, d, cfg, a, ch, FlowEnterprise)
}

func assertionSignIn(ctx context.Context, hc *http.Client, d *Discovery, cfg ClientConfig, a AssertionConfig, ch Challenge, flow string) (Grant, error) {
	if _, err := readAssertion(a.File); err != nil {
		return Grant{}, fmt.Errorf("sign in: %w", err)
	}
	c, err := ChooseClient(ctx, hc, d, cfg, "", []string{FlowJWTBearer}, nil)
	if err != nil {
		return Grant{}, fmt.Errorf("sign in: %w", err)
	}
	g, err := newGrant(d, c, flow, ch)
	if err != nil {
		return Grant{}, err
	}
	g.Scopes = SelectScopes(d, ch, nil)
	g.AssertionFile = a.File
	if flow == FlowEnterprise {
		idp := a.IdP
		g.IdP = &idp
	}
	if err := g.assertionToken(ctx, hc); err != nil {
		return Grant{}, err
	}
	return g, nil
}

// assertionToken gets a new access token with the grant's assertion,
// read from its file again.
func (g *Grant) assertionToken(ctx context.Context, hc *http.Client) error {
	assertion, err := readAssertion(g.AssertionFile)
	if err != nil {
		return &SignInError{Origin: g.Origin, Reason: "the assertion file cannot be used", Err: err}
	}
	if g.Flow == FlowEnterprise {
		if assertion, err = g.idJAG(ctx, hc, assertion); err != nil {
			return err
		}
	}
	return g.grantToken(ctx, hc, "jwt bearer grant", map[string][]string{"grant_type": {FlowJWTBearer}, "assertion": {assertion}}, assertion)
}

// idJAG exchanges the person's ID token at the identity provider for an
// ID-JAG whose audience is the authorization server and whose resource is
// the grant's.
func (g *Grant) idJAG(ctx context.Context, hc *http.Client, idToken string) (string, error) {
	if g.IdP == nil || g.IdP.TokenURL == "" {
		return "", &SignInError{Origin: g.Origin, Reason: "the identity provider is not known"}
	}
	cc := clientcredentials.Config{ClientID: g.IdP.ClientID, TokenURL: g.IdP.TokenURL, Scopes: g.Scopes,
		AuthStyle: oauth2.AuthStyleInParams, EndpointParams: map[string][]string{
			"grant_type": {grantTokenExchange}, "subject_token": {idToken}, "subject_token_type": {tokenTypeIDToken},
			"requested_token_type": {tokenTypeIDJAG}, "audience": {g.Issuer}, "resource": {g.Resource}}}
	tok, err := cc.Token(tokenContext(ctx, hc, nil))
	if err != nil {
		return "", g.tokenFailure("token exchange at the identity provider", err, idToken)
	}
	if t, ok := tok.Extra("issued_token_type").(string); ok && t != tokenTypeIDJAG {
		return "", fmt.Errorf("token exchange at the identity provider: %w: it issued %q, not an ID-JAG", ErrBadMetadata, clip(t))
	}
	return tok.AccessToken, nil
}

// grantToken sends a token request of the grant's client with params (a
// grant_type among them), the resource indicator, the scopes and, for a
// DPoP-bound grant, a proof; extra are secrets the request carried.
func (g *Grant) grantToken(ctx context.Context, hc *http.Client, what string, params map[string][]string, extra ...string) error {
	key, err := g.dpop()
	if err != nil {
		return err
	}
	base := g.Client.config("", g.TokenURL, "", g.Scopes)
	params["resource"] = []string{g.Resource}
	cc := clientcredentials.Config{ClientID: base.ClientID, ClientSecret: base.ClientSecret, TokenURL: g.TokenURL,
		Scopes: g.Scopes, AuthStyle: base.Endpoint.AuthStyle, EndpointParams: params}
	if g.Client.AuthMethod == AuthPrivateKeyJWT {
		a, err := clientAssertion(g.Client, g.Issuer)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		cc.EndpointParams["client_assertion_type"] = []string{assertionType}
		cc.EndpointParams["client_assertion"] = []string{a}
	}
	tok, err := cc.Token(tokenContext(ctx, hc, key))
	if err != nil {
		return g.tokenFailure(what, err, extra...)
	}
	g.fromToken(tok, g.Scopes)
	return nil
}

// tokenFailure is a refused token request: a 4xx means the grant is no
// longer good (ErrSignInRequired), anything else is an error of its own.
func (g *Grant) tokenFailure(what string, err error, extra ...string) error {
	terr := tokenError(err, append(g.Secrets(), extra...)...)
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode >= 400 && re.Response.StatusCode < 500 {
		return &SignInError{Origin: g.Origin, Reason: "the " + what + " was refused", Err: terr}
	}
	return fmt.Errorf("%s: token request: %w", what, terr)
}
