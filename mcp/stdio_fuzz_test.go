package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode"
)

// FuzzStdioLines feeds a program's stdout bytes through the framing and the
// routing (docs/tool-app.md T2): lines are cut at the cap, a message that
// is not JSON-RPC is refused, nothing panics, and a waiting request gets at
// most the one response with its id.
func FuzzStdioLines(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n"))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}` + "\r\n" + `{"jsonrpc":"2.0","id":null,"error":{"code":-32700}}`))
	f.Add([]byte("Server listening\n{\"id\":1}\n"))
	f.Add([]byte(strings.Repeat("a", 300) + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &Stdio{pending: map[string]*waiter{}}
		w := &waiter{ch: make(chan json.RawMessage, waiterBuffer), done: make(chan struct{}), seq: 1}
		s.pending["1"] = w
		s.stdin = nopWriteCloser{}
		br := bufio.NewReaderSize(bytes.NewReader(data), 16)
		for {
			line, err := readLine(br, 256)
			if err == ErrLineTooLarge {
				return
			}
			if len(line) > 258 {
				t.Fatalf("a line of %d bytes passed the 256-byte cap", len(line))
			}
			if len(bytes.TrimSpace(line)) > 0 {
				if derr := s.dispatch(line); derr == nil && !json.Valid(line) {
					t.Fatalf("accepted a line that is not JSON: %q", line)
				}
			}
			if err != nil {
				break
			}
		}
		close(w.done)
	})
}

type nopWriteCloser struct{}

func (nopWriteCloser) Write(p []byte) (int, error) { return len(p), nil }
func (nopWriteCloser) Close() error                { return nil }

// FuzzCleanLine: whatever a program writes on stderr, the line shown holds
// no control character, escape or bidirectional override.
func FuzzCleanLine(f *testing.F) {
	for _, s := range []string{"plain", "\x1b[31mred\x1b[0m", "\x1b]0;title\x07", "bidi \u202e", "\u009b2J", "中文\ttab"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range cleanLine(s) {
			if unicode.IsControl(r) || r == 0x1b || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
				t.Fatalf("cleanLine(%q) kept %U", s, r)
			}
		}
	})
}
