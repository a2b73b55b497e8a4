package inspector

import "testing"

// TestTemplatePrefix: the reference being typed is found only inside an
// unclosed "{{".
func TestTemplatePrefix(t *testing.T) {
	for _, c := range []struct {
		text   string
		cursor int
		want   string
		ok     bool
	}{
		{"a {{", 4, "", true}, {"a {{ qu", 7, "qu", true}, {"a {{qu}} b", 10, "", false}, {"a {{qu}} b", 6, "qu", true},
		{"{{x y", 5, "", false}, {"no braces", 3, "", false}, {"问题 {{问", 6, "问", true},
	} {
		got, ok := templatePrefix(c.text, c.cursor)
		if got != c.want || ok != c.ok {
			t.Errorf("templatePrefix(%q, %d) = %q, %v; want %q, %v", c.text, c.cursor, got, ok, c.want, c.ok)
		}
	}
}
