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

// minEdge is the shortest piece of the secret masked at the end of a
// chunk without knowing the next one: shorter pieces reveal nothing.
const minEdge = 4

// chunkEdges returns parts for a progress line with the pieces of a secret
// split across chunks masked: the start of a text part that completes a
// secret begun at the end of the artifact's text so far (prev), and the
// end of a text part that begins the secret. A whole secret inside a part
// is replaced when the line is written (text). Only the shown beginning of
// a long part is looked at; parts is left as it is.
func (r redactor) chunkEdges(prev string, parts []a2a.Part) []a2a.Part {
	if r.secret == "" {
		return parts
	}
	out := make([]a2a.Part, len(parts))
	copy(out, parts)
	for i, p := range out {
		if p.IsRaw() || p.URL != "" || p.Data != nil || p.Text == "" {
			continue
		}
		const shown = 4 * 301 // describeParts shows at most 300 runes
		text, whole := p.Text, len(p.Text) <= shown
		if !whole {
			text = text[:shown]
		}
		sec := r.secret
		for k := min(len(sec)-1, len(text)); k > 0; k-- {
			if strings.HasSuffix(prev, sec[:len(sec)-k]) && strings.HasPrefix(text, sec[len(sec)-k:]) {
				text = redacted + text[k:]
				break
			}
		}
		if whole {
			for k := min(len(sec)-1, len(text)); k >= min(minEdge, len(sec)-1) && k > 0; k-- {
				if strings.HasSuffix(text, sec[:k]) {
					text = text[:len(text)-k] + redacted
					break
				}
			}
		}
		prev = keepTail(prev, p.Text)
		out[i].Text = text
	}
	return out
}
