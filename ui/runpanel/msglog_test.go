package runpanel

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
)

// logLines lists a log as "seq:text" for comparison.
func logLines(l *msgLog) []string {
	out := make([]string, l.len())
	for i := range out {
		m := l.at(i)
		out[i] = fmt.Sprintf("%d:%s", m.Seq, m.Text)
	}
	return out
}

func line(seq int64, text string) workrun.Message {
	return workrun.Message{NodeID: "n", Seq: seq, Text: text}
}

// TestMsgLog_AppendAcrossChunks: lines past a chunk boundary read back in
// order, and the lines before it are never moved.
func TestMsgLog_AppendAcrossChunks(t *testing.T) {
	l := newMsgLog()
	n := 3*msgChunk + 5
	for i := range n {
		l.push(line(int64(i+1), fmt.Sprint(i)))
	}
	first := l.at(0)
	for i := range n {
		l.push(line(int64(n+i+1), "more"))
	}
	if l.len() != 2*n {
		t.Fatalf("len %d, want %d", l.len(), 2*n)
	}
	if first != l.at(0) {
		t.Error("appending moved the first line")
	}
	for _, i := range []int{0, msgChunk - 1, msgChunk, 2*msgChunk + 7, n - 1} {
		if got := l.at(i).Text; got != fmt.Sprint(i) {
			t.Errorf("line %d says %q", i, got)
		}
	}
}

// TestMsgLog_StoredCopyReplacesOldestLiveLine: a stored line takes the place
// of the oldest live line with the same words; lines with other words, or
// the same words but another key or arguments, stay.
func TestMsgLog_StoredCopyReplacesOldestLiveLine(t *testing.T) {
	l := newMsgLog()
	l.push(line(0, "working"))
	l.push(workrun.Message{Key: "k", Args: []string{"a"}})
	l.push(line(0, "working"))
	l.push(line(0, "done"))
	if l.replaceLive(workrun.Message{Key: "k", Args: []string{"b"}, Seq: 9}) {
		t.Error("a line with other arguments replaced a live line")
	}
	for _, m := range []workrun.Message{line(1, "working"), line(2, "working"), line(3, "done")} {
		if !l.replaceLive(m) {
			t.Errorf("%q replaced no live line", m.Text)
		}
	}
	if l.replaceLive(line(4, "working")) {
		t.Error("a third stored copy replaced a line already replaced")
	}
	want := []string{"1:working", "0:", "2:working", "3:done"}
	if d := cmp.Diff(want, logLines(l)); d != "" {
		t.Errorf("lines (-want +got):\n%s", d)
	}
}

// TestMsgLog_AddMerges: stored lines that come before lines held are merged
// in sequence order; a live line stays after the stored line it followed;
// stored lines after every line held are appended.
func TestMsgLog_AddMerges(t *testing.T) {
	l := newMsgLog()
	l.push(line(5, "five"))
	l.push(line(0, "live"))
	l.push(line(9, "nine"))
	l.add([]workrun.Message{line(8, "eight"), line(3, "three"), line(6, "six")})
	l.add([]workrun.Message{line(12, "twelve"), line(10, "ten")})
	want := []string{"3:three", "5:five", "0:live", "6:six", "8:eight", "9:nine", "10:ten", "12:twelve"}
	if d := cmp.Diff(want, logLines(l)); d != "" {
		t.Errorf("lines (-want +got):\n%s", d)
	}
	// The live line is still found after the merge moved it.
	if !l.replaceLive(line(4, "live")) {
		t.Fatal("the live line was lost from the index by the merge")
	}
	// Its stored copy broke the sequence order; sortSeq restores it and
	// leaves no live line behind.
	l.sortSeq()
	want = []string{"3:three", "4:live", "5:five", "6:six", "8:eight", "9:nine", "10:ten", "12:twelve"}
	if d := cmp.Diff(want, logLines(l)); d != "" {
		t.Errorf("after sortSeq (-want +got):\n%s", d)
	}
}

// TestRunPanel_ManyLinesLoadedAndStreamed: a store read of many lines
// merged with lines that arrived live holds each line once, in sequence
// order.
func TestRunPanel_ManyLinesLoadedAndStreamed(t *testing.T) {
	p := newPanel(langNow(), true)
	wf := workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "n", Type: "remote_agent"}}}
	p.Start("r", wf)
	const n = 5000
	var stored []workrun.Message
	for i := range n {
		stored = append(stored, workrun.Message{RunID: "r", NodeID: "n", Seq: int64(i + 1), Text: fmt.Sprint("line ", i+1)})
	}
	// The last 100 lines arrived live first, 10 of them before their commit.
	for _, m := range stored[n-100:] {
		if m.Seq%10 == 0 {
			m.Seq = 0
		}
		p.ApplyQuiet(workrun.Event{Type: "message", RunID: "r", NodeID: "n", Message: &m})
	}
	p.Load(workrun.Run{ID: "r", Workflow: wf, Status: workrun.RunRunning}, nil, stored)
	if got := p.MessageCount("n"); got != n {
		t.Fatalf("panel holds %d lines, want %d", got, n)
	}
	l := p.msgs["n"]
	for i := range n {
		if s := l.at(i).Seq; s != int64(i+1) {
			t.Fatalf("line %d has seq %d", i, s)
		}
	}
}

// TestRunPanel_StreamRedrawsListAtMostEvery: while a run only adds lines,
// a Flush within listEvery of the last list redraw holds the new lines
// back; Tick, a later Flush, or Apply draws them.
func TestRunPanel_StreamRedrawsListAtMostEvery(t *testing.T) {
	test.NewTempApp(t)
	setLanguage("en")
	p := newPanel(langNow(), true)
	win := test.NewWindow(p.Object())
	defer win.Close()
	win.Resize(fyne.NewSize(1024, 700))
	wf := workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "n", Type: "remote_agent"}}}
	p.Start("r", wf)
	p.Pick("n")
	shows := func(s string) bool {
		return slices.ContainsFunc(drawnTexts(p.Object()), func(x string) bool { return strings.HasSuffix(x, s) })
	}
	add := func(s string) {
		p.ApplyQuiet(workrun.Event{Type: "message", RunID: "r", NodeID: "n", Message: &workrun.Message{RunID: "r", NodeID: "n", Args: []string{s}}})
	}
	p.Apply(workrun.Event{Type: "message", RunID: "r", NodeID: "n", Message: &workrun.Message{RunID: "r", NodeID: "n", Args: []string{"first"}}})
	if !shows("first") {
		t.Fatal("Apply did not draw its line at once")
	}
	// The list was just redrawn, however slow this machine is.
	justDrawn := func() { p.listShown = time.Now().Add(time.Hour) }
	justDrawn()
	add("second")
	p.Flush()
	if shows("second") {
		t.Error("a line was drawn within listEvery of the last redraw")
	}
	p.Tick()
	if !shows("second") {
		t.Error("Tick did not draw the line held back")
	}
	justDrawn()
	add("third")
	p.Flush()
	if shows("third") {
		t.Error("a line was drawn within listEvery of the last redraw")
	}
	p.listShown = time.Now().Add(-listEvery)
	add("fourth")
	p.Flush()
	if !shows("third") || !shows("fourth") {
		t.Error("a Flush listEvery after the last redraw did not draw the lines held back")
	}
}

// TestMsgLog_StoredAlreadyAfterLiveLines: the live copy of a stored line
// arriving after it is recognised across the live lines in between, and
// not once 256 lines have followed it.
func TestMsgLog_StoredAlreadyAfterLiveLines(t *testing.T) {
	l := newMsgLog()
	at := time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)
	stored := workrun.Message{Seq: 3, Time: at, Text: "done"}
	l.push(stored)
	live := stored
	live.Seq = 0
	for i := range 255 {
		l.push(line(0, fmt.Sprint(i)))
	}
	if !l.storedAlready(live) {
		t.Error("the stored copy 255 lines back was not found")
	}
	l.push(line(0, "one more"))
	if l.storedAlready(live) {
		t.Error("a stored copy 256 lines back was found; the scan is bounded")
	}
	if l.storedAlready(workrun.Message{Time: at, Text: "other"}) {
		t.Error("a line with other words counted as stored")
	}
}
