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

// exampleRun is how one examples/*.json is run and how it must end, as
// docs/workflow-format.md ("Examples") documents it.
type exampleRun struct {
	inputs []string // after `run FILE`
	want   int      // exit status of `workrun run`
	stdout string   // a line of the run's outcome, in stdout
	// demoAgent: the example calls `workrun demo-agent` on its default
	// address, started as a user would, without options.
	demoAgent bool
	// demoMCP: the example calls `workrun demo-mcp` on its default address.
	demoMCP bool
	// review: the run waits for a Human Review; decide it with the command
	// the run printed, then that command must exit reviewWant with
	// reviewStdout in its output.
	review       string
	reviewWant   int
	reviewStdout string
}

var exampleRuns = map[string]exampleRun{
	"hello.json":           {inputs: []string{"--input", "name=Ada"}, want: ExitOK, stdout: "[end] message: Hello, Ada!"},
	"branches.json":        {inputs: []string{"--input", "score=7"}, want: ExitOK, stdout: "[end] verdict: high (7)"},
	"failing-process.json": {want: ExitFailed, stdout: "failed at node fail"},
	"review.json": {inputs: []string{"--input", "draft=hi"}, want: ExitInterrupted, stdout: "decide with: workrun review ",
		review: "approve", reviewWant: ExitOK, reviewStdout: "[end] published: Published: hi"},
	"remote-agent.json": {inputs: []string{"--input", "question=echo hello from the example"}, want: ExitOK,
		stdout: "[end] answer: echo hello from the example", demoAgent: true},
	"remote-mcp.json": {inputs: []string{"--input", "topic=tides"}, want: ExitOK,
		stdout: "[end] report: Research on tides: 2 stages done.", demoMCP: true},
}

// TestExamplesRunWithDocumentedExitCodes runs every examples/*.json with
// `workrun run` on a fresh data directory (real SQLite store, artifact store,
// the local kinds and the Remote Agent) and checks the documented exit
// status. An example without a row in exampleRuns fails, so a new example is
// covered as soon as it is added.
func TestExamplesRunWithDocumentedExitCodes(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "examples", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples/*.json (%v)", err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		name := filepath.Base(f)
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			ex, ok := exampleRuns[name]
			if !ok {
				t.Fatalf("examples/%s has no row in exampleRuns (cli/examples_test.go) nor in docs/workflow-format.md: say how it is run and how it ends", name)
			}
			if ex.demoAgent {
				f = startDemoAgentCommand(t, f)
			}
			if ex.demoMCP {
				f = startDemoMCPCommand(t, f)
			}
			dir := t.TempDir()
			res := runMain(t, append([]string{"--data-dir", dir, "run", f}, ex.inputs...), nil, artifactDeps())
			if res.Code != ex.want || !strings.Contains(res.Stdout, ex.stdout) {
				t.Fatalf("workrun run %s: exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s", name, res.Code, ex.want, ex.stdout, res.Stdout, res.Stderr)
			}
			if ex.review == "" {
				return
			}
			// Follow the printed instruction: "decide with: workrun review RUN NODE approve|reject".
			_, after, _ := strings.Cut(res.Stdout, "decide with: workrun review ")
			f := strings.Fields(after)
			if len(f) < 2 {
				t.Fatalf("no review command in:\n%s", res.Stdout)
			}
			res = runMain(t, []string{"--data-dir", dir, "review", f[0], f[1], ex.review}, nil, artifactDeps())
			if res.Code != ex.reviewWant || !strings.Contains(res.Stdout, ex.reviewStdout) {
				t.Fatalf("workrun review %s %s %s: exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s",
					f[0], f[1], ex.review, res.Code, ex.reviewWant, ex.reviewStdout, res.Stdout, res.Stderr)
			}
		})
	}
	for name := range exampleRuns {
		if !seen[name] {
			t.Errorf("exampleRuns has a row for examples/%s, which does not exist", name)
		}
	}
}

// startDemoAgentCommand runs `workrun demo-agent` until the test ends and
// returns the workflow file to run against it. Out of the box means: the
// example's Remote Agent nodes name the command's default address
// (DemoAgentAddr), checked always, and the command started with no options
// serves the unchanged example. When another process already holds that
// address (a demo agent a developer left running, say) the test says so in
// its log and runs a temporary copy of the example pointed at a demo-agent
// command on a free port instead; it never edits examples/.
func startDemoAgentCommand(t *testing.T, example string) string {
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
	defaultURL := "http://" + DemoAgentAddr
	for _, n := range wf.Nodes {
		if n.Type == "remote_agent" && strings.TrimSuffix(n.Config.URL, "/") != defaultURL {
			t.Fatalf("%s points a Remote Agent node at %s, but `workrun demo-agent` serves at %s by default", filepath.Base(example), n.Config.URL, defaultURL)
		}
	}
	url, stderr := runDemoAgentCommand(t)
	wantURL := defaultURL
	if url == "" && strings.Contains(stderr, "address already in use") {
		t.Logf("%s is held by another process (%s); running a copy of %s against `workrun demo-agent --addr 127.0.0.1:0`",
			DemoAgentAddr, strings.TrimSpace(stderr), filepath.Base(example))
		url, stderr = runDemoAgentCommand(t, "--addr", "127.0.0.1:0")
		if wantURL = url; url != "" {
			example = filepath.Join(t.TempDir(), filepath.Base(example))
			if err := os.WriteFile(example, []byte(strings.ReplaceAll(string(raw), defaultURL, url)), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	if url == "" {
		t.Fatalf("workrun demo-agent did not serve: %s", stderr)
	}
	if url != wantURL {
		t.Fatalf("workrun demo-agent serves at %s, want its default %s", url, defaultURL)
	}
	return example
}

// runDemoAgentCommand starts `workrun demo-agent args…` in this process until
// the test ends and returns the URL it printed, or "" and its stderr when it
// exited first.
func runDemoAgentCommand(t *testing.T, args ...string) (url, stderrText string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	stdio := Stdio{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Main(ctx, append([]string{"--data-dir", t.TempDir(), "demo-agent"}, args...), stdio, Deps{Version: "test"})
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
			t.Fatalf("workrun demo-agent %v printed no URL in 10s: %s", args, stderr.String())
		}
	}
}
