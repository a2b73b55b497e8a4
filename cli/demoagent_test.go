package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer lets the test read what the running command has written.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestDemoAgentCommandServesCardAtPrintedURL(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	var stdout, stderr syncBuffer
	env := &Env{Stdio: Stdio{Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string {
		return map[string]string{"DEMO_TOKEN": "s3cret"}[k]
	}}}
	done := make(chan int)
	go func() {
		done <- runDemoAgent(ctx, env, []string{"--addr", "127.0.0.1:0", "--bearer-env", "DEMO_TOKEN"})
	}()

	var url string
	for deadline := time.Now().Add(5 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		url, _, _ = strings.Cut(stdout.String(), "\n")
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		cancel()
		t.Fatalf("printed URL = %q (stderr %q)", url, stderr.String())
	}
	resp, err := http.Get(url + "/.well-known/agent-card.json")
	if err != nil {
		t.Fatal(err)
	}
	var card struct {
		SecuritySchemes map[string]json.RawMessage `json:"securitySchemes"`
	}
	err = json.NewDecoder(resp.Body).Decode(&card)
	resp.Body.Close()
	if err != nil || card.SecuritySchemes["bearer"] == nil {
		t.Fatalf("card: %v, schemes %v", err, card.SecuritySchemes)
	}
	if strings.Contains(stdout.String()+stderr.String(), "s3cret") {
		t.Fatal("the token was printed")
	}
	cancel()
	if code := <-done; code != ExitOK {
		t.Fatalf("exit code %d", code)
	}
}

func TestDemoAgentCommandRefusesUnsetSecretVariable(t *testing.T) {
	var stdout, stderr syncBuffer
	env := &Env{Stdio: Stdio{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}}
	if code := runDemoAgent(t.Context(), env, []string{"--api-key-env", "NOPE"}); code != ExitUsage {
		t.Fatalf("exit code %d, want %d", code, ExitUsage)
	}
	if !strings.Contains(stderr.String(), "--api-key-env NOPE") {
		t.Fatalf("stderr = %q", stderr.String())
	}
}
