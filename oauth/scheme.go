package oauth

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Scheme is an OAuth 2.0 or OpenID Connect security scheme an A2A Agent
// Card declares (oauth2SecurityScheme, openIdConnectSecurityScheme), in
// this package's terms; the caller translates the card (docs/oauth.md O8).
type Scheme struct {
	// Name is the scheme's name in the card (for messages).
	Name string
	// OpenID: an openIdConnectSecurityScheme; MetadataURL is then its
	// openIdConnectUrl.
	OpenID bool
	// MetadataURL is the oauth2MetadataUrl (an RFC 8414 document) or the
	// openIdConnectUrl. When set, the endpoints come from it.
	MetadataURL string
	// The card's flows: which grants it offers and their endpoints (used
	// when there is no MetadataURL).
	Flows                  []string // FlowAuthorizationCode, FlowClientCredentials, FlowDeviceCode
	AuthorizationURL       string
	TokenURL               string
	DeviceAuthorizationURL string
	// Scopes are the scopes the card's security requirement names for this
	// scheme, else the flow's scope list.
	Scopes []string
}

// SchemeDiscovery is Discover for an A2A agent: the authorization server
// comes from the card's scheme instead of Protected Resource Metadata. A
// metadata URL is read like ServerMetadataFor reads one — capped, https
// unless loopback, and its issuer must be the identifier the URL was built
// from (RFC 8414 §3.3, OpenID Connect Discovery §4.3), compared exactly.
// Without one, the flow's own endpoints are used and the token endpoint's
// origin stands for the issuer (the card names no other). The resource
// indicator is the agent's URL.
func SchemeDiscovery(ctx context.Context, hc *http.Client, resourceURL string, s Scheme) (*Discovery, error) {
	ru, err := url.Parse(resourceURL)
	if err != nil || ru.Host == "" {
		return nil, fmt.Errorf("discover: %w: %q", ErrBadURL, resourceURL)
	}
	d := &Discovery{ResourceURL: resourceURL, Resource: canonicalResource(ru), Scheme: s.Name}
	if d.Scheme == "" {
		d.Scheme = "card"
	}
	if s.MetadataURL != "" {
		issuer, err := issuerOfMetadataURL(s.MetadataURL, s.OpenID)
		if err != nil {
			return nil, fmt.Errorf("discover: scheme %s: %w", s.Name, err)
		}
		var m ServerMetadata
		found, err := fetcher{hc}.getJSON(ctx, s.MetadataURL, &m)
		if err != nil {
			return nil, fmt.Errorf("discover: scheme %s: %w", s.Name, err)
		}
		if !found {
			return nil, fmt.Errorf("discover: scheme %s: %w at %s", s.Name, ErrNoMetadata, clip(s.MetadataURL))
		}
		if err := checkServerMetadata(m, s.MetadataURL, issuer); err != nil {
			return nil, fmt.Errorf("discover: scheme %s: %w", s.Name, err)
		}
		d.IssuerID, d.Server = issuer, m
	} else {
		if s.OpenID {
			return nil, fmt.Errorf("discover: scheme %s: %w: no openIdConnectUrl", s.Name, ErrBadMetadata)
		}
		if s.TokenURL == "" {
			return nil, fmt.Errorf("discover: scheme %s: %w: the flow has no tokenUrl", s.Name, ErrBadMetadata)
		}
		issuer, err := originOf(s.TokenURL)
		if err != nil {
			return nil, fmt.Errorf("discover: scheme %s: %w", s.Name, err)
		}
		m := ServerMetadata{Issuer: issuer, AuthorizationEndpoint: s.AuthorizationURL, TokenEndpoint: s.TokenURL,
			DeviceAuthorizationEndpoint: s.DeviceAuthorizationURL,
			// The card says nothing of these: PKCE S256 is always used
			// (OAuth 2.1), and the client decides how it authenticates.
			CodeChallengeMethodsSupported:     []string{"S256"},
			TokenEndpointAuthMethodsSupported: []string{AuthNone, AuthClientSecretBasic, AuthClientSecretPost},
			GrantTypesSupported:               append(slices.Clone(s.Flows), "refresh_token")}
		if err := checkServerMetadata(m, s.TokenURL, issuer); err != nil {
			return nil, fmt.Errorf("discover: scheme %s: %w", s.Name, err)
		}
		d.IssuerID, d.Server = issuer, m
	}
	d.ResourceMetadata = &ResourceMetadata{Resource: d.Resource, AuthorizationServers: []string{d.IssuerID}, ScopesSupported: s.Scopes}
	return d, nil
}

// issuerOfMetadataURL is the issuer identifier a metadata URL was built
// from: RFC 8414's path insertion (/.well-known/oauth-authorization-server
// before the issuer's path) or OpenID Connect's suffix
// (/.well-known/openid-configuration after it).
func issuerOfMetadataURL(raw string, openID bool) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("%w: metadata URL %q", ErrBadURL, clip(raw))
	}
	if err := CheckServerURL(raw); err != nil {
		return "", err
	}
	origin := authority(u)
	const rfc8414, oidc = "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"
	switch {
	case strings.HasSuffix(u.Path, oidc):
		return origin + strings.TrimSuffix(u.Path, oidc), nil
	case !openID && strings.HasPrefix(u.Path, rfc8414):
		return origin + strings.TrimPrefix(u.Path, rfc8414), nil
	case strings.HasPrefix(u.Path, oidc): // OpenID's path-inserted form
		return origin + strings.TrimPrefix(u.Path, oidc), nil
	}
	return "", fmt.Errorf("%w: %q is not a well-known metadata URL", ErrBadMetadata, clip(raw))
}
