package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	// npmDir: the example starts an npm package with npx; it runs in this
	// folder (relative to the repository), whose package-lock.json pins it
	// and where scripts/test.sh ran npm ci, offline.
	npmDir string
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
	"tool-app.json": {inputs: []string{"--input", "name=Ada"}, want: ExitOK,
		stdout: "[end] answer: Echo: Hello, Ada!", npmDir: "mcp/testdata/everything"},
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
				f = startDemoCommand(t, f, demoAgentCommand)
			}
			if ex.demoMCP {
				f = startDemoCommand(t, f, demoMCPCommand)
			}
			if ex.npmDir != "" {
				abs, err := filepath.Abs(f)
				if err != nil {
					t.Fatal(err)
				}
				f = abs
				if _, err := os.Stat(filepath.Join("..", ex.npmDir, "node_modules")); err != nil {
					t.Fatalf("examples/%s needs `npm ci` in %s (scripts/test.sh runs it): %v", name, ex.npmDir, err)
				}
				t.Chdir(filepath.Join("..", ex.npmDir))
				t.Setenv("npm_config_offline", "true")
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
