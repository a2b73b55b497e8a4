package cli

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"workrun/workrun"
)

// Text printed to a terminal comes from agents, processes and workflow
// files: nothing in it may act on the terminal. termText and termLine
// escape every control character — C0 (ESC, CR, backspace…), DEL, C1
// (including the 8-bit CSI), invalid UTF-8 and the bidirectional overrides
// and isolates that reorder what is shown — as visible \xNN or \uNNNN, so
// no agent can retitle the terminal, move the cursor, or forge a line such
// as "[other] succeeded".

// termText escapes s for printing; each newline in it continues on a new
// line that starts with cont, so a continuation never looks like a line of
// its own.
func termText(s, cont string) string {
	return escapeTerm(s, "\n"+cont+"| ")
}

// termLine escapes s for a one-line field (a table cell, a node id): a
// newline is shown as ⏎ and a tab as a space.
func termLine(s string) string {
	return escapeTerm(s, "⏎")
}

func escapeTerm(s, newline string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(newline)
		case r == '\t':
			if newline == "⏎" {
				b.WriteByte(' ')
			} else {
				b.WriteByte('\t')
			}
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0, isBidiControl(r), r == '\u2028', r == '\u2029':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPlain: printable ASCII only, the common case, printed as is.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// isBidiControl: the marks, embeddings, overrides and isolates of the
// Unicode bidirectional algorithm.
func isBidiControl(r rune) bool {
	switch {
	case r == '\u061c', r == '\u200e', r == '\u200f':
		return true
	case r >= '\u202a' && r <= '\u202e':
		return true
	case r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}

// readerLanguage is the language node messages are shown in: --lang when
// given ("en" or "zh"), else the locale of the environment the way gettext
// reads it (LANGUAGE, LC_ALL, LC_MESSAGES, LANG; see workrun.DetectLanguage).
func readerLanguage(env *Env, flagValue string) (string, error) {
	switch strings.ToLower(flagValue) {
	case "en":
		return "en", nil
	case "zh":
		return "zh", nil
	case "":
	default:
		return "", fmt.Errorf("--lang %q: want en or zh", flagValue)
	}
	for _, k := range []string{"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := env.Getenv(k); v != "" {
			if workrun.IsChinese(v) {
				return "zh", nil
			}
			return "en", nil
		}
	}
	return "en", nil
}

// jsonTerm is a writer for --json output: encoding/json escapes C0
// control characters but writes C1 ones (U+0080–U+009F, the 8-bit CSI
// among them) and the bidirectional controls as they are, and a terminal
// acts on them. jsonTerm writes each as \uNNNN, which is the same JSON
// string (outside strings JSON holds only ASCII). A rune split across two
// writes is kept until the next one.
type jsonTerm struct {
	w    io.Writer
	tail []byte
}

func (j *jsonTerm) Write(p []byte) (int, error) {
	b := append(j.tail, p...)
	j.tail = nil
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			out = append(out, c)
			i++
			continue
		}
		if !utf8.FullRune(b[i:]) {
			j.tail = append([]byte(nil), b[i:]...)
			break
		}
		r, size := utf8.DecodeRune(b[i:])
		if (r >= 0x80 && r <= 0x9f) || isBidiControl(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	if _, err := j.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
