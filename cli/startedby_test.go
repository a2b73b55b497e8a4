package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"workrun/workrun"
)

// `workrun runs` and `workrun show` name who started a run — a serve
// caller by its token label — in English and Chinese, and say nothing of
// a run whose starter was not recorded.
func TestRunsAndShowNameStarter(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	st, _ := openDataDir(t, dir)
	wf := workrun.Workflow{Name: "hello", Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}}}
	now := time.Now()
	for _, r := range []workrun.Run{
		{ID: "run-a2a", WorkflowName: "hello", Workflow: wf, Status: workrun.RunSucceeded, CreatedAt: now,
			StartedBy: workrun.StartedBy{Kind: workrun.StartedByA2A, Label: "ci-bot"}},
		{ID: "run-plain", WorkflowName: "hello", Workflow: wf, Status: workrun.RunSucceeded, CreatedAt: now.Add(-time.Second)},
	} {
		if err := st.CreateRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	res := runMain(t, []string{"--data-dir", dir, "runs"}, nil, artifactDeps())
	if res.Code != ExitOK {
		t.Fatalf("runs: exit %d\n%s", res.Code, res.Stderr)
	}
	lines := strings.Split(res.Stdout, "\n")
	if len(lines) < 3 || !strings.Contains(lines[0], "BY") ||
		!strings.Contains(lines[1], "run-a2a") || !strings.Contains(lines[1], "A2A caller (ci-bot)") ||
		!strings.Contains(lines[2], "run-plain") || strings.Contains(lines[2], "caller") {
		t.Errorf("runs:\n%s", res.Stdout)
	}

	res = runMain(t, []string{"--data-dir", dir, "runs", "--json"}, nil, artifactDeps())
	var rows []struct {
		ID        string            `json:"id"`
		StartedBy workrun.StartedBy `json:"started_by"`
	}
	if err := json.Unmarshal([]byte(res.Stdout), &rows); err != nil || len(rows) != 2 {
		t.Fatalf("runs --json %v:\n%s", err, res.Stdout)
	}
	if rows[0].StartedBy != (workrun.StartedBy{Kind: workrun.StartedByA2A, Label: "ci-bot"}) || !rows[1].StartedBy.IsZero() {
		t.Errorf("runs --json started_by: %+v", rows)
	}
	if strings.Count(res.Stdout, "started_by") != 1 {
		t.Errorf("runs --json names a starter for a run without one:\n%s", res.Stdout)
	}

	for lang, want := range map[string]string{"en": "Started by: A2A caller (ci-bot)\n", "zh": "发起者：A2A 调用方（ci-bot）\n"} {
		res = runMain(t, []string{"--data-dir", dir, "show", "--lang", lang, "run-a2a"}, nil, artifactDeps())
		if res.Code != ExitOK || !strings.Contains(res.Stdout, want) {
			t.Errorf("show --lang %s: exit %d, want %q in:\n%s%s", lang, res.Code, want, res.Stdout, res.Stderr)
		}
	}
	res = runMain(t, []string{"--data-dir", dir, "show", "run-plain"}, nil, artifactDeps())
	if res.Code != ExitOK || strings.Contains(res.Stdout, "Started by") {
		t.Errorf("show run-plain: exit %d\n%s", res.Code, res.Stdout)
	}
	res = runMain(t, []string{"--data-dir", dir, "show", "--json", "run-a2a"}, nil, artifactDeps())
	var shown shownRun
	if err := json.Unmarshal([]byte(res.Stdout), &shown); err != nil || shown.Run.StartedBy.Label != "ci-bot" {
		t.Errorf("show --json: %v %+v", err, shown.Run.StartedBy)
	}
}
