package artifacts

import (
	"mime"
	"strings"

	"github.com/gabriel-vasile/mimetype"
)

// detectBytes is how much of the content the detection looks at
// (mimetype's default read limit).
const detectBytes = 3072

// MediaType returns the media type to record for content whose first bytes
// are head: declared when it agrees with the bytes, otherwise the detected
// type. Declared agrees when it names the detected type (or an alias), when
// it is a more specific kind of what was detected (application/epub+zip on
// a zip the detector only saw the start of), or when it is a textual type
// and the bytes are text (text/markdown, application/json, …). A generic
// application/octet-stream always yields to the detected type.
func MediaType(declared string, head []byte) string {
	detected := mimetype.Detect(head)
	base, params, err := mime.ParseMediaType(declared)
	if err != nil || base == "" || base == "application/octet-stream" {
		return detected.String()
	}
	keep := func() string { return mime.FormatMediaType(base, params) }
	if detected.Is(base) {
		if _, ok := params["charset"]; !ok {
			return detected.String() // keep the detected charset
		}
		return keep()
	}
	if d := mimetype.Lookup(base); d != nil {
		for p := d.Parent(); p != nil; p = p.Parent() {
			if p.Is(detected.String()) && !p.Is("application/octet-stream") {
				return keep()
			}
		}
	}
	if isText(detected) && textual(base) {
		return keep()
	}
	return detected.String()
}

// isText reports whether the detector found text of any kind.
func isText(m *mimetype.MIME) bool {
	for ; m != nil; m = m.Parent() {
		if m.Is("text/plain") {
			return true
		}
	}
	return false
}

// textual reports whether a declared type is a text format, which the
// detector can only confirm as text.
func textual(base string) bool {
	if strings.HasPrefix(base, "text/") || strings.HasSuffix(base, "+json") ||
		strings.HasSuffix(base, "+xml") || strings.HasSuffix(base, "+yaml") {
		return true
	}
	switch base {
	case "application/json", "application/xml", "application/yaml", "application/x-yaml",
		"application/toml", "application/javascript", "application/x-ndjson",
		"application/sql", "application/x-sh", "image/svg+xml":
		return true
	}
	return false
}
