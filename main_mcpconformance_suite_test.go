package main

import (
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
	"sync"
	"testing"
	"time"
)

// How TestMCPConformanceClient runs the suite, sized for two shared cores:
// one suite process per revision (`conformance client --requirements REV`,
// both revisions at once) runs all of that revision's scenarios, instead of
// one suite process per scenario — a suite process costs about a CPU second
// to start, which was most of the test's CPU time. The suite starts every
// scenario's client at once and runs one command for all, so the command is
// a small script that waits for its scenario's slot (a blocking flock
// on one of conformanceSlots files shared by both revisions), picks the table's command by
// MCP_CONFORMANCE_SCENARIO (the suite sets it) and records the client's exit
// status: at most conformanceSlots scenarios are active at a time, as
// before, so a loaded machine slows the run down but does not starve a
// scenario. The suite's own verdict for a scenario is its checks; a
// scenario whose checks all pass but whose client exited non-zero or was
// killed at the timeout is run again on its own, where the suite's
// single-scenario verdict ("OVERALL: PASSED") also judges the exit (some
// scenarios expect the client to fail).

// conformanceSlots is how many scenario clients run at a time.
const conformanceSlots = 2

// conformanceTimeout bounds one scenario's client command, its wait for a
// slot included (the suite starts the clock when it starts the command).
const conformanceTimeout = 10 * time.Minute

// runClientRequirements runs the required client scenarios of each
// revision (required: revision → scenarios) with the suite, the client
// command of each from expectationFor, and returns one outcome per scenario
// in revisions' order.
func runClientRequirements(ctx context.Context, t *testing.T, node, cli, bin string, revisions []string, required map[string][]string, work string) []scenarioOutcome {
	t.Helper()
	slots := filepath.Join(work, "slots")
	if err := os.MkdirAll(slots, 0o755); err != nil {
		t.Fatal(err)
	}
	outs := make([]string, len(revisions))
	tooks := make([]time.Duration, len(revisions))
	var wg sync.WaitGroup
	first := 0 // the slots alternate over both revisions' scenarios
	for i, rev := range revisions {
		dir := filepath.Join(work, rev)
		if err := os.MkdirAll(filepath.Join(dir, "rc"), 0o755); err != nil {
			t.Fatal(err)
		}
		script := filepath.Join(dir, "client.sh")
		if err := os.WriteFile(script, []byte(clientScript(bin, slots, filepath.Join(dir, "rc"), first, required[rev])), 0o755); err != nil {
			t.Fatal(err)
		}
		first += len(required[rev])
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			outs[i] = runSuite(ctx, node, cli, "--command", script, "--requirements", rev,
				"--timeout", strconv.Itoa(int(conformanceTimeout.Milliseconds())), "-o", filepath.Join(dir, "results"))
			tooks[i] = time.Since(start)
		}()
	}
	wg.Wait()
	var outcomes []scenarioOutcome
	var again []int // outcomes to judge by a run of their own
	for i, rev := range revisions {
		t.Logf("suite run for %s: %d required scenarios in %.1fs", rev, len(required[rev]), tooks[i].Seconds())
		dir := filepath.Join(work, rev)
		for _, s := range required[rev] {
			o := scenarioOutcome{revision: rev, scenario: s, took: tooks[i]}
			res := filepath.Join(dir, "results")
			o.checks, o.failures, o.warnings, o.warningText = checkCounts(res, s)
			rc, rcErr := os.ReadFile(filepath.Join(dir, "rc", rcName(s)))
			switch {
			case o.checks == 0:
				o.output = "the scenario ran no check:\n" + clientLog(res, s) + lastLines(outs[i], 20)
			case o.failures > 0:
				o.output = failedChecks(res, s) + clientLog(res, s)
			case rcErr == nil && strings.TrimSpace(string(rc)) == "0":
				o.passed = true
			default:
				again = append(again, len(outcomes))
			}
			outcomes = append(outcomes, o)
		}
	}
	// Checks passed but the client failed or hung: the suite's
	// single-scenario verdict judges the exit too.
	sem := make(chan struct{}, conformanceSlots)
	for _, j := range again {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			o := outcomes[j]
			outcomes[j] = runOneScenario(ctx, node, cli, bin, o.revision, o.scenario, filepath.Join(work, o.revision, "single"))
		}()
	}
	wg.Wait()
	return outcomes
}

// runOneScenario runs one scenario in its own suite process; passed is the
// suite's "OVERALL: PASSED".
func runOneScenario(ctx context.Context, node, cli, bin, revision, scenario, out string) scenarioOutcome {
	start := time.Now()
	got := runSuite(ctx, node, cli, "--command", clientCommand(bin, scenario), "--scenario", scenario,
		"--spec-version", revision, "--timeout", strconv.Itoa(int(conformanceTimeout.Milliseconds())), "-o", out)
	o := scenarioOutcome{revision: revision, scenario: scenario, output: got, took: time.Since(start)}
	o.checks, o.failures, o.warnings, o.warningText = checkCounts(out, scenario)
	o.passed = o.checks > 0 && o.failures == 0 && strings.Contains(got, "OVERALL: PASSED")
	return o
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

// clientScript is the one client command of a suite run: it waits for
// the scenario's slot (a blocking flock on slot file first+i mod
// conformanceSlots in slots, for the i-th scenario; no polling), runs the
// scenario's command with the server URL the suite appends, and writes the
// exit status to rcDir/rcName(scenario).
func clientScript(bin, slots, rcDir string, first int, scenarios []string) string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n# Written by TestMCPConformanceClient: one command per scenario, conformanceSlots at a time.\n")
	b.WriteString("case \"$MCP_CONFORMANCE_SCENARIO\" in\n")
	for i, s := range scenarios {
		// 9>&-: the slot is held by this shell, not by the client's processes.
		fmt.Fprintf(&b, "%s) exec 9>%s/slot%d; flock 9; %s \"$@\" 9>&- ;;\n",
			shellQuote(s), shellQuote(slots), (first+i)%conformanceSlots, clientCommand(bin, s))
	}
	fmt.Fprintf(&b, "*) echo \"client.sh: no command for scenario $MCP_CONFORMANCE_SCENARIO\" >&2; exit 2 ;;\nesac\nrc=$?\n")
	fmt.Fprintf(&b, "printf '%%s' \"$rc\" > %s/\"$(printf '%%s' \"$MCP_CONFORMANCE_SCENARIO\" | tr / _)\"\nexit $rc\n", shellQuote(rcDir))
	return b.String()
}

func rcName(scenario string) string { return strings.ReplaceAll(scenario, "/", "_") }

// checkCounts reads the scenario's checks.json under results (countChecks).
func checkCounts(results, scenario string) (checks, failures, warnings int, text string) {
	b, err := os.ReadFile(filepath.Join(resultDir(results, scenario), "checks.json"))
	if err != nil {
		return 0, 0, 0, ""
	}
	return countChecks(b)
}

// countChecks counts the checks of a checks.json that ran: SUCCESS,
// FAILURE and WARNING. The suite's INFO entries (requests it saw, answers
// it sent) and SKIPPED checks judge nothing, so a scenario with only those
// ran no check and does not pass. It also returns the warnings' texts.
func countChecks(b []byte) (checks, failures, warnings int, text string) {
	var list []struct {
		Name, Status, ErrorMessage, Description string
	}
	if json.Unmarshal(b, &list) != nil {
		return 0, 0, 0, ""
	}
	for _, c := range list {
		switch c.Status {
		case "SUCCESS":
			checks++
		case "FAILURE":
			checks++
			failures++
		case "WARNING":
			checks++
			warnings++
			text += "; warning " + c.Name + ": " + cmp.Or(c.ErrorMessage, c.Description)
		}
	}
	return checks, failures, warnings, text
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

// TestCountChecks: only checks that judge count; a checks.json of INFO and
// SKIPPED entries ran no check (TestMCPConformanceClient fails such a
// scenario instead of passing it with "N/N").
func TestCountChecks(t *testing.T) {
	for _, tc := range []struct {
		name                       string
		json                       string
		checks, failures, warnings int
	}{
		{"info only", `[{"status":"INFO"},{"status":"INFO"},{"status":"SKIPPED"}]`, 0, 0, 0},
		{"mixed", `[{"status":"INFO"},{"status":"SUCCESS"},{"status":"FAILURE"},{"status":"WARNING","name":"w","errorMessage":"late"},{"status":"SKIPPED"}]`, 3, 1, 1},
		{"not JSON", `{`, 0, 0, 0},
	} {
		c, f, w, text := countChecks([]byte(tc.json))
		if c != tc.checks || f != tc.failures || w != tc.warnings {
			t.Errorf("%s: %d checks, %d failures, %d warnings; want %d, %d, %d", tc.name, c, f, w, tc.checks, tc.failures, tc.warnings)
		}
		if tc.warnings > 0 && !strings.Contains(text, "w: late") {
			t.Errorf("%s: warning text %q", tc.name, text)
		}
	}
}
