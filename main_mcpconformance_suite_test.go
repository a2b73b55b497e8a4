package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// How TestMCPConformanceClient runs the suite, sized for two shared cores:
// one suite process per revision (`conformance client --requirements REV`)
// runs all of that revision's scenarios, instead of one suite process per
// scenario — a suite process costs about a CPU second to start, which was
// most of the test's CPU time (docs/remote-mcp.md "Conformance"). The
// suite runs one command for every scenario, so the command is a small
// script that picks the table's command by MCP_CONFORMANCE_SCENARIO (the
// suite sets it) and records the client's exit status. The suite's own
// verdict for a scenario is its checks; a scenario whose checks all pass
// but whose client exited non-zero or was killed at the timeout is run
// again on its own, where the suite's single-scenario verdict ("OVERALL:
// PASSED") also judges the exit (some scenarios expect the client to fail).

// conformanceTimeout bounds one scenario's client command. It is generous
// because a revision's scenarios run at the same time on a loaded machine;
// a scenario that passes takes seconds.
const conformanceTimeout = 120 * time.Second

// runClientRequirements runs the required client scenarios of revision
// with the suite, the client command of each from expectationFor, and
// returns one outcome per scenario in required.
func runClientRequirements(ctx context.Context, t *testing.T, node, cli, bin, revision string, required []string, work string) []scenarioOutcome {
	t.Helper()
	dir := filepath.Join(work, revision)
	rcDir := filepath.Join(dir, "rc")
	if err := os.MkdirAll(rcDir, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "client.sh")
	if err := os.WriteFile(script, []byte(clientScript(bin, rcDir, required)), 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out := runSuite(ctx, node, cli, "--command", script, "--requirements", revision,
		"--timeout", strconv.Itoa(int(conformanceTimeout.Milliseconds())), "-o", filepath.Join(dir, "results"))
	took := time.Since(start)
	t.Logf("suite run for %s: %d required scenarios in %.1fs", revision, len(required), took.Seconds())
	checked := suiteSummary(out)
	outcomes := make([]scenarioOutcome, 0, len(required))
	for _, s := range required {
		o := scenarioOutcome{revision: revision, scenario: s, took: took}
		passed, ran := checked[s]
		rc, rcErr := os.ReadFile(filepath.Join(rcDir, rcName(s)))
		switch {
		case !ran:
			o.output = "the suite reported nothing for this scenario:\n" + lastLines(out, 40)
		case !passed:
			o.output = failedChecks(filepath.Join(dir, "results"), s) + clientLog(filepath.Join(dir, "results"), s)
		case rcErr == nil && strings.TrimSpace(string(rc)) == "0":
			o.passed = true
		default:
			// Checks passed but the client failed or hung: let the
			// suite's single-scenario verdict judge the exit too.
			o = runOneScenario(ctx, node, cli, bin, revision, s, filepath.Join(dir, "single"))
		}
		outcomes = append(outcomes, o)
	}
	return outcomes
}

// runOneScenario runs one scenario in its own suite process; passed is the
// suite's "OVERALL: PASSED".
func runOneScenario(ctx context.Context, node, cli, bin, revision, scenario, out string) scenarioOutcome {
	start := time.Now()
	got := runSuite(ctx, node, cli, "--command", clientCommand(bin, scenario), "--scenario", scenario,
		"--spec-version", revision, "--timeout", strconv.Itoa(int(conformanceTimeout.Milliseconds())), "-o", out)
	return scenarioOutcome{revision, scenario, strings.Contains(got, "OVERALL: PASSED"), got, time.Since(start)}
}

// runSuite runs `conformance client ARGS…` and returns what it printed
// (an exit status of its own is in the text: its verdicts are read there).
func runSuite(ctx context.Context, node, cli string, args ...string) string {
	cmd := exec.CommandContext(ctx, node, append([]string{cli, "client"}, args...)...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		out = append(out, fmt.Sprintf("\n(conformance client: %v)", err)...)
	}
	return string(out)
}

func clientCommand(bin, scenario string) string {
	if c := expectationFor(scenario).Command; c != nil {
		return c(bin)
	}
	return bin + " mcp-conformance-client"
}

// clientScript is the one client command of a suite run: it runs the
// scenario's command with the server URL the suite appends, and writes the
// exit status to rcDir/rcName(scenario).
func clientScript(bin, rcDir string, scenarios []string) string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n# Written by TestMCPConformanceClient: one command per scenario.\ncase \"$MCP_CONFORMANCE_SCENARIO\" in\n")
	for _, s := range scenarios {
		fmt.Fprintf(&b, "%s) %s \"$@\" ;;\n", shellQuote(s), clientCommand(bin, s))
	}
	fmt.Fprintf(&b, "*) echo \"client.sh: no command for scenario $MCP_CONFORMANCE_SCENARIO\" >&2; exit 2 ;;\nesac\nrc=$?\n")
	fmt.Fprintf(&b, "printf '%%s' \"$rc\" > %s/\"$(printf '%%s' \"$MCP_CONFORMANCE_SCENARIO\" | tr / _)\"\nexit $rc\n", shellQuote(rcDir))
	return b.String()
}

func rcName(scenario string) string { return strings.ReplaceAll(scenario, "/", "_") }

// suiteSummary reads the suite's "=== SUITE SUMMARY ===" lines
// ("✓ NAME: …" when every check passed without warnings, "✗ NAME: …").
func suiteSummary(out string) map[string]bool {
	got := map[string]bool{}
	_, summary, ok := strings.Cut(out, "=== SUITE SUMMARY ===")
	if !ok {
		return got
	}
	sc := bufio.NewScanner(strings.NewReader(summary))
	for sc.Scan() {
		line := sc.Text()
		for mark, passed := range map[string]bool{"✓ ": true, "✗ ": false} {
			if rest, ok := strings.CutPrefix(line, mark); ok {
				if name, _, ok := strings.Cut(rest, ": "); ok {
					got[name] = passed
				}
			}
		}
	}
	return got
}

// resultDir is the suite's result directory of scenario under results
// ("<scenario>-<timestamp>").
func resultDir(results, scenario string) string {
	m, _ := filepath.Glob(filepath.Join(results, scenario+"-*"))
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1]
}

// failedChecks lists the scenario's failed checks and warnings from its
// checks.json.
func failedChecks(results, scenario string) string {
	d := resultDir(results, scenario)
	b, err := os.ReadFile(filepath.Join(d, "checks.json"))
	if err != nil {
		return fmt.Sprintf("no checks.json for %s: %v\n", scenario, err)
	}
	var checks []struct {
		Name, Status, ErrorMessage, Description string
	}
	if err := json.Unmarshal(b, &checks); err != nil {
		return fmt.Sprintf("checks.json of %s: %v\n", scenario, err)
	}
	var out bytes.Buffer
	for _, c := range checks {
		if c.Status == "FAILURE" || c.Status == "WARNING" {
			fmt.Fprintf(&out, "  %s %s: %s\n", c.Status, c.Name, cmp.Or(c.ErrorMessage, c.Description))
		}
	}
	return out.String()
}

// clientLog is the end of what the scenario's client printed.
func clientLog(results, scenario string) string {
	d := resultDir(results, scenario)
	var out strings.Builder
	for _, f := range []string{"stdout.txt", "stderr.txt"} {
		if b, err := os.ReadFile(filepath.Join(d, f)); err == nil && len(bytes.TrimSpace(b)) > 0 {
			fmt.Fprintf(&out, "client %s:\n%s\n", f, lastLines(string(b), 20))
		}
	}
	return out.String()
}
