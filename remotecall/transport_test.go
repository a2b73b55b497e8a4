package remotecall

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"
)

func bearer(t *testing.T, secret string) StaticAuth {
	t.Helper()
	a, err := NewStaticAuth(Credential{Kind: CredentialBearer, Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func bound(t *testing.T, srvURL string, auth Authorizer, b Binding) *Transport {
	t.Helper()
	o, err := ParseOrigin(srvURL)
	if err != nil {
		t.Fatal(err)
	}
	b.Origin, b.Auth = o, auth
	tr, err := NewTransport(b)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func get(t *testing.T, hc *http.Client, url string) (string, http.Header, error) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	resp, err := hc.Do(req)
	if err != nil {
		return "", nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), resp.Header, err
}

// TestTransport_CredentialStaysOnItsOrigin: a request or a redirect to
// another origin is refused before anything reaches it; a same-origin
// redirect keeps the credential.
func TestTransport_CredentialStaysOnItsOrigin(t *testing.T) {
	var leaked atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { leaked.Add(1) }))
	defer other.Close()
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.URL.Path+" "+r.Header.Get("Authorization"))
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, other.URL+"/steal", http.StatusTemporaryRedirect)
		case "/move":
			http.Redirect(w, r, "/here", http.StatusTemporaryRedirect)
		}
	}))
	defer srv.Close()
	tr := bound(t, srv.URL, bearer(t, "tok"), Binding{})
	hc := tr.Client()
	if _, _, err := get(t, hc, other.URL+"/direct"); !errors.Is(err, ErrOtherOrigin) {
		t.Errorf("request to another origin: %v, want ErrOtherOrigin", err)
	}
	if _, _, err := get(t, hc, srv.URL+"/away"); !errors.Is(err, ErrOtherOrigin) {
		t.Errorf("redirect to another origin: %v, want ErrOtherOrigin", err)
	}
	// A client whose own redirect policy allows everything: the transport
	// still checks the redirected request.
	loose := &http.Client{Transport: tr}
	if _, _, err := get(t, loose, srv.URL+"/away"); !errors.Is(err, ErrOtherOrigin) {
		t.Errorf("redirect without the client's check: %v, want ErrOtherOrigin", err)
	}
	if leaked.Load() != 0 {
		t.Errorf("the other origin got %d requests", leaked.Load())
	}
	seen = nil
	if _, _, err := get(t, hc, srv.URL+"/move"); err != nil {
		t.Fatal(err)
	}
	if want := []string{"/move Bearer tok", "/here Bearer tok"}; fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Errorf("same-origin redirect: %v, want %v", seen, want)
	}
}

func TestTransport_PlainHTTPRule(t *testing.T) {
	o, _ := ParseOrigin("http://agent.example:8080")
	if _, err := NewTransport(Binding{Origin: o, Auth: bearer(t, "x")}); !errors.Is(err, ErrInsecureCredential) {
		t.Errorf("plain http to another machine: %v, want ErrInsecureCredential", err)
	}
	for _, ok := range []string{"http://127.0.0.1:1", "http://[::1]:1", "http://localhost:1", "http://a.localhost:1", "https://agent.example"} {
		o, _ := ParseOrigin(ok)
		if _, err := NewTransport(Binding{Origin: o, Auth: bearer(t, "x")}); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	if _, err := NewTransport(Binding{Auth: bearer(t, "x")}); err == nil {
		t.Error("a credential without an origin was accepted")
	}
}

// TestTransport_Caps: an oversized request is refused before it is sent;
// past the call's byte bound the read stops, and so do later requests.
func TestTransport_Caps(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.Copy(io.Discard, r.Body)
		w.Write(bytes.Repeat([]byte("x"), 10_000))
	}))
	defer srv.Close()
	tr := bound(t, srv.URL, nil, Binding{MaxRequestBytes: 100, MaxCallBytes: 15_000})
	hc := tr.Client()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL, bytes.NewReader(make([]byte, 101)))
	if _, err := hc.Do(req); !errors.Is(err, ErrRequestTooLarge) {
		t.Errorf("101-byte request: %v, want ErrRequestTooLarge", err)
	}
	if hits.Load() != 0 {
		t.Errorf("the refused request reached the server")
	}
	if _, _, err := get(t, hc, srv.URL); err != nil {
		t.Fatalf("first reply: %v", err)
	}
	if _, _, err := get(t, hc, srv.URL); !errors.Is(err, ErrCallBytes) {
		t.Errorf("reply past the call bound: %v, want ErrCallBytes", err)
	}
	before := hits.Load()
	if _, _, err := get(t, hc, srv.URL); !errors.Is(err, ErrCallBytes) || hits.Load() != before {
		t.Errorf("request after the bound: %v (hits %d → %d)", err, before, hits.Load())
	}
}

// TestTransport_RedactsWhatTheServerEchoes: the secret it sent is gone
// from the body (also split across reads and JSON-escaped), the headers
// and the error text.
func TestTransport_RedactsWhatTheServerEchoes(t *testing.T) {
	const secret = `s3cr/et"tok`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		w.Header().Set("WWW-Authenticate", `Bearer error_description="`+tok+`"`)
		q := strings.ReplaceAll(tok, `"`, `\"`)
		fmt.Fprintf(w, `{"a":"%s","b":"%s"}`, q, tok)
	}))
	defer srv.Close()
	tr := bound(t, srv.URL, bearer(t, secret), Binding{})
	body, hdr, err := get(t, tr.Client(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{body, hdr.Get("WWW-Authenticate")} {
		if strings.Contains(s, "s3cr") || !strings.Contains(s, Redacted) {
			t.Errorf("not redacted: %q", s)
		}
	}
	if got := tr.Redactor().Err(fmt.Errorf("agent said %s", secret)).Error(); got != "agent said "+Redacted {
		t.Errorf("error: %q", got)
	}
}

func TestRedactorReader_SplitAcrossReads(t *testing.T) {
	red := NewRedactor("abcabd")
	in := "xxabcabcabdyy abcab" // the secret starts inside a near miss; ends in a prefix
	for _, r := range []func(io.Reader) io.Reader{iotest.OneByteReader, iotest.HalfReader, func(r io.Reader) io.Reader { return r }} {
		out, err := io.ReadAll(red.Reader(io.NopCloser(r(strings.NewReader(in)))))
		if err != nil {
			t.Fatal(err)
		}
		if want := "xxabc" + Redacted + "yy abcab"; string(out) != want {
			t.Errorf("got %q, want %q", out, want)
		}
	}
}

// refreshing is an Authorizer whose first token the server refuses.
type refreshing struct {
	tok       atomic.Value
	refreshes atomic.Int32
}

func (a *refreshing) Authorize(req *http.Request) error {
	req.Header.Set("Authorization", "Bearer "+a.tok.Load().(string))
	return nil
}

func (a *refreshing) Refresh(_ context.Context, challenge []string) (bool, error) {
	a.refreshes.Add(1)
	a.tok.Store("new-token")
	return len(challenge) == 1, nil
}

// TestTransport_RefreshAfter401: the Authorizer is asked once after a 401
// and the request, body included, is sent again with the new token; both
// tokens are redacted.
func TestTransport_RefreshAfter401(t *testing.T) {
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(b))
		if r.Header.Get("Authorization") != "Bearer new-token" {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			w.WriteHeader(401)
			return
		}
		io.WriteString(w, "ok new-token old-token")
	}))
	defer srv.Close()
	a := &refreshing{}
	a.tok.Store("old-token")
	tr := bound(t, srv.URL, a, Binding{})
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL, strings.NewReader("payload"))
	resp, err := tr.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || a.refreshes.Load() != 1 || fmt.Sprint(bodies) != "[payload payload]" {
		t.Errorf("status %d, refreshes %d, bodies %v", resp.StatusCode, a.refreshes.Load(), bodies)
	}
	if string(b) != "ok "+Redacted+" "+Redacted {
		t.Errorf("body %q: both tokens must be redacted", b)
	}
}

func TestParseOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"https://Agent.Example.com/a2a/v1?x=1#f": "https://agent.example.com:443",
		"http://agent.example.com":               "http://agent.example.com:80",
		"https://agent.example.com.:443":         "https://agent.example.com:443",
		"http://127.0.0.1:0080/x":                "http://127.0.0.1:80",
		"http://[::1]:8080":                      "http://[::1]:8080",
		"https://[2001:DB8::1]":                  "https://[2001:db8::1]:443",
		"  https://a.example  ":                  "https://a.example:443",
	} {
		o, err := ParseOrigin(in)
		if err != nil || o.String() != want {
			t.Errorf("ParseOrigin(%q) = %q, %v; want %q", in, o, err, want)
		}
		if again, err := ParseOrigin(o.String()); err != nil || again != o {
			t.Errorf("not idempotent: %q → %q, %v", o, again, err)
		}
	}
	for _, bad := range []string{"ftp://a.example", "a.example", "https://user:pw@a.example", "https://a.example:99999",
		"https://a.example:0", "https://", "://", "http://[fe80::1%25eth0]:80", "https://a..b", "https://a.example:"} {
		if _, err := ParseOrigin(bad); !errors.Is(err, ErrBadOrigin) {
			t.Errorf("ParseOrigin(%q) = %v, want ErrBadOrigin", bad, err)
		}
	}
	for host, want := range map[string]bool{"localhost": true, "LocalHost.": true, "a.localhost": true, "127.8.9.1": true, "[::1]": true,
		"::1": true, "localhost.example": false, "10.0.0.1": false, "::ffff:127.0.0.1": true, "example.com": false} {
		if IsLoopbackHost(host) != want {
			t.Errorf("IsLoopbackHost(%q) = %v", host, !want)
		}
	}
}

func FuzzParseOrigin(f *testing.F) {
	for _, s := range []string{"https://a.example/x", "http://[::1]:80", "https://u@h", "http://h:0080", "http://[::ffff:1.2.3.4]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseOrigin(s)
		if err != nil {
			return
		}
		again, err := ParseOrigin(o.String())
		if err != nil || again != o {
			t.Errorf("not idempotent: %q -> %q -> %q, %v", s, o, again, err)
		}
	})
}

func TestCredentialOrigin(t *testing.T) {
	if o, err := CredentialOrigin("", "https://a.example/x"); err != nil || o.String() != "https://a.example:443" {
		t.Errorf("unbound: %v %v", o, err)
	}
	if _, err := CredentialOrigin("https://b.example", "https://a.example/x"); !errors.Is(err, ErrOtherOrigin) || !strings.Contains(err.Error(), "belongs to https://b.example:443") {
		t.Errorf("other origin: %v", err)
	}
	if _, err := CredentialOrigin("", "http://a.example/x"); !errors.Is(err, ErrInsecureCredential) || !strings.Contains(err.Error(), "use https") {
		t.Errorf("plain http: %v", err)
	}
	for _, c := range []struct {
		cred Credential
		msg  string
	}{
		{Credential{Kind: CredentialAPIKey, Secret: "s"}, "header name"},
		{Credential{Kind: CredentialAPIKey, Header: "X Key", Secret: "s"}, "not a valid HTTP header name"},
		{Credential{Kind: CredentialBearer}, "no secret"},
		{Credential{Kind: CredentialBearer, Secret: "s\nX-Evil: 1"}, "line break"},
		{Credential{Kind: "basic", Secret: "s"}, "unknown kind"},
		{Credential{Kind: CredentialDPoP, Secret: "s\rX-Evil: 1"}, "line break"},
	} {
		if _, err := NewStaticAuth(c.cred); !errors.Is(err, ErrBadCredential) || !strings.Contains(err.Error(), c.msg) || strings.Contains(err.Error(), "X-Evil") {
			t.Errorf("%+v: %v, want %q", c.cred, err, c.msg)
		}
	}
	// A DPoP-bound token goes in Authorization with the DPoP scheme.
	a, err := NewStaticAuth(Credential{Kind: CredentialDPoP, Secret: "tok"})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", "https://a.example/", nil)
	if err := a.Authorize(req); err != nil || req.Header.Get("Authorization") != "DPoP tok" || a.HeaderName() != "Authorization" {
		t.Errorf("DPoP: %v %q %q", err, req.Header.Get("Authorization"), a.HeaderName())
	}
}
