package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// servedMCPScenarios are the conformance suite's server scenarios that
// apply to `workrun serve` (a tool server whose tools are the published
// workflows of testdata/servemcp), per revision; each must run at least one
// check and fail none (besides notApplicableChecks). The tasks-* scenarios
// of the Tasks extension are forced.
var servedMCPScenarios = map[string][]string{
	"2026-07-28": {
		"server-stateless", "tools-list", "tools-call-simple-text", "tools-call-error", "tools-call-with-progress",
		"server-sse-multiple-streams", "dns-rebinding-protection", "http-header-validation",
		"input-required-result-basic-elicitation", "input-required-result-missing-input-response",
		"input-required-result-result-type", "input-required-result-unsupported-methods",
		"input-required-result-ignore-extra-params", "input-required-result-validate-input",
		"tasks-lifecycle", "tasks-capability-negotiation", "tasks-wire-fields", "tasks-request-state-removal",
		"tasks-mrtr-input", "tasks-request-headers", "tasks-dispatch-and-envelope", "tasks-mrtr-composition",
	},
	"2025-11-25": {
		"server-initialize", "server-session-lifecycle", "ping", "tools-list", "tools-call-simple-text", "tools-call-error",
		"tools-call-with-progress", "server-sse-multiple-streams", "dns-rebinding-protection",
	},
}

// servedMCPNotApplicable are the requirement sets' other server scenarios,
// and why they do not apply to workflows served as tools.
var servedMCPNotApplicable = map[string]string{
	"completion-complete":                           "no prompts or resource templates to complete",
	"tools-call-image":                              "a workflow's outputs are State fields: text/JSON content only (no image fixture)",
	"tools-call-audio":                              "as tools-call-image: no audio content",
	"tools-call-embedded-resource":                  "no resources",
	"tools-call-mixed-content":                      "no image or resource content",
	"tools-call-with-logging":                       "no logging capability (node messages go as progress)",
	"logging-set-level":                             "no logging capability",
	"tools-call-sampling":                           "no node kind asks the caller's model (sampling)",
	"tools-call-elicitation":                        "its fixture answers a fixed form {username, email}; our questions have their own forms",
	"elicitation-sep1034-defaults":                  "fixture form with defaults of its own",
	"elicitation-sep1330-enums":                     "fixture form with enums of its own",
	"resources-list":                                "no resources",
	"resources-read-text":                           "no resources",
	"resources-read-binary":                         "no resources",
	"resources-templates-read":                      "no resources",
	"resources-subscribe":                           "no resources",
	"resources-unsubscribe":                         "no resources",
	"prompts-list":                                  "no prompts",
	"prompts-get-simple":                            "no prompts",
	"prompts-get-with-args":                         "no prompts",
	"prompts-get-embedded-resource":                 "no prompts",
	"prompts-get-with-image":                        "no prompts",
	"caching":                                       "its checks need prompts/list and resources/list",
	"json-schema-2020-12":                           "needs its fixture tool json_schema_2020_12_tool with a $defs schema no workflow's fields make",
	"server-sse-polling":                            "runs 0 checks without its fixture tool test_reconnection",
	"input-required-result-basic-sampling":          "sampling: no node kind asks the caller's model",
	"input-required-result-basic-list-roots":        "roots: no node kind asks for roots",
	"input-required-result-request-state":           "fixture tool with two rounds of its own",
	"input-required-result-multiple-input-requests": "a run waits on one question at a time",
	"input-required-result-multi-round":             "fixture tool with rounds of its own",
	"input-required-result-non-tool-request":        "input_required on prompts/get: no prompts",
	"input-required-result-tampered-state":          "our requestState is the caller's task id (checked against the caller), not a signed blob the fixture tampers with",
	"input-required-result-capability-check":        "sampling capability of a fixture tool",
	"http-custom-header-server-validation":          "x-mcp-header parameters: no workflow input declares one",
	"sep-2164-resource-not-found":                   "resources/read: no resources (answered -32601)",
	"tasks-status-notifications":                    "the suite runs 0 checks (its scenario awaits a rewrite for subscriptions/listen, which serve serves: TestModernListenTaskStatus)",
	"sep-2640-skills-directory":                     "skills extension: not offered",
	"sep-2640-skills-enumeration":                   "skills extension: not offered",
	"sep-2640-skills-manifest":                      "skills extension: not offered",
}

// notApplicableChecks are single checks of judged scenarios that need a
// fixture tool no workflow can be, with why.
var notApplicableChecks = map[string]string{
	"sep-2575-server-rejects-undeclared-capability":  "needs test_missing_capability, a tool that requires sampling; no node kind samples",
	"sep-2575-missing-capability-http-400":           "as above",
	"sep-2663-tasks-get-status-failed":               "needs protocol_error_job, a tool failing with a JSON-RPC error; a failing workflow is a tool execution error (isError)",
	"tasks-mrtr-partial-fulfillment":                 "needs multi_input, two questions at once; a run waits on one question at a time",
	"sep-2663-mrtr-synchronous-before-task-creation": "needs test_tool_with_task, which asks before it becomes a task; a run asks only once it runs, and a tasks caller gets the task",
}

// TestServeMCPConformance runs the official MCP conformance suite's server
// scenarios against a real `workrun serve` (the workflows of
// testdata/servemcp published as tools), both revisions, and judges each
// applicable scenario by its checks.json: at least one check, none failed.
func TestServeMCPConformance(t *testing.T) {
	node, cli := conformanceSuite(t)
	bin := buildWorkrun(t)
	flows, err := filepath.Glob(filepath.Join("testdata", "servemcp", "*.json"))
	if err != nil || len(flows) == 0 {
		t.Fatalf("no fixture workflows: %v", err)
	}
	s := startServe(t, bin, t.TempDir(), flows...)
	var url string
	for _, u := range s.urls {
		url = u[:strings.Index(u, "/a2a/")] + "/mcp"
	}
	results := t.TempDir()
	type job struct{ rev, scenario string }
	var jobs []job
	for rev, list := range servedMCPScenarios {
		for _, sc := range list {
			jobs = append(jobs, job{rev, sc})
		}
	}
	sort.Slice(jobs, func(i, j int) bool { return jobs[i].rev+jobs[i].scenario < jobs[j].rev+jobs[j].scenario })
	var mu sync.Mutex
	var lines []string
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			out := filepath.Join(results, j.rev, j.scenario)
			ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
			defer cancel()
			args := []string{cli, "server", "--url", url, "--scenario", j.scenario, "--spec-version", j.rev, "-o", out}
			if strings.HasPrefix(j.scenario, "tasks-") {
				args = append(args, "--force")
			}
			cmd := exec.CommandContext(ctx, node, args...)
			cmd.Env = append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0")
			log, _ := cmd.CombinedOutput() // its exit status is the verdict it prints; judged by checks.json below
			checks, failed := judgeChecks(t, out)
			mu.Lock()
			defer mu.Unlock()
			lines = append(lines, fmt.Sprintf("%s %s: %d checks, %d failed", j.rev, j.scenario, len(checks), len(failed)))
			if len(checks) == 0 || len(failed) > 0 {
				t.Errorf("%s %s: %d checks, failed: %s\n%s", j.rev, j.scenario, len(checks), strings.Join(failed, "; "), lastLines(string(log), 30))
			}
		})
	}
	wg.Wait()
	slices.Sort(lines)
	t.Logf("conformance server scenarios against workrun serve:\n%s", strings.Join(lines, "\n"))
	t.Logf("not applicable: %d scenarios (servedMCPNotApplicable), %d single checks (notApplicableChecks)", len(servedMCPNotApplicable), len(notApplicableChecks))
}

// judgeChecks reads the scenario's checks.json under dir: the checks run
// and the failures that count.
func judgeChecks(t *testing.T, dir string) (checks, failed []string) {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "*", "checks.json"))
	if len(m) == 0 {
		return nil, []string{"no checks.json"}
	}
	b, err := os.ReadFile(m[0])
	if err != nil {
		return nil, []string{err.Error()}
	}
	var list []struct {
		ID, Status, ErrorMessage string
	}
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, []string{err.Error()}
	}
	for _, c := range list {
		if c.Status == "SKIPPED" || c.Status == "INFO" {
			continue
		}
		checks = append(checks, c.ID)
		if (c.Status == "FAILURE" || c.Status == "WARNING") && notApplicableChecks[c.ID] == "" {
			failed = append(failed, c.ID+": "+c.ErrorMessage)
		}
	}
	return checks, failed
}
