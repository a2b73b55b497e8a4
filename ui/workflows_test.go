package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
)

// TestExport_NoSecrets: an export holds the credential's name only (docs/product.md W8) and
// imports back to the same workflow.
func TestExport_NoSecrets(t *testing.T) {
	wf := SampleRemote(langNow(), "https://agent.example.com")
	c, _ := DecodeConfig(wf.Nodes[1].Config)
	c.Credential = "prod-agent"
	wf.Nodes[1].Config = EncodeConfig(c)
	b, err := ExportWorkflow(wf)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"credential": "prod-agent"`) {
		t.Errorf("export lacks the credential name:\n%s", b)
	}
	for _, bad := range []string{"secret", "token", "Bearer "} {
		if strings.Contains(string(b), bad) {
			t.Errorf("export contains %q", bad)
		}
	}
	back, err := ImportWorkflow(b)
	if err != nil {
		t.Fatal(err)
	}
	again, err := ExportWorkflow(back)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(b), string(again)); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

// TestWorkflowList_W1 creates, renames, duplicates and deletes workflows
// through the window on the in-memory store used when Deps.Workflows is nil.
func TestWorkflowList_W1(t *testing.T) {
	w := newTestWindow(t, Deps{})
	names := func() []string {
		var out []string
		recs, _ := w.wfs.ListWorkflows(context.Background())
		for _, r := range recs {
			out = append(out, r.Workflow.Name)
		}
		return out
	}
	w.OpenWorkflow("", SampleRemote(langNow(), "http://127.0.0.1:1"))
	w.save()
	id := w.wfID
	time.Sleep(2 * time.Millisecond)
	w.doc.SetName("Renamed")
	w.save()
	if w.wfID != id {
		t.Fatalf("save of an opened workflow made a new one: %s vs %s", w.wfID, id)
	}
	time.Sleep(2 * time.Millisecond)
	w.duplicateWorkflow()
	if diff := cmp.Diff([]string{"Renamed (copy)", "Renamed"}, names()); diff != "" {
		t.Fatalf("after duplicate (-want +got):\n%s", diff)
	}
	if err := w.wfs.DeleteWorkflow(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	w.reloadList("")
	if diff := cmp.Diff([]string{"Renamed (copy)"}, names()); diff != "" {
		t.Fatalf("after delete (-want +got):\n%s", diff)
	}
	if len(w.recs) != 1 {
		t.Errorf("list shows %d workflows", len(w.recs))
	}
}

// TestRecords_FilterAndOpen lists runs with the chosen filter and opens a
// past run read-only with its timeline.
func TestRecords_FilterAndOpen(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	wf := SampleRemote(langNow(), "http://127.0.0.1:1")
	run := workrun.Run{ID: "r1", WorkflowID: "wf1", WorkflowName: wf.Name, Workflow: wf, Status: workrun.RunFailed, Reason: "boom", CreatedAt: t0}
	var gotFilter workrun.RunFilter
	runs := &fakeRuns{
		ListRunsFunc: func(_ context.Context, f workrun.RunFilter) ([]workrun.Run, error) {
			gotFilter = f
			return []workrun.Run{run}, nil
		},
		GetRunFunc: func(context.Context, string) (workrun.Run, error) { return run, nil },
		NodeRunsFunc: func(context.Context, string) ([]workrun.NodeRun, error) {
			return []workrun.NodeRun{
				{RunID: "r1", NodeID: "ask", Type: "remote_agent", Status: workrun.NodeFailed, Error: "boom", StartedAt: t0.Add(time.Second), EndedAt: t0.Add(3 * time.Second), Inputs: workrun.Values{"question": "q"}},
				{RunID: "r1", NodeID: "start", Type: "start", Status: workrun.NodeSucceeded, StartedAt: t0, EndedAt: t0.Add(time.Millisecond), Outputs: workrun.Values{"question": "q"}},
				{RunID: "r1", NodeID: "end", Type: "output", Status: workrun.NodeSkipped},
			}, nil
		},
		MessagesFunc: func(context.Context, string) ([]workrun.Message, error) {
			return []workrun.Message{{RunID: "r1", NodeID: "ask", Seq: 1, Time: t0, Text: "Remote task: requesting cancellation…"}}, nil
		},
	}
	w := newTestWindow(t, Deps{Runs: runs})
	waitRecords(t, w, func() { w.records.SetFilter("wf1", workrun.RunFailed) })
	if gotFilter.WorkflowID != "wf1" || gotFilter.Status != workrun.RunFailed {
		t.Errorf("filter sent %+v", gotFilter)
	}
	if len(w.records.Runs()) != 1 {
		t.Fatalf("listed %d runs", len(w.records.Runs()))
	}
	rec, err := w.readRecord(t.Context(), "r1")
	if err != nil {
		t.Fatal(err)
	}
	win := w.showRecord(rec)
	defer win.Close()
	nrs, _ := runs.NodeRuns(context.Background(), "r1")
	tl := timeline(langNow(), run, nrs)
	iStart, iAsk, iEnd := strings.Index(tl, "1. Question"), strings.Index(tl, "2. Ask the agent"), strings.Index(tl, "3. Answer")
	if iStart < 0 || iAsk < iStart || iEnd < iAsk {
		t.Errorf("timeline not in start order:\n%s", tl)
	}
	for _, want := range []string{"2s", "inputs:\n      question: q\n", "error: boom"} {
		if !strings.Contains(tl, want) {
			t.Errorf("timeline lacks %q:\n%s", want, tl)
		}
	}
}

// TestResumeInterruptedByExit: a run interrupted by an exit opens live from
// the run records and offers Resume, which goes to the engine (docs/remote-agent.md R12, R13).
func TestResumeInterruptedByExit(t *testing.T) {
	wf := SampleRemote(langNow(), "http://127.0.0.1:1")
	run := workrun.Run{ID: "r9", WorkflowName: wf.Name, Workflow: wf, Status: workrun.RunInterrupted, Interruption: workrun.InterruptedByExit}
	runs := &fakeRuns{GetRunFunc: func(context.Context, string) (workrun.Run, error) { return run, nil }}
	resumed := ""
	eng := &fakeEngine{ResumeFunc: func(_ context.Context, id string) error { resumed = id; return nil }}
	w := newTestWindow(t, Deps{Runs: runs, Engine: eng})
	r, nrs, ms, err := readRunRecords(t.Context(), runs, "r9")
	if err != nil {
		t.Fatal(err)
	}
	w.showLoadedRun(r, nrs, ms)
	if diff := cmp.Diff([]string{"Resume", "Stop"}, w.panel.ActionLabels()); diff != "" {
		t.Fatalf("actions (-want +got):\n%s", diff)
	}
	w.panel.TapAction("Resume")
	if resumed != "r9" {
		t.Fatalf("resumed %q", resumed)
	}
	if w.panel.Run().Status != workrun.RunRunning || w.stopBtn.Disabled() {
		t.Errorf("after Resume status %s, stop enabled %v", w.panel.Run().Status, !w.stopBtn.Disabled())
	}
}

// TestSample_ReopensAndRunsAgainstDemo: Help → Sample twice opens one saved
// workflow, not two; it points at the demo agent this window started; Run
// saves, and confirming the inputs dialog runs it with the sample's question.
func TestSample_ReopensAndRunsAgainstDemo(t *testing.T) {
	var gotURL string
	var gotIn workrun.Values
	eng := &fakeEngine{StartFunc: func(_ context.Context, _ string, wf workrun.Workflow, in workrun.Values) (string, error) {
		c, _ := DecodeConfig(wf.Nodes[1].Config)
		gotURL, gotIn = c.URL, in
		return "run-1", nil
	}}
	stopped, started := false, 0
	w := newTestWindow(t, Deps{Engine: eng,
		StartDemoAgent: func() (string, func(), error) {
			started++
			return "http://127.0.0.1:5555", func() { stopped = true }, nil
		}})
	w.openSample(SampleRemote)
	first := w.wfID
	w.newWorkflow()
	w.openSample(SampleRemote)
	if w.wfID != first || len(w.recs) != 2 { // the sample and the new workflow (New saves it)
		t.Fatalf("second Help → Sample: open %q (first %q), %d workflows saved; want the same one", w.wfID, first, len(w.recs))
	}
	if started != 1 {
		t.Errorf("demo agent started %d times, want 1", started)
	}
	w.runClicked()
	confirmDialog(t, w)
	if gotURL != "http://127.0.0.1:5555" {
		t.Errorf("sample ran against %q", gotURL)
	}
	if diff := cmp.Diff(workrun.Values{"question": "echo Hello from Workrun"}, gotIn); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
	if got := w.win.Title(); got != "Workrun — Remote Agent demo — running" {
		t.Errorf("title %q", got)
	}
	w.Close()
	if !stopped {
		t.Error("closing the window left the demo agent running")
	}
}

// TestSample_MovesToTheDemoAgentsPort: a saved sample pointing at the fixed
// demo address follows the demo agent when it had to take another port.
func TestSample_MovesToTheDemoAgentsPort(t *testing.T) {
	wfs := newMemWorkflows()
	if _, err := wfs.SaveWorkflow(context.Background(), "", SampleRemote(langNow(), DemoAgentURL)); err != nil {
		t.Fatal(err)
	}
	w := newTestWindow(t, Deps{Workflows: wfs,
		StartDemoAgent: func() (string, func(), error) { return "http://127.0.0.1:6000", func() {}, nil }})
	w.openSample(SampleRemote)
	n, _ := w.doc.Node("ask")
	if c, _ := DecodeConfig(n.Config); c.URL != "http://127.0.0.1:6000" {
		t.Errorf("sample URL %q, want the running demo agent's", c.URL)
	}
	if w.doc.Dirty() || len(w.recs) != 1 {
		t.Errorf("dirty %v, %d workflows: want the moved sample saved in place", w.doc.Dirty(), len(w.recs))
	}
}

// confirmDialog presses the confirm button of the dialog on top.
func confirmDialog(t *testing.T, w *Window) {
	t.Helper()
	top := w.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no dialog shown")
	}
	for _, o := range test.LaidOutObjects(top) {
		if b, ok := o.(*widget.Button); ok && b.Importance == widget.HighImportance && b.Text != "" {
			test.Tap(b)
			return
		}
	}
	t.Fatal("the dialog has no confirm button")
}

// TestTimeline_Readable: the run record's Timeline names a node by its
// title and kind and lists values as "name: value" lines, text as it is,
// not as raw JSON like {"question":"input"} (issue 40).
func TestTimeline_Readable(t *testing.T) {
	SetupLanguage("en")
	setKinds(workrun.Describe(realKinds()...)) // as a window does: kinds by their names
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)
	run := workrun.Run{ID: "r1", WorkflowName: "Demo", Workflow: SampleRemote(langNow(), "http://x"), Status: workrun.RunSucceeded, CreatedAt: start}
	nrs := []workrun.NodeRun{{RunID: "r1", NodeID: "ask", Type: "remote_agent", Status: workrun.NodeSucceeded, StartedAt: start, EndedAt: start.Add(1500 * time.Millisecond),
		Inputs: workrun.Values{"question": "input"}, Outputs: workrun.Values{"answer": "line one\nline two", "n": 3.0}}}
	tl := timeline(langNow(), run, nrs)
	for _, want := range []string{"1. Ask the agent (Remote Agent) · ", "      question: input\n", "      answer: line one ⏎ line two\n", "      n: 3\n"} {
		if !strings.Contains(tl, want) {
			t.Errorf("timeline lacks %q:\n%s", want, tl)
		}
	}
	if strings.Contains(tl, `{"question"`) {
		t.Errorf("timeline shows raw JSON:\n%s", tl)
	}
}

// TestRecordTitle: a record window's title says it is read-only, in
// Chinese with the full-width brackets.
func TestRecordTitle(t *testing.T) {
	r := workrun.Run{ID: "89a74876-0000-4000-8000-000000000000", WorkflowName: "demo"}
	for lang, want := range map[string]string{"en": "demo — 89a74876 (read-only)", "zh-Hans": "demo — 89a74876（只读）"} {
		if got := recordTitle(workrun.NewLocalizer(lang), r); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}
