package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// tokenServer is an authorization server with a token endpoint that
// rotates refresh tokens, and a protected resource that accepts only the
// newest access token (or answers 403 insufficient_scope on /admin).
type tokenServer struct {
	as, rs    *httptest.Server
	mu        sync.Mutex
	current   string
	refreshes atomic.Int32
	refuse    atomic.Bool
	seen      []string // Authorization headers the resource got
}

func newTokenServer(t *testing.T) *tokenServer {
	ts := &tokenServer{current: "tok-0"}
	ts.as = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/oauth-authorization-server":
			json.NewEncoder(w).Encode(map[string]any{"issuer": ts.as.URL, "token_endpoint": ts.as.URL + "/token"})
		case "/token":
			r.ParseForm()
			if ts.refuse.Load() || r.Form.Get("grant_type") != "refresh_token" {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(400)
				io.WriteString(w, `{"error":"invalid_grant","error_description":"refresh token revoked"}`)
				return
			}
			n := ts.refreshes.Add(1)
			ts.mu.Lock()
			ts.current = "tok-" + string(rune('0'+n))
			tok := ts.current
			ts.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600, "refresh_token": "rt-new"})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(ts.as.Close)
	ts.rs = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/oauth-protected-resource/mcp" {
			json.NewEncoder(w).Encode(map[string]any{"resource": ts.rs.URL + "/mcp", "authorization_servers": []string{ts.as.URL}})
			return
		}
		ts.mu.Lock()
		ts.seen = append(ts.seen, r.Header.Get("Authorization"))
		ok := r.Header.Get("Authorization") == "Bearer "+ts.current
		ts.mu.Unlock()
		body, _ := io.ReadAll(r.Body)
		switch {
		case !ok:
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			w.WriteHeader(401)
		case r.URL.Path == "/admin":
			w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="admin"`)
			w.WriteHeader(403)
		default:
			w.Write(body)
		}
	}))
	t.Cleanup(ts.rs.Close)
	return ts
}

func (ts *tokenServer) grant(token string, expiry time.Time) Grant {
	o, _ := originOf(ts.rs.URL)
	return Grant{Origin: o, Resource: ts.rs.URL + "/mcp", ResourceURL: ts.rs.URL + "/mcp", Issuer: ts.as.URL,
		TokenURL: ts.as.URL + "/token", Flow: FlowAuthorizationCode, Client: Client{ID: "c", AuthMethod: AuthNone, Issuer: ts.as.URL},
		AccessToken: token, RefreshToken: "rt-0", Expiry: expiry}
}

func post(t *testing.T, hc *http.Client, u, body string) (*http.Response, error) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(body))
	return hc.Do(req)
}

func TestSession_RefreshBeforeExpiryAnd401(t *testing.T) {
	ts := newTokenServer(t)
	var saved []Grant
	save := func(_ context.Context, g Grant) error { saved = append(saved, g); return nil }

	// Expiring within RefreshSkew: refreshed before the request goes out.
	s := NewSession(ts.grant("tok-0", time.Now().Add(10*time.Second)), nil, save)
	hc := &http.Client{Transport: NewTransport(nil, s.Origin(), s)}
	resp, err := post(t, hc, ts.rs.URL+"/mcp", "hello")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("request: %v %v", resp, err)
	}
	b, _ := io.ReadAll(resp.Body)
	if string(b) != "hello" || ts.refreshes.Load() != 1 || len(saved) != 1 || saved[0].AccessToken != "tok-1" || saved[0].RefreshToken != "rt-new" {
		t.Fatalf("body %q, refreshes %d, saved %+v", b, ts.refreshes.Load(), saved)
	}

	// The server stops accepting the token (a 401): one refresh, the same
	// request again with its body, and it succeeds.
	ts.mu.Lock()
	ts.current = "tok-x"
	ts.mu.Unlock()
	ts.refreshes.Store(1)
	resp, err = post(t, hc, ts.rs.URL+"/mcp", "again")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("after 401: %v %v (refreshes %d)", resp, err, ts.refreshes.Load())
	}
	b, _ = io.ReadAll(resp.Body)
	if string(b) != "again" || ts.refreshes.Load() != 2 {
		t.Fatalf("body %q, refreshes %d", b, ts.refreshes.Load())
	}

	// Refresh refused: ErrSignInRequired naming the origin; nothing loops.
	ts.refuse.Store(true)
	ts.mu.Lock()
	ts.current = "tok-y"
	ts.mu.Unlock()
	_, err = post(t, hc, ts.rs.URL+"/mcp", "x")
	if !errors.Is(err, ErrSignInRequired) || !strings.Contains(err.Error(), "sign in to "+s.Origin()+" again") {
		t.Fatalf("refused refresh: %v", err)
	}
	if strings.Contains(err.Error(), "rt-") || strings.Contains(err.Error(), "tok-") {
		t.Fatalf("error carries a token: %v", err)
	}

	// 403 insufficient_scope in a run: the scope is kept for the next sign-in.
	ts.refuse.Store(false)
	s2 := NewSession(ts.grant("tok-y", time.Now().Add(time.Hour)), nil, save)
	hc2 := &http.Client{Transport: NewTransport(nil, s2.Origin(), s2)}
	_, err = post(t, hc2, ts.rs.URL+"/admin", "x")
	if !errors.Is(err, ErrSignInRequired) || !strings.Contains(err.Error(), "admin") {
		t.Fatalf("403: %v", err)
	}
	if g := s2.Grant(); len(g.WantScopes) != 1 || g.WantScopes[0] != "admin" {
		t.Fatalf("want scopes %v", g.WantScopes)
	}
}

func TestTransport_TokenOnlyToItsOrigin(t *testing.T) {
	ts := newTokenServer(t)
	var got atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.Header.Get("Authorization"))
	}))
	defer other.Close()
	s := NewSession(ts.grant("tok-0", time.Now().Add(time.Hour)), nil, nil)
	hc := &http.Client{Transport: NewTransport(nil, s.Origin(), s)}
	resp, err := post(t, hc, other.URL+"/x", "")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if v, _ := got.Load().(string); v != "" {
		t.Fatalf("another origin got Authorization %q", v)
	}
}

func TestSession_AuthorizationServerChanged(t *testing.T) {
	ts := newTokenServer(t)
	g := ts.grant("tok-old", time.Now().Add(time.Hour))
	g.Issuer = "http://127.0.0.1:1/previous"
	s := NewSession(g, nil, nil)
	hc := &http.Client{Transport: NewTransport(nil, s.Origin(), s)}
	_, err := post(t, hc, ts.rs.URL+"/mcp", "x")
	if !errors.Is(err, ErrSignInRequired) || !strings.Contains(err.Error(), "authorization server changed") {
		t.Fatalf("err = %v", err)
	}
	if ts.refreshes.Load() != 0 {
		t.Fatal("refreshed at a server that no longer protects the resource")
	}
}
