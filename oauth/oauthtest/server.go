// Package oauthtest is an OAuth 2.1 authorization server for tests, on a
// loopback port: metadata (RFC 8414 and OpenID Connect discovery), an
// /authorize that answers at once with a 302 to the redirect URI (so a
// "browser" that just fetches the URL completes the sign-in), PKCE S256
// checked at the token endpoint, refresh tokens, client credentials, the
// device code grant (approved at once), dynamic registration and
// revocation. Protect puts a token check in front of a resource server,
// answering 401 with a WWW-Authenticate challenge — and, like a careless
// server, echoing the token it was sent, so tests can prove Workrun never
// lets such an echo out. It imports nothing of the project.
package oauthtest

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
	"workrun/remotecall"
)

// Options shape the server.
type Options struct {
	// ClientID is a pre-registered public client (default "workrun-test").
	ClientID string
	// MachineID and MachineSecret are a confidential client for the client
	// credentials grant (default "machine" / a random secret).
	MachineID, MachineSecret string
	// AccessTTL is the access tokens' lifetime (default one hour).
	AccessTTL time.Duration
	// Scopes are scopes_supported (default "agent:run", "offline_access").
	Scopes []string
}

// Stats count what the server was asked.
type Stats struct {
	Authorizations, CodeExchanges, Refreshes, RefusedRefreshes, ClientCredentials, DeviceGrants, Revocations int
	// Rejected counts requests Protect refused with 401.
	Rejected int
	// Resources are the resource parameters of the token requests.
	Resources []string
}

// Server is the authorization server.
type Server struct {
	URL string // the issuer identifier
	// ResourceMetadataURL, when set, goes into Protect's challenge as
	// resource_metadata (an MCP server's Protected Resource Metadata).
	ResourceMetadataURL string
	opts                Options
	ts                  *httptest.Server

	mu            sync.Mutex
	clients       map[string]bool // dynamically registered public clients
	codes         map[string]codeGrant
	access        map[string]tokenInfo
	refresh       map[string]tokenInfo
	devices       map[string]tokenInfo
	issued        []string
	refuseRefresh bool
	deny          bool
	stats         Stats
}

type codeGrant struct {
	clientID, challenge, redirect, resource, scope string
}

type tokenInfo struct {
	clientID, resource, scope string
	expiry                    time.Time
}

// New starts a server; it is closed when t ends.
func New(t testing.TB, opts Options) *Server {
	if opts.ClientID == "" {
		opts.ClientID = "workrun-test"
	}
	if opts.MachineID == "" {
		opts.MachineID = "machine"
	}
	if opts.MachineSecret == "" {
		opts.MachineSecret = "cs-" + random()
	}
	if opts.AccessTTL <= 0 {
		opts.AccessTTL = time.Hour
	}
	if opts.Scopes == nil {
		opts.Scopes = []string{"agent:run", "offline_access"}
	}
	s := &Server{opts: opts, clients: map[string]bool{}, codes: map[string]codeGrant{}, access: map[string]tokenInfo{},
		refresh: map[string]tokenInfo{}, devices: map[string]tokenInfo{}}
	s.issued = append(s.issued, opts.MachineSecret)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", s.metadata)
	mux.HandleFunc("GET /.well-known/openid-configuration", s.metadata)
	mux.HandleFunc("GET /authorize", s.authorize)
	mux.HandleFunc("POST /token", s.token)
	mux.HandleFunc("POST /device", s.device)
	mux.HandleFunc("POST /revoke", s.revoke)
	mux.HandleFunc("POST /register", s.register)
	s.ts = httptest.NewServer(mux)
	s.URL = s.ts.URL
	t.Cleanup(s.ts.Close)
	return s
}

// MachineClient is the client id and secret of the client credentials grant.
func (s *Server) MachineClient() (id, secret string) { return s.opts.MachineID, s.opts.MachineSecret }

// ClientID is the pre-registered public client.
func (s *Server) ClientID() string { return s.opts.ClientID }

// MetadataURL is the RFC 8414 metadata document's URL.
func (s *Server) MetadataURL() string { return s.URL + "/.well-known/oauth-authorization-server" }

// OpenIDConfigurationURL is the OpenID Connect discovery document's URL.
func (s *Server) OpenIDConfigurationURL() string { return s.URL + "/.well-known/openid-configuration" }

// AuthorizationURL, TokenURL and DeviceURL are the endpoints.
func (s *Server) AuthorizationURL() string { return s.URL + "/authorize" }
func (s *Server) TokenURL() string         { return s.URL + "/token" }
func (s *Server) DeviceURL() string        { return s.URL + "/device" }

// Issued lists every secret the server handed out or holds: access and
// refresh tokens, authorization codes, the machine client's secret.
func (s *Server) Issued() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.issued...)
}

// Stats returns the counters.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	st.Resources = append([]string(nil), s.stats.Resources...)
	return st
}

// ExpireAccessTokens makes every access token issued so far invalid (as if
// its time ran out at the server): the next request with one gets 401.
func (s *Server) ExpireAccessTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range s.access {
		v.expiry = time.Now().Add(-time.Second)
		s.access[k] = v
	}
}

// RefuseRefresh makes refresh requests fail with invalid_grant (true) and
// drops the refresh tokens issued so far, as a server does when a sign-in
// is revoked; false accepts new ones again.
func (s *Server) RefuseRefresh(refuse bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuseRefresh = refuse
	if refuse {
		s.refresh = map[string]tokenInfo{}
	}
}

// Deny makes /authorize answer access_denied.
func (s *Server) Deny(deny bool) {
	s.mu.Lock()
	s.deny = deny
	s.mu.Unlock()
}

// SetAccessTTL changes the lifetime of tokens issued from now on.
func (s *Server) SetAccessTTL(d time.Duration) {
	s.mu.Lock()
	s.opts.AccessTTL = d
	s.mu.Unlock()
}

func (s *Server) metadata(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                         s.URL,
		"authorization_endpoint":                         s.AuthorizationURL(),
		"token_endpoint":                                 s.TokenURL(),
		"device_authorization_endpoint":                  s.DeviceURL(),
		"revocation_endpoint":                            s.URL + "/revoke",
		"registration_endpoint":                          s.URL + "/register",
		"scopes_supported":                               s.opts.Scopes,
		"grant_types_supported":                          []string{"authorization_code", "refresh_token", "client_credentials", "urn:ietf:params:oauth:grant-type:device_code"},
		"token_endpoint_auth_methods_supported":          []string{"none", "client_secret_basic", "client_secret_post"},
		"code_challenge_methods_supported":               []string{"S256"},
		"response_types_supported":                       []string{"code"},
		"authorization_response_iss_parameter_supported": true,
	})
}

func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || redirect.Scheme != "http" || redirect.Hostname() != "127.0.0.1" {
		http.Error(w, "redirect_uri must be a loopback http URL", http.StatusBadRequest)
		return
	}
	back := redirect.Query()
	back.Set("state", q.Get("state"))
	back.Set("iss", s.URL)
	s.mu.Lock()
	deny := s.deny
	s.mu.Unlock()
	switch {
	case deny:
		back.Set("error", "access_denied")
		back.Set("error_description", "the person said no")
	case !s.public(q.Get("client_id")):
		back.Set("error", "unauthorized_client")
	case q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "":
		back.Set("error", "invalid_request")
		back.Set("error_description", "PKCE S256 is required")
	default:
		code := "code-" + random()
		s.mu.Lock()
		s.codes[code] = codeGrant{clientID: q.Get("client_id"), challenge: q.Get("code_challenge"),
			redirect: q.Get("redirect_uri"), resource: q.Get("resource"), scope: q.Get("scope")}
		s.stats.Authorizations++
		s.issued = append(s.issued, code)
		s.mu.Unlock()
		back.Set("code", code)
	}
	redirect.RawQuery = back.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

// client reads the client's id (and checks a confidential client's secret).
func (s *Server) client(r *http.Request) (string, bool) {
	id, secret, basic := r.BasicAuth()
	if basic {
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
	} else {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	switch {
	case s.public(id):
		return id, true
	case id == s.opts.MachineID:
		return id, secret == s.opts.MachineSecret
	}
	return id, false
}

// public: the pre-registered public client or a registered one.
func (s *Server) public(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return id == s.opts.ClientID || s.clients[id]
}

// register is dynamic client registration (RFC 7591) of a public client.
func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	var req map[string]any
	if err := json.NewDecoder(io.LimitReader(r.Body, 64<<10)).Decode(&req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_client_metadata"})
		return
	}
	id := "dyn-" + random()
	s.mu.Lock()
	s.clients[id] = true
	s.mu.Unlock()
	req["client_id"] = id
	req["token_endpoint_auth_method"] = "none"
	writeJSON(w, http.StatusCreated, req)
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, "invalid_request", err.Error())
		return
	}
	id, ok := s.client(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Basic realm="token"`)
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
		return
	}
	f := r.PostForm
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.Resources = append(s.stats.Resources, f.Get("resource"))
	switch f.Get("grant_type") {
	case "authorization_code":
		c, found := s.codes[f.Get("code")]
		delete(s.codes, f.Get("code"))
		sum := sha256.Sum256([]byte(f.Get("code_verifier")))
		switch {
		case !found || c.clientID != id || c.redirect != f.Get("redirect_uri"):
			oauthError(w, "invalid_grant", "unknown code")
		case base64.RawURLEncoding.EncodeToString(sum[:]) != c.challenge:
			oauthError(w, "invalid_grant", "PKCE verifier does not match")
		case f.Get("resource") != c.resource:
			oauthError(w, "invalid_target", "resource differs from the authorization request")
		default:
			s.stats.CodeExchanges++
			s.issue(w, tokenInfo{clientID: id, resource: c.resource, scope: c.scope}, true)
		}
	case "refresh_token":
		old, found := s.refresh[f.Get("refresh_token")]
		if s.refuseRefresh || !found || old.clientID != id {
			s.stats.RefusedRefreshes++
			oauthError(w, "invalid_grant", "the refresh token is not valid")
			return
		}
		delete(s.refresh, f.Get("refresh_token")) // one use only
		s.stats.Refreshes++
		s.issue(w, old, true)
	case "client_credentials":
		if id != s.opts.MachineID {
			oauthError(w, "unauthorized_client", "not a machine client")
			return
		}
		s.stats.ClientCredentials++
		s.issue(w, tokenInfo{clientID: id, resource: f.Get("resource"), scope: f.Get("scope")}, false)
	case "urn:ietf:params:oauth:grant-type:device_code":
		d, found := s.devices[f.Get("device_code")]
		delete(s.devices, f.Get("device_code"))
		if !found || d.clientID != id {
			oauthError(w, "invalid_grant", "unknown device code")
			return
		}
		s.stats.DeviceGrants++
		s.issue(w, d, true)
	default:
		oauthError(w, "unsupported_grant_type", f.Get("grant_type"))
	}
}

// issue answers a token request; s.mu is held.
func (s *Server) issue(w http.ResponseWriter, ti tokenInfo, withRefresh bool) {
	ti.expiry = time.Now().Add(s.opts.AccessTTL)
	at := "at-" + random()
	s.access[at] = ti
	s.issued = append(s.issued, at)
	body := map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": int(s.opts.AccessTTL / time.Second), "scope": ti.scope}
	if withRefresh {
		rt := "rt-" + random()
		s.refresh[rt] = ti
		s.issued = append(s.issued, rt)
		body["refresh_token"] = rt
	}
	writeJSON(w, http.StatusOK, body)
}

func (s *Server) device(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, "invalid_request", err.Error())
		return
	}
	id, ok := s.client(r)
	if !ok {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
		return
	}
	dc := "dc-" + random()
	s.mu.Lock()
	s.devices[dc] = tokenInfo{clientID: id, resource: r.PostForm.Get("resource"), scope: r.PostForm.Get("scope")}
	s.issued = append(s.issued, dc)
	s.mu.Unlock()
	// Approved at once: the first poll gets the token.
	writeJSON(w, http.StatusOK, map[string]any{"device_code": dc, "user_code": "WDJB-MJHT",
		"verification_uri": s.URL + "/device/verify", "expires_in": 300, "interval": 1})
}

func (s *Server) revoke(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, "invalid_request", err.Error())
		return
	}
	tok := r.PostForm.Get("token")
	s.mu.Lock()
	delete(s.access, tok)
	delete(s.refresh, tok)
	s.stats.Revocations++
	s.mu.Unlock()
}

// Valid reports whether token is a live access token for resource ("" is
// any resource).
func (s *Server) Valid(token, resource string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	ti, ok := s.access[token]
	return ok && time.Now().Before(ti.expiry) && (resource == "" || ti.resource == resource)
}

// Protect checks "Authorization: Bearer …" on every request to h whose path
// is not public (public(r) true lets it through, e.g. the Agent Card).
// Without a valid token for resource it answers 401 with a Bearer
// challenge — and echoes the token it got in the challenge and the body.
// With a valid one, the placeholder EchoPlaceholder in the request body is
// replaced by the token, so a server that repeats what it is sent echoes
// the token back in its answer.
func (s *Server) Protect(h http.Handler, resource string, public func(*http.Request) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if public != nil && public(r) {
			h.ServeHTTP(w, r)
			return
		}
		tok, _ := remotecall.RequestBearer(r)
		if !s.Valid(tok, resource) {
			s.mu.Lock()
			s.stats.Rejected++
			s.mu.Unlock()
			prm := ""
			if s.ResourceMetadataURL != "" {
				prm = fmt.Sprintf(`, resource_metadata="%s"`, s.ResourceMetadataURL)
			}
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer realm="test", error="invalid_token", error_description="token %s is not valid"%s`, tok, prm))
			http.Error(w, "invalid token "+tok, http.StatusUnauthorized)
			return
		}
		if r.Body != nil {
			b, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			body := strings.ReplaceAll(string(b), EchoPlaceholder, tok)
			r.Body = readCloser{strings.NewReader(body)}
			r.ContentLength = int64(len(body))
		}
		w.Header().Set("X-Echo-Authorization", r.Header.Get("Authorization"))
		h.ServeHTTP(w, r)
	})
}

// ResourceMetadata serves Protected Resource Metadata (RFC 9728) naming
// this server for resource.
func (s *Server) ResourceMetadata(resource string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"resource": resource, "authorization_servers": []string{s.URL}, "scopes_supported": s.opts.Scopes})
	}
}

// EchoPlaceholder in a request body becomes the request's token (Protect).
const EchoPlaceholder = "{{bearer-token}}"

type readCloser struct{ *strings.Reader }

func (readCloser) Close() error { return nil }

func oauthError(w http.ResponseWriter, code, desc string) {
	writeJSON(w, http.StatusBadRequest, map[string]string{"error": code, "error_description": desc})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func random() string {
	b := make([]byte, 18)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
