package runpanel

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"workrun/workrun"
)

// TestRunPanel_LongReasonKeepsFiveRows: a failure reason many lines long
// (a server's error quoting a long URL) takes the header no more room than
// reasonLines lines, so the node list keeps five rows in a run panel as tall
// as the window's at 1024×700; the whole reason is still there to scroll to,
// and a short reason takes one line.
func TestRunPanel_LongReasonKeepsFiveRows(t *testing.T) {
	test.NewTempApp(t)
	setLanguage("en")
	var wf workrun.Workflow
	wf.Name = "wf"
	for i := range 6 {
		wf.Nodes = append(wf.Nodes, workrun.NodeSpec{ID: fmt.Sprintf("n%d", i), Type: "process"})
	}
	p := newPanel(langNow(), false)
	win := test.NewWindow(p.Object())
	defer win.Close()
	win.Resize(fyne.NewSize(1024, 300))
	p.Start("r", wf)
	for _, n := range wf.Nodes {
		p.Apply(workrun.Event{Type: "node", RunID: "r", NodeID: n.ID, Node: &workrun.NodeRun{RunID: "r", NodeID: n.ID, Type: "process",
			Status: workrun.NodeSucceeded, StartedAt: time.Now(), EndedAt: time.Now()}})
	}
	listHeight := func(reason string) float32 {
		p.Apply(runEv(workrun.Run{ID: "r", Status: workrun.RunFailed, FailedNode: "n0", Reason: reason}))
		p.Flush()
		win.Content().Refresh()
		win.Resize(fyne.NewSize(1024, 300))
		return p.nodeList.Size().Height
	}
	short := listHeight("n0: command failed")
	long := "n0: fetch http://127.0.0.1:9/" + strings.Repeat("a-very-long-path-", 40) + "/.well-known/agent-card.json: connection refused LASTWORD"
	got := listHeight(long)

	line := textLineHeight()
	if got < short-line-1 {
		t.Errorf("node list %.0f px tall with the long reason, %.0f with a short one: the reason takes more than %d lines", got, short, reasonLines)
	}
	item, sep := p.nodeList.CreateItem().MinSize().Height, theme.SeparatorThicknessSize()
	if five := 5*item + 4*sep; got < five-0.5 {
		t.Errorf("node list %.0f px tall: five rows take %.0f px", got, five)
	}
	if _, reason := p.HeaderTexts(); !strings.HasSuffix(reason, "LASTWORD") {
		t.Errorf("reason %q: not whole", reason)
	}
	if h := p.reasonBox.box.Size().Height; h > float32(reasonLines)*line+2*theme.InnerPadding()+1 {
		t.Errorf("reason box %.0f px tall for %d lines of %.0f px", h, reasonLines, line)
	}
}

// textLineHeight is the height of one line of text in a label.
func textLineHeight() float32 {
	return fyne.MeasureText("Mg", theme.TextSize(), fyne.TextStyle{}).Height
}
