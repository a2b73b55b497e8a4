package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"
)

// runWithStdin runs Main with the given stdin.
func runWithStdin(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), args, Stdio{
		Stdin: strings.NewReader(stdin), Stdout: &stdout, Stderr: &stderr,
		Getenv: func(string) string { return "" },
	}, artifactDeps())
	return result{Code: code, Stdout: stdout.String(), Stderr: stderr.String()}
}

func TestCredentialCommands(t *testing.T) {
	keyring.MockInit() // an in-memory keyring instead of the OS one
	dir := t.TempDir()
	dd := "--data-dir=" + dir

	r := runWithStdin(t, "s3cret-token\n", dd, "credential", "set", "demo", "--kind", "bearer", "--origin", "http://127.0.0.1:8080/a2a")
	if r.Code != ExitOK || r.Stdout != "saved credential demo (bearer) for http://127.0.0.1:8080\n" {
		t.Fatalf("set: %+v", r)
	}
	r = runWithStdin(t, "key-1", dd, "credential", "set", "--kind", "apikey", "--header", "X-API-Key", "--origin", "https://agent.example", "svc")
	if r.Code != ExitOK {
		t.Fatalf("set apikey: %+v", r)
	}
	if got, err := keyring.Get("workrun", "demo"); err != nil || got != "s3cret-token" {
		t.Errorf("keyring holds %q, %v", got, err)
	}

	r = runWithStdin(t, "", dd, "credential", "list")
	if r.Code != ExitOK || !strings.Contains(r.Stdout, "demo  bearer  http://127.0.0.1:8080") || !strings.Contains(r.Stdout, "svc   apikey  https://agent.example:443  X-API-Key") {
		t.Errorf("list: %+v", r)
	}
	if strings.Contains(r.Stdout, "s3cret") || strings.Contains(r.Stdout, "key-1") {
		t.Errorf("list shows a secret: %q", r.Stdout)
	}
	// The secret never reaches the SQLite file (docs/product.md W8).
	db, err := os.ReadFile(filepath.Join(dir, "workrun.db"))
	if err != nil {
		t.Fatal(err)
	}
	wal, _ := os.ReadFile(filepath.Join(dir, "workrun.db-wal"))
	if bytes.Contains(db, []byte("s3cret-token")) || bytes.Contains(wal, []byte("s3cret-token")) {
		t.Error("the secret was written to SQLite")
	}

	r = runWithStdin(t, "", dd, "credential", "delete", "demo")
	if r.Code != ExitOK || r.Stdout != "deleted credential demo\n" {
		t.Errorf("delete: %+v", r)
	}
	if _, err := keyring.Get("workrun", "demo"); err == nil {
		t.Error("the secret is still in the keyring")
	}
	r = runWithStdin(t, "", dd, "credential", "delete", "demo")
	if r.Code != ExitFailed || !strings.Contains(r.Stderr, `no credential named "demo"`) {
		t.Errorf("delete again: %+v", r)
	}
}

func TestCredentialSetUsage(t *testing.T) {
	keyring.MockInit()
	dd := "--data-dir=" + t.TempDir()
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"no secret", "", []string{"set", "x", "--kind", "bearer", "--origin", "https://a.example"}, "give the secret on stdin"},
		{"bad kind", "s", []string{"set", "x", "--kind", "basic", "--origin", "https://a.example"}, "--kind must be bearer or apikey"},
		{"apikey without header", "s", []string{"set", "x", "--kind", "apikey", "--origin", "https://a.example"}, "needs --header"},
		{"no origin", "s", []string{"set", "x", "--kind", "bearer"}, "--origin URL is required"},
		{"no name", "s", []string{"set", "--kind", "bearer", "--origin", "https://a.example"}, "exactly one NAME"},
		{"unknown action", "", []string{"rotate"}, `unknown action "rotate"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runWithStdin(t, tt.stdin, append([]string{dd, "credential"}, tt.args...)...)
			if r.Code != ExitUsage || !strings.Contains(r.Stderr, tt.want) {
				t.Errorf("got %+v, want usage error containing %q", r, tt.want)
			}
		})
	}
}
