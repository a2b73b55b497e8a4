package remotecall

import (
	"bytes"
	"encoding/json"
	"io"
)

// Redacted is what a credential's secret is replaced with wherever a server
// echoed it back.
const Redacted = "[redacted]"

// redactChunk is how much RedactReader reads from its source at a time.
const redactChunk = 64 << 10

// RedactReader returns r with every occurrence of secret (as is, and as a
// JSON string escapes it) replaced by Redacted, streamed: a secret split
// across two reads of r — two appends of one artifact, two chunks of a
// spool — is found all the same, because the last len(secret)-1 bytes of
// each read are held back until the next one. Memory stays at one chunk
// whatever r holds. An empty secret gives r itself.
func RedactReader(r io.Reader, secret string) io.Reader {
	if secret == "" {
		return r
	}
	pats := [][]byte{[]byte(secret)}
	if q, err := json.Marshal(secret); err == nil {
		if esc := q[1 : len(q)-1]; !bytes.Equal(esc, pats[0]) {
			pats = append(pats, esc)
		}
	}
	keep := 0
	for _, p := range pats {
		keep = max(keep, len(p)-1)
	}
	return &redactReader{src: r, pats: pats, keep: keep, buf: make([]byte, 0, redactChunk+keep)}
}

type redactReader struct {
	src  io.Reader
	pats [][]byte
	keep int
	buf  []byte // read, not yet redacted or held back
	out  []byte // redacted, not yet returned
	err  error  // of src, returned once out is empty
}

func (r *redactReader) Read(p []byte) (int, error) {
	for len(r.out) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		n, err := r.src.Read(r.buf[len(r.buf):cap(r.buf)])
		r.buf = r.buf[:len(r.buf)+n]
		if err != nil {
			r.err = err
		}
		r.redact(err != nil)
	}
	n := copy(p, r.out)
	r.out = r.out[n:]
	return n, nil
}

// redact moves what is certain from buf to out: every whole match replaced,
// and, unless the source ended, the last keep bytes held back (a secret
// may start there).
func (r *redactReader) redact(last bool) {
	var out []byte
	b := r.buf
	for {
		at, n := -1, 0
		for _, p := range r.pats {
			if i := bytes.Index(b, p); i >= 0 && (at < 0 || i < at) {
				at, n = i, len(p)
			}
		}
		if at < 0 {
			break
		}
		out = append(out, b[:at]...)
		out = append(out, Redacted...)
		b = b[at+n:]
	}
	cut := len(b)
	if !last {
		cut = max(0, len(b)-r.keep)
	}
	out = append(out, b[:cut]...)
	r.out = out
	r.buf = append(r.buf[:0], b[cut:]...)
}
