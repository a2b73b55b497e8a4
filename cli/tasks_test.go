package cli

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"workrun/workrun"
)

// TestTasksListsOpenRemoteWork: `workrun tasks` lists, across runs, every
// remote task still working, left by an interrupted run, with a cancel
// unconfirmed or a submission whose result is unknown — with run, node,
// server, task id and since when — and leaves out what ended and the
// tasks of succeeded runs.
func TestTasksListsOpenRemoteWork(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	st, _ := openDataDir(t, dir)
	t0 := time.Now().Add(-time.Hour)
	runs := []workrun.Run{
		{ID: "run-live", WorkflowName: "A", Status: workrun.RunRunning},
		{ID: "run-int", WorkflowName: "B", Status: workrun.RunInterrupted, Interruption: workrun.InterruptedByExit},
		{ID: "run-failed", WorkflowName: "C", Status: workrun.RunFailed},
		{ID: "run-ok", WorkflowName: "D", Status: workrun.RunSucceeded},
	}
	for i, r := range runs {
		r.Workflow = workrun.Workflow{Name: r.WorkflowName, Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}}}
		r.CreatedAt = t0.Add(time.Duration(i) * time.Minute)
		if err := st.CreateRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	calls := []workrun.RemoteCall{
		{RunID: "run-live", NodeID: "ask", CallKey: "0", AgentURL: "http://127.0.0.1:41241/", TaskID: "t-live", RemoteState: "TASK_STATE_WORKING"},
		{RunID: "run-int", NodeID: "ask", CallKey: "0", AgentURL: "http://127.0.0.1:41241/", TaskID: "t-int"},
		{RunID: "run-failed", NodeID: "ask", CallKey: "0", AgentURL: "https://agent.example.com/", TaskID: "t-unconfirmed", CancelOutcome: "unconfirmed"},
		{RunID: "run-failed", NodeID: "tool", CallKey: "0", AgentURL: "https://mcp.example.com/mcp", CancelOutcome: "submission_unknown"},
		{RunID: "run-failed", NodeID: "done", CallKey: "0", AgentURL: "https://agent.example.com/", TaskID: "t-done", CancelOutcome: "canceled", Ended: true},
		{RunID: "run-ok", NodeID: "ask", CallKey: "0", AgentURL: "https://agent.example.com/", TaskID: "t-ok", Ended: true},
	}
	for _, c := range calls {
		c.Origin, c.MessageID = "x", "m-"+c.RunID+c.NodeID
		if err := st.SaveRemoteCall(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	res := runMain(t, []string{"--data-dir", dir, "tasks", "--json"}, nil, artifactDeps())
	if res.Code != ExitOK {
		t.Fatalf("tasks --json: exit %d\n%s", res.Code, res.Stderr)
	}
	var rows []taskRow
	if err := json.Unmarshal([]byte(res.Stdout), &rows); err != nil {
		t.Fatalf("%v\n%s", err, res.Stdout)
	}
	got := map[string]workrun.OpenState{}
	for _, r := range rows {
		got[r.RunID+"/"+r.Node] = r.State
		if r.Server == "" || r.Since == "" || r.Show != "workrun show "+r.RunID {
			t.Errorf("row %+v lacks its server, since or link to the run", r)
		}
	}
	want := map[string]workrun.OpenState{
		// No process runs it any more: opening the data directory marks
		// the run interrupted (runs never shows a dead run as running).
		"run-live/ask":    workrun.OpenInterrupted,
		"run-int/ask":     workrun.OpenInterrupted,
		"run-failed/ask":  workrun.OpenCancelUnconfirmed,
		"run-failed/tool": workrun.OpenSubmissionUnknown,
	}
	if len(got) != len(want) {
		t.Errorf("listed %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s listed as %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	res = runMain(t, []string{"--data-dir", dir, "tasks"}, nil, artifactDeps())
	for _, want := range []string{"t-live", "t-int", "t-unconfirmed", "cancel unconfirmed", "submission result unknown", "interrupted (run can be resumed)", "https://mcp.example.com/mcp"} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("tasks lacks %q:\n%s", want, res.Stdout)
		}
	}
	if slices.ContainsFunc(strings.Split(res.Stdout, "\n"), func(l string) bool { return strings.Contains(l, "t-done") || strings.Contains(l, "t-ok") }) {
		t.Errorf("tasks lists an ended task:\n%s", res.Stdout)
	}
}
