package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"
)

// Fuzz targets for every reply of an authorization or resource server that
// this package reads (docs/fuzzing.md): the bytes come through a fake
// transport, so each input is one real call of the exported code.

// replyFunc answers every request of an *http.Client without a network.
type replyFunc func(*http.Request) (status int, contentType string, body []byte)

func (f replyFunc) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		io.Copy(io.Discard, r.Body) //nolint:errcheck // the fake reads what the client sent
		r.Body.Close()
	}
	status, ct, body := f(r)
	h := http.Header{}
	if ct != "" {
		h.Set("Content-Type", ct)
	}
	return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader(string(body))),
		ContentLength: int64(len(body)), Request: r}, nil
}

func fuzzClient(f replyFunc) *http.Client { return &http.Client{Transport: f} }

// maxErrText bounds an error's text whatever the reply: every part a
// server controls is clipped (clip), so a long reply never becomes a long
// message.
const maxErrText = 2048

func fuzzCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func oneOf(err error, targets ...error) bool {
	for _, e := range targets {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// FuzzServerMetadata: an RFC 8414 / OpenID Connect Discovery document
// (ServerMetadataFor). A document accepted names the issuer exactly, has a
// token endpoint, uses no plain-http endpoint off loopback and survives a
// JSON round trip; a refusal is one of the package's errors, short.
func FuzzServerMetadata(f *testing.F) {
	f.Add(200, `{"issuer":"https://as.example/t1","authorization_endpoint":"https://as.example/t1/authorize","token_endpoint":"https://as.example/t1/token","registration_endpoint":"https://as.example/t1/register","code_challenge_methods_supported":["S256"],"grant_types_supported":["authorization_code","refresh_token"],"token_endpoint_auth_methods_supported":["none","client_secret_basic"],"scopes_supported":["openid","offline_access"],"authorization_response_iss_parameter_supported":true}`)
	// OpenID Connect Discovery 1.0 §4.2's example (trimmed).
	f.Add(200, `{"issuer":"https://as.example/t1","authorization_endpoint":"https://server.example.com/connect/authorize","token_endpoint":"https://server.example.com/connect/token","token_endpoint_auth_methods_supported":["client_secret_basic","private_key_jwt"],"userinfo_endpoint":"https://server.example.com/connect/userinfo","jwks_uri":"https://server.example.com/jwks.json","response_types_supported":["code","code id_token"],"subject_types_supported":["public","pairwise"],"id_token_signing_alg_values_supported":["RS256","ES256"]}`)
	f.Add(200, `{"issuer":"https://as.example/t1/","token_endpoint":"https://as.example/token"}`)
	f.Add(200, `{"issuer":"https://as.example/t1","token_endpoint":"http://as.example/token"}`)
	f.Add(200, `{"issuer":"https://as.example/t1","token_endpoint":""}`)
	f.Add(200, `{"issuer":["x"]}`)
	f.Add(404, `not found`)
	f.Add(500, `{"error":"server_error"}`)
	f.Add(200, `<html>`)
	const issuer = "https://as.example/t1"
	f.Fuzz(func(t *testing.T, status int, body string) {
		hc := fuzzClient(func(*http.Request) (int, string, []byte) { return status, "application/json", []byte(body) })
		m, err := ServerMetadataFor(fuzzCtx(t), hc, issuer)
		if err != nil {
			if !oneOf(err, ErrBadMetadata, ErrIssuerMismatch, ErrInsecure, ErrBadURL, ErrNoMetadata, ErrTooLarge) &&
				!strings.Contains(err.Error(), "HTTP ") {
				t.Fatalf("unclassified error %v", err)
			}
			if len(err.Error()) > maxErrText {
				t.Fatalf("error of %d bytes", len(err.Error()))
			}
			return
		}
		if status != http.StatusOK || m.Issuer != issuer || m.TokenEndpoint == "" {
			t.Fatalf("accepted status %d: %+v", status, m)
		}
		for _, e := range []string{m.AuthorizationEndpoint, m.TokenEndpoint, m.RegistrationEndpoint, m.RevocationEndpoint, m.DeviceAuthorizationEndpoint} {
			if e != "" && CheckServerURL(e) != nil {
				t.Fatalf("accepted endpoint %q", e)
			}
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var again ServerMetadata
		if err := json.Unmarshal(b, &again); err != nil || !reflect.DeepEqual(normalMeta(again), normalMeta(m)) {
			t.Fatalf("round trip: %+v (%v), want %+v", again, err, m)
		}
	})
}

// normalMeta makes empty and absent lists equal (omitempty).
func normalMeta(m ServerMetadata) ServerMetadata {
	for _, l := range []*[]string{&m.ScopesSupported, &m.GrantTypesSupported, &m.TokenEndpointAuthMethodsSupported, &m.CodeChallengeMethodsSupported} {
		if len(*l) == 0 {
			*l = nil
		}
	}
	return m
}

// FuzzResourceMetadata: an RFC 9728 Protected Resource Metadata document
// (Discover). An accepted one names an authorization server, and a resource
// that covers the URL asked (same origin, a parent path).
func FuzzResourceMetadata(f *testing.F) {
	f.Add(200, `{"resource":"https://rs.example/mcp","authorization_servers":["https://as.example"],"scopes_supported":["mcp:read","mcp:write"],"bearer_methods_supported":["header"]}`)
	f.Add(200, `{"resource":"https://rs.example/","authorization_servers":["https://as.example"]}`)
	f.Add(200, `{"authorization_servers":["https://as.example"]}`)
	f.Add(200, `{"resource":"https://evil.example/mcp","authorization_servers":["https://as.example"]}`)
	f.Add(200, `{"resource":"https://rs.example/mcp/other","authorization_servers":["https://as.example"]}`)
	f.Add(200, `{"resource":"https://rs.example/mcp","authorization_servers":[]}`)
	f.Add(200, `{"resource":"https://rs.example/mcp","authorization_servers":["http://as.example"]}`)
	f.Add(200, `{"resource":"https://rs.example/mcp#f","authorization_servers":["https://as.example"]}`)
	f.Add(200, `{"resource":1}`)
	f.Add(404, ``)
	const resource = "https://rs.example/mcp"
	asMeta := []byte(`{"issuer":"https://as.example","token_endpoint":"https://as.example/token","authorization_endpoint":"https://as.example/authorize","code_challenge_methods_supported":["S256"]}`)
	f.Fuzz(func(t *testing.T, status int, body string) {
		hc := fuzzClient(func(r *http.Request) (int, string, []byte) {
			if r.URL.Host == "as.example" {
				if r.URL.Path == "/.well-known/oauth-authorization-server" {
					return 200, "application/json", asMeta
				}
				return 404, "", nil
			}
			return status, "application/json", []byte(body)
		})
		d, err := Discover(fuzzCtx(t), hc, resource, Challenge{})
		if err != nil {
			if !oneOf(err, ErrBadMetadata, ErrResourceMismatch, ErrIssuerMismatch, ErrInsecure, ErrBadURL, ErrNoMetadata, ErrTooLarge) &&
				!strings.Contains(err.Error(), "HTTP ") {
				t.Fatalf("unclassified error %v", err)
			}
			if len(err.Error()) > maxErrText {
				t.Fatalf("error of %d bytes", len(err.Error()))
			}
			return
		}
		if d.ResourceMetadata == nil || len(d.ResourceMetadata.AuthorizationServers) == 0 ||
			d.IssuerID != d.ResourceMetadata.AuthorizationServers[0] || d.Server.Issuer != d.IssuerID {
			t.Fatalf("accepted %+v", d)
		}
		ru, _ := url.Parse(resource)
		if !resourceAllowed(d.Resource, ru) {
			t.Fatalf("resource %q accepted for %s", d.Resource, resource)
		}
	})
}

// Secrets the fuzzed token and registration calls send; a server may echo
// them in any field of its reply, and no error may carry them.
const (
	fuzzClientSecret = "cs-7f3a9c1e5b2d4086"
	fuzzRefresh      = "rt-91d0e4b7a2c6f385"
)

// FuzzTokenResponse: a token endpoint's reply (RFC 6749 §5.1 success, §5.2
// error) to a client-credentials request and to a refresh. A success has
// an access token; an error keeps the OAuth error code and description
// but never the body, and never a secret the request carried even when the
// server echoes it.
func FuzzTokenResponse(f *testing.F) {
	js := "application/json;charset=UTF-8"
	form := "application/x-www-form-urlencoded"
	// RFC 6749 §5.1 and §5.2's examples.
	f.Add(200, js, `{"access_token":"2YotnFZFEjr1zCsicMWpAA","token_type":"example","expires_in":3600,"refresh_token":"tGzv3JOkF0XG5Qx2TlKWIA","example_parameter":"example_value"}`)
	f.Add(400, js, `{"error":"invalid_request"}`)
	f.Add(400, js, `{"error":"invalid_grant","error_description":"refresh token `+fuzzRefresh+` is revoked","error_uri":"https://as.example/e"}`)
	f.Add(401, js, `{"error":"invalid_client","error_description":"bad secret `+fuzzClientSecret+`"}`)
	f.Add(400, js, `{"error":"access_denied"}`)
	f.Add(200, js, `{"token_type":"Bearer"}`)
	f.Add(200, js, `{"error":"slow_down","error_description":"`+fuzzClientSecret+`"}`)
	f.Add(200, js, `{"access_token":"a","expires_in":"3600","scope":"x y"}`)
	f.Add(200, js, `{"access_token":"a","expires_in":1e309}`)
	f.Add(200, form, `access_token=a&token_type=bearer&scope=repo`)
	f.Add(200, form, `error=bad_verification_code&error_description=`+fuzzRefresh)
	f.Add(500, "text/html", `<h1>`+fuzzClientSecret+`</h1>`)
	f.Add(200, js, `{"access_token":`)
	f.Fuzz(func(t *testing.T, status int, contentType, body string) {
		if status < 100 || status > 999 {
			status = 200 + (status%800+800)%800
		}
		hc := fuzzClient(func(*http.Request) (int, string, []byte) { return status, contentType, []byte(body) })
		for _, g := range []Grant{
			{Origin: "https://rs.example:443", Resource: "https://rs.example/mcp", Issuer: "https://as.example", TokenURL: "https://as.example/token",
				Flow: FlowClientCredentials, Client: Client{ID: "c1", Secret: fuzzClientSecret, AuthMethod: AuthClientSecretPost}},
			{Origin: "https://rs.example:443", Resource: "https://rs.example/mcp", Issuer: "https://as.example", TokenURL: "https://as.example/token",
				Flow: FlowAuthorizationCode, RefreshToken: fuzzRefresh, Client: Client{ID: "c1", Secret: fuzzClientSecret, AuthMethod: AuthClientSecretBasic}},
		} {
			secrets := g.Secrets()
			err := g.refresh(fuzzCtx(t), hc)
			if err != nil {
				msg := err.Error()
				for _, s := range secrets {
					if strings.Contains(msg, s) {
						t.Fatalf("%s: error carries a secret: %s", g.Flow, msg)
					}
				}
				if len(msg) > maxErrText {
					t.Fatalf("%s: error of %d bytes", g.Flow, len(msg))
				}
				continue
			}
			if g.AccessToken == "" {
				t.Fatalf("%s: accepted a reply without an access token: %q", g.Flow, body)
			}
			if g.Flow == FlowAuthorizationCode && g.RefreshToken == "" {
				t.Fatalf("refresh lost the refresh token")
			}
		}
	})
}

// FuzzRegistration: a dynamic client registration reply (RFC 7591 §3.2).
// An accepted one has a client id, is bound to the issuer, and a public
// client (auth method none) keeps no secret; a refusal is short and names
// only the OAuth error, never the body.
func FuzzRegistration(f *testing.F) {
	// RFC 7591 §3.2.1's example (trimmed) and §3.2.2's error.
	f.Add(201, `{"client_id":"s6BhdRkqt3","client_secret":"cf136dc3c1fc93f31185e5885805d","client_id_issued_at":2893256800,"client_secret_expires_at":2893276800,"redirect_uris":["http://127.0.0.1:9/cb"],"grant_types":["authorization_code","refresh_token"],"token_endpoint_auth_method":"client_secret_basic","application_type":"native"}`)
	f.Add(201, `{"client_id":"pub","token_endpoint_auth_method":"none","client_secret":"ignored"}`)
	f.Add(200, `{"client_id":"x"}`)
	f.Add(400, `{"error":"invalid_redirect_uri","error_description":"The redirection URI http://sketchy.example.com is not allowed by this server."}`)
	f.Add(400, `{"error":"invalid_client_metadata","error_description":"`+strings.Repeat("x", 500)+`"}`)
	f.Add(201, `{"client_id":""}`)
	f.Add(201, `{"client_id":5}`)
	f.Add(500, `<html>`+fuzzClientSecret)
	d := &Discovery{ResourceURL: "https://rs.example/mcp", Resource: "https://rs.example/mcp", IssuerID: "https://as.example",
		Server: ServerMetadata{Issuer: "https://as.example", TokenEndpoint: "https://as.example/token", RegistrationEndpoint: "https://as.example/register",
			TokenEndpointAuthMethodsSupported: []string{AuthNone, AuthClientSecretBasic}}}
	f.Fuzz(func(t *testing.T, status int, body string) {
		if status < 100 || status > 999 {
			status = 200 + (status%800+800)%800
		}
		hc := fuzzClient(func(*http.Request) (int, string, []byte) { return status, "application/json", []byte(body) })
		c, err := ChooseClient(fuzzCtx(t), hc, d, ClientConfig{}, "http://127.0.0.1:9/cb", []string{FlowAuthorizationCode, "refresh_token"}, nil)
		if err != nil {
			msg := err.Error()
			if len(msg) > maxErrText || (len(body) > 300 && strings.Contains(msg, body)) {
				t.Fatalf("error of %d bytes: %.200s", len(msg), msg)
			}
			if !strings.HasPrefix(msg, "register client: ") {
				t.Fatalf("error %q", msg)
			}
			return
		}
		if c.ID == "" || c.Issuer != d.IssuerID || c.Source != ClientDynamic || (status != 200 && status != 201) {
			t.Fatalf("accepted %+v at status %d", c, status)
		}
		if c.AuthMethod == AuthNone && c.Secret != "" {
			t.Fatalf("public client keeps a secret: %+v", c)
		}
	})
}
