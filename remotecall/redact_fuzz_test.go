package remotecall

import (
	"bytes"
	"io"
	"testing"
)

// chunked yields body in reads of the given sizes (cycled), as a network
// body arrives.
type chunked struct {
	body  []byte
	sizes []byte
	i     int
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.body) == 0 {
		return 0, io.EOF
	}
	n := 1
	if len(c.sizes) > 0 {
		n = int(c.sizes[c.i%len(c.sizes)])%64 + 1
		c.i++
	}
	n = min(n, len(p), len(c.body))
	copy(p, c.body[:n])
	c.body = c.body[n:]
	return n, nil
}

func (c *chunked) Close() error { return nil }

// FuzzRedactReader: however a reply body is split into reads, the
// streaming redactor gives exactly what redacting the whole body gives, so
// a secret split across reads is never let through (issue 27).
func FuzzRedactReader(f *testing.F) {
	f.Add([]byte("before tok-12345-end after"), "tok-12345-end", []byte{3, 7, 1})
	f.Add([]byte(`{"text":"tok-12345-e`+`nd"}`), "tok-12345-end", []byte{17})
	f.Add([]byte("aaaaaaaab"), "aab", []byte{1})
	f.Fuzz(func(t *testing.T, body []byte, secret string, sizes []byte) {
		if len(secret) < 3 || len(body) > 1<<16 {
			return
		}
		r := NewRedactor(secret)
		want := r.String(string(body))
		got, err := io.ReadAll(r.Reader(&chunked{body: bytes.Clone(body), sizes: sizes}))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Fatalf("secret %q, body %q in reads %v:\nstreamed %q\nwhole    %q", secret, body, sizes, got, want)
		}
	})
}
