package artifacts

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCleanName_HostileNames(t *testing.T) {
	long := strings.Repeat("a", 300)
	tests := []struct {
		name     string
		original string
		want     string
	}{
		{"relative traversal", "../../etc/passwd", "passwd"},
		{"absolute unix path", "/etc/shadow", "shadow"},
		{"absolute windows path", `C:\Windows\System32\drivers\etc\hosts`, "hosts"},
		{"windows traversal", `..\..\boot.ini`, "boot.ini"},
		{"trailing slash", "dir/", "dir"},
		{"NUL byte", "evil\x00.txt", "evil.txt"},
		{"control characters", "a\tb\nc\rd\x1b[31m.txt", "abcd[31m.txt"},
		{"bidi override", "invoice\u202Efdp.exe", "invoicefdp.exe"},
		{"windows-forbidden characters", `a<b>c:d"e|f?g*h.txt`, "a_b_c_d_e_f_g_h.txt"},
		{"CON", "CON", "_CON"},
		{"con lower case", "con", "_con"},
		{"aux.txt", "aux.txt", "_aux.txt"},
		{"NUL.tar.gz", "NUL.tar.gz", "_NUL.tar.gz"},
		{"COM1", "COM1", "_COM1"},
		{"lpt9.log", "lpt9.log", "_lpt9.log"},
		{"COM10 is not a device", "COM10", "COM10"},
		{"console is not a device", "console.txt", "console.txt"},
		{"empty", "", "file"},
		{"dot", ".", "file"},
		{"dot dot", "..", "file"},
		{"dots only", ".....", "file"},
		{"spaces and dots", " . . ", "file"},
		{"only slashes", "///", "file"},
		{"trailing dots and spaces", "report.pdf. . ", "report.pdf"},
		{"leading spaces", "   notes.md", "notes.md"},
		{"hidden file kept", ".env", ".env"},
		{"invalid UTF-8", "caf\xe9.txt", "caf_.txt"},
		{"300 characters", long, long[:MaxNameBytes]},
		{"300 characters with extension", long + ".pdf", long[:MaxNameBytes-4] + ".pdf"},
		{"unicode", "résumé 履歴書.pdf", "résumé 履歴書.pdf"},
		{"plain", "report.pdf", "report.pdf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CleanName(tt.original)
			if got != tt.want {
				t.Errorf("CleanName(%q) = %q, want %q", tt.original, got, tt.want)
			}
			assertSafeName(t, got)
			if again := CleanName(got); again != got {
				t.Errorf("CleanName is not idempotent: %q -> %q", got, again)
			}
		})
	}
}

func TestCleanName_LongMultibyteStaysValidUTF8(t *testing.T) {
	for _, n := range []int{100, 119, 120, 121, 300} {
		name := strings.Repeat("履", n) + ".txt"
		got := CleanName(name)
		assertSafeName(t, got)
		if !strings.HasSuffix(got, ".txt") {
			t.Errorf("n=%d: extension lost: %q", n, got)
		}
	}
	got := CleanName(strings.Repeat("x", 200) + "." + strings.Repeat("e", 40))
	assertSafeName(t, got)
}

func assertSafeName(t *testing.T, s string) {
	t.Helper()
	if s == "" || len(s) > MaxNameBytes || !utf8.ValidString(s) {
		t.Errorf("unsafe name %q (len %d)", s, len(s))
	}
	if strings.ContainsAny(s, "/\\\x00") || strings.Trim(s, ".") == "" {
		t.Errorf("unsafe name %q", s)
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			t.Errorf("control character in %q", s)
		}
	}
	if reservedDevice(s) {
		t.Errorf("reserved device name %q", s)
	}
}

func FuzzCleanName(f *testing.F) {
	for _, s := range []string{"../../etc/passwd", "CON", "aux.txt", "", "..", "a\x00b", strings.Repeat("履", 80)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := CleanName(s)
		assertSafeName(t, got)
		if again := CleanName(got); again != got {
			t.Errorf("not idempotent: %q -> %q -> %q", s, got, again)
		}
	})
}
