package trigger

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SignatureHeader carries a webhook request's HMAC signature (T6):
//
//	Workrun-Signature: t=1767225600,v1=5257a869e7…
//
// t is the Unix time in seconds the sender signed at; each v1 is the hex
// HMAC-SHA256, keyed with the webhook's secret, of t, a '.', and the
// request body as sent. Several v1 may be given (while a secret changes).
const SignatureHeader = "Workrun-Signature"

// SignatureWindow is how far t may be from the server's clock.
const SignatureWindow = 5 * time.Minute

// ErrSignature: the signature header cannot be read.
var ErrSignature = errors.New("bad signature header")

// Signature is a parsed signature header.
type Signature struct {
	Time time.Time
	V1   [][]byte // each a 32-byte MAC
}

// ParseSignature reads a SignatureHeader value. Keys other than t and v1
// are ignored (later schemes); t must appear exactly once and at least
// one v1 be 64 hex digits.
func ParseSignature(h string) (Signature, error) {
	var s Signature
	if len(h) > 4096 {
		return s, fmt.Errorf("%w: too long", ErrSignature)
	}
	seenT := false
	for part := range strings.SplitSeq(h, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return Signature{}, fmt.Errorf("%w: %q is not key=value", ErrSignature, part)
		}
		switch k {
		case "t":
			if seenT {
				return Signature{}, fmt.Errorf("%w: two t", ErrSignature)
			}
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 || n > 1<<40 {
				return Signature{}, fmt.Errorf("%w: t is not a Unix time in seconds", ErrSignature)
			}
			s.Time, seenT = time.Unix(n, 0).UTC(), true
		case "v1":
			mac, err := hex.DecodeString(v)
			if err != nil || len(mac) != sha256.Size {
				return Signature{}, fmt.Errorf("%w: v1 is not 64 hex digits", ErrSignature)
			}
			if len(s.V1) < 8 {
				s.V1 = append(s.V1, mac)
			}
		}
	}
	if !seenT || len(s.V1) == 0 {
		return Signature{}, fmt.Errorf("%w: it needs t and v1", ErrSignature)
	}
	return s, nil
}

// Sign is the v1 MAC of body sent at t (what a sender computes).
func Sign(secret string, t time.Time, body []byte) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(m, "%d.", t.Unix())
	m.Write(body)
	return m.Sum(nil)
}

// SignatureValue is the header value for body signed at t.
func SignatureValue(secret string, t time.Time, body []byte) string {
	return fmt.Sprintf("t=%d,v1=%s", t.Unix(), hex.EncodeToString(Sign(secret, t, body)))
}

// Verify returns the matching MAC (hex) when one of sig's v1 is body's
// MAC under secret, compared in constant time.
func (sig Signature) Verify(secret string, body []byte) (string, bool) {
	want := Sign(secret, sig.Time, body)
	match := ""
	for _, mac := range sig.V1 {
		if hmac.Equal(mac, want) {
			match = hex.EncodeToString(mac)
		}
	}
	return match, match != ""
}

// SecretService is the keyring service webhook secrets are kept under
// (the user is the publication id); the store never holds them.
const SecretService = "workrun-webhook-secret"

// NewSecret makes a webhook secret.
func NewSecret() string {
	b := make([]byte, 32)
	rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return "whsec_" + base64.RawURLEncoding.EncodeToString(b)
}
