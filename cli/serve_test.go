package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The refusal a person reads, in both languages (docs/serve.md S12).
func TestServeTextsBothLanguages(t *testing.T) {
	for id := range serveTexts {
		en, zh := serveTexts.In("en", id, "x", 1), serveTexts.In("zh", id, "x", 1)
		if en == "" || zh == "" || en == zh {
			t.Errorf("%s: en %q zh %q", id, en, zh)
		}
	}
	if got := serveTexts.In("zh", msgServeNonLoopback, "0.0.0.0:1"); !strings.Contains(got, "TLS") || !strings.Contains(got, "令牌") {
		t.Fatalf("zh: %s", got)
	}
}

func TestServeUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "--tls-cert", "c.pem"},
		{"serve", "--addr", "nohostport"},
		{"serve", "token"},
		{"serve", "token", "create"},
		{"serve", "token", "drop", "x"},
	} {
		var out, errb bytes.Buffer
		code := Main(context.Background(), append([]string{"--data-dir", t.TempDir()}, args...), Stdio{Stdout: &out, Stderr: &errb}, Deps{})
		if code != ExitUsage {
			t.Errorf("%v: exit %d, stderr %s", args, code, errb.String())
		}
	}
}
