package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/runpanel"
	"workrun/workrun"
)

// firstValueRows is the selected node's first input row and first output
// row as the panel draws them.
func firstValueRows(t *testing.T, p *runpanel.Panel) []fyne.CanvasObject {
	t.Helper()
	shown, objs := p.Parts().Values.Rows()
	var firsts []fyne.CanvasObject
	for i, line := range shown {
		if strings.HasPrefix(line, "  ") && (i < 2 || !strings.HasPrefix(shown[i-2], "  ")) {
			firsts = append(firsts, objs[i])
		}
	}
	if len(firsts) != 2 {
		t.Fatalf("found %d first value rows in %q", len(firsts), shown)
	}
	return firsts
}

// TestLayout_RetriedFailureShowsFirstRows: after a retried failure the
// node's header has grown by the attempt and the failure lines; its first
// input and output rows are still in view without dragging a divider, in
// both languages at 1024×700 and 1440×900.
func TestLayout_RetriedFailureShowsFirstRows(t *testing.T) {
	for _, lng := range []string{"en", "zh-Hans"} {
		for _, size := range ruleSizes {
			t.Run(fmt.Sprintf("%s/%vx%v", lng, size.Width, size.Height), func(t *testing.T) {
				w := newTestWindow(t, Deps{})
				SetupLanguage(lng)
				t.Cleanup(func() { SetupLanguage("en") })
				w.win.Resize(size)
				w.panel.OnRunFrom = func(string, bool) {}
				wf := workrun.Workflow{State: map[string]workrun.FieldType{"question": workrun.FieldText, "check": workrun.FieldText},
					Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "ask", Type: "remote_agent", Title: "Slow remote work"},
						{ID: "check", Type: "process", Title: "Local check (fails)", Retry: &workrun.RetryPolicy{MaxAttempts: 2}},
						{ID: "join", Type: "join"}, {ID: "end", Type: "output"}}}
				last := "command failed: exit status 3: check failed"
				var ms []workrun.Message
				for i := range 6 {
					ms = append(ms, workrun.Message{RunID: "r1", NodeID: "check", Seq: int64(i + 1), Text: fmt.Sprintf("line %d of the check's output", i)})
				}
				w.panel.Load(workrun.Run{ID: "r1", Workflow: wf, Status: workrun.RunFailed, FailedNode: "check", Reason: last},
					[]workrun.NodeRun{{RunID: "r1", NodeID: "start", Type: "start", Status: workrun.NodeSucceeded},
						{RunID: "r1", NodeID: "ask", Type: "remote_agent", Status: workrun.NodeStopped},
						{RunID: "r1", NodeID: "check", Type: "process", Status: workrun.NodeFailed, Attempt: 2, Error: last, LastError: last,
							Inputs: map[string]any{"question": "which file?"}, Outputs: map[string]any{"check": "partial"}}}, ms)
				w.panel.Select("check")
				w.panel.Flush()
				if !w.panel.Parts().TitleNote.Visible() || !w.panel.Parts().NodeError.Visible() {
					t.Fatalf("the retry's attempt and failure lines are not shown")
				}
				for i, o := range firstValueRows(t, w.panel) {
					if err := inView(w, o); err != nil {
						t.Errorf("the first %s row: %v", []string{"input", "output"}[i], err)
					}
				}
			})
		}
	}
}

// TestLayout_DragStartsWhereTheDividerIsDrawn: while the panel is taller
// than its default to show a retried failure's first rows (FitHeight), a
// drag of the divider moves it by the drag from where it is drawn — up 40
// makes the panel 40 taller, down 40 gives that back — never first
// jumping to the default height under the pointer (TestGUILayout1024 saw
// "moved 8 px, want -40").
func TestLayout_DragStartsWhereTheDividerIsDrawn(t *testing.T) {
	w := newTestWindow(t, Deps{})
	w.win.Resize(fyne.NewSize(1440, 900))
	w.panel.OnRunFrom = func(string, bool) {}
	last := "command failed: exit status 3: check failed"
	wf := workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"},
		{ID: "check", Type: "process", Title: "Local check (fails)", Retry: &workrun.RetryPolicy{MaxAttempts: 2}}, {ID: "end", Type: "output"}}}
	w.panel.Load(workrun.Run{ID: "r1", Workflow: wf, Status: workrun.RunFailed, FailedNode: "check", Reason: last},
		[]workrun.NodeRun{{RunID: "r1", NodeID: "start", Type: "start", Status: workrun.NodeSucceeded},
			{RunID: "r1", NodeID: "check", Type: "process", Status: workrun.NodeFailed, Attempt: 2, Error: last, LastError: last,
				Inputs: map[string]any{"a": "1", "b": "2", "c": "3"}, Outputs: map[string]any{"check": "partial"}}}, nil)
	w.panel.Select("check")
	w.panel.Flush()
	var h0, def, most float32
	onUI(w, func() {
		w.panes.Refresh()
		h0, def, most = bottomPane(w.panes).Size().Height, w.panes.DefaultBottom(w.panes.Size().Height), w.panes.Size().Height*0.7
	})
	if h0 <= def+1 || h0+40 > most {
		t.Fatalf("the panel is %v high, its default %v, at most %v: the fit does not make it taller or leaves no room to drag, so this test shows nothing", h0, def, most)
	}
	for _, dy := range []float32{-40, 40} {
		var before, after float32
		onUI(w, func() {
			before = bottomPane(w.panes).Size().Height
			bottomDivider(w.panes).Dragged(&fyne.DragEvent{Dragged: fyne.Delta{DY: dy / 2}})
			bottomDivider(w.panes).Dragged(&fyne.DragEvent{Dragged: fyne.Delta{DY: dy / 2}})
			bottomDivider(w.panes).DragEnd()
			after = bottomPane(w.panes).Size().Height
		})
		if after-before != -dy {
			t.Errorf("a drag of %+v px changed the panel from %v to %v high, want %v", dy, before, after, before-dy)
		}
	}
}

// drawn reports whether o is in c's tree with c and every container
// between them shown.
func drawn(c, o fyne.CanvasObject) bool {
	if c == nil || !c.Visible() {
		return false
	}
	if c == o {
		return true
	}
	var kids []fyne.CanvasObject
	switch x := c.(type) {
	case *fyne.Container:
		kids = x.Objects
	case fyne.Widget:
		kids = test.WidgetRenderer(x).Objects()
	}
	for _, k := range kids {
		if drawn(k, o) {
			return true
		}
	}
	return false
}

// TestRunPanel_NoRunIsOneLine: before any run the panel says where a run
// will show, in the window's language, and draws no empty node list,
// detail or split handle; a run shown brings them.
func TestRunPanel_NoRunIsOneLine(t *testing.T) {
	for _, lng := range []string{"en", "zh-Hans"} {
		t.Run(lng, func(t *testing.T) {
			w := newTestWindow(t, Deps{})
			SetupLanguage(lng)
			t.Cleanup(func() { SetupLanguage("en") })
			w.win.Resize(fyne.NewSize(1024, 700))
			w.panel.Clear()
			if s, _ := w.panel.HeaderTexts(); !strings.Contains(s, "Ctrl+R") {
				t.Errorf("with no run the panel says %q, not that Run (Ctrl+R) shows one here", s)
			}
			if drawn(w.panel.Object(), w.panel.Parts().NodeList) {
				t.Errorf("with no run the panel draws its empty node list and detail")
			}
			wf := workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}}}
			w.panel.Load(workrun.Run{ID: "r1", Workflow: wf, Status: workrun.RunSucceeded},
				[]workrun.NodeRun{{RunID: "r1", NodeID: "start", Type: "start", Status: workrun.NodeSucceeded}}, nil)
			if !drawn(w.panel.Object(), w.panel.Parts().NodeList) || w.panel.Parts().NodeList.Size().Height <= 0 {
				t.Errorf("a run shown has no node list")
			}
		})
	}
}

// TestRunPanel_WaitingIsNotAnError: a run waiting for the person's answer
// says so in the attention colour; only a failed run's reason is drawn in
// the error colour.
func TestRunPanel_WaitingIsNotAnError(t *testing.T) {
	w := newTestWindow(t, Deps{})
	w.win.Resize(fyne.NewSize(1024, 700))
	askInWindow(w, workrun.Question{Round: 1, Kind: workrun.QuestionText, From: "demo agent", Message: "Which colour?"})
	if _, reason := w.panel.HeaderTexts(); reason == "" {
		t.Fatal("the waiting run shows no line about its question")
	}
	if imp := w.panel.Parts().Reason.Importance; imp == widget.DangerImportance {
		t.Errorf("the waiting run's line is drawn in the error colour")
	}
	wf := workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}}}
	w.panel.Load(workrun.Run{ID: "r2", Workflow: wf, Status: workrun.RunFailed, Reason: "exit status 3", FailedNode: "start"},
		[]workrun.NodeRun{{RunID: "r2", NodeID: "start", Type: "start", Status: workrun.NodeFailed, Error: "exit status 3"}}, nil)
	if imp := w.panel.Parts().Reason.Importance; imp != widget.DangerImportance {
		t.Errorf("a failed run's reason is drawn with importance %v, not the error colour", imp)
	}
}

// TestLayout_NodeListRowsWhole: after a retried failure at 1440×900 the
// node list is wide enough for each row's status ("stopped because check
// failed", the attempt) without an ellipsis, and tall enough for its last
// row, in both languages.
func TestLayout_NodeListRowsWhole(t *testing.T) {
	for _, lng := range []string{"en", "zh-Hans"} {
		t.Run(lng, func(t *testing.T) {
			w := newTestWindow(t, Deps{})
			SetupLanguage(lng)
			t.Cleanup(func() { SetupLanguage("en") })
			w.win.Resize(fyne.NewSize(1440, 900))
			w.panel.OnRunFrom = func(string, bool) {}
			wf := workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "ask", Type: "remote_agent", Title: "Slow remote work"},
				{ID: "check", Type: "process", Title: "Local check (fails)", Retry: &workrun.RetryPolicy{MaxAttempts: 2}},
				{ID: "join", Type: "join"}, {ID: "end", Type: "output"}}}
			last := "command failed: exit status 3: check failed"
			w.panel.Load(workrun.Run{ID: "r1", Workflow: wf, Status: workrun.RunFailed, FailedNode: "check", Reason: last},
				[]workrun.NodeRun{{RunID: "r1", NodeID: "start", Type: "start", Status: workrun.NodeSucceeded},
					{RunID: "r1", NodeID: "ask", Type: "remote_agent", Status: workrun.NodeStopped},
					{RunID: "r1", NodeID: "check", Type: "process", Status: workrun.NodeFailed, Attempt: 2, Error: last, LastError: last}}, nil)
			w.panel.Select("check")
			w.panel.Flush()
			l := w.panel.Parts().NodeList
			room := l.Size().Width - 2*theme.InnerPadding()
			for _, id := range w.panel.NodeIDs() {
				line := w.panel.NodeRow(id)
				if need := fyne.MeasureText(line, theme.TextSize(), fyne.TextStyle{}).Width; need > room+1 {
					t.Errorf("the row %q needs %v px, the list gives it %v: it is cut", line, need, room)
				}
			}
			row := l.CreateItem().MinSize().Height + theme.Padding()
			if n := float32(len(w.panel.NodeIDs())); l.Size().Height < n*row-theme.Padding() {
				t.Errorf("the list is %v high for %v rows of %v: the last is cut", l.Size().Height, n, row)
			}
		})
	}
}

// TestLayout_QuestionShowsDetailAndMessages: while a run waits on a
// question, under its form the message list is in view whole, not cut by
// the detail's divider or the window's bottom edge, in both languages at
// 1024×700 and 1440×900; at 1440×900 the node's first input and output
// rows are too (at 1024×700 the form takes their room).
func TestLayout_QuestionShowsDetailAndMessages(t *testing.T) {
	for _, lng := range []string{"en", "zh-Hans"} {
		for _, size := range ruleSizes {
			t.Run(fmt.Sprintf("%s/%vx%v", lng, size.Width, size.Height), func(t *testing.T) {
				w := newTestWindow(t, Deps{})
				SetupLanguage(lng)
				t.Cleanup(func() { SetupLanguage("en") })
				w.win.Resize(size)
				q := workrun.Question{Round: 1, Kind: workrun.QuestionText, From: "demo agent", Message: "more input required; reply on this task"}
				wf := workrun.Workflow{State: map[string]workrun.FieldType{"question": workrun.FieldText},
					Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "ask", Type: "remote_agent", Title: "Ask the agent"}}}
				w.panel.OnDecide = func(workrun.Decision) {}
				w.panel.Load(workrun.Run{ID: "r1", Workflow: wf, Status: workrun.RunInterrupted, Interruption: workrun.InterruptedByHuman},
					[]workrun.NodeRun{{RunID: "r1", NodeID: "start", Type: "start", Status: workrun.NodeSucceeded},
						{RunID: "r1", NodeID: "ask", Type: "remote_agent", Status: workrun.NodeInterrupted, Question: &q,
							Inputs: map[string]any{"question": "which colour?"}, Outputs: map[string]any{"question": "blue"}}},
					[]workrun.Message{{RunID: "r1", NodeID: "ask", Seq: 1, Text: "demo agent asks (round 1): more input required"}})
				w.panel.Select("ask")
				w.panel.Flush()
				w.panes.Refresh()
				if !w.panel.Asking() {
					t.Fatal("the question's form is not shown")
				}
				for i, o := range firstValueRows(t, w.panel) {
					if err := inView(w, o); err != nil && size.Height >= 900 {
						t.Errorf("the first %s row: %v", []string{"input", "output"}[i], err)
					}
				}
				if err := inView(w, w.panel.Parts().MessageList); err != nil {
					t.Errorf("the messages: %v", err)
				}
				row := w.panel.Parts().MessageList.CreateItem().MinSize().Height
				if h := w.panel.Parts().MessageList.Size().Height; h < row {
					t.Errorf("the messages are %v high, a row is %v: it is cut", h, row)
				}
			})
		}
	}
}
