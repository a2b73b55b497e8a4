package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/records"
	"workrun/workrun"
)

const (
	idTaskA = "3f2a9c1e-8b7d-4e6f-a5c4-1d2e3f4a5b6c" // attempt 1's task
	idTaskB = "9e8d7c6b-5a49-4382-b1a0-f9e8d7c6b5a4" // attempt 2's task
	idCtx   = "c0ffee00-1234-4abc-8def-0123456789ab"
)

// retriedRun is a run whose Remote Agent failed its second and last
// attempt: the record keeps both tasks' ids whole.
func retriedRun() (workrun.Run, []workrun.NodeRun, []workrun.Message) {
	wf := workrun.Workflow{Name: "wf", Nodes: []workrun.NodeSpec{
		{ID: "agent", Type: "remote_agent", Title: "Travel agent", Retry: &workrun.RetryPolicy{MaxAttempts: 2}}}}
	now := time.Now()
	reasonB := "remote task did not complete: task " + idTaskB + " failed: no seats"
	r := workrun.Run{ID: "r1", Workflow: wf, WorkflowName: "wf", Status: workrun.RunFailed, FailedNode: "agent",
		Reason: reasonB, CreatedAt: now.Add(-3 * time.Second), EndedAt: now}
	n := workrun.NodeRun{RunID: "r1", NodeID: "agent", Type: "remote_agent", Status: workrun.NodeFailed,
		Attempt: 2, LastError: "remote task did not complete: task " + idTaskA + " failed: timeout upstream",
		Error: reasonB, StartedAt: now.Add(-time.Second), EndedAt: now}
	ms := []workrun.Message{{RunID: "r1", NodeID: "agent", Seq: 1, Time: now,
		Text: "Remote task " + idTaskB + " accepted (context " + idCtx + ")"}}
	return r, []workrun.NodeRun{n}, ms
}

// TestRunPanel_ShortIDsCopyAndAttempts: after a retry, the node's header,
// its reason and the run's reason name their task by a short id and by
// the attempt it belongs to (the header: attempt 2 of 2, attempt 1 failed
// with task A; the reason: attempt 2, task B), in English and Chinese; a
// message row shows its ids short, selecting it shows them whole, and Copy
// puts the whole id on the clipboard.
func TestRunPanel_ShortIDsCopyAndAttempts(t *testing.T) {
	test.NewTempApp(t)
	defer SetupLanguage("en")
	for _, c := range []struct {
		lang, attempt, earlier, failed, runAttempt string
	}{
		{"en", "attempt 2 of 2", "attempt 1 failed: ", "attempt 2 failed: ", "agent · attempt 2 of 2"},
		{"zh-Hans", "第 2 次尝试，共 2 次", "第 1 次尝试失败：", "第 2 次尝试失败：", "agent · 第 2 次尝试，共 2 次"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			SetupLanguage(c.lang)
			p := newRunPanel(langNow(), false)
			test.NewWindow(p.Object()).Resize(fyne.NewSize(1000, 600))
			p.Load(retriedRun())
			p.Pick("agent")

			title, errText, _ := p.DetailTexts()
			_, reason := p.HeaderTexts()
			shortA, shortB := idTaskA[:8]+"…", idTaskB[:8]+"…"
			if !strings.Contains(title, c.attempt) || !strings.Contains(title, c.earlier) || !strings.Contains(title, shortA) {
				t.Errorf("node header %q: want %q, %q and task A as %q", title, c.attempt, c.earlier, shortA)
			}
			if !strings.Contains(errText, c.failed) || !strings.Contains(errText, shortB) {
				t.Errorf("node reason %q: want %q and task B as %q", errText, c.failed, shortB)
			}
			if !strings.Contains(reason, c.runAttempt) || !strings.Contains(reason, shortB) {
				t.Errorf("run reason %q: want %q and task B as %q", reason, c.runAttempt, shortB)
			}
			// Each names its own attempt's task, and no id whole.
			for what, s := range map[string]string{"header": title, "node reason": errText, "run reason": reason} {
				for _, id := range []string{idTaskA, idTaskB} {
					if strings.Contains(s, id) {
						t.Errorf("%s %q shows the whole id %s", what, s, id)
					}
				}
			}
			if strings.Contains(errText, shortA) || strings.Contains(reason, shortA) || strings.Contains(title, shortB) {
				t.Errorf("header %q and reasons %q / %q mix up the attempts' tasks", title, errText, reason)
			}

			// Copy beside the node's reason and beside the run's reason.
			clip := fyne.CurrentApp().Clipboard()
			test.Tap(copyIn(t, p.Parts().NodeError))
			if got := clip.Content(); !strings.Contains(got, idTaskB) {
				t.Errorf("Copy of the node's reason put %q on the clipboard, want task %s whole", got, idTaskB)
			}
			clip.SetContent("")
			test.Tap(copyIn(t, p.Parts().ReasonRow))
			if got := clip.Content(); !strings.Contains(got, idTaskB) {
				t.Errorf("Copy of the run's reason put %q on the clipboard, want task %s whole", got, idTaskB)
			}

			// The message list: short in the row, whole when selected.
			if got := p.MessageRowText(0); strings.Contains(got, idCtx) || !strings.Contains(got, idCtx[:8]+"…") {
				t.Errorf("message row %q: want the context id short", got)
			}
			p.Parts().MessageList.Select(0)
			if _, e, _ := p.DetailTexts(); !strings.Contains(e, idTaskB) || !strings.Contains(e, idCtx) {
				t.Errorf("selected message %q: want its ids whole", e)
			}
			clip.SetContent("")
			test.Tap(copyIn(t, p.Parts().NodeError))
			if got := clip.Content(); !strings.Contains(got, idCtx) {
				t.Errorf("Copy of the selected message put %q on the clipboard", got)
			}
		})
	}
}

// copyIn finds the Copy button in a row.
func copyIn(t *testing.T, o fyne.CanvasObject) *widget.Button {
	t.Helper()
	var found *widget.Button
	walkObjects(o, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && found == nil {
			found = b
		}
	})
	if found == nil || !o.Visible() {
		t.Fatalf("no Copy shown in %T", o)
	}
	return found
}

// walkObjects calls f on o and every object inside it.
func walkObjects(o fyne.CanvasObject, f func(fyne.CanvasObject)) {
	f(o)
	if c, ok := o.(*fyne.Container); ok {
		for _, x := range c.Objects {
			walkObjects(x, f)
		}
	}
}

// TestRunPanel_DurationAsRecords: a run that waited 42 s for an answer
// (its node worked 20 ms before the question and 18 ms after) says what
// Run records says — 41.9 s from start to end — and how little of it was
// work, not "38ms" alone; in Chinese too.
func TestRunPanel_DurationAsRecords(t *testing.T) {
	defer SetupLanguage("en")
	t0 := time.Now().Add(-time.Minute)
	wf := workrun.Workflow{Name: "ask", Nodes: []workrun.NodeSpec{{ID: "q", Type: "ask_human"}}}
	r := workrun.Run{ID: "r", Workflow: wf, WorkflowName: "ask", Status: workrun.RunSucceeded,
		CreatedAt: t0, EndedAt: t0.Add(41900 * time.Millisecond)}
	// Re-entered after the answer: the record's interval is the last one.
	nrs := []workrun.NodeRun{{RunID: "r", NodeID: "q", Type: "ask_human", Status: workrun.NodeSucceeded,
		StartedAt: t0.Add(41862 * time.Millisecond), EndedAt: t0.Add(41900 * time.Millisecond)}}
	inRecords := formatDuration(records.RunDuration(r))
	if inRecords != "41.9s" {
		t.Fatalf("Run records says %q, want 41.9s", inRecords)
	}
	for lang, want := range map[string]string{"en": "(41.9s, 38ms of it at work)", "zh-Hans": "（41.9s，其中运行 38ms）"} {
		SetupLanguage(lang)
		p := newRunPanel(langNow(), false)
		p.Load(r, nrs, nil)
		if h, _ := p.HeaderTexts(); !strings.Contains(h, want) {
			t.Errorf("%s: run panel header %q, want %q (Run records: %s)", lang, h, want, inRecords)
		}
		// The node's row says its figure is time at work, as the header.
		if row, want := p.NodeStatus("q"), map[string]string{"en": "(38ms at work)", "zh-Hans": "（运行 38ms）"}[lang]; !strings.HasSuffix(row, want) {
			t.Errorf("%s: node row %q, want it to end %q", lang, row, want)
		}
	}
	// While the node waits for the person its row shows no time.
	SetupLanguage("en")
	asking := workrun.Run{ID: "r", Workflow: wf, WorkflowName: "ask", Status: workrun.RunInterrupted, Interruption: workrun.InterruptedByHuman, CreatedAt: t0}
	q := &workrun.Question{Message: "Which file?", Round: 1}
	w := newRunPanel(langNow(), false)
	w.Load(asking, []workrun.NodeRun{{RunID: "r", NodeID: "q", Type: "ask_human", Status: workrun.NodeInterrupted, Question: q,
		StartedAt: t0, EndedAt: t0.Add(47 * time.Millisecond)}}, nil)
	if row := w.NodeStatus("q"); strings.Contains(row, "47ms") || strings.Contains(row, "(") {
		t.Errorf("a waiting node's row %q shows the milliseconds it worked", row)
	}

	// A run that worked all along says one figure, the records' one.
	SetupLanguage("en")
	nrs[0].StartedAt = t0
	p := newRunPanel(langNow(), false)
	p.Load(r, nrs, nil)
	if h, _ := p.HeaderTexts(); !strings.HasSuffix(h, "("+inRecords+")") {
		t.Errorf("run at work throughout: header %q, want (%s)", h, inRecords)
	}
}

// TestRunPanel_FindingsReadable: the Output node's line about a JSON
// field (the MCP research sample's findings) reads as words, not raw
// JSON; the record keeps the JSON, and Copy gives it whole.
func TestRunPanel_FindingsReadable(t *testing.T) {
	test.NewTempApp(t)
	defer SetupLanguage("en")
	raw := `{"findings":["finding 1 about tides","finding 2 about tides"],"stages":2,"topic":"tides"}`
	m := workrun.Message{RunID: "r", NodeID: "end", Seq: 1, Time: time.Now(), Key: "output.value", Args: []string{"findings", raw}}
	wf := workrun.Workflow{Name: "wf", Nodes: []workrun.NodeSpec{{ID: "end", Type: "output"}}}
	for lang, want := range map[string]string{
		"en":      "findings: findings: finding 1 about tides, finding 2 about tides · stages: 2 · topic: tides",
		"zh-Hans": "findings：findings：finding 1 about tides，finding 2 about tides · stages：2 · topic：tides",
	} {
		SetupLanguage(lang)
		p := newRunPanel(langNow(), false)
		test.NewWindow(p.Object()).Resize(fyne.NewSize(1000, 600))
		p.Load(workrun.Run{ID: "r", Workflow: wf, Status: workrun.RunSucceeded}, []workrun.NodeRun{{RunID: "r", NodeID: "end", Type: "output", Status: workrun.NodeSucceeded}}, []workrun.Message{m})
		p.Pick("end")
		lines := p.MessageLines("end")
		if len(lines) != 1 || !strings.HasSuffix(lines[0], want) || strings.Contains(lines[0], `{"`) {
			t.Errorf("%s: findings line %q, want it to end %q", lang, lines, want)
		}
		p.Parts().MessageList.Select(0)
		test.Tap(copyIn(t, p.Parts().NodeError))
		if got := fyne.CurrentApp().Clipboard().Content(); !strings.Contains(got, raw) {
			t.Errorf("%s: Copy gave %q, want the JSON whole", lang, got)
		}
	}
	if m.Args[1] != raw {
		t.Errorf("the message's stored argument changed: %q", m.Args[1])
	}
}
