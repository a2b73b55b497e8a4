package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParseChallenge(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		ok   bool
		want Challenge
	}{
		{[]string{`Bearer resource_metadata="https://x/.well-known/oauth-protected-resource/mcp", scope="a b"`}, true,
			Challenge{ResourceMetadata: "https://x/.well-known/oauth-protected-resource/mcp", Scope: []string{"a", "b"}}},
		{[]string{`Bearer error="insufficient_scope", scope="mcp:write", resource_metadata="http://h/p", error_description="x, y"`}, true,
			Challenge{ResourceMetadata: "http://h/p", Scope: []string{"mcp:write"}, Error: "insufficient_scope"}},
		{[]string{`Basic realm="r", Bearer realm="x" , error=invalid_token`}, true, Challenge{Error: "invalid_token"}},
		{[]string{`Basic realm="r"`}, false, Challenge{}},
		{[]string{`DPoP algs="ES256"`, `bearer scope="q\"x"`}, true, Challenge{Scope: []string{`q"x`}}},
		{[]string{`Bearer`}, true, Challenge{}},
	} {
		got, ok := ParseChallenge(tc.in)
		if ok != tc.ok || got.ResourceMetadata != tc.want.ResourceMetadata || got.Error != tc.want.Error || !slices.Equal(got.Scope, tc.want.Scope) {
			t.Errorf("ParseChallenge(%q) = %+v, %v; want %+v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func FuzzParseChallenge(f *testing.F) {
	f.Add(`Bearer resource_metadata="https://x/y", scope="a b", error="insufficient_scope"`)
	f.Add(`Basic realm="x", Bearer abc==, scope=`)
	f.Add(`Bearer "unterminated`)
	f.Add(`DPoP error="use_dpop_nonce", algs="ES256", resource_metadata="https://r/m"`)
	f.Add(`DPoP algs=ES256, Bearer scope="x y"`)
	f.Fuzz(func(t *testing.T, h string) {
		c, ok := ParseChallenge([]string{h})
		if !ok && (c.Error != "" || c.ResourceMetadata != "" || c.Scope != nil) {
			t.Fatalf("no challenge but fields set: %+v", c)
		}
		if !c.DPoP && (c.DPoPError != "" || c.DPoPAlgs != nil) || c.DPoP && !ok {
			t.Fatalf("DPoP fields without a DPoP challenge: %+v, %v", c, ok)
		}
	})
}

// authServer is a small authorization server with metadata at path.
type authServer struct {
	*httptest.Server
	mu       sync.Mutex
	paths    []string
	meta     map[string]any
	metaPath string
}

func newAuthServer(t *testing.T, metaPath string, edit func(m map[string]any, base string)) *authServer {
	a := &authServer{metaPath: metaPath}
	a.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.paths = append(a.paths, r.URL.Path)
		a.mu.Unlock()
		if r.URL.Path != a.metaPath {
			http.NotFound(w, r)
			return
		}
		json.NewEncoder(w).Encode(a.meta)
	}))
	t.Cleanup(a.Close)
	a.meta = map[string]any{"issuer": a.URL, "authorization_endpoint": a.URL + "/authorize", "token_endpoint": a.URL + "/token",
		"code_challenge_methods_supported": []string{"S256"}}
	if edit != nil {
		edit(a.meta, a.URL)
	}
	return a
}

func (a *authServer) requested() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.paths)
}

func TestServerMetadataFor_WellKnownOrder(t *testing.T) {
	ctx := context.Background()
	// A tenant issuer: RFC 8414 path insertion first, then the two OpenID forms; never the root.
	a := newAuthServer(t, "/tenant1/.well-known/openid-configuration", func(m map[string]any, base string) { m["issuer"] = base + "/tenant1" })
	if _, err := ServerMetadataFor(ctx, nil, a.URL+"/tenant1"); err != nil {
		t.Fatal(err)
	}
	want := []string{"/.well-known/oauth-authorization-server/tenant1", "/.well-known/openid-configuration/tenant1", "/tenant1/.well-known/openid-configuration"}
	if got := a.requested(); !slices.Equal(got, want) {
		t.Errorf("requested %q, want %q", got, want)
	}
	// The issuer in the document must be the identifier exactly.
	b := newAuthServer(t, "/.well-known/oauth-authorization-server", func(m map[string]any, base string) { m["issuer"] = base + "/" })
	if _, err := ServerMetadataFor(ctx, nil, b.URL); !errors.Is(err, ErrIssuerMismatch) {
		t.Errorf("trailing-slash issuer: err = %v, want ErrIssuerMismatch", err)
	}
}

func TestCheckServerURL(t *testing.T) {
	for u, ok := range map[string]bool{"https://as.example.com/x": true, "http://127.0.0.1:9/": true, "http://localhost:1": true,
		"http://[::1]:2/": true, "http://as.example.com/": false, "ftp://x/": false} {
		if err := CheckServerURL(u); (err == nil) != ok {
			t.Errorf("CheckServerURL(%s) = %v", u, err)
		}
	}
}

func TestDiscover_ResourceMismatchAndPRMOrder(t *testing.T) {
	var mu sync.Mutex
	var paths []string
	resource := ""
	as := newAuthServer(t, "/.well-known/oauth-authorization-server", nil)
	rs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		if r.URL.Path != "/.well-known/oauth-protected-resource" {
			http.NotFound(w, r)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"resource": resource, "authorization_servers": []string{as.URL}})
	}))
	defer rs.Close()
	resource = rs.URL
	d, err := Discover(context.Background(), nil, rs.URL+"/mcp", Challenge{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Resource != rs.URL || d.IssuerID != as.URL {
		t.Errorf("discovery = %+v", d)
	}
	if want := []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"}; !slices.Equal(paths, want) {
		t.Errorf("PRM requests %q, want %q", paths, want)
	}
	resource = "https://evil.example.com/mcp"
	if _, err := Discover(context.Background(), nil, rs.URL+"/mcp", Challenge{}); !errors.Is(err, ErrResourceMismatch) {
		t.Errorf("err = %v, want ErrResourceMismatch", err)
	}
	resource = rs.URL + "/other"
	if _, err := Discover(context.Background(), nil, rs.URL+"/mcp", Challenge{}); !errors.Is(err, ErrResourceMismatch) {
		t.Errorf("sibling path: err = %v, want ErrResourceMismatch", err)
	}
}

func TestCheckIss(t *testing.T) {
	m := ServerMetadata{Issuer: "https://as.example.com"}
	adv := m
	adv.IssParameterSupported = true
	for _, tc := range []struct {
		r  Redirect
		m  ServerMetadata
		ok bool
	}{
		{Redirect{Iss: "https://as.example.com", HasIss: true}, adv, true},
		{Redirect{}, m, true},
		{Redirect{}, adv, false},
		{Redirect{Iss: "https://as.example.com/", HasIss: true}, adv, false},
		{Redirect{Iss: "https://AS.example.com", HasIss: true}, m, false},
		{Redirect{Iss: "https://evil.example.com", HasIss: true}, m, false},
	} {
		if err := checkIss(tc.r, tc.m); (err == nil) != tc.ok {
			t.Errorf("checkIss(%+v, supported=%v) = %v", tc.r, tc.m.IssParameterSupported, err)
		}
	}
}

func TestListener_StateOneRequestClose(t *testing.T) {
	l, err := Listen("s1")
	if err != nil {
		t.Fatal(err)
	}
	ru := l.RedirectURI()
	if !strings.HasPrefix(ru, "http://127.0.0.1:") {
		t.Fatalf("redirect URI %s is not on 127.0.0.1", ru)
	}
	get := func(q string) (int, error) {
		resp, err := http.Get(ru + "?" + q)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	if code, _ := get("code=x&state=forged"); code != http.StatusBadRequest {
		t.Errorf("wrong state answered %d", code)
	}
	if code, _ := get("code=abc&state=s1&iss=" + url.QueryEscape("https://as")); code != http.StatusOK {
		t.Errorf("right state answered %d", code)
	}
	r, err := l.Wait(context.Background(), 5*time.Second)
	if err != nil || r.Code != "abc" || r.Iss != "https://as" || !r.HasIss {
		t.Fatalf("Wait = %+v, %v", r, err)
	}
	if _, err := get("code=again&state=s1"); err == nil {
		t.Error("the listener still answers after the sign-in")
	}

	l2, _ := Listen("s2")
	if _, err := l2.Wait(context.Background(), 50*time.Millisecond); !errors.Is(err, ErrSignInTimeout) {
		t.Errorf("timeout: %v", err)
	}
	l3, _ := Listen("s3")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l3.Wait(ctx, time.Minute); !errors.Is(err, context.Canceled) {
		t.Errorf("cancel: %v", err)
	}
	l4, _ := Listen("s4")
	go func() {
		resp, err := http.Get(l4.RedirectURI() + "?error=access_denied&state=s4")
		if err == nil {
			resp.Body.Close()
		}
	}()
	if _, err := l4.Wait(context.Background(), 5*time.Second); !errors.Is(err, ErrDenied) {
		t.Errorf("denied: %v", err)
	}
}

func TestSelectScopes(t *testing.T) {
	prm := &ResourceMetadata{ScopesSupported: []string{"r1", "r2"}}
	off := ServerMetadata{ScopesSupported: []string{"offline_access"}, GrantTypesSupported: []string{"authorization_code", "refresh_token"}}
	for _, tc := range []struct {
		d     Discovery
		ch    Challenge
		extra []string
		want  []string
	}{
		{Discovery{ResourceMetadata: prm}, Challenge{Scope: []string{"c"}}, nil, []string{"c"}},
		{Discovery{ResourceMetadata: prm}, Challenge{}, nil, []string{"r1", "r2"}},
		{Discovery{}, Challenge{}, nil, nil},
		{Discovery{Server: off}, Challenge{}, nil, nil},
		{Discovery{Server: off}, Challenge{Scope: []string{"w"}}, []string{"b", "w"}, []string{"w", "b", "offline_access"}},
	} {
		if got := SelectScopes(&tc.d, tc.ch, tc.extra); !slices.Equal(got, tc.want) {
			t.Errorf("SelectScopes(%+v, %v) = %q, want %q", tc.ch, tc.extra, got, tc.want)
		}
	}
}
