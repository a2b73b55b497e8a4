package remoteagent

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"workrun/a2a"
	"workrun/workrun"
)

// redacted replaces a credential's secret wherever an agent echoed it back
// (a WWW-Authenticate header, a JSON-RPC error message, a status text, an
// artifact name, the answer itself): every error, message, record and output
// of a call passes through it before it is saved or shown.
const redacted = a2a.Redacted

// redactor knows the secret of the credential a call uses ("" for none).
type redactor struct{ secret string }

func (r redactor) string(s string) string {
	if r.secret == "" || !strings.Contains(s, r.secret) {
		return s
	}
	return strings.ReplaceAll(s, r.secret, redacted)
}

// bytes redacts raw JSON: the secret as is and as a JSON string escapes it.
func (r redactor) bytes(b []byte) []byte {
	if r.secret == "" {
		return b
	}
	b = bytes.ReplaceAll(b, []byte(r.secret), []byte(redacted))
	if q, err := json.Marshal(r.secret); err == nil {
		if esc := q[1 : len(q)-1]; !bytes.Equal(esc, []byte(r.secret)) {
			b = bytes.ReplaceAll(b, esc, []byte(redacted))
		}
	}
	return b
}

func (r redactor) text(t workrun.Text) workrun.Text {
	if r.secret == "" {
		return t
	}
	copied := false
	for i, a := range t.Args {
		if strings.Contains(a, r.secret) {
			if !copied { // the caller's slice stays as it was
				t.Args, copied = append([]string(nil), t.Args...), true
			}
			t.Args[i] = r.string(a)
		}
	}
	return t
}

func (r redactor) record(c workrun.RemoteCall) workrun.RemoteCall {
	if r.secret == "" {
		return c
	}
	c.StatusText = r.string(c.StatusText)
	c.CancelText = r.string(c.CancelText)
	if c.Result != nil {
		c.Result = r.bytes(c.Result)
	}
	return c
}

// values redacts the text outputs of a node.
func (r redactor) values(v workrun.Values) workrun.Values {
	if r.secret == "" {
		return v
	}
	for k, x := range v {
		if s, ok := x.(string); ok {
			v[k] = r.string(s)
		}
	}
	return v
}

// err redacts an error's text and keeps what it wraps for errors.Is; an
// interruption keeps its type with the reason redacted.
func (r redactor) err(err error) error {
	if err == nil || r.secret == "" {
		return err
	}
	var ie *workrun.InterruptError
	if errors.As(err, &ie) {
		ie.Reason = r.string(ie.Reason)
	}
	return a2a.RedactSecret(err, r.secret)
}
