package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// demoCommand is a built-in demo server's command as the examples use it.
type demoCommand struct {
	name       string // "demo-agent"
	nodeType   string // the node kind whose url names the server
	defaultURL string // where the command serves with no options
}

var (
	demoAgentCommand = demoCommand{"demo-agent", "remote_agent", "http://" + DemoAgentAddr}
	demoMCPCommand   = demoCommand{"demo-mcp", "remote_mcp", "http://" + DemoMCPAddr + "/mcp"}
)

// startDemoCommand runs `workrun <d.name>` until the test ends and returns
// the workflow file to run against it. Out of the box means: the example's
// remote nodes of d's kind name the command's default address, checked
// always, and the command started with no options serves the unchanged
// example. When another process already holds that address (a demo server a
// developer left running, say) the test says so in its log and runs a
// temporary copy of the example pointed at the command on a free port
// instead; it never edits examples/.
func startDemoCommand(t *testing.T, example string, d demoCommand) string {
	t.Helper()
	raw, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Nodes []struct {
			Type   string `json:"type"`
			Config struct {
				URL string `json:"url"`
			} `json:"config"`
		} `json:"nodes"`
	}
	if err := json.Unmarshal(raw, &wf); err != nil {
		t.Fatal(err)
	}
	for _, n := range wf.Nodes {
		if n.Type == d.nodeType && strings.TrimSuffix(n.Config.URL, "/") != d.defaultURL {
			t.Fatalf("%s points a %s node at %s, but `workrun %s` serves at %s by default", filepath.Base(example), d.nodeType, n.Config.URL, d.name, d.defaultURL)
		}
	}
	url, stderr := runDemoCommand(t, d.name)
	wantURL := d.defaultURL
	if url == "" && strings.Contains(stderr, "address already in use") {
		t.Logf("%s is held by another process (%s); running a copy of %s against `workrun %s --addr 127.0.0.1:0`",
			d.defaultURL, strings.TrimSpace(stderr), filepath.Base(example), d.name)
		url, stderr = runDemoCommand(t, d.name, "--addr", "127.0.0.1:0")
		if wantURL = url; url != "" {
			example = filepath.Join(t.TempDir(), filepath.Base(example))
			if err := os.WriteFile(example, []byte(strings.ReplaceAll(string(raw), d.defaultURL, url)), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	if url == "" {
		t.Fatalf("workrun %s did not serve: %s", d.name, stderr)
	}
	if url != wantURL {
		t.Fatalf("workrun %s serves at %s, want its default %s", d.name, url, d.defaultURL)
	}
	return example
}

// runDemoCommand starts `workrun <name> args…` in this process until the
// test ends and returns the URL it printed, or "" and its stderr when it
// exited first.
func runDemoCommand(t *testing.T, name string, args ...string) (url, stderrText string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	stdio := Stdio{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Main(ctx, append([]string{"--data-dir", t.TempDir(), name}, args...), stdio, Deps{Version: "test"})
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if url, _, _ = strings.Cut(stdout.String(), "\n"); url != "" {
			return url, ""
		}
		select {
		case <-done:
			return "", stderr.String()
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("workrun %s %v printed no URL in 10s: %s", name, args, stderr.String())
		}
	}
}
