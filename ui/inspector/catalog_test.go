package inspector

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestInspWords_Complete: every label of the inspector's catalogues has
// its English and its Chinese, and every label key the inspector's code
// names is in its own catalogue or among the few the window says too — so
// the inspector never shows a key's English fallback in a Chinese window.
func TestInspWords_Complete(t *testing.T) {
	if len(inspWords) < 50 {
		t.Errorf("the labels' catalogue has %d entries", len(inspWords))
	}
	for k, w := range inspWords {
		if w[0] == "" || w[1] == "" {
			t.Errorf("%s: %q / %q", k, w[0], w[1])
		}
	}
	for _, c := range []map[msgID][2]string{inspTexts, trigTexts} {
		if len(c) < 10 {
			t.Errorf("a catalogue of %d entries", len(c))
		}
		for k, w := range c {
			if w[0] == "" || w[1] == "" {
				t.Errorf("%s: %q / %q", k, w[0], w[1])
			}
		}
	}
	window := []string{"edit.delete", "wf.name"} // the window's catalogue has these
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	key := regexp.MustCompile(`\bX\("([a-z_.0-9]*[a-z0-9])"`) // a whole key, not a prefix ("type."+t)
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range key.FindAllStringSubmatch(string(src), -1) {
			seen++
			if _, ok := inspWords[m[1]]; !ok && !slices.Contains(window, m[1]) {
				t.Errorf("%s: the key %q is in no catalogue of the inspector", f, m[1])
			}
		}
	}
	if seen < 50 {
		t.Errorf("found %d label keys in the inspector's code: the pattern reads no code", seen)
	}
}
