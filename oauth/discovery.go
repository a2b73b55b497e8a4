package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"workrun/remotecall"
)

// Caps on what an authorization or resource server may send back. A reply
// over the size cap or later than the time cap is an error, like every other
// remote reply Workrun reads.
const (
	MaxMetadataBytes = 256 << 10
	MaxReplyTime     = 30 * time.Second
)

// ResourceMetadata is an OAuth 2.0 Protected Resource Metadata document
// (RFC 9728 §2); only the members Workrun uses.
type ResourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported,omitempty"`
}

// ServerMetadata is an authorization server's metadata (RFC 8414 §2, or
// OpenID Connect Discovery 1.0 §3); only the members Workrun uses.
type ServerMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint,omitempty"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint,omitempty"`
	RevocationEndpoint                string   `json:"revocation_endpoint,omitempty"`
	DeviceAuthorizationEndpoint       string   `json:"device_authorization_endpoint,omitempty"`
	ScopesSupported                   []string `json:"scopes_supported,omitempty"`
	GrantTypesSupported               []string `json:"grant_types_supported,omitempty"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported,omitempty"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported,omitempty"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported,omitempty"`
	IssParameterSupported             bool     `json:"authorization_response_iss_parameter_supported,omitempty"`
	// DPoPSigningAlgValuesSupported: the server binds tokens to DPoP
	// proofs of these algorithms (RFC 9449 §5.1).
	DPoPSigningAlgValuesSupported []string `json:"dpop_signing_alg_values_supported,omitempty"`
}

// supportsGrant: an absent grant_types_supported means authorization_code
// and implicit (RFC 8414 §2).
func (m ServerMetadata) supportsGrant(g string) bool {
	if len(m.GrantTypesSupported) == 0 {
		return g == "authorization_code"
	}
	return contains(m.GrantTypesSupported, g)
}

// authMethods: absent means client_secret_basic (RFC 8414 §2).
func (m ServerMetadata) authMethods() []string {
	if len(m.TokenEndpointAuthMethodsSupported) == 0 {
		return []string{AuthClientSecretBasic}
	}
	return m.TokenEndpointAuthMethodsSupported
}

// Discovery is what Discover found for one protected resource.
type Discovery struct {
	// ResourceURL is the URL the person gave (the MCP endpoint, the agent).
	ResourceURL string
	// Resource is the RFC 8707 resource indicator sent on authorization and
	// token requests: the metadata's resource, checked against ResourceURL.
	Resource string
	// ResourceMetadata is nil when the server publishes none.
	ResourceMetadata *ResourceMetadata
	// IssuerID is the authorization server identifier used to build the
	// metadata URL; Server.Issuer equals it exactly.
	IssuerID string
	Server   ServerMetadata
	// Scheme names the A2A card scheme this came from (SchemeDiscovery).
	Scheme string
}

// fetcher reads capped JSON documents.
type fetcher struct{ hc *http.Client }

func (f fetcher) client() *http.Client {
	if f.hc != nil {
		return f.hc
	}
	return http.DefaultClient
}

// getJSON fetches u into v. found is false for a 404 or other 4xx, so the
// caller may try the next well-known location.
func (f fetcher) getJSON(ctx context.Context, u string, v any) (found bool, err error) {
	if err := CheckServerURL(u); err != nil {
		return false, err
	}
	ctx, cancel := context.WithTimeout(ctx, MaxReplyTime)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, fmt.Errorf("get %s: %w", u, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := f.client().Do(req)
	if err != nil {
		return false, fmt.Errorf("get %s: %w", u, err)
	}
	defer resp.Body.Close()
	body, err := readCapped(resp.Body, MaxMetadataBytes)
	if err != nil {
		return false, fmt.Errorf("get %s: %w", u, err)
	}
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		return false, nil
	}
	if resp.StatusCode != http.StatusOK {
		return false, fmt.Errorf("get %s: HTTP %d", u, resp.StatusCode)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return false, fmt.Errorf("get %s: %w: %v", u, ErrBadMetadata, err)
	}
	return true, nil
}

// readCapped reads all of r, failing past max bytes.
func readCapped(r io.Reader, max int64) ([]byte, error) {
	var b bytes.Buffer
	n, err := io.Copy(&b, io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if n > max {
		return nil, fmt.Errorf("%w (over %d bytes)", ErrTooLarge, max)
	}
	return b.Bytes(), nil
}

// Discover finds the protected resource's metadata and its authorization
// server's metadata. Protected Resource Metadata comes from the challenge's
// resource_metadata, else the path-based well-known URL, else the root one
// (RFC 9728 §3). Its resource must name resourceURL (same origin, a path
// prefix of it): a document that claims another resource is refused
// (ErrResourceMismatch). The authorization server metadata comes from the
// RFC 8414 path-inserted URL, then the OpenID Connect ones; its issuer must
// equal the identifier exactly, without normalisation (ErrIssuerMismatch).
func Discover(ctx context.Context, hc *http.Client, resourceURL string, ch Challenge) (*Discovery, error) {
	f := fetcher{hc}
	ru, err := url.Parse(resourceURL)
	if err != nil || ru.Host == "" {
		return nil, fmt.Errorf("discover: %w: %q", ErrBadURL, resourceURL)
	}
	d := &Discovery{ResourceURL: resourceURL, Resource: canonicalResource(ru)}
	var prm ResourceMetadata
	found := false
	for _, u := range prmURLs(ru, ch.ResourceMetadata) {
		prm = ResourceMetadata{}
		found, err = f.getJSON(ctx, u, &prm)
		if err != nil {
			return nil, fmt.Errorf("discover: protected resource metadata: %w", err)
		}
		if found {
			break
		}
	}
	if !found {
		return nil, fmt.Errorf("discover: %w: no protected resource metadata for %s", ErrNoMetadata, resourceURL)
	}
	if len(prm.AuthorizationServers) == 0 {
		return nil, fmt.Errorf("discover: %w: the protected resource metadata names no authorization server", ErrBadMetadata)
	}
	if prm.Resource != "" {
		if !resourceAllowed(prm.Resource, ru) {
			return nil, fmt.Errorf("discover: %w: the metadata is for %q, not %s", ErrResourceMismatch, clip(prm.Resource), resourceURL)
		}
		d.Resource = prm.Resource
	}
	d.ResourceMetadata = &prm
	d.IssuerID = prm.AuthorizationServers[0]
	d.Server, err = ServerMetadataFor(ctx, hc, d.IssuerID)
	if err != nil {
		return nil, fmt.Errorf("discover: %w", err)
	}
	return d, nil
}

// ServerMetadataFor reads an authorization server's metadata by its issuer
// identifier (also what OpenID Connect discovery of an A2A card starts
// from).
func ServerMetadataFor(ctx context.Context, hc *http.Client, issuer string) (ServerMetadata, error) {
	f := fetcher{hc}
	iu, err := url.Parse(issuer)
	if err != nil || iu.Host == "" || iu.RawQuery != "" || iu.Fragment != "" {
		return ServerMetadata{}, fmt.Errorf("authorization server %q: %w", clip(issuer), ErrBadURL)
	}
	if err := CheckServerURL(issuer); err != nil {
		return ServerMetadata{}, err
	}
	for _, u := range asMetadataURLs(iu) {
		var m ServerMetadata
		found, err := f.getJSON(ctx, u, &m)
		if err != nil {
			return ServerMetadata{}, fmt.Errorf("authorization server metadata: %w", err)
		}
		if !found {
			continue
		}
		if err := checkServerMetadata(m, u, issuer); err != nil {
			return ServerMetadata{}, err
		}
		return m, nil
	}
	return ServerMetadata{}, fmt.Errorf("%w: no authorization server metadata for %s", ErrNoMetadata, issuer)
}

// checkServerMetadata: the issuer is the one expected (exactly), there is
// a token endpoint, and no endpoint is on plain http unless loopback.
func checkServerMetadata(m ServerMetadata, from, issuer string) error {
	if m.Issuer != issuer {
		return fmt.Errorf("authorization server metadata at %s: %w: it says %q, expected %q", from, ErrIssuerMismatch, clip(m.Issuer), issuer)
	}
	if m.TokenEndpoint == "" {
		return fmt.Errorf("authorization server metadata at %s: %w: no token_endpoint", from, ErrBadMetadata)
	}
	for _, e := range []string{m.AuthorizationEndpoint, m.TokenEndpoint, m.RegistrationEndpoint, m.RevocationEndpoint, m.DeviceAuthorizationEndpoint} {
		if e == "" {
			continue
		}
		if err := CheckServerURL(e); err != nil {
			return fmt.Errorf("authorization server metadata at %s: %w", from, err)
		}
	}
	return nil
}

// authority is scheme://host as u spells it, the prefix of a well-known URL
// and of an issuer identifier, which keep the server's own spelling (an
// issuer is compared as a string, RFC 8414 §3.3). It is not an origin: where
// two URLs must be on the same origin, remotecall.Origin compares them.
func authority(u *url.URL) string {
	return (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()
}

// prmURLs lists where to look for Protected Resource Metadata, in order.
func prmURLs(ru *url.URL, fromChallenge string) []string {
	var out []string
	if fromChallenge != "" {
		if cu, err := ru.Parse(fromChallenge); err == nil {
			out = append(out, cu.String())
		}
	}
	base := authority(ru)
	if p := strings.TrimSuffix(ru.EscapedPath(), "/"); p != "" {
		out = append(out, base+"/.well-known/oauth-protected-resource"+p)
	}
	return append(out, base+"/.well-known/oauth-protected-resource")
}

// asMetadataURLs lists where to look for the metadata of the issuer iu:
// RFC 8414 §3.1 inserts the well-known segment before the issuer's path;
// OpenID Connect Discovery inserts it (the form servers use) or appends it.
func asMetadataURLs(iu *url.URL) []string {
	base := authority(iu)
	p := strings.TrimSuffix(iu.EscapedPath(), "/")
	if p == "" {
		return []string{base + "/.well-known/oauth-authorization-server", base + "/.well-known/openid-configuration"}
	}
	return []string{
		base + "/.well-known/oauth-authorization-server" + p,
		base + "/.well-known/openid-configuration" + p,
		base + p + "/.well-known/openid-configuration",
	}
}

// canonicalResource is the URL as an RFC 8707 resource: lower-case scheme
// and host, no fragment, no query.
func canonicalResource(u *url.URL) string {
	c := *u
	c.Scheme = strings.ToLower(c.Scheme)
	c.Host = strings.ToLower(c.Host)
	c.Fragment, c.RawFragment, c.RawQuery, c.ForceQuery = "", "", "", false
	c.User = nil
	return c.String()
}

// resourceAllowed reports whether the metadata's resource covers the URL:
// the same origin and a path that is the URL's or a parent of it.
func resourceAllowed(resource string, ru *url.URL) bool {
	r, err := url.Parse(resource)
	if err != nil || r.Fragment != "" {
		return false
	}
	ro, err := remotecall.OriginOf(r)
	if err != nil || !ro.Matches(ru) {
		return false
	}
	rp := strings.TrimSuffix(r.EscapedPath(), "/") + "/"
	up := strings.TrimSuffix(ru.EscapedPath(), "/") + "/"
	return strings.HasPrefix(up, rp)
}

// CheckServerURL refuses a URL that is not https, except http to a loopback
// host (a local test server), with ErrInsecure. Origin and loopback are
// remotecall's rule (an address in 127.0.0.0/8 or ::1, localhost and
// *.localhost), the same one a run's transport applies.
func CheckServerURL(raw string) error {
	o, err := remotecall.ParseOrigin(raw)
	if err != nil {
		return fmt.Errorf("%w: %q: %w", ErrBadURL, clip(raw), err)
	}
	if o.Scheme() == "http" && !o.Loopback() {
		return fmt.Errorf("%w: %s uses plain http", ErrInsecure, o)
	}
	return nil
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
