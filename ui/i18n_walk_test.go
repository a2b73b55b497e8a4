package ui

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/runinputs"
	"workrun/workrun"
)

var (
	// englishPhrase is two English words in a row: a sentence or a label
	// that missed the catalogue. Single words are left to knownEnglish.
	englishPhrase = regexp.MustCompile(`\b[A-Za-z]{2,}[ ,:;.…]+[a-z]{2,}\b`)
	// catalogueKey is what an untranslated key looks like ("run.stop").
	catalogueKey = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$`)
	// internals that a person must never read, in any language.
	internalWords = []string{"TASK_STATE_", "context canceled", "context deadline", "Saved remote state", "(Select one)", "exit status"}
	// knownEnglish are single English words the window has shown untranslated.
	knownEnglish = regexp.MustCompile(`(?i)^(bearer|text|number|boolean|file|files|none|unknown|running|failed|succeeded|stopped|pending|canceled|submitted|working|ok|cancel|save|delete|new|close|run|stop|resume|approve|reject|answer|inputs|outputs|error)$`)
)

// texts returns every string drawn in o: labels, buttons, entries and
// their placeholders, selects, rich text — read from the canvas.Text
// objects the renderers made, plus the placeholder texts of entries and
// selects that show none yet.
func texts(o fyne.CanvasObject) []string {
	var out []string
	for _, x := range test.LaidOutObjects(o) {
		switch t := x.(type) {
		case *canvas.Text:
			if t.Visible() {
				out = append(out, t.Text)
			}
		case *widget.Select:
			if t.Selected == "" {
				out = append(out, t.PlaceHolder)
			}
			out = append(out, t.Options...)
		case *widget.Entry:
			out = append(out, t.PlaceHolder)
		}
	}
	return out
}

// untranslated returns the strings of ss that are English, a bare
// catalogue key or internal wording; data (allowed) is skipped.
func untranslated(ss []string, allowed []string) []string {
	var bad []string
	for _, s := range ss {
		s = strings.TrimSpace(s)
		if s == "" || slices.Contains(allowed, s) || strings.Contains(s, "://") && !strings.Contains(s, " ") {
			continue // data, or a bare URL
		}
		for _, a := range allowed {
			s = strings.ReplaceAll(s, a, "")
		}
		hasCJK := strings.IndexFunc(s, isCJK) >= 0
		switch {
		case slices.ContainsFunc(internalWords, func(w string) bool { return strings.Contains(s, w) }):
		case catalogueKey.MatchString(s):
		case !hasCJK && englishPhrase.MatchString(s):
		case !hasCJK && knownEnglish.MatchString(s):
		default:
			continue
		}
		bad = append(bad, s)
	}
	slices.Sort(bad)
	return slices.Compact(bad)
}

// TestChineseEverywhere walks the window in Simplified Chinese — the
// editor with a node of every kind selected in turn, the run panel showing
// a run of every kind with messages from the engine's and the nodes'
// catalogues, the remote task panel, run records, the inputs, credentials,
// rename and about dialogs, and the menus — and fails on any English
// phrase, bare catalogue key or internal wording. Words that are data (the
// workflow's own names, ids, URLs, an agent's text) are listed as allowed.
func TestChineseEverywhere(t *testing.T) {
	wf := workrun.Workflow{Name: "发票流程", State: map[string]workrun.FieldType{"问题": workrun.FieldText, "数": workrun.FieldNumber,
		"是否": workrun.FieldBoolean, "附件": workrun.FieldFile, "数据": workrun.FieldJSON}}
	for i, k := range workrun.Describe(realKinds()...) {
		wf.Nodes = append(wf.Nodes, workrun.NodeSpec{ID: fmt.Sprintf("n%d", i), Type: k.Type, Title: "节点" + fmt.Sprint(i),
			Config: k.DefaultConfig(), Position: &workrun.Position{X: float32(40 + 220*(i%4)), Y: float32(60 + 140*(i/4))}})
	}
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)
	run := workrun.Run{ID: "run-zh", WorkflowName: wf.Name, Workflow: wf, Status: workrun.RunFailed, FailedNode: "n7",
		Reason: "command failed: exit status 3", CreatedAt: start, EndedAt: start.Add(3 * time.Second)}
	var nrs []workrun.NodeRun
	for i, n := range wf.Nodes {
		nr := workrun.NodeRun{RunID: run.ID, NodeID: n.ID, Type: n.Type, Status: workrun.NodeSucceeded, StartedAt: start, EndedAt: start.Add(time.Second),
			Inputs: workrun.Values{"问题": "你好"}, Outputs: workrun.Values{"数": 1}}
		switch n.Type {
		case "process":
			nr.Status, nr.Error = workrun.NodeFailed, "command failed: exit status 3"
		case "remote_agent":
			nr.Status, nr.Error = workrun.NodeStopped, "context canceled"
		case "human_review", "ask_human":
			nr.Status = workrun.NodeStopped
		}
		if i == 0 { // a file and a JSON value: the values view's buttons and tree
			nr.Outputs = workrun.Values{"数": 1, "附件": "art-1", "数据": map[string]any{"键": []any{"值"}}}
		}
		nrs = append(nrs, nr)
	}
	msgs := []workrun.Message{
		{RunID: run.ID, NodeID: "n8", Seq: 1, Time: start, Key: "workrun.stopped_by_user"},
		{RunID: run.ID, NodeID: "n8", Seq: 2, Time: start, Text: "Remote task: canceled"},
		{RunID: run.ID, NodeID: "n8", Seq: 3, Time: start, Key: "workrun.node_not_stopped", Args: []string{"15s"}},
		{RunID: run.ID, NodeID: "n7", Seq: 4, Time: start, Key: "process.exit", Args: []string{"3"}},
	}
	runs := &fakeRuns{
		GetRunFunc:   func(context.Context, string) (workrun.Run, error) { return run, nil },
		NodeRunsFunc: func(context.Context, string) ([]workrun.NodeRun, error) { return nrs, nil },
		MessagesFunc: func(context.Context, string) ([]workrun.Message, error) { return msgs, nil },
		ListRunsFunc: func(context.Context, workrun.RunFilter) ([]workrun.Run, error) { return []workrun.Run{run}, nil },
	}
	calls := func(context.Context, string) ([]workrun.RemoteCall, error) {
		return []workrun.RemoteCall{{NodeID: "n8", AgentURL: "http://127.0.0.1:1", TaskID: "t-1", RemoteState: "TASK_STATE_CANCELED",
			StatusText: "正在处理", CancelOutcome: "canceled", CancelText: "Remote task: canceled", Ended: true, UpdatedAt: start}}, nil
	}
	_, creds := newMemKeyring()
	eng := &fakeEngine{StartFunc: func(context.Context, string, workrun.Workflow, workrun.Values) (string, error) { return "run-zh", nil }}
	w := newTestWindow(t, Deps{Engine: eng, Runs: runs, RemoteCalls: calls, Credentials: creds,
		CheckAgent: func(context.Context, string, string) (AgentReport, error) { return AgentReport{}, nil }})
	onUI(w, func() { w.SetLanguage("zh-Hans") })
	t.Cleanup(func() { SetupLanguage("en") })

	allowed := []string{wf.Name, "Workrun", "A2A", "JSON", "http://127.0.0.1:1", "t-1", "run-zh", "你好", "正在处理", "HTTP", "URL", "ID", "API Key", "Bearer"}
	for _, n := range wf.Nodes {
		allowed = append(allowed, n.ID, n.Title)
	}
	for k := range wf.State {
		allowed = append(allowed, k)
	}
	// The example command in a process node's command box is a command,
	// not words.
	allowed = append(allowed, "sh\n-c\necho hi", "sh", "-c", "echo hi")
	check := func(where string, ss []string) {
		t.Helper()
		time.Sleep(20 * time.Millisecond) // let the credential list arrive; onUI orders the rest
		if bad := untranslated(ss, allowed); len(bad) > 0 {
			t.Errorf("%s: untranslated in zh-Hans:\n  %s", where, strings.Join(bad, "\n  "))
		}
	}

	// Editor: the workflow, then each node kind in the inspector.
	var ss []string
	onUI(w, func() { w.OpenWorkflow("", wf) })
	onUI(w, func() { ss = texts(w.win.Content()) })
	check("editor", ss)
	for _, n := range wf.Nodes {
		onUI(w, func() {
			w.doc.Select(n.ID, false)
			w.insp.Show()
		})
		time.Sleep(20 * time.Millisecond) // the credential picker is filled off the UI thread
		onUI(w, func() { ss = texts(w.win.Content()) })
		check("inspector of "+n.Type, ss)
	}

	// Run panel, every node selected; remote tasks; run records.
	onUI(w, func() {
		w.panel.Load(run, nrs, msgs)
		ts, files, err := w.readTasks(context.Background(), run.ID)
		w.tasks.ShowResult(ts, files, err)
	})
	for _, n := range wf.Nodes {
		onUI(w, func() {
			w.panel.Pick(n.ID)
			ss = texts(w.panel.Object())
		})
		check("run panel, node "+n.Type, ss)
	}
	onUI(w, func() { ss = texts(w.tasks.Object()) })
	check("remote tasks", ss)
	waitRecords(t, w, w.records.Reload)
	onUI(w, func() { ss = texts(w.records.Object()) })
	check("run records", ss)

	// Dialogs.
	dialogs := []struct {
		name string
		open func()
	}{
		{"credentials", w.showCredentials},
		{"run inputs", func() {
			form := runinputs.NewFields(langNow(), wf.State, nil)
			dialog.ShowCustom(langNow().X("run.inputs", "Run inputs"), langNow().X("cancel", "Cancel"), form.Object(), w.win)
		}},
		{"rename", w.renameWorkflow},
		{"publish as agent", w.showPublish},
	}
	for _, d := range dialogs {
		onUI(w, d.open)
		time.Sleep(100 * time.Millisecond) // the credentials list is read off the Fyne thread
		var ss []string
		onUI(w, func() {
			for _, o := range w.win.Canvas().Overlays().List() {
				ss = append(ss, texts(o)...)
			}
		})
		if len(ss) == 0 {
			t.Errorf("%s: no dialog shown", d.name)
		}
		check("dialog "+d.name, ss)
		onUI(w, func() {
			for w.win.Canvas().Overlays().Top() != nil {
				w.win.Canvas().Overlays().Remove(w.win.Canvas().Overlays().Top())
			}
		})
	}

	// Menus.
	var items []string
	for _, m := range w.win.MainMenu().Items {
		items = append(items, m.Label)
		for _, it := range m.Items {
			if !it.IsSeparator {
				items = append(items, it.Label)
			}
		}
	}
	check("menus", items)
}
