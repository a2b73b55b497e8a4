package ui

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// fakeArtifacts is a function-field fake of workrun.ArtifactStore.
type fakeArtifacts struct {
	StatFunc func(ctx context.Context, id string) (workrun.ArtifactInfo, error)
}

func (f *fakeArtifacts) Put(context.Context, string, string, io.Reader, string, string) (workrun.ArtifactInfo, error) {
	return workrun.ArtifactInfo{}, nil
}
func (f *fakeArtifacts) Stat(ctx context.Context, id string) (workrun.ArtifactInfo, error) {
	return f.StatFunc(ctx, id)
}
func (f *fakeArtifacts) Open(context.Context, string) (io.ReadCloser, workrun.ArtifactInfo, error) {
	return io.NopCloser(strings.NewReader("x")), workrun.ArtifactInfo{}, nil
}

// TestRemotePanel_R8 shows the saved remote state, status and cancel lines
// and the file results, and offers nothing but saving a file: no query,
// fetch or cancel (docs/remote-agent.md R8).
func TestRemotePanel_R8(t *testing.T) {
	runs := sampleRunWithOutputs(workrun.Values{"answer": "hi", "reports": []any{"a1"}})
	arts := &fakeArtifacts{StatFunc: func(_ context.Context, id string) (workrun.ArtifactInfo, error) {
		return workrun.ArtifactInfo{ID: id, Name: "demo.txt", MediaType: "text/plain", Size: 12}, nil
	}}
	calls := func(context.Context, string) ([]workrun.RemoteCall, error) {
		return []workrun.RemoteCall{
			{NodeID: "ask", AgentURL: "http://127.0.0.1:1", TaskID: "t-1", RemoteState: "TASK_STATE_INPUT_REQUIRED", StatusText: "Need the invoice number", UpdatedAt: time.Now()},
			{NodeID: "ask2", AgentURL: "http://127.0.0.1:1", RemoteState: "", CancelText: "Remote task: submission result unknown"},
			{NodeID: "ask3", AgentURL: "http://127.0.0.1:1", TaskID: "t-3", RemoteState: "TASK_STATE_WORKING", CancelOutcome: "canceled", CancelText: "Remote task: canceled"},
		}, nil
	}
	w := newTestWindow(t, Deps{Runs: runs, Artifacts: arts, RemoteCalls: calls})
	ts, files, err := w.readTasks(t.Context(), "r")
	p := w.newRemotePanel()
	p.ShowResult(ts, files, err)
	var texts, buttons []string
	for _, o := range test.LaidOutObjects(p.Object()) {
		switch x := o.(type) {
		case *widget.Label:
			texts = append(texts, x.Text)
		case *widget.Button:
			buttons = append(buttons, x.Text)
		}
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{"t-1", "Remote state: waiting for input", "Remote state: working", "Need the invoice number", "(no task id received)", "Remote task: submission result unknown", "Remote task: canceled", "demo.txt (text/plain, 12 B)"} {
		if !strings.Contains(all, want) {
			t.Errorf("panel lacks %q:\n%s", want, all)
		}
	}
	for _, internal := range []string{"TASK_STATE_", "Saved remote state", "canceled — Remote task: canceled"} {
		if strings.Contains(all, internal) {
			t.Errorf("panel shows %q (internal wording or a repeated line):\n%s", internal, all)
		}
	}
	for _, b := range buttons {
		if b != "Save…" {
			t.Errorf("panel offers %q; only saving a file result is allowed (docs/remote-agent.md R8)", b)
		}
	}
	if len(buttons) != 1 {
		t.Errorf("buttons %q, want one Save… for the one file", buttons)
	}
}

// TestRemotePanel_FileResultUnreadable: a file result the artifact store
// cannot read is named under the task records, which still show; it is not
// left out silently.
func TestRemotePanel_FileResultUnreadable(t *testing.T) {
	runs := sampleRunWithOutputs(workrun.Values{"reports": []any{"gone-1"}})
	arts := &fakeArtifacts{StatFunc: func(_ context.Context, id string) (workrun.ArtifactInfo, error) {
		return workrun.ArtifactInfo{}, errors.New("artifact " + id + " is missing")
	}}
	calls := func(context.Context, string) ([]workrun.RemoteCall, error) {
		return []workrun.RemoteCall{{NodeID: "ask", AgentURL: "http://127.0.0.1:1", TaskID: "t-1", RemoteState: "TASK_STATE_COMPLETED"}}, nil
	}
	w := newTestWindow(t, Deps{Runs: runs, Artifacts: arts, RemoteCalls: calls})
	ts, files, err := w.readTasks(t.Context(), "r")
	if len(ts) != 1 || err == nil {
		t.Fatalf("readTasks = %d tasks, err %v; want the task and an error naming the file", len(ts), err)
	}
	p := w.newRemotePanel()
	p.ShowResult(ts, files, err)
	var texts []string
	for _, o := range test.LaidOutObjects(p.Object()) {
		if l, ok := o.(*widget.Label); ok {
			texts = append(texts, l.Text)
		}
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{"t-1", "Some file results could not be read", "ask: artifact gone-1 is missing"} {
		if !strings.Contains(all, want) {
			t.Errorf("panel lacks %q:\n%s", want, all)
		}
	}
}

// sampleRunWithOutputs is run "r" of the Remote Agent sample (with a files
// field "reports") whose node "ask" wrote outputs.
func sampleRunWithOutputs(outputs workrun.Values) *fakeRuns {
	wf := SampleRemote("http://127.0.0.1:1")
	wf.State["reports"] = workrun.FieldFiles
	return &fakeRuns{
		GetRunFunc: func(context.Context, string) (workrun.Run, error) { return workrun.Run{ID: "r", Workflow: wf}, nil },
		NodeRunsFunc: func(context.Context, string) ([]workrun.NodeRun, error) {
			return []workrun.NodeRun{{RunID: "r", NodeID: "ask", Type: "remote_agent", Outputs: outputs}}, nil
		},
	}
}
