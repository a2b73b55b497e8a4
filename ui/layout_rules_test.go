package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/panes"
	"workrun/workrun"
)

// The layout rules of docs/product.md "The window" at the two screen sizes
// people use most: 1024×700 and 1440×900.
var ruleSizes = []fyne.Size{{Width: 1024, Height: 700}, {Width: 1440, Height: 900}}

// absRect is o's rectangle in window coordinates.
func absRect(o fyne.CanvasObject) (fyne.Position, fyne.Position) {
	p := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	return p, p.AddXY(o.Size().Width, o.Size().Height)
}

// inView reports whether o is drawn whole inside every scroll that holds it
// and inside the window: the person sees it without dragging or scrolling.
func inView(w *Window, o fyne.CanvasObject) error {
	if !o.Visible() || o.Size().Height <= 0 {
		return fmt.Errorf("not shown")
	}
	a, b := absRect(o)
	cs := w.win.Canvas().Size()
	if a.X < 0 || a.Y < 0 || b.X > cs.Width+1 || b.Y > cs.Height+1 {
		return fmt.Errorf("at %v–%v, outside the %v window", a, b, cs)
	}
	for _, s := range objectsOf[*container.Scroll](w.win.Content()) {
		sa, sb := absRect(s)
		if !s.Visible() || !holds(s, o) {
			continue
		}
		if a.Y < sa.Y-1 || b.Y > sb.Y+1 || a.X < sa.X-1 || b.X > sb.X+1 {
			return fmt.Errorf("at %v–%v, outside the scroll %v–%v that holds it", a, b, sa, sb)
		}
	}
	return nil
}

// holds reports whether o is in c's tree.
func holds(c, o fyne.CanvasObject) bool {
	for _, x := range test.LaidOutObjects(c) {
		if x == o && x != c {
			return true
		}
	}
	return false
}

func buttonIn(t *testing.T, c fyne.CanvasObject, text string) *widget.Button {
	t.Helper()
	for _, b := range objectsOf[*widget.Button](c) {
		if b.Text == text {
			return b
		}
	}
	t.Fatalf("no button %q", text)
	return nil
}

// objectsOf lists the objects of type T laid out in c.
func objectsOf[T fyne.CanvasObject](c fyne.CanvasObject) []T {
	var out []T
	for _, o := range test.LaidOutObjects(c) {
		if x, ok := o.(T); ok {
			out = append(out, x)
		}
	}
	return out
}

// visibleLabels is the text of c's visible labels, one a line.
func visibleLabels(c fyne.CanvasObject) string {
	var s []string
	for _, l := range objectsOf[*widget.Label](c) {
		if l.Visible() && l.Text != "" {
			s = append(s, l.Text)
		}
	}
	return strings.Join(s, "\n")
}

// panelWords is the run panel's catalogue entry key (ui/runpanel), with
// its arguments, in the tests' language.
func panelWords(key string, args ...string) string {
	return workrun.Text{Key: key, Args: args}.In(langNow().Messages())
}

// askInWindow shows a run whose node waits on q in w's run panel.
func askInWindow(w *Window, q workrun.Question) *[]workrun.Decision {
	var got []workrun.Decision
	w.panel.OnDecide = func(d workrun.Decision) { got = append(got, d) }
	wf := workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "agent", Type: "remote_mcp"}}}
	w.panel.Load(workrun.Run{ID: "r1", Workflow: wf, Status: workrun.RunInterrupted},
		[]workrun.NodeRun{{RunID: "r1", NodeID: "start", Type: "start", Status: workrun.NodeSucceeded},
			{RunID: "r1", NodeID: "agent", Type: "remote_mcp", Status: workrun.NodeInterrupted, Question: &q}}, nil)
	return &got
}

// TestLayout_QuestionFormInView: when a run needs an answer, the answer
// form — its input, Answer, Decline and Cancel request — is in view at
// 1024×700 and 1440×900 without dragging a divider (the run panel grows);
// when the question is answered the panel goes back to its own height.
func TestLayout_QuestionFormInView(t *testing.T) {
	for _, lng := range []string{"en", "zh-Hans"} {
		for _, size := range ruleSizes {
			t.Run(fmt.Sprintf("%s/%vx%v", lng, size.Width, size.Height), func(t *testing.T) {
				w := newTestWindow(t, Deps{})
				w.SetLanguage(lng)
				t.Cleanup(func() { SetupLanguage("en") })
				w.win.Resize(size)
				_, _, _, before := paneWidths(w.panes)
				q := workrun.Question{Round: 1, Kind: workrun.QuestionForm, From: "Survey tool", Message: "Which region?",
					Schema: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","title":"Region"}},"required":["region"]}`)}
				askInWindow(w, q)
				if f := w.win.Canvas().Focused(); f == nil || f != w.panel.Parts().QuestionFirst {
					t.Errorf("the keyboard is in %T, not in the question's first input", f)
				}
				for _, name := range []string{panelWords("ui.question_answer"), panelWords("ui.question_decline"), panelWords("ui.question_cancel")} {
					if err := inView(w, buttonIn(t, w.panel.Parts().Question, name)); err != nil {
						t.Errorf("%s: %v", name, err)
					}
				}
				for _, e := range objectsOf[*widget.Entry](w.panel.Parts().Question) {
					if err := inView(w, e); err != nil {
						t.Errorf("the answer's input: %v", err)
					}
				}
				// Answered: the question goes, the panel has its own height again.
				w.panel.Load(workrun.Run{ID: "r1", Workflow: w.panel.Run().Workflow, Status: workrun.RunSucceeded},
					[]workrun.NodeRun{{RunID: "r1", NodeID: "agent", Type: "remote_mcp", Status: workrun.NodeSucceeded}}, nil)
				if _, _, _, after := paneWidths(w.panes); after != before {
					t.Errorf("after the answer the run panel is %v high, was %v before the question", after, before)
				}
			})
		}
	}
}

// TestLayout_InspectorWheelOverEntry: the mouse wheel scrolls the
// inspector wherever the pointer is over it — over an entry, a select or a
// label — and one notch (the desktop driver's 25 px) moves it by a few
// lines, not a few pixels.
func TestLayout_InspectorWheelOverEntry(t *testing.T) {
	for _, size := range ruleSizes {
		t.Run(fmt.Sprintf("%vx%v", size.Width, size.Height), func(t *testing.T) {
			w := newTestWindow(t, Deps{Engine: checkingEngine()})
			w.win.Resize(size)
			w.OpenWorkflow("", SampleRemote(langNow(), "http://127.0.0.1:41241"))
			w.doc.Select("ask", false)
			if w.inspScroll.Content.MinSize().Height <= w.inspScroll.Size().Height {
				t.Fatalf("the inspector fits (%v in %v): nothing to scroll", w.inspScroll.Content.MinSize(), w.inspScroll.Size())
			}
			over := map[string]fyne.CanvasObject{}
			for _, o := range test.LaidOutObjects(w.insp.Object()) {
				if !o.Visible() || o.Size().Height <= 0 {
					continue
				}
				what := ""
				switch o := o.(type) {
				case *widget.Entry:
					what = "an entry"
				case *widget.Select:
					what = "a select"
				case *widget.Label:
					if o.Text != "" {
						what = "a label"
					}
				}
				if what != "" && over[what] == nil {
					over[what] = o
				}
			}
			content := w.inspScroll.Content
			maxOff := content.Size().Height - w.inspScroll.Size().Height
			for _, what := range []string{"an entry", "a select", "a label"} {
				o := over[what]
				if o == nil {
					t.Errorf("no %s in the inspector", what)
					continue
				}
				// Bring it into view with room below to scroll.
				ca, _ := absRect(content)
				oa, _ := absRect(o)
				off := min(max(0, oa.Y-ca.Y-20), maxOff-60)
				w.inspScroll.ScrollToOffset(fyne.NewPos(0, off))
				off = w.inspScroll.Offset.Y
				if err := inView(w, o); err != nil {
					t.Errorf("%s: %v", what, err)
					continue
				}
				a, b := absRect(o)
				test.Scroll(w.win.Canvas(), fyne.NewPos((a.X+b.X)/2, (a.Y+b.Y)/2), 0, -25)
				if got := w.inspScroll.Offset.Y - off; got < 40 {
					t.Errorf("one wheel notch over %s moved the inspector by %v px, want at least 40", what, got)
				}
			}
		})
	}
}

// TestWindowSize_ForScreen: below 1600×1000 the window opens at the
// screen's work area (maximised); on a larger screen at the preferred
// 1280×800; a size the person left on a screen of that size comes back,
// never larger than the work area.
func TestWindowSize_ForScreen(t *testing.T) {
	for _, tt := range []struct {
		name       string
		screen     [2]int
		work       [4]int
		remembered string
		want       fyne.Size
	}{
		{"1024x700", [2]int{1024, 700}, [4]int{0, 0, 1024, 700}, "", fyne.NewSize(1024, 700)},
		{"1440x900 with a panel", [2]int{1440, 900}, [4]int{0, 32, 1440, 868}, "", fyne.NewSize(1440, 868)},
		{"1920x1080", [2]int{1920, 1080}, [4]int{0, 0, 1920, 1050}, "", fyne.NewSize(1280, 800)},
		{"remembered", [2]int{1440, 900}, [4]int{0, 0, 1440, 900}, "1200 760", fyne.NewSize(1200, 760)},
		{"remembered larger than the work area", [2]int{1440, 900}, [4]int{0, 0, 1440, 860}, "1440 900", fyne.NewSize(1440, 860)},
		{"remembered nonsense", [2]int{1440, 900}, [4]int{0, 0, 1440, 900}, "wide", fyne.NewSize(1440, 900)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := screenInfo{w: tt.screen[0], h: tt.screen[1], workW: tt.work[2], workH: tt.work[3]}
			if got := windowSizeFor(s, 1, tt.remembered); got != tt.want {
				t.Errorf("window %v on a %v screen (work area %v, remembered %q), want %v", got, tt.screen, tt.work, tt.remembered, tt.want)
			}
		})
	}
}

// TestPanes_RememberedPerScreen: the dividers the person dragged are kept
// per screen size: another screen starts from its own (or the defaults),
// and coming back brings the dragged ones back.
func TestPanes_RememberedPerScreen(t *testing.T) {
	a := test.NewTempApp(t)
	prefs := a.Preferences()
	p := panes.New(prefs, widget.NewLabel("list"), widget.NewLabel("canvas"), widget.NewLabel("insp"), widget.NewLabel("run"))
	win := test.NewWindow(p)
	defer win.Close()
	win.Resize(fyne.NewSize(1024, 700))
	p.UseScreen("1024x700")
	p.Resize(fyne.NewSize(1024, 700))
	bottomDivider(p).Dragged(&fyne.DragEvent{Dragged: fyne.Delta{DY: -100}})
	bottomDivider(p).DragEnd()
	_, _, _, dragged := paneWidths(p)
	if dragged != panes.RowsBottomHeight+100 {
		t.Fatalf("dragged run panel %v high, want %v", dragged, panes.RowsBottomHeight+100)
	}
	p.UseScreen("1440x900")
	p.Resize(fyne.NewSize(1440, 900))
	if _, _, _, h := paneWidths(p); h != panes.RowsBottomHeight {
		t.Errorf("on another screen size the run panel is %v high, want the default %v", h, panes.RowsBottomHeight)
	}
	p.UseScreen("1024x700")
	p.Resize(fyne.NewSize(1024, 700))
	p.Refresh()
	if _, _, _, h := paneWidths(p); h != dragged {
		t.Errorf("back on 1024x700 the run panel is %v high, want the dragged %v", h, dragged)
	}
}

// TestLayout_DialogsFitTheScreen: every window and dialog the main window
// opens fits the screen it opens on (a run record opened 1000×720 on a
// 700 px screen, its buttons off-screen).
func TestLayout_DialogsFitTheScreen(t *testing.T) {
	for _, size := range ruleSizes {
		t.Run(fmt.Sprintf("%vx%v", size.Width, size.Height), func(t *testing.T) {
			w := newTestWindow(t, Deps{})
			w.screenArea = size
			w.win.Resize(size)
			room := fyne.NewSize(size.Width, size.Height)
			check := func(what string, got fyne.Size) {
				t.Helper()
				if got.Width > room.Width || got.Height > room.Height {
					t.Errorf("%s is %v on a %v screen", what, got, room)
				}
			}
			wf := workrun.Workflow{Name: "wf", Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}}}
			rec := w.showRecord(runRecord{run: workrun.Run{ID: "r1", Workflow: wf, Status: workrun.RunSucceeded}})
			check("the run record window", rec.Canvas().Size())
			rec.Close()
			for _, want := range []fyne.Size{{Width: 1000, Height: 720}, {Width: 680, Height: 620}, {Width: 560, Height: 380}, {Width: 820, Height: 700}} {
				check(fmt.Sprintf("a dialog that wants %v", want), w.fit(want))
			}
		})
	}
}

// TestLayout_NodeHeaderAfterRetriedFailure: after a retried failure the
// Selected node's header stays one line beside Run from here and Test this
// node, which keep their size and label (they turned into blank boxes
// while the header wrapped under them); the attempt and the last failure
// are said below it.
func TestLayout_NodeHeaderAfterRetriedFailure(t *testing.T) {
	for _, size := range ruleSizes {
		t.Run(fmt.Sprintf("%vx%v", size.Width, size.Height), func(t *testing.T) {
			w := newTestWindow(t, Deps{})
			w.win.Resize(size)
			w.panel.OnRunFrom = func(string, bool) {}
			wf := workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"},
				{ID: "fetch", Type: "remote_agent", Title: "Fetch the quarterly report", Retry: &workrun.RetryPolicy{MaxAttempts: 3}}}}
			last := "remote agent http://127.0.0.1:9/a2a: connection refused while sending the message; the agent did not answer"
			w.panel.Load(workrun.Run{ID: "r1", Workflow: wf, Status: workrun.RunFailed, FailedNode: "fetch"},
				[]workrun.NodeRun{{RunID: "r1", NodeID: "start", Type: "start", Status: workrun.NodeSucceeded},
					{RunID: "r1", NodeID: "fetch", Type: "remote_agent", Status: workrun.NodeFailed, Attempt: 3, Error: last, LastError: last}}, nil)
			w.panel.Select("fetch")
			w.panel.Flush()
			title, _, _ := w.panel.DetailTexts()
			if !strings.Contains(title, panelWords("ui.attempt_of", "3", "3")) {
				t.Errorf("the header says %q, without the attempt", title)
			}
			line := widget.NewLabelWithStyle("x", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}).MinSize().Height
			if h := w.panel.Parts().Title.Size().Height; h > line+1 {
				t.Errorf("the node header is %v high (one line is %v): it wraps under the buttons", h, line)
			}
			for _, name := range []string{uiText(langNow(), msgRunFromHere), uiText(langNow(), msgTestThisNode)} {
				b := buttonIn(t, w.panel.Parts().RunFrom, name)
				if s, m := b.Size(), b.MinSize(); s.Width < m.Width-1 || s.Height > m.Height+1 {
					t.Errorf("%s is %v, its label needs %v", name, s, m)
				}
				if err := inView(w, b); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
		})
	}
}

// TestLayout_NodeDetailShowsFirstRows: at 1024×700 (and 1440×900) the
// Selected node's detail shows its first input row and its first output
// row without dragging the divider between the detail and the messages.
func TestLayout_NodeDetailShowsFirstRows(t *testing.T) {
	for _, size := range ruleSizes {
		t.Run(fmt.Sprintf("%vx%v", size.Width, size.Height), func(t *testing.T) {
			w := newTestWindow(t, Deps{})
			w.win.Resize(size)
			wf := workrun.Workflow{State: map[string]workrun.FieldType{"question": workrun.FieldText, "answer": workrun.FieldText, "note": workrun.FieldText},
				Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "fetch", Type: "remote_agent", Title: "Fetch"}}}
			w.panel.Load(workrun.Run{ID: "r1", Workflow: wf, Status: workrun.RunSucceeded},
				[]workrun.NodeRun{{RunID: "r1", NodeID: "start", Type: "start", Status: workrun.NodeSucceeded},
					{RunID: "r1", NodeID: "fetch", Type: "remote_agent", Status: workrun.NodeSucceeded,
						Inputs:  map[string]any{"question": "which file?", "note": "none"},
						Outputs: map[string]any{"answer": "the file is attached", "note": "kept"}}}, nil)
			w.panel.Select("fetch")
			w.panel.Flush()
			shown, objs := w.panel.Parts().Values.Rows()
			var firsts []fyne.CanvasObject
			for i, line := range shown {
				if strings.HasPrefix(line, "  ") && (i < 2 || !strings.HasPrefix(shown[i-2], "  ")) {
					firsts = append(firsts, objs[i])
				}
			}
			if len(firsts) != 2 {
				t.Fatalf("found %d first value rows in %q", len(firsts), shown)
			}
			for i, o := range firsts {
				if err := inView(w, o); err != nil {
					t.Errorf("the first %s row: %v", []string{"input", "output"}[i], err)
				}
			}
		})
	}
}

// TestLayout_EditorKeepsItsHeight: while no run is shown the editor (the
// canvas column) keeps at least 45 % of the body's height, also when the
// person dragged the run panel higher; a run shown gives the panel back
// the height the person chose.
func TestLayout_EditorKeepsItsHeight(t *testing.T) {
	for _, size := range ruleSizes {
		t.Run(fmt.Sprintf("%vx%v", size.Width, size.Height), func(t *testing.T) {
			w := newTestWindow(t, Deps{})
			w.win.Resize(size)
			bottomDivider(w.panes).Dragged(&fyne.DragEvent{Dragged: fyne.Delta{DY: -size.Height}})
			bottomDivider(w.panes).DragEnd()
			w.panel.Clear()
			w.panes.Refresh()
			body := w.panes.Size().Height
			if top := centrePane(w.panes).Size().Height; top < 0.45*body {
				t.Errorf("with no run shown the editor is %v of %v px (%.0f %%), want at least 45 %%", top, body, 100*top/body)
			}
			wf := workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}}}
			w.panel.Load(workrun.Run{ID: "r1", Workflow: wf, Status: workrun.RunSucceeded}, nil, nil)
			w.panes.Refresh()
			if top := centrePane(w.panes).Size().Height; top >= 0.45*body {
				t.Errorf("with a run shown the editor is still %v of %v: the panel did not get the height dragged", top, body)
			}
		})
	}
}
