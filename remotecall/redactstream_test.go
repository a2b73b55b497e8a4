package remotecall

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestRedactReader_AcrossReads: a secret split across two reads of the
// source (two appends of one artifact) is replaced all the same, at every
// split point, and its JSON-escaped form too.
func TestRedactReader_AcrossReads(t *testing.T) {
	const secret = `tok-"12345"-end`
	text := "a " + secret + " b " + `tok-\"12345\"-end` + " c " + secret
	want := "a [redacted] b [redacted] c [redacted]"
	for split := 1; split < len(text); split++ {
		src := io.MultiReader(iotest.OneByteReader(strings.NewReader(text[:split])), strings.NewReader(text[split:]))
		got, err := io.ReadAll(RedactReader(src, secret))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Fatalf("split at %d: %q, want %q", split, got, want)
		}
	}
	if got, _ := io.ReadAll(RedactReader(strings.NewReader("tok-"), secret)); string(got) != "tok-" {
		t.Errorf("a prefix of the secret at the end: %q", got)
	}
	if r := strings.NewReader(text); RedactReader(r, "") != io.Reader(r) {
		t.Error("no secret: want the reader itself")
	}
}
