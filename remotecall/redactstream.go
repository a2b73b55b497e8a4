package remotecall

import "io"

// RedactReader returns r with every occurrence of secret (as is, and as a
// JSON string escapes it) replaced by Redacted, streamed: a secret split
// across two reads of r — two appends of one artifact, two chunks of a
// spool — is found all the same (Redactor.Reader). Memory stays at one
// chunk whatever r holds. An empty secret gives r itself.
func RedactReader(r io.Reader, secret string) io.Reader {
	if secret == "" {
		return r
	}
	return NewRedactor(secret).Reader(io.NopCloser(r))
}
