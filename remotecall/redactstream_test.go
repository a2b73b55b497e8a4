package remotecall

import "testing"

// TestRedactor_Edges: a secret split across two chunks is masked on both
// sides of the boundary; text without a piece of it is left alone.
func TestRedactor_Edges(t *testing.T) {
	r := NewRedactor("tok-12345-end")
	for _, c := range []struct {
		prev, text string
		whole      bool
		want       string
	}{
		{"answer tok-123", "45-end more", true, "[redacted] more"},
		{"", "answer tok-1", true, "answer [redacted]"},
		{"", "answer tok-1", false, "answer tok-1"},     // its end is not shown
		{"", "answer to", true, "answer to"},            // too short to tell
		{"nothing", "45-end more", true, "45-end more"}, // no beginning before it
	} {
		if got := r.Edges(c.prev, c.text, c.whole); got != c.want {
			t.Errorf("Edges(%q, %q, %v) = %q, want %q", c.prev, c.text, c.whole, got, c.want)
		}
	}
}
