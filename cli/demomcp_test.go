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

// startDemoMCPCommand runs `workrun demo-mcp` until the test ends and
// returns the workflow file to run against it. The example's Remote MCP
// nodes must name the command's default address; when another process holds
// it, a temporary copy of the example is pointed at a free port instead
// (examples/ is never edited).
func startDemoMCPCommand(t *testing.T, example string) string {
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
	defaultURL := "http://" + DemoMCPAddr + "/mcp"
	for _, n := range wf.Nodes {
		if n.Type == "remote_mcp" && n.Config.URL != defaultURL {
			t.Fatalf("%s points a Remote MCP node at %s, but `workrun demo-mcp` serves at %s by default", filepath.Base(example), n.Config.URL, defaultURL)
		}
	}
	url, stderr := runDemoMCPCommand(t)
	if url == "" && strings.Contains(stderr, "address already in use") {
		t.Logf("%s is held by another process; running a copy of %s against `workrun demo-mcp --addr 127.0.0.1:0`", DemoMCPAddr, filepath.Base(example))
		url, stderr = runDemoMCPCommand(t, "--addr", "127.0.0.1:0")
		if url != "" {
			example = filepath.Join(t.TempDir(), filepath.Base(example))
			if err := os.WriteFile(example, []byte(strings.ReplaceAll(string(raw), defaultURL, url)), 0o600); err != nil {
				t.Fatal(err)
			}
			return example
		}
	}
	if url == "" {
		t.Fatalf("workrun demo-mcp did not serve: %s", stderr)
	}
	if url != defaultURL {
		t.Fatalf("workrun demo-mcp serves at %s, want its default %s", url, defaultURL)
	}
	return example
}

// runDemoMCPCommand starts `workrun demo-mcp args…` in this process until the
// test ends and returns the URL it printed, or "" and its stderr.
func runDemoMCPCommand(t *testing.T, args ...string) (url, stderrText string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	stdio := Stdio{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Main(ctx, append([]string{"--data-dir", t.TempDir(), "demo-mcp"}, args...), stdio, Deps{Version: "test"})
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
			t.Fatalf("workrun demo-mcp %v printed no URL in 10s: %s", args, stderr.String())
		}
	}
}

// TestCheckMCPListsTheDemoTools: check-mcp against demo-mcp lists the tools
// with their task support and calls none.
func TestCheckMCPListsTheDemoTools(t *testing.T) {
	url, stderr := runDemoMCPCommand(t, "--addr", "127.0.0.1:0")
	if url == "" {
		t.Fatal(stderr)
	}
	res := runMain(t, []string{"--data-dir", t.TempDir(), "check-mcp", url}, nil, Deps{Version: "test"})
	if res.Code != ExitOK {
		t.Fatalf("exit %d: %s %s", res.Code, res.Stdout, res.Stderr)
	}
	for _, want := range []string{"workrun-demo-mcp", "research", "task optional", "hang", "task required", "echo", "io.modelcontextprotocol/tasks extension", "no tool was called"} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, res.Stdout)
		}
	}
	res = runMain(t, []string{"--data-dir", t.TempDir(), "check-mcp", "--json", url}, nil, Deps{Version: "test"})
	var out struct {
		OK    bool `json:"ok"`
		Tools []struct {
			Name        string `json:"name"`
			TaskSupport string `json:"task_support"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(res.Stdout), &out); err != nil || !out.OK || len(out.Tools) != 8 {
		t.Errorf("json: %v %+v\n%s", err, out, res.Stdout)
	}
	res = runMain(t, []string{"--data-dir", t.TempDir(), "check-mcp", "http://127.0.0.1:1/mcp"}, nil, Deps{Version: "test"})
	if res.Code != ExitFailed || !strings.Contains(res.Stderr, "check-mcp") {
		t.Errorf("unreachable server: exit %d %s", res.Code, res.Stderr)
	}
	res = runMain(t, []string{"--data-dir", t.TempDir(), "check-mcp"}, nil, Deps{Version: "test"})
	if res.Code == ExitOK {
		t.Error("no URL accepted")
	}
}
