package ui

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/remotetasks"
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
	// Copying an id asks the remote nothing: it is not a manual query.
	saves := 0
	for _, b := range buttons {
		switch {
		case b == "Save…":
			saves++
		case strings.HasPrefix(b, "Copy "):
		default:
			t.Errorf("panel offers %q; only saving a file result (and copying an id) is allowed (docs/remote-agent.md R8)", b)
		}
	}
	if saves != 1 {
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
	wf := SampleRemote(langNow(), "http://127.0.0.1:1")
	wf.State["reports"] = workrun.FieldFiles
	return &fakeRuns{
		GetRunFunc: func(context.Context, string) (workrun.Run, error) { return workrun.Run{ID: "r", Workflow: wf}, nil },
		NodeRunsFunc: func(context.Context, string) ([]workrun.NodeRun, error) {
			return []workrun.NodeRun{{RunID: "r", NodeID: "ask", Type: "remote_agent", Outputs: outputs}}, nil
		},
	}
}

// TestRemotePanel_MCPCallInWords: a Remote MCP Tool call names its server
// ("Server:", not "Agent:") and shows its saved link — version, task form,
// session — in words, never the raw "protocol=…; handle=…" metadata, in
// English and Chinese; a Remote Agent call keeps "Agent:".
func TestRemotePanel_MCPCallInWords(t *testing.T) {
	newTestWindow(t, Deps{})
	t.Cleanup(func() { SetupLanguage("en") })
	// The records as nodes/remotemcp saves them (kind.go link.String).
	ts := []workrun.RemoteCall{
		{NodeID: "research", AgentURL: "http://127.0.0.1:41251/mcp", TaskID: "task-7", RemoteState: "working",
			ContextID: "protocol=2026-07-28; handle=task; form=extension; session="},
		{NodeID: "legacy", AgentURL: "http://127.0.0.1:9/mcp", TaskID: "t-2", RemoteState: "completed", Ended: true,
			ContextID: "protocol=2025-11-25; handle=task; form=2025-11-25; session=sess-123"},
		{NodeID: "fresh", AgentURL: "http://127.0.0.1:9/mcp"},
		{NodeID: "ask", AgentURL: "http://127.0.0.1:1", TaskID: "a-1", ContextID: "ctx-9", RemoteState: "TASK_STATE_WORKING"},
	}
	kinds := map[string]string{"research": "remote_mcp", "legacy": "remote_mcp", "fresh": "remote_mcp", "ask": "remote_agent"}
	shown := func() string {
		p := remotetasks.New(langNow(), remoteTasksWording(langNow()), nil)
		p.KindOf = func(id string) string { return kinds[id] }
		p.ShowTasks(ts, nil)
		var out []string
		for _, o := range test.LaidOutObjects(p.Object()) {
			if l, ok := o.(*widget.Label); ok {
				out = append(out, l.Text)
			}
		}
		return strings.Join(out, "\n")
	}
	for _, tt := range []struct {
		code string
		want []string
	}{
		{"en", []string{"Server: http://127.0.0.1:41251/mcp", "Task: task-7", "Runs as: a task (Tasks extension)", "MCP version: 2026-07-28",
			"Server: http://127.0.0.1:9/mcp", "Runs as: a task\n", "Session: sess-123", "Runs as: not connected yet",
			"Agent: http://127.0.0.1:1", "Context: ctx-9"}},
		{"zh-Hans", []string{"服务器：http://127.0.0.1:41251/mcp", "运行方式：任务（Tasks 扩展）", "MCP 版本：2026-07-28", "会话：sess-123", "智能体：http://127.0.0.1:1"}},
	} {
		SetupLanguage(tt.code)
		all := shown()
		for _, w := range tt.want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: panel lacks %q:\n%s", tt.code, w, all)
			}
		}
		for _, raw := range []string{"protocol=", "handle=", "form=", "map["} {
			if strings.Contains(all, raw) {
				t.Errorf("%s: panel shows raw metadata %q:\n%s", tt.code, raw, all)
			}
		}
		if n := strings.Count(all, "Agent: ") + strings.Count(all, "智能体："); n != 1 {
			t.Errorf("%s: %d calls labelled Agent, want only the Remote Agent's:\n%s", tt.code, n, all)
		}
	}
}

// TestRemotePanel_ShortIDsAndCopy: a call's card names the node and the
// attempt it was made in, shows its task, context and session ids short,
// and each Copy puts one id whole on the clipboard, in English and
// Chinese.
func TestRemotePanel_ShortIDsAndCopy(t *testing.T) {
	test.NewTempApp(t)
	defer SetupLanguage("en")
	const task, ctx, session = "3f2a9c1e-8b7d-4e6f-a5c4-1d2e3f4a5b6c", "c0ffee00-1234-4abc-8def-0123456789ab", "86f303ffc46e9ee38d94727a036f28fa"
	wf := workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "agent", Type: "remote_agent", Title: "Travel agent"}, {ID: "m", Type: "remote_mcp"}}}
	calls := []workrun.RemoteCall{
		{NodeID: "agent", CallKey: "agent#2", AgentURL: "http://127.0.0.1:1", AgentName: "Travel desk", TaskID: task, ContextID: ctx, RemoteState: "TASK_STATE_FAILED"},
		{NodeID: "m", CallKey: "m", AgentURL: "http://127.0.0.1:2/mcp", TaskID: "task-874a06bb-1", ContextID: workrun.MCPLink{Protocol: "2025-11-25", Form: "core", Session: session}.String()},
	}
	for _, c := range []struct{ lang, title, copyTask, copyCtx, copySession string }{
		{"en", "Travel agent (agent) · attempt 2", "Copy task id", "Copy context id", "Copy session id"},
		{"zh-Hans", "Travel agent (agent) · 第 2 次尝试", "复制任务 ID", "复制上下文 ID", "复制会话 ID"},
	} {
		SetupLanguage(c.lang)
		p := remotetasks.New(langNow(), remoteTasksWording(langNow()), nil)
		p.KindOf = kindIn(func() workrun.Workflow { return wf })
		p.NameOf = nameIn(func() workrun.Workflow { return wf })
		p.ShowTasks(calls, nil)
		var texts, titles []string
		buttons := map[string]*widget.Button{}
		walkObjects(p.Object().(*container.Scroll).Content, func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *widget.Card:
				titles = append(titles, x.Title)
				walkObjects(x.Content, func(o fyne.CanvasObject) {
					switch y := o.(type) {
					case *widget.Label:
						texts = append(texts, y.Text)
					case *widget.Button:
						if buttons[y.Text] == nil {
							buttons[y.Text] = y
						}
					}
				})
			}
		})
		all := strings.Join(texts, "\n")
		if len(titles) != 2 || titles[0] != c.title || titles[1] != "m" {
			t.Errorf("%s: card titles %q, want %q and m", c.lang, titles, c.title)
		}
		for _, whole := range []string{task, ctx, session} {
			if strings.Contains(all, whole) {
				t.Errorf("%s: the panel shows the id %s whole:\n%s", c.lang, whole, all)
			}
		}
		for _, short := range []string{task[:8] + "…", ctx[:8] + "…", session[:8] + "…", "task-874a06bb-1", "Travel desk (http://127.0.0.1:1)"} {
			if !strings.Contains(all, short) {
				t.Errorf("%s: the panel lacks %q:\n%s", c.lang, short, all)
			}
		}
		for label, want := range map[string]string{c.copyTask: task, c.copyCtx: ctx, c.copySession: session} {
			b := buttons[label]
			if b == nil {
				t.Errorf("%s: no %q button", c.lang, label)
				continue
			}
			test.Tap(b)
			if got := fyne.CurrentApp().Clipboard().Content(); got != want {
				t.Errorf("%s: %q copied %q, want %q", c.lang, label, got, want)
			}
		}
	}
}
