package oauth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// checkedProof is what verifyProof read from a valid proof.
type checkedProof struct {
	jkt, jti, nonce string
}

// verifyProof checks a DPoP proof as a server would (RFC 9449 §4.3),
// written apart from the signing code: typ, alg, a public jwk, the ES256
// signature, htm, htu, iat, and ath for token.
func verifyProof(proof, method, htu, token string) (checkedProof, error) {
	parts := strings.Split(proof, ".")
	if len(parts) != 3 {
		return checkedProof{}, errors.New("not a JWS")
	}
	dec := base64.RawURLEncoding
	hb, err1 := dec.DecodeString(parts[0])
	cb, err2 := dec.DecodeString(parts[1])
	sig, err3 := dec.DecodeString(parts[2])
	if err := errors.Join(err1, err2, err3); err != nil {
		return checkedProof{}, err
	}
	var h struct {
		Typ string            `json:"typ"`
		Alg string            `json:"alg"`
		JWK map[string]string `json:"jwk"`
	}
	var c struct {
		JTI   string `json:"jti"`
		HTM   string `json:"htm"`
		HTU   string `json:"htu"`
		IAT   int64  `json:"iat"`
		ATH   string `json:"ath"`
		Nonce string `json:"nonce"`
	}
	if err := errors.Join(json.Unmarshal(hb, &h), json.Unmarshal(cb, &c)); err != nil {
		return checkedProof{}, err
	}
	if h.Typ != "dpop+jwt" || h.Alg != "ES256" || h.JWK["kty"] != "EC" || h.JWK["crv"] != "P-256" || h.JWK["d"] != "" {
		return checkedProof{}, fmt.Errorf("bad header %s", hb)
	}
	x, err1 := dec.DecodeString(h.JWK["x"])
	y, err2 := dec.DecodeString(h.JWK["y"])
	if err := errors.Join(err1, err2); err != nil || len(sig) != 64 {
		return checkedProof{}, fmt.Errorf("bad key or signature length: %v", err)
	}
	if len(x) != 32 || len(y) != 32 {
		return checkedProof{}, errors.New("bad key coordinates")
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...))
	if err != nil {
		return checkedProof{}, err
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pub, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return checkedProof{}, errors.New("signature does not verify")
	}
	if c.JTI == "" || c.HTM != method || c.HTU != htu || time.Since(time.Unix(c.IAT, 0)).Abs() > time.Minute {
		return checkedProof{}, fmt.Errorf("bad claims %s (want %s %s)", cb, method, htu)
	}
	wantATH := ""
	if token != "" {
		s := sha256.Sum256([]byte(token))
		wantATH = dec.EncodeToString(s[:])
	}
	if c.ATH != wantATH {
		return checkedProof{}, fmt.Errorf("ath %q, want %q", c.ATH, wantATH)
	}
	// RFC 7638: the required members, sorted (encoding/json sorts map keys).
	tp, _ := json.Marshal(map[string]string{"crv": "P-256", "kty": "EC", "x": h.JWK["x"], "y": h.JWK["y"]})
	ts := sha256.Sum256(tp)
	return checkedProof{jkt: dec.EncodeToString(ts[:]), jti: c.JTI, nonce: c.Nonce}, nil
}

func TestDPoPProof(t *testing.T) {
	p, err := newDPoPKeyPEM()
	if err != nil {
		t.Fatal(err)
	}
	k, err := parseDPoPKey(p)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse("https://mcp.example.com:8443/mcp?x=1#frag")
	a, err := k.proof("POST", u, "tok-123", "n-1")
	if err != nil {
		t.Fatal(err)
	}
	got, err := verifyProof(a, "POST", "https://mcp.example.com:8443/mcp", "tok-123")
	if err != nil {
		t.Fatal(err)
	}
	if got.nonce != "n-1" || got.jkt != k.Thumbprint() {
		t.Fatalf("nonce %q jkt %q; want n-1 and %q", got.nonce, got.jkt, k.Thumbprint())
	}
	b, err := k.proof("POST", u, "tok-123", "")
	if err != nil {
		t.Fatal(err)
	}
	again, err := verifyProof(b, "POST", "https://mcp.example.com:8443/mcp", "tok-123")
	if err != nil {
		t.Fatal(err)
	}
	if again.jti == got.jti || again.nonce != "" {
		t.Fatalf("second proof: jti %q (first %q), nonce %q", again.jti, got.jti, again.nonce)
	}
	if _, err := verifyProof(a, "GET", "https://mcp.example.com:8443/mcp", "tok-123"); err == nil {
		t.Fatal("a POST proof passed as GET")
	}
	if _, err := parseDPoPKey("not a key"); err == nil {
		t.Fatal("parseDPoPKey accepted junk")
	}
}

func TestParseDPoPNonce(t *testing.T) {
	for in, want := range map[string]string{
		"abc": "abc", " eyJ7S_zG.eyJH0-Z.HX4w-7v ": "eyJ7S_zG.eyJH0-Z.HX4w-7v", "": "", `a"b`: "", `a\b`: "", "a b": "", "é": "",
		strings.Repeat("n", maxNonceBytes+1): "",
	} {
		got, ok := ParseDPoPNonce(in)
		if got != want || ok != (want != "") {
			t.Errorf("ParseDPoPNonce(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func FuzzParseDPoPNonce(f *testing.F) {
	for _, s := range []string{"conformance-as-dpop-nonce", " x ", `"q"`, "a\x00b", "\xff", strings.Repeat("z", maxNonceBytes)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		n, ok := ParseDPoPNonce(v)
		if !ok {
			if n != "" {
				t.Fatalf("not ok but %q", n)
			}
			return
		}
		if n == "" || len(n) > maxNonceBytes || strings.ContainsAny(n, "\" \\\t\r\n") {
			t.Fatalf("ParseDPoPNonce(%q) = %q", v, n)
		}
		for i := 0; i < len(n); i++ {
			if n[i] < 0x21 || n[i] > 0x7e {
				t.Fatalf("ParseDPoPNonce(%q) kept byte %#x", v, n[i])
			}
		}
		if again, ok := ParseDPoPNonce(n); !ok || again != n {
			t.Fatalf("not stable: %q -> %q", n, again)
		}
	})
}

func TestParseChallengeDPoP(t *testing.T) {
	c, ok := ParseChallenge([]string{`DPoP error="use_dpop_nonce", algs="ES256 RS256", resource_metadata="https://r/.well-known/oauth-protected-resource/mcp"`})
	if !ok || !c.DPoP || c.DPoPError != "use_dpop_nonce" || c.ResourceMetadata == "" || len(c.DPoPAlgs) != 2 {
		t.Fatalf("DPoP challenge: %+v, %v", c, ok)
	}
	c, ok = ParseChallenge([]string{`DPoP scope="d", error="use_dpop_nonce"`, `Bearer scope="b"`})
	if !ok || !c.DPoP || c.Error != "" || len(c.Scope) != 1 || c.Scope[0] != "b" || c.DPoPError != "use_dpop_nonce" {
		t.Fatalf("Bearer beside DPoP: %+v", c)
	}
}

// dpopServers is an authorization server and a resource that both bind
// tokens to DPoP proofs and both require their nonce, as RFC 9449 §8/§9.
type dpopServers struct {
	as, rs       *httptest.Server
	mu           sync.Mutex
	asChallenges int
	rsChallenges int
	rsOK         int
	jtis         map[string]bool
	tokenReqs    int
	failures     []string
}

func (s *dpopServers) fail(format string, a ...any) {
	s.mu.Lock()
	s.failures = append(s.failures, fmt.Sprintf(format, a...))
	s.mu.Unlock()
}

func newDPoPServers(t *testing.T) *dpopServers {
	s := &dpopServers{jtis: map[string]bool{}}
	s.as = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.tokenReqs++
		s.mu.Unlock()
		p, err := verifyProof(r.Header.Get("DPoP"), "POST", s.as.URL+"/token", "")
		if err != nil {
			s.fail("token request proof: %v", err)
			w.WriteHeader(400)
			return
		}
		if p.nonce != "as-nonce" {
			s.mu.Lock()
			s.asChallenges++
			s.mu.Unlock()
			w.Header().Set("DPoP-Nonce", "as-nonce")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			fmt.Fprint(w, `{"error":"use_dpop_nonce"}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"access_token":"tok.%s","token_type":"DPoP","expires_in":3600}`, p.jkt)
	}))
	s.rs = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		tok, ok := strings.CutPrefix(auth, "DPoP ")
		if !ok {
			s.fail("resource got Authorization %q", strings.SplitN(auth, " ", 2)[0])
			w.WriteHeader(401)
			return
		}
		p, err := verifyProof(r.Header.Get("DPoP"), r.Method, s.rs.URL+"/mcp", tok)
		if err != nil || "tok."+p.jkt != tok {
			s.fail("resource proof: %v (bound %v)", err, "tok."+p.jkt == tok)
			w.WriteHeader(401)
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.jtis[p.jti] {
			s.failures = append(s.failures, "a proof was sent twice")
		}
		s.jtis[p.jti] = true
		if p.nonce != "rs-nonce" {
			s.rsChallenges++
			w.Header().Set("DPoP-Nonce", "rs-nonce")
			w.Header().Set("WWW-Authenticate", `DPoP error="use_dpop_nonce"`)
			w.WriteHeader(401)
			return
		}
		s.rsOK++
		fmt.Fprint(w, "ok")
	}))
	t.Cleanup(s.as.Close)
	t.Cleanup(s.rs.Close)
	return s
}

func (s *dpopServers) discovery() *Discovery {
	return &Discovery{ResourceURL: s.rs.URL + "/mcp", Resource: s.rs.URL + "/mcp", IssuerID: s.as.URL,
		Server: ServerMetadata{Issuer: s.as.URL, TokenEndpoint: s.as.URL + "/token", GrantTypesSupported: []string{FlowClientCredentials},
			TokenEndpointAuthMethodsSupported: []string{AuthClientSecretPost}, DPoPSigningAlgValuesSupported: []string{"ES256"}}}
}

// A DPoP sign-in: the token request carries a proof and is sent again with
// the authorization server's nonce; the resource gets the token with the
// DPoP scheme and a fresh proof per request, again with its nonce after
// its challenge, and GET and POST both pass.
func TestDPoPSignInAndResource(t *testing.T) {
	s := newDPoPServers(t)
	ctx := context.Background()
	g, err := ClientCredentials(ctx, s.as.Client(), s.discovery(), ClientConfig{ID: "c", Secret: "sec"}, Challenge{})
	if err != nil {
		t.Fatal(err)
	}
	if !g.DPoPBound() || !strings.HasPrefix(g.AccessToken, "tok.") || s.asChallenges != 1 || s.tokenReqs != 2 {
		t.Fatalf("grant bound %v token %q; AS challenges %d of %d requests", g.DPoPBound(), g.AccessToken, s.asChallenges, s.tokenReqs)
	}
	tr := NewTransport(http.DefaultTransport, g.Origin, NewSession(g, s.as.Client(), nil))
	hc := &http.Client{Transport: tr}
	for _, m := range []string{"POST", "GET", "POST"} {
		req, _ := http.NewRequest(m, s.rs.URL+"/mcp?q=1", strings.NewReader("{}"))
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("%s: HTTP %d; %v", m, resp.StatusCode, s.failures)
		}
	}
	if len(s.failures) > 0 || s.rsChallenges != 1 || s.rsOK != 3 {
		t.Fatalf("failures %v; RS challenges %d, ok %d (want 1, 3)", s.failures, s.rsChallenges, s.rsOK)
	}
	// A refresh (a machine client asks again) binds to the same key.
	if err := g.refresh(ctx, s.as.Client()); err != nil || !g.DPoPBound() {
		t.Fatalf("refresh: %v", err)
	}
	if !strings.Contains(strings.Join(g.Secrets(), " "), "PRIVATE KEY") {
		t.Fatal("the DPoP key is not among the grant's secrets (redaction)")
	}
}

// Without DPoP in the metadata or the challenge, a grant is a bearer grant.
func TestNoDPoPWithoutSupport(t *testing.T) {
	d := &Discovery{}
	if SupportsDPoP(d, Challenge{}) || SupportsDPoP(d, Challenge{DPoP: true, DPoPAlgs: []string{"RS256"}}) {
		t.Fatal("DPoP chosen without ES256")
	}
	if !SupportsDPoP(d, Challenge{DPoP: true}) {
		t.Fatal("a DPoP challenge without algs does not choose DPoP")
	}
}

// formServer answers token requests with handle (form parsed).
func formServer(t *testing.T, handle func(r *http.Request) (int, string)) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			w.WriteHeader(400)
			return
		}
		code, body := handle(r)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(s.Close)
	return s
}

func writeJWT(t *testing.T, dir, name, v string) string {
	t.Helper()
	f := filepath.Join(dir, name)
	if err := os.WriteFile(f, []byte(v+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// The JWT bearer grant sends the workload token read from its file, the
// resource and the client id; a refresh reads the file again (a rotated
// token); a refused grant is one request, not retried.
func TestJWTBearerGrant(t *testing.T) {
	var mu sync.Mutex
	var seen []url.Values
	refuse := false
	as := formServer(t, func(r *http.Request) (int, string) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, r.PostForm)
		if refuse {
			return 400, `{"error":"invalid_grant","error_description":"expired"}`
		}
		return 200, `{"access_token":"at-` + fmt.Sprint(len(seen)) + `","token_type":"Bearer","expires_in":60}`
	})
	file := writeJWT(t, t.TempDir(), "wl.jwt", "h.one.s")
	d := &Discovery{ResourceURL: "https://mcp.example.com/mcp", Resource: "https://mcp.example.com/mcp", IssuerID: as.URL,
		Server: ServerMetadata{Issuer: as.URL, TokenEndpoint: as.URL + "/token", TokenEndpointAuthMethodsSupported: []string{AuthNone}}}
	g, err := JWTBearer(context.Background(), as.Client(), d, ClientConfig{ID: "wl-client"}, AssertionConfig{File: file}, Challenge{Scope: []string{"mcp"}})
	if err != nil {
		t.Fatal(err)
	}
	f := seen[0]
	if f.Get("grant_type") != FlowJWTBearer || f.Get("assertion") != "h.one.s" || f.Get("client_id") != "wl-client" ||
		f.Get("resource") != d.Resource || f.Get("scope") != "mcp" || f.Has("client_secret") {
		t.Fatalf("token request %v", f)
	}
	if g.AccessToken != "at-1" || g.Flow != FlowJWTBearer || g.DPoPKey != "" {
		t.Fatalf("grant %+v", g)
	}
	writeJWT(t, filepath.Dir(file), "wl.jwt", "h.two.s")
	if err := g.refresh(context.Background(), as.Client()); err != nil {
		t.Fatal(err)
	}
	if seen[1].Get("assertion") != "h.two.s" || g.AccessToken != "at-2" {
		t.Fatalf("refresh sent %q, token %q", seen[1].Get("assertion"), g.AccessToken)
	}
	refuse = true
	err = g.refresh(context.Background(), as.Client())
	if !errors.Is(err, ErrSignInRequired) || len(seen) != 3 || strings.Contains(err.Error(), "h.two.s") {
		t.Fatalf("refused grant: %v after %d requests", err, len(seen))
	}
	if _, err := JWTBearer(context.Background(), as.Client(), d, ClientConfig{ID: "x"}, AssertionConfig{File: filepath.Join(t.TempDir(), "none")}, Challenge{}); !errors.Is(err, ErrBadAssertion) || len(seen) != 3 {
		t.Fatalf("missing file: %v (%d requests)", err, len(seen))
	}
}

// Enterprise-managed authorization: the ID token goes to the identity
// provider (found from its issuer) as an RFC 8693 exchange for an ID-JAG
// with the authorization server as audience and the resource; the ID-JAG
// is the JWT bearer grant with the client's secret (basic).
func TestEnterpriseGrant(t *testing.T) {
	var idpForm, asForm url.Values
	var asAuth string
	var idp *httptest.Server
	idp = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/.well-known/oauth-authorization-server":
			fmt.Fprintf(w, `{"issuer":%q,"token_endpoint":%q}`, idp.URL, idp.URL+"/token")
		case "/token":
			_ = r.ParseForm()
			idpForm = r.PostForm
			fmt.Fprint(w, `{"access_token":"jag.a.b","issued_token_type":"urn:ietf:params:oauth:token-type:id-jag","token_type":"N_A"}`)
		default:
			w.WriteHeader(404)
		}
	}))
	t.Cleanup(idp.Close)
	as := formServer(t, func(r *http.Request) (int, string) {
		asForm, asAuth = r.PostForm, r.Header.Get("Authorization")
		return 200, `{"access_token":"at-e","token_type":"Bearer"}`
	})
	file := writeJWT(t, t.TempDir(), "id.jwt", "id.tok.en")
	d := &Discovery{ResourceURL: "https://mcp.example.com/mcp", Resource: "https://mcp.example.com/mcp", IssuerID: as.URL,
		Server: ServerMetadata{Issuer: as.URL, TokenEndpoint: as.URL + "/token", TokenEndpointAuthMethodsSupported: []string{AuthClientSecretBasic}}}
	g, err := Enterprise(context.Background(), http.DefaultClient, d, ClientConfig{ID: "mcp-client", Secret: "s3cret"},
		AssertionConfig{File: file, IdP: IdP{Issuer: idp.URL, ClientID: "idp-client"}}, Challenge{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"grant_type": grantTokenExchange, "subject_token": "id.tok.en", "subject_token_type": tokenTypeIDToken,
		"requested_token_type": tokenTypeIDJAG, "audience": as.URL, "resource": d.Resource, "client_id": "idp-client"}
	for k, v := range want {
		if idpForm.Get(k) != v {
			t.Errorf("token exchange %s = %q, want %q", k, idpForm.Get(k), v)
		}
	}
	if asForm.Get("grant_type") != FlowJWTBearer || asForm.Get("assertion") != "jag.a.b" || asForm.Get("resource") != d.Resource ||
		!strings.HasPrefix(asAuth, "Basic ") || asForm.Has("client_secret") {
		t.Errorf("jwt bearer request %v, auth %q", asForm, strings.SplitN(asAuth, " ", 2)[0])
	}
	if g.AccessToken != "at-e" || g.Flow != FlowEnterprise || g.IdP == nil || g.IdP.TokenURL != idp.URL+"/token" {
		t.Fatalf("grant %+v", g)
	}
	// Refreshing does the exchange again.
	idpForm = nil
	if err := g.refresh(context.Background(), http.DefaultClient); err != nil || idpForm.Get("subject_token") != "id.tok.en" {
		t.Fatalf("refresh: %v, exchange %v", err, idpForm)
	}
}
