package oauth

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// DPoP (RFC 9449, docs/oauth.md "DPoP"): a grant is bound to a P-256 key
// when the authorization server lists ES256 in
// dpop_signing_alg_values_supported or the resource challenges with the
// DPoP scheme. Every token request and every request to the resource then
// carries a fresh proof JWT in the DPoP header; the resource gets the token
// as `Authorization: DPoP TOKEN` when the token response's token_type is
// DPoP. The key is part of the grant, so it lives in the OS keyring with
// the tokens.

// TokenTypeDPoP is the token_type of a DPoP-bound access token.
const TokenTypeDPoP = "DPoP"

// dpopAlg is the one proof algorithm Workrun signs with.
const dpopAlg = "ES256"

// errUseDPoPNonce is the error code with which a server asks for a nonce.
const errUseDPoPNonce = "use_dpop_nonce"

// maxNonceBytes bounds a DPoP-Nonce value kept and echoed.
const maxNonceBytes = 1024

// dpopKey signs DPoP proofs.
type dpopKey struct {
	k   *ecdsa.PrivateKey
	jwk map[string]string
}

// newDPoPKeyPEM makes a new P-256 key, PKCS#8 PEM.
func newDPoPKeyPEM() (string, error) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", fmt.Errorf("dpop: make a key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		return "", fmt.Errorf("dpop: keep the key: %w", err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})), nil
}

// parseDPoPKey reads a key made by newDPoPKeyPEM.
func parseDPoPKey(p string) (*dpopKey, error) {
	k, err := parsePrivateKey(p)
	if err != nil {
		return nil, fmt.Errorf("dpop: %w", err)
	}
	ek, ok := k.(*ecdsa.PrivateKey)
	if !ok {
		return nil, errors.New("dpop: the key is not a P-256 EC key")
	}
	enc := base64.RawURLEncoding
	pub, err := ek.PublicKey.ECDH()
	if err != nil {
		return nil, fmt.Errorf("dpop: %w", err)
	}
	b := pub.Bytes() // 0x04 || X || Y, 32 bytes each for P-256
	return &dpopKey{k: ek, jwk: map[string]string{"kty": "EC", "crv": "P-256",
		"x": enc.EncodeToString(b[1:33]), "y": enc.EncodeToString(b[33:65])}}, nil
}

// Thumbprint is the key's RFC 7638 JWK SHA-256 thumbprint (what a server
// binds as cnf.jkt).
func (k *dpopKey) Thumbprint() string {
	// Required members in lexicographic order, no spaces (RFC 7638 §3).
	s := `{"crv":"P-256","kty":"EC","x":"` + k.jwk["x"] + `","y":"` + k.jwk["y"] + `"}`
	sum := sha256.Sum256([]byte(s))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// proof is a DPoP proof for a request of method to target (RFC 9449 §4.2):
// htu is target without query and fragment; ath binds accessToken when
// given; nonce is the server's when it sent one.
func (k *dpopKey) proof(method string, target *url.URL, accessToken, nonce string) (string, error) {
	htu := *target
	htu.RawQuery, htu.ForceQuery, htu.Fragment, htu.RawFragment, htu.User = "", false, "", "", nil
	claims := map[string]any{"jti": randomString(), "htm": method, "htu": htu.String(), "iat": time.Now().Unix()}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		claims["ath"] = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	if nonce != "" {
		claims["nonce"] = nonce
	}
	header, err := json.Marshal(map[string]any{"typ": "dpop+jwt", "alg": dpopAlg, "jwk": k.jwk})
	if err != nil {
		return "", fmt.Errorf("dpop proof: %w", err)
	}
	body, err := json.Marshal(claims)
	if err != nil {
		return "", fmt.Errorf("dpop proof: %w", err)
	}
	enc := base64.RawURLEncoding
	signing := enc.EncodeToString(header) + "." + enc.EncodeToString(body)
	sum := sha256.Sum256([]byte(signing))
	r, s, err := ecdsa.Sign(rand.Reader, k.k, sum[:])
	if err != nil {
		return "", fmt.Errorf("dpop proof: sign: %w", err)
	}
	return signing + "." + enc.EncodeToString(append(pad32(r), pad32(s)...)), nil
}

// ParseDPoPNonce reads a DPoP-Nonce header value (RFC 9449 §8: nonce =
// 1*NQCHAR, printable ASCII without '"' and '\'); ok is false for an
// empty, over-long or malformed value, which is then not echoed.
func ParseDPoPNonce(v string) (nonce string, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" || len(v) > maxNonceBytes {
		return "", false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < 0x21 || c > 0x7e || c == '"' || c == '\\' {
			return "", false
		}
	}
	return v, true
}

// nonceOf is the response's DPoP-Nonce, if it has a well-formed one.
func nonceOf(resp *http.Response) (string, bool) {
	vs := resp.Header.Values("DPoP-Nonce")
	if len(vs) != 1 {
		return "", false
	}
	return ParseDPoPNonce(vs[0])
}

// SupportsDPoP reports whether a sign-in with d (and the resource's
// challenge ch) binds its tokens to a DPoP key: the authorization server
// lists ES256 among dpop_signing_alg_values_supported, or the resource
// challenged with the DPoP scheme (and no algorithm list without ES256).
func SupportsDPoP(d *Discovery, ch Challenge) bool {
	if slices.Contains(d.Server.DPoPSigningAlgValuesSupported, dpopAlg) {
		return true
	}
	return ch.DPoP && (len(ch.DPoPAlgs) == 0 || slices.Contains(ch.DPoPAlgs, dpopAlg))
}

// dpopTokenTransport puts a fresh proof on every request to a token
// endpoint and, when the authorization server answers 400 use_dpop_nonce
// with a DPoP-Nonce, sends the request once more with a proof carrying it
// (RFC 9449 §8). A nonce a reply hands out is used from then on.
type dpopTokenTransport struct {
	base http.RoundTripper
	key  *dpopKey

	mu    sync.Mutex
	nonce string
}

func (t *dpopTokenTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	getBody, err := replayable(req)
	if err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		r := req.Clone(req.Context())
		if getBody != nil {
			if r.Body, err = getBody(); err != nil {
				return nil, fmt.Errorf("dpop: replay the token request: %w", err)
			}
		}
		t.mu.Lock()
		nonce := t.nonce
		t.mu.Unlock()
		p, err := t.key.proof(r.Method, r.URL, "", nonce)
		if err != nil {
			return nil, err
		}
		r.Header.Set("DPoP", p)
		resp, err := t.base.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		n, hasNonce := nonceOf(resp)
		if hasNonce {
			t.mu.Lock()
			t.nonce = n
			t.mu.Unlock()
		}
		if attempt > 0 || !hasNonce || n == nonce || resp.StatusCode != http.StatusBadRequest {
			return resp, nil
		}
		// A 400 with a new nonce: retry only when the error says so.
		b, rerr := readCapped(resp.Body, 64<<10)
		resp.Body.Close()
		if rerr != nil {
			return nil, fmt.Errorf("dpop: read the token endpoint's reply: %w", rerr)
		}
		var e struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(b, &e) != nil || e.Error != errUseDPoPNonce {
			resp.Body = io.NopCloser(bytes.NewReader(b))
			return resp, nil
		}
	}
}
