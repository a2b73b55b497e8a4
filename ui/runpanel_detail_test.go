package ui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"workrun/workrun"
)

// TestRunPanel_NodeDetails: the run panel shows the selected node's inputs
// and outputs above its messages, a running node's duration counts up, a
// sibling stopped by a failure says which node failed, and internal words
// (context canceled, exit status) read as sentences.
func TestRunPanel_NodeDetails(t *testing.T) {
	test.NewTempApp(t)
	SetupLanguage("en")
	wf := workrun.Workflow{Name: "wf", Nodes: []workrun.NodeSpec{{ID: "ask", Type: "remote_agent"}, {ID: "check", Type: "process"}, {ID: "end", Type: "output"}}}
	p := newRunPanel(langNow(), false)
	p.Start("r", wf)
	started := time.Now().Add(-2 * time.Second)
	p.Apply(Event{Type: "node", RunID: "r", NodeID: "ask", Node: &workrun.NodeRun{RunID: "r", NodeID: "ask", Type: "remote_agent",
		Status: workrun.NodeRunning, StartedAt: started, Inputs: workrun.Values{"question": "why?"}}})
	for i := range 50 {
		p.Apply(Event{Type: "message", RunID: "r", NodeID: "ask", Message: &workrun.Message{RunID: "r", NodeID: "ask", Seq: int64(i + 1), Key: "workrun.stopped_by_user"}})
	}
	if p.Selected() != "ask" {
		t.Fatalf("selected %q, want the running node", p.Selected())
	}
	title, _, io := p.DetailTexts()
	if !strings.Contains(io, "inputs:\nquestion:\n  why?") || !strings.Contains(io, "outputs: not yet") {
		t.Errorf("inputs/outputs of the running node:\n%s", io)
	}
	secs := func(s string) string { return regexp.MustCompile(`\((\d+(\.\d+)?)s\)`).FindString(s) }
	before := secs(title)
	if before == "" {
		t.Fatalf("running node's title %q shows no duration", title)
	}
	time.Sleep(1100 * time.Millisecond)
	p.Tick()
	if after := secs(p.NodeLine("ask")); after == before || after == "" {
		t.Errorf("duration did not tick: %s then %s", before, after)
	}

	// check fails; ask is stopped by it; its outputs show.
	p.Apply(Event{Type: "node", RunID: "r", NodeID: "check", Node: &workrun.NodeRun{RunID: "r", NodeID: "check", Type: "process",
		Status: workrun.NodeFailed, StartedAt: started, EndedAt: time.Now(), Error: "command failed: exit status 3",
		Outputs: workrun.Values{"check": "partial"}}})
	p.Apply(Event{Type: "node", RunID: "r", NodeID: "ask", Node: &workrun.NodeRun{RunID: "r", NodeID: "ask", Type: "remote_agent",
		Status: workrun.NodeStopped, StartedAt: started, EndedAt: time.Now(), Error: "context canceled"}})
	p.Apply(runEv(workrun.Run{ID: "r", Status: workrun.RunFailed, FailedNode: "check", Reason: "check: command failed: exit status 3"}))
	if got := p.NodeLine("ask"); !strings.Contains(got, "stopped because check failed") {
		t.Errorf("sibling line %q does not say why it stopped", got)
	}
	p.Pick("ask")
	if _, errText, _ := p.DetailTexts(); errText != "stopped before it finished" {
		t.Errorf("stopped node's error %q, want words for people", errText)
	}
	p.Pick("check")
	_, errText, io := p.DetailTexts()
	if !strings.Contains(io, "outputs:\ncheck:\n  partial") {
		t.Errorf("outputs of check:\n%s", io)
	}
	if !strings.Contains(errText, "command failed: exit status 3") {
		t.Errorf("check's error %q", errText)
	}
	if _, reason := p.HeaderTexts(); !strings.Contains(reason, "(check)") {
		t.Errorf("reason %q", reason)
	}
	SetupLanguage("zh-Hans")
	defer SetupLanguage("en")
	zh := newRunPanel(langNow(), false) // as the window's language switch rebuilds it
	zh.Adopt(p)
	p = zh
	p.Pick("ask")
	if _, errText, _ := p.DetailTexts(); errText != "未完成即被停止" {
		t.Errorf("zh: stopped node's error %q", errText)
	}
	if got := p.MessageLines("ask"); !strings.HasSuffix(got[0], "已被用户停止") {
		t.Errorf("zh: messages not rendered in Chinese: %q", got[0])
	}
	if got := HumanError(langNow(), "check: command failed: exit status 3"); got != "check：命令失败：退出状态 3" {
		t.Errorf("zh: %q", got)
	}
}
