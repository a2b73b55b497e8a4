package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"workrun/workrun"
)

// TestShowIncludesRemoteTasksAndArtifacts: `workrun show`
// lists the run's Remote Agent call records and its artifacts — those its
// nodes made (even when no State field refers to them) and its input files.
func TestShowIncludesRemoteTasksAndArtifacts(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	st, arts := openDataDir(t, dir)
	input, err := arts.Put(ctx, "question.txt", "text/plain", strings.NewReader("why?"), "", "")
	if err != nil {
		t.Fatal(err)
	}
	r := workrun.Run{ID: "run-1", WorkflowName: "ask", Status: workrun.RunFailed, FailedNode: "ra", Reason: "agent failed",
		Workflow: workrun.Workflow{Name: "ask", State: map[string]workrun.FieldType{"doc": workrun.FieldFile},
			Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "ra", Type: "remote_agent"}},
			Edges: []workrun.Edge{{From: "start", To: "ra"}}},
		Inputs: workrun.Values{"doc": input.ID}, CreatedAt: time.Now()}
	if err := st.CreateRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	made, err := arts.Put(ctx, "partial.txt", "text/plain", strings.NewReader("half an answer"), "run-1", "ra")
	if err != nil {
		t.Fatal(err)
	}
	call := workrun.RemoteCall{RunID: "run-1", NodeID: "ra", CallKey: "0", AgentURL: "http://127.0.0.1:41241/",
		Origin: "http://127.0.0.1:41241", MessageID: "m-1", TaskID: "t-1", ContextID: "c-1",
		RemoteState: "TASK_STATE_FAILED", StatusText: "the agent gave up", CancelOutcome: "not_needed", Ended: true}
	if err := st.SaveRemoteCall(ctx, call); err != nil {
		t.Fatal(err)
	}
	st.Close()

	res := runMain(t, []string{"--data-dir", dir, "show", "--json", "run-1"}, nil, artifactDeps())
	if res.Code != ExitOK {
		t.Fatalf("show: exit %d\n%s", res.Code, res.Stderr)
	}
	var shown shownRun
	if err := json.Unmarshal([]byte(res.Stdout), &shown); err != nil {
		t.Fatalf("show --json: %v\n%s", err, res.Stdout)
	}
	if len(shown.RemoteCalls) != 1 {
		t.Fatalf("remote calls %+v", shown.RemoteCalls)
	}
	c := shown.RemoteCalls[0]
	if c.TaskID != "t-1" || c.MessageID != "m-1" || c.Origin != call.Origin || c.RemoteState != call.RemoteState ||
		c.StatusText != call.StatusText || c.CancelOutcome != "not_needed" || !c.Ended || c.HasResult {
		t.Errorf("remote call %+v", c)
	}
	var names []string
	for _, a := range shown.Artifacts {
		names = append(names, a.ID+"="+a.Name)
	}
	want := []string{made.ID + "=partial.txt", input.ID + "=question.txt"}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Errorf("artifacts %v, want %v", names, want)
	}

	res = runMain(t, []string{"--data-dir", dir, "show", "run-1"}, nil, artifactDeps())
	for _, w := range []string{"Remote tasks:", "ra → http://127.0.0.1:41241/ task t-1: TASK_STATE_FAILED (ended); message m-1; cancel: not_needed\n",
		"the agent gave up", "Artifacts:", "partial.txt (text/plain; charset=utf-8, 14 bytes)", "question.txt"} {
		if !strings.Contains(res.Stdout, w) {
			t.Errorf("show lacks %q:\n%s", w, res.Stdout)
		}
	}
}
