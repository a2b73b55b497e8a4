package cli

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"workrun/a2a/demoagent"
	"workrun/nodes/remoteagent"
)

// TestAnswerRemoteAgent_CLI: headless, against the built-in demo agent
// (the official a2a-go server). `workrun run` of an agent that asks twice
// ends "interrupted" (exit 3) with the question and how to answer it;
// `workrun answer RUN NODE TEXT` sends round 1 to the same task, the agent
// asks again, `show` prints round 2; the second answer completes the task
// with both answers. Each answer reaches the agent once, the business
// message once, nothing is cancelled (docs/remote-agent.md R8).
func TestAnswerRemoteAgent_CLI(t *testing.T) {
	agent := demoagent.New(demoagent.Options{})
	ts := httptest.NewServer(agent.Handler())
	t.Cleanup(func() { agent.Close(); ts.Close() })
	wf := fmt.Sprintf(`{"name":"ask","state":{"q":"text","a":"text"},"nodes":[{"id":"start","type":"start"},
		{"id":"ra","type":"remote_agent","config":{"url":%q,"inputs":["q"],"output":"a","timeout_seconds":10}},
		{"id":"out","type":"output","config":{"fields":["a"]}}],
		"edges":[{"from":"start","to":"ra"},{"from":"ra","to":"out"}]}`, ts.URL)
	f := filepath.Join(t.TempDir(), "wf.json")
	if err := os.WriteFile(f, []byte(wf), 0o600); err != nil {
		t.Fatal(err)
	}
	dir, deps := t.TempDir(), artifactDeps()
	res := runMain(t, []string{"--data-dir", dir, "run", f, "--input", "q=input 2"}, nil, deps)
	out := res.Stdout + res.Stderr
	if res.Code != ExitInterrupted || !strings.Contains(out, demoagent.InputText) || !strings.Contains(out, "workrun answer ") {
		t.Fatalf("run: exit %d\n%s", res.Code, out)
	}
	js := runMain(t, []string{"--data-dir", dir, "runs", "--json"}, nil, deps)
	id := between(js.Stdout, `"id": "`, `"`)
	if id == "" {
		t.Fatalf("no run id in %s", js.Stdout)
	}

	res = runMain(t, []string{"--data-dir", dir, "answer", id, "ra", "blue"}, nil, deps)
	if res.Code != ExitInterrupted {
		t.Fatalf("answer round 1: exit %d\n%s%s", res.Code, res.Stdout, res.Stderr)
	}
	show := runMain(t, []string{"--data-dir", dir, "show", id}, nil, deps)
	if !strings.Contains(show.Stdout, "(question 2 of 2)") || !strings.Contains(show.Stdout, "round 2") {
		t.Fatalf("show after round 1:\n%s", show.Stdout)
	}
	res = runMain(t, []string{"--data-dir", dir, "answer", id, "ra", "large"}, nil, deps)
	if res.Code != ExitOK || !strings.Contains(res.Stdout+res.Stderr, "blue | large") {
		t.Fatalf("answer round 2: exit %d\n%s%s", res.Code, res.Stdout, res.Stderr)
	}
	stats := agent.Stats()
	for round := 1; round <= 2; round++ {
		if n := stats.Submissions[remoteagent.MessageID(id, "ra", fmt.Sprintf("send/answer-%d", round))]; n != 1 {
			t.Errorf("round %d's answer reached the agent %d times", round, n)
		}
	}
	if stats.Submissions[remoteagent.MessageID(id, "ra", "send")] != 1 || len(stats.Cancels) != 0 {
		t.Errorf("submissions %v cancels %v", stats.Submissions, stats.Cancels)
	}
}

// between is the text of s after the first from, up to to.
func between(s, from, to string) string {
	_, rest, ok := strings.Cut(s, from)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, to)
	return v
}
