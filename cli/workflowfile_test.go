package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunRefusesBadWorkflowFiles: a duplicate key (two "command"s, of
// which JSON would silently keep the last) and a file over 8 MiB are
// refused with exit 2 and a clear error, before anything runs.
func TestRunRefusesBadWorkflowFiles(t *testing.T) {
	marks := t.TempDir()
	dup := writeFlow(t, `{"name":"dup","state":{},
		"nodes":[{"id":"start","type":"start"},
		  {"id":"p","type":"process","config":{"command":["sh","-c","touch `+marks+`/first"],"command":["sh","-c","touch `+marks+`/second"]}}],
		"edges":[{"from":"start","to":"p"}]}`)
	big := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(big, []byte(`{"name":"`+strings.Repeat("x", 9<<20)+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, want string }{
		{dup, `duplicate key "command" in nodes[1].config (line 3)`},
		{big, "larger than 8 MiB"},
	} {
		res := runMain(t, []string{"--data-dir", t.TempDir(), "run", tc.file}, nil, realDeps())
		if res.Code != ExitUsage || !strings.Contains(res.Stderr, tc.want) {
			t.Errorf("run %s: exit %d, stderr %q; want %d and %q", filepath.Base(tc.file), res.Code, res.Stderr, ExitUsage, tc.want)
		}
	}
	if entries, _ := os.ReadDir(marks); len(entries) > 0 {
		t.Errorf("a refused workflow ran: %v", entries)
	}
}
