package credentials

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"workrun/a2a"
	"workrun/oauth"
)

// cardMetadataReply answers every request with one authorization server
// metadata document (issuer https://as.example), without a network.
type cardMetadataReply struct{}

func (cardMetadataReply) RoundTrip(r *http.Request) (*http.Response, error) {
	body := `{"issuer":"https://as.example","authorization_endpoint":"https://as.example/authorize","token_endpoint":"https://as.example/token","code_challenge_methods_supported":["S256"]}`
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
}

// FuzzCardScheme: an agent card's security schemes and requirements as the
// sign-in reads them (CardScheme, then oauth.SchemeDiscovery). A scheme
// picked is one the card declares as OAuth 2.0 or OpenID Connect; a
// discovery that succeeds uses only https (or loopback) endpoints, binds
// the token to the agent's URL, and names the scheme.
func FuzzCardScheme(f *testing.F) {
	for _, s := range []string{
		`{"name":"a","securitySchemes":{"oauth":{"oauth2SecurityScheme":{"flows":{"authorizationCode":{"authorizationUrl":"https://as.example/authorize","tokenUrl":"https://as.example/token","scopes":{"agent:read":"read"}},"clientCredentials":{"tokenUrl":"https://as.example/token"}}}},"bearer":{"httpAuthSecurityScheme":{"scheme":"Bearer"}}},"securityRequirements":[{"schemes":{"bearer":{"list":[]}}},{"schemes":{"oauth":{"list":["agent:read"]}}}]}`,
		`{"name":"a","securitySchemes":{"m":{"oauth2SecurityScheme":{"oauth2MetadataUrl":"https://as.example/.well-known/oauth-authorization-server"}}}}`,
		`{"name":"a","securitySchemes":{"o":{"openIdConnectSecurityScheme":{"openIdConnectUrl":"https://as.example/.well-known/openid-configuration"}}},"security":[{"o":["openid"]}]}`,
		`{"name":"a","securitySchemes":{"d":{"oauth2SecurityScheme":{"flows":{"deviceCode":{"deviceAuthorizationUrl":"https://as.example/device","tokenUrl":"https://as.example/token"}}}}}}`,
		`{"name":"a","securitySchemes":{"p":{"oauth2SecurityScheme":{"flows":{"clientCredentials":{"tokenUrl":"http://as.example/token"}}}}}}`,
		`{"name":"a","securitySchemes":{"q":{"oauth2SecurityScheme":{"oauth2MetadataUrl":"https://evil.example/x"}}}}`,
		`{"name":"a","securitySchemes":{"o":{"openIdConnectSecurityScheme":{"openIdConnectUrl":""}},"x":{"oauth2SecurityScheme":{"flows":"nope"}}}}`,
		`{"name":"a","securitySchemes":{"o":{"oauth2SecurityScheme":{"flows":{"authorizationCode":{"tokenUrl":"https://as.example:99999/token"}}}}},"securityRequirements":[{"schemes":{"missing":["a"]}}]}`,
	} {
		f.Add([]byte(s), "")
		f.Add([]byte(s), "client_credentials")
	}
	const agent = "https://agent.example/a2a"
	hc := &http.Client{Transport: cardMetadataReply{}}
	f.Fuzz(func(t *testing.T, body []byte, mode string) {
		card, err := a2a.ParseCard(body, "application/json")
		if err != nil {
			return
		}
		s, ok := CardScheme(card, mode)
		if !ok {
			return
		}
		declared, found := card.SecuritySchemes[s.Name]
		if !found || (declared.OAuth2 == nil && declared.OpenIDConnect == nil) {
			t.Fatalf("picked %q, which the card does not declare as OAuth: %+v", s.Name, declared)
		}
		if s.OpenID != (declared.OAuth2 == nil) {
			t.Fatalf("scheme %q OpenID=%v, declared %+v", s.Name, s.OpenID, declared)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		d, err := oauth.SchemeDiscovery(ctx, hc, agent, s)
		if err != nil {
			for _, e := range []error{oauth.ErrBadMetadata, oauth.ErrBadURL, oauth.ErrInsecure, oauth.ErrIssuerMismatch, oauth.ErrNoMetadata, oauth.ErrTooLarge} {
				if errors.Is(err, e) {
					return
				}
			}
			t.Fatalf("unclassified error %v", err)
		}
		if d.Scheme != s.Name && !(s.Name == "" && d.Scheme == "card") {
			t.Fatalf("discovery names scheme %q, want %q", d.Scheme, s.Name)
		}
		if d.Resource != agent || d.Server.Issuer != d.IssuerID || d.Server.TokenEndpoint == "" {
			t.Fatalf("discovery %+v", d)
		}
		for _, e := range []string{d.Server.AuthorizationEndpoint, d.Server.TokenEndpoint, d.Server.DeviceAuthorizationEndpoint, d.Server.RegistrationEndpoint} {
			if e != "" && oauth.CheckServerURL(e) != nil {
				t.Fatalf("endpoint %q accepted", e)
			}
		}
		if !slices.Equal(d.ResourceMetadata.ScopesSupported, s.Scopes) {
			t.Fatalf("scopes %q, want %q", d.ResourceMetadata.ScopesSupported, s.Scopes)
		}
	})
}
