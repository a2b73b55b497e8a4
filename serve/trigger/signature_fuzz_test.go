package trigger

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSignatureRoundTrip(t *testing.T) {
	at := time.Unix(1767225600, 0)
	body := []byte(`{"name":"Ada"}`)
	sig, err := ParseSignature(SignatureValue("s3cret", at, body))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := sig.Verify("s3cret", body); !ok {
		t.Fatal("own signature refused")
	}
	if _, ok := sig.Verify("other", body); ok {
		t.Fatal("another secret accepted")
	}
	if _, ok := sig.Verify("s3cret", []byte(`{"name":"Bob"}`)); ok {
		t.Fatal("another body accepted")
	}
	for _, h := range []string{"", "t=1", "v1=" + strings.Repeat("a", 64), "t=x,v1=" + strings.Repeat("a", 64), "t=1,t=2,v1=" + strings.Repeat("a", 64),
		"t=1,v1=zz", "t=-5,v1=" + strings.Repeat("a", 64), "garbage"} {
		if _, err := ParseSignature(h); !errors.Is(err, ErrSignature) {
			t.Errorf("%q: %v", h, err)
		}
	}
}

// FuzzSignatureHeader: any header value is refused with ErrSignature or
// gives a time and 32-byte MACs, and never verifies against a body it was
// not made for.
func FuzzSignatureHeader(f *testing.F) {
	f.Add(SignatureValue("k", time.Unix(1767225600, 0), []byte("x")))
	f.Add("t=1767225600,v1=" + strings.Repeat("0", 64) + ",v0=abc")
	f.Add("t=1,v1=,v1=")
	f.Add(" t = 1 , v1=" + strings.Repeat("F", 64))
	f.Fuzz(func(t *testing.T, h string) {
		sig, err := ParseSignature(h)
		if err != nil {
			if !errors.Is(err, ErrSignature) {
				t.Fatal(err)
			}
			return
		}
		if sig.Time.IsZero() || len(sig.V1) == 0 {
			t.Fatalf("%q parsed to %+v", h, sig)
		}
		for _, m := range sig.V1 {
			if len(m) != 32 {
				t.Fatalf("%q: MAC of %d bytes", h, len(m))
			}
		}
		if _, ok := sig.Verify("secret", []byte(h)); ok {
			t.Fatalf("%q verified", h)
		}
	})
}
