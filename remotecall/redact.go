package remotecall

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"

	"workrun/workrun"
)

// Redacted replaces a secret a server echoed back.
const Redacted = "[redacted]"

// Redactor knows every secret a call has sent (its Transport adds each one
// the moment it goes on a request) and replaces them, wherever a server
// echoed them, with Redacted: in reply bodies as they are read, in
// response headers, in errors, node messages, call records and outputs.
// Both remote node kinds pass everything they save or show through it
// (docs/remote-agent.md R3.3). The nil *Redactor redacts nothing. It is
// safe for concurrent use.
type Redactor struct {
	mu sync.RWMutex
	// forms holds each secret and its JSON-escaped form when that differs,
	// longest first, so a longer secret is replaced before a shorter one
	// inside it.
	forms []string
	max   int // length of the longest form
}

// NewRedactor knows secrets ("" entries are ignored).
func NewRedactor(secrets ...string) *Redactor {
	r := &Redactor{}
	for _, s := range secrets {
		r.Add(s)
	}
	return r
}

// Add makes r redact secret too.
func (r *Redactor) Add(secret string) {
	if r == nil || secret == "" {
		return
	}
	forms := []string{secret}
	if q, err := json.Marshal(secret); err == nil {
		if esc := string(q[1 : len(q)-1]); esc != secret {
			forms = append(forms, esc)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, f := range forms {
		if slices.Contains(r.forms, f) {
			continue
		}
		r.forms = append(r.forms, f)
		r.max = max(r.max, len(f))
	}
	slices.SortFunc(r.forms, func(a, b string) int { return len(b) - len(a) })
}

func (r *Redactor) snapshot() []string {
	if r == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.forms
}

// String is s with every secret replaced.
func (r *Redactor) String(s string) string {
	for _, f := range r.snapshot() {
		if strings.Contains(s, f) {
			s = strings.ReplaceAll(s, f, Redacted)
		}
	}
	return s
}

// Bytes is b with every secret replaced (b itself is not changed).
func (r *Redactor) Bytes(b []byte) []byte {
	for _, f := range r.snapshot() {
		if bytes.Contains(b, []byte(f)) {
			b = bytes.ReplaceAll(b, []byte(f), []byte(Redacted))
		}
	}
	return b
}

// Text is t with its arguments redacted (the caller's slice is kept).
func (r *Redactor) Text(t workrun.Text) workrun.Text {
	copied := false
	for i, a := range t.Args {
		if red := r.String(a); red != a {
			if !copied {
				t.Args, copied = append([]string(nil), t.Args...), true
			}
			t.Args[i] = red
		}
	}
	return t
}

// Record is a call record with its texts and result redacted.
func (r *Redactor) Record(c workrun.RemoteCall) workrun.RemoteCall {
	if len(r.snapshot()) == 0 {
		return c
	}
	c.StatusText = r.String(c.StatusText)
	c.CancelText = r.String(c.CancelText)
	c.AgentName = r.String(c.AgentName)
	if c.Result != nil {
		c.Result = r.Bytes(c.Result)
	}
	return c
}

// Values redacts the text outputs of a node in place and returns them.
func (r *Redactor) Values(v workrun.Values) workrun.Values {
	if len(r.snapshot()) == 0 {
		return v
	}
	for k, x := range v {
		if s, ok := x.(string); ok {
			v[k] = r.String(s)
		}
	}
	return v
}

// Err is err with its text redacted; errors.Is and errors.As still see
// what it wraps, and an interruption keeps its type with its reason
// redacted.
func (r *Redactor) Err(err error) error {
	if err == nil || len(r.snapshot()) == 0 {
		return err
	}
	var ie *workrun.InterruptError
	if errors.As(err, &ie) {
		ie.Reason = r.String(ie.Reason)
	}
	if red := r.String(err.Error()); red != err.Error() {
		return &redactedError{err: err, text: red}
	}
	return err
}

type redactedError struct {
	err  error
	text string
}

func (e *redactedError) Error() string { return e.text }
func (e *redactedError) Unwrap() error { return e.err }

// Reader redacts a body as it is read: a secret split across two reads is
// still replaced, because the longest tail that could begin a secret is
// held back until the next read decides it.
func (r *Redactor) Reader(body io.ReadCloser) io.ReadCloser {
	if len(r.snapshot()) == 0 {
		return body
	}
	return &redactingReader{r: r, src: body}
}

type redactingReader struct {
	r       *Redactor
	src     io.ReadCloser
	pending []byte // read, redacted, not yet decided (may begin a secret)
	ready   []byte // redacted, safe to hand out
	err     error
	buf     []byte
}

func (rr *redactingReader) Read(p []byte) (int, error) {
	for len(rr.ready) == 0 {
		if rr.err != nil {
			if len(rr.pending) > 0 {
				rr.ready, rr.pending = rr.pending, nil
				break
			}
			return 0, rr.err
		}
		if rr.buf == nil {
			rr.buf = make([]byte, 32<<10)
		}
		n, err := rr.src.Read(rr.buf)
		rr.err = err
		if n == 0 && err == nil {
			continue
		}
		data := rr.r.Bytes(append(rr.pending, rr.buf[:n]...))
		hold := 0
		if err == nil {
			hold = heldTail(data, rr.r.snapshot())
		}
		rr.ready = data[:len(data)-hold]
		rr.pending = append([]byte(nil), data[len(data)-hold:]...)
	}
	n := copy(p, rr.ready)
	rr.ready = rr.ready[n:]
	return n, nil
}

func (rr *redactingReader) Close() error { return rr.src.Close() }

// heldTail is the length of the longest suffix of b that is a proper
// prefix of one of forms.
func heldTail(b []byte, forms []string) int {
	best := 0
	for _, f := range forms {
		for k := min(len(f)-1, len(b)); k > best; k-- {
			if bytes.HasSuffix(b, []byte(f[:k])) {
				best = k
				break
			}
		}
	}
	return best
}
