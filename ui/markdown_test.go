package ui

import (
	"strings"
	"testing"
)

// TestReadableMarkdown: tables become lists with every cell kept; other
// lines stay as they are.
func TestReadableMarkdown(t *testing.T) {
	md := "# Nodes\n\n| key | type | meaning |\n|---|:---:|---|\n| `url` | text | the agent's address \\| base URL |\n| `timeout_seconds` | number | |\n\nAfter."
	got := readableMarkdown(md)
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "|") {
			t.Errorf("a table line is left: %q", l)
		}
	}
	for _, want := range []string{"# Nodes", "- **`url`** — type: text — meaning: the agent's address | base URL", "- **`timeout_seconds`** — type: number", "After."} {
		if !strings.Contains(got, want) {
			t.Errorf("result lacks %q:\n%s", want, got)
		}
	}
}
