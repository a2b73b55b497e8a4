package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"
)

// The JWT bearer sign-ins' flags: what excludes what, what needs what, in
// English and Chinese; a token file that cannot be read stops before
// anything is sent, naming the file but nothing in it.
func TestCredentialLoginAssertionFlags(t *testing.T) {
	keyring.MockInit()
	dd := "--data-dir=" + t.TempDir()
	jwt := filepath.Join(t.TempDir(), "absent.jwt")
	u := "http://127.0.0.1:1/mcp"
	for _, tt := range []struct {
		name   string
		args   []string
		en, zh string
		code   int
	}{
		{"two modes", []string{u, "--assertion-file", "a", "--id-token-file", "b", "--idp-issuer", "https://idp.example"}, "exclude each other", "只能选一个", ExitUsage},
		{"assertion and machine", []string{u, "--client-id", "c", "--assertion-file", "a", "--client-credentials"}, "exclude each other", "只能选一个", ExitUsage},
		{"idp without id token", []string{u, "--idp-issuer", "https://idp.example"}, "go with --id-token-file", "须与 --id-token-file 一起使用", ExitUsage},
		{"id token without idp", []string{u, "--id-token-file", "b"}, "needs the identity provider", "需要身份提供方", ExitUsage},
		{"idp on plain http", []string{u, "--id-token-file", "b", "--idp-token-url", "http://idp.example/token"}, "--idp-token-url", "--idp-token-url", ExitUsage},
		{"no such file", []string{u, "--client-id", "c", "--assertion-file", jwt}, "cannot be read", "无法读取令牌文件", ExitFailed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for lang, want := range map[string]string{"en_US.UTF-8": tt.en, "zh_CN.UTF-8": tt.zh} {
				r := runMain(t, append([]string{dd, "credential", "login"}, tt.args...), map[string]string{"LANG": lang}, artifactDeps())
				if r.Code != tt.code || !strings.Contains(r.Stderr, want) {
					t.Errorf("%s: got %d %q; want %d with %q", lang, r.Code, r.Stderr, tt.code, want)
				}
			}
		})
	}
}
