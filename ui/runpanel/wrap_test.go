package runpanel

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"workrun/workrun"
)

// TestRunPanel_LongLineWraps: at 1024×700 a message longer than the list
// is wide wraps onto rows that each fit — its last word is on screen, not
// cut at the right edge — a narrower list wraps it onto more rows, short
// lines keep one row each, and choosing a continuation row shows the
// whole message.
func TestRunPanel_LongLineWraps(t *testing.T) {
	test.NewTempApp(t)
	setLanguage("en")
	wf := workrun.Workflow{Name: "wf", Nodes: []workrun.NodeSpec{{ID: "ask", Type: "remote_agent"}}}
	p := newPanel(langNow(), false)
	win := test.NewWindow(p.Object())
	defer win.Close()
	win.Resize(fyne.NewSize(1024, 700))
	p.Start("r", wf)
	p.Apply(workrun.Event{Type: "node", RunID: "r", NodeID: "ask", Node: &workrun.NodeRun{RunID: "r", NodeID: "ask", Type: "remote_agent", Status: workrun.NodeRunning, StartedAt: time.Now()}})
	long := "the agent explains at length why the answer takes a while: " + strings.Repeat("it reads every source twice and compares them, ", 4) + "then it writes LASTWORD"
	for i, text := range []string{"short one", long, "short two"} {
		p.Apply(workrun.Event{Type: "message", RunID: "r", NodeID: "ask", Message: &workrun.Message{RunID: "r", NodeID: "ask", Seq: int64(i + 1), Time: time.Now(), Text: text}})
	}
	p.Flush()

	rows := func() (texts []string) {
		pad := theme.InnerPadding()
		for _, o := range test.LaidOutObjects(p.msgList) {
			r, ok := o.(*msgRow)
			if !ok || !r.Visible() || r.Size().Width == 0 {
				continue
			}
			if w := r.text.MinSize().Width; w > r.Size().Width-2*pad+1 {
				t.Errorf("row %q is %.0f wide in a %.0f row: cut at the right edge", r.text.Text, w, r.Size().Width-2*pad)
			}
			texts = append(texts, r.text.Text)
		}
		return texts
	}
	wide := rows()
	if p.shownN != 3 || p.shownRows < 5 {
		t.Fatalf("%d messages on %d rows, want 3 on at least 5 (the long one wrapped)", p.shownN, p.shownRows)
	}
	if joined := strings.Join(wide, " "); !strings.Contains(joined, "LASTWORD") || !strings.Contains(joined, "short two") {
		t.Errorf("rows shown %q: the long line's last word or the next line is missing", wide)
	}

	// A narrower list (the window narrower) wraps it onto more rows.
	before := p.shownRows
	win.Resize(fyne.NewSize(700, 700))
	rows()
	if p.shownRows <= before {
		t.Errorf("at 700 wide %d rows, at 1024 %d: not re-wrapped", p.shownRows, before)
	}

	// Choosing the long message's last row shows it whole.
	last := -1
	for v := range p.shownRows {
		if msg, _, _ := p.shown.wraps.at(v); msg == 1 {
			last = v
		}
	}
	p.msgList.Select(last)
	if got := p.nodeErr.Text; !strings.HasSuffix(got, long) {
		t.Errorf("chosen row shows %q, want the whole message", got)
	}
}
