package ui

import (
	"encoding/json"
	"io/fs"
	"os"
	"strings"
	"testing"

	"workrun/ui/document"
	"workrun/workrun"
)

// chinese reports whether s has a Chinese character.
func chinese(s string) bool { return strings.IndexFunc(s, isCJK) >= 0 }

// TestNewThingsNamedInTheWindowsLanguage: a new workflow, a new node's
// title and its default words are in the language of the window they
// were made in; a workflow saved before a switch keeps its name.
func TestNewThingsNamedInTheWindowsLanguage(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: kindsEngine()})
	t.Cleanup(func() { SetupLanguage("en") })
	node := func(id string) workrun.NodeSpec {
		t.Helper()
		n, ok := w.doc.Node(id)
		if !ok {
			t.Fatalf("no node %s", id)
		}
		return n
	}
	var id1, id2 string
	onUI(w, func() {
		w.newWorkflow()
		id1 = w.cv.AddKind("human_review")
		id2 = w.cv.AddKind("human_review")
	})
	if got := w.doc.Workflow().Name; got != "Untitled workflow" {
		t.Errorf("English: new workflow named %q", got)
	}
	if got := node("start").Title; got != "Start" {
		t.Errorf("English: new workflow's start node titled %q", got)
	}
	if got, got2 := node(id1).Title, node(id2).Title; got != "Human Review" || got2 != "Human Review 2" {
		t.Errorf("English: new review nodes titled %q, %q", got, got2)
	}
	if got := document.ConfigString(node(id1).Config, "prompt"); got != "Approve?" {
		t.Errorf("English: new review node's prompt %q", got)
	}
	onUI(w, func() { w.save() })
	saved := w.wfID

	onUI(w, func() { w.SetLanguage("zh-Hans") })
	if got := w.doc.Workflow().Name; got != "Untitled workflow" {
		t.Errorf("the saved workflow was renamed %q by the switch", got)
	}
	onUI(w, func() {
		w.newWorkflow()
		id1 = w.cv.AddKind("human_review")
		id2 = w.cv.AddKind("set")
	})
	if w.wfID == saved {
		t.Fatal("New did not make a new workflow")
	}
	if got := w.doc.Workflow().Name; got != "未命名工作流" {
		t.Errorf("Chinese: new workflow named %q", got)
	}
	for _, id := range []string{"start", id1, id2} {
		if got := node(id).Title; !chinese(got) {
			t.Errorf("Chinese: new node %s titled %q", id, got)
		}
	}
	if got := document.ConfigString(node(id1).Config, "prompt"); got != "批准吗？" {
		t.Errorf("Chinese: new review node's prompt %q", got)
	}
	// The placeholder of a set node's values is a template in Chinese too.
	onUI(w, func() { w.doc.Select(id2, false) })
	var hints []string
	onUI(w, func() { hints = texts(w.insp.Object()) })
	if !containsString(hints, "msg = 你好 {{name}}") {
		t.Errorf("Chinese: the values' placeholder is not Chinese; the inspector shows %q", hints)
	}
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestUntitledFollowsTheSwitch: the window's first, untouched workflow
// was named by the window, so a language switch renames it (and the
// title bar says so); once saved or edited it keeps its name.
func TestUntitledFollowsTheSwitch(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: kindsEngine()})
	t.Cleanup(func() { SetupLanguage("en") })
	if got := w.doc.Workflow().Name; got != "Untitled workflow" {
		t.Fatalf("first workflow named %q", got)
	}
	onUI(w, func() { w.SetLanguage("zh-Hans") })
	if got := w.doc.Workflow().Name; got != "未命名工作流" {
		t.Errorf("after the switch to Chinese the untouched workflow is named %q", got)
	}
	if got := w.win.Title(); !strings.Contains(got, "未命名工作流") {
		t.Errorf("title bar %q", got)
	}
	onUI(w, func() { w.SetLanguage("en") })
	if got := w.doc.Workflow().Name; got != "Untitled workflow" {
		t.Errorf("back in English it is named %q", got)
	}
	onUI(w, func() {
		w.cv.AddKind("set")
		w.SetLanguage("zh-Hans")
	})
	if got := w.doc.Workflow().Name; got != "Untitled workflow" {
		t.Errorf("an edited workflow was renamed %q", got)
	}
}

// TestSamplesInChinese: Help → Sample in a Chinese window opens the
// sample with a Chinese name, node titles and starting inputs; a copy
// saved in English before the switch is reused, not doubled, and keeps
// its English name.
func TestSamplesInChinese(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: kindsEngine()})
	t.Cleanup(func() { SetupLanguage("en") })
	onUI(w, func() { w.openSample(SampleRemote) })
	english := w.wfID
	if w.doc.Workflow().Name != "Remote Agent demo" || SampleInputs[w.doc.Workflow().Name]["question"] != "echo Hello from Workrun" {
		t.Errorf("English sample %q with inputs %v", w.doc.Workflow().Name, SampleInputs[w.doc.Workflow().Name])
	}
	onUI(w, func() { w.SetLanguage("zh-Hans") })
	onUI(w, func() { w.openSample(SampleRemote) })
	if w.wfID != english || w.doc.Workflow().Name != "Remote Agent demo" || len(w.recs) != 1 {
		t.Errorf("in Chinese the sample saved in English was not reused: %s %q, %d workflows", w.wfID, w.doc.Workflow().Name, len(w.recs))
	}

	opens := map[string]func(){
		"parallel": func() { w.openSample(SampleParallel) },
		"tool app": func() { w.openSample(SampleToolApp) },
		"mcp":      w.openMCPSample,
	}
	for name, open := range opens {
		onUI(w, open)
		wf := w.doc.Workflow()
		if !chinese(wf.Name) {
			t.Errorf("%s: sample named %q", name, wf.Name)
		}
		for _, n := range wf.Nodes {
			if !chinese(n.Title) {
				t.Errorf("%s: node %s titled %q", name, n.ID, n.Title)
			}
		}
		if SampleInputs[wf.Name] == nil {
			t.Errorf("%s: no starting inputs for %q", name, wf.Name)
		}
		if hint := sampleHint(langNow(), wf); hint == "" && name != "tool app" { // the Tool App calls no demo server
			t.Errorf("%s: the inputs dialog does not know %q for a sample", name, wf.Name)
		}
	}
	if got := SampleInputs["远程 MCP 演示"]["topic"]; !chinese(got) {
		t.Errorf("the MCP sample starts with the topic %q", got)
	}
	var args map[string]string
	var cfg map[string]json.RawMessage
	if err := json.Unmarshal(SampleToolApp(langNow(), "").Nodes[1].Config, &cfg); err != nil || json.Unmarshal(cfg["arguments"], &args) != nil {
		t.Fatalf("tool app config: %v", err)
	}
	if args["message"] != "你好，{{name}}" {
		t.Errorf("Chinese Tool App sample sends %q", args["message"])
	}
}

// TestExamplesInChinese: File → New from template in a Chinese window
// makes the workflow with a Chinese name, node titles and words (a
// greeting, a review prompt); in English it is the file as shipped. Every
// example's name and titles have their Chinese, so a new example cannot
// stay English.
func TestExamplesInChinese(t *testing.T) {
	examples := os.DirFS("../examples")
	w := newTestWindow(t, Deps{Engine: kindsEngine(), Templates: examples})
	t.Cleanup(func() { SetupLanguage("en") })
	files, err := fs.Glob(examples, "*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("examples: %v %v", files, err)
	}
	open := func(file string) workrun.Workflow {
		onUI(w, func() { w.newFromTemplate(file) })
		return w.doc.Workflow()
	}
	for _, f := range files {
		shipped, err := w.readTemplate(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := open(f); got.Name != shipped.Name || !sameTitles(got, shipped) || !sameConfigs(got, shipped) {
			t.Errorf("English %s: %q, want the file as shipped", f, got.Name)
		}
		if windowWord("zh-Hans", exampleKey(f)+".name", "") == "" {
			t.Errorf("%s: no Chinese name (%s.name)", f, exampleKey(f))
		}
		for _, n := range shipped.Nodes {
			if n.Title != "" && windowWord("zh-Hans", exampleKey(f)+"."+n.ID, "") == "" {
				t.Errorf("%s: node %s's title %q has no Chinese", f, n.ID, n.Title)
			}
		}
	}
	onUI(w, func() { w.SetLanguage("zh-Hans") })
	for _, f := range files {
		got := open(f)
		if !chinese(got.Name) {
			t.Errorf("Chinese %s: named %q", f, got.Name)
		}
		for _, n := range got.Nodes {
			if n.Title != "" && !chinese(n.Title) {
				t.Errorf("Chinese %s: node %s titled %q", f, n.ID, n.Title)
			}
		}
	}
	if got := open("hello.json"); !strings.Contains(string(got.Nodes[1].Config), "你好，{{name}}") {
		t.Errorf("Chinese hello greets with %s", got.Nodes[1].Config)
	}
	if got := open("review.json"); document.ConfigString(got.Nodes[1].Config, "prompt") != "发布这份草稿吗？" || !strings.Contains(string(got.Nodes[1].Config), `"fields":["draft"]`) {
		t.Errorf("Chinese review: %s", got.Nodes[1].Config)
	}
}

func sameTitles(a, b workrun.Workflow) bool {
	if len(a.Nodes) != len(b.Nodes) {
		return false
	}
	for i := range a.Nodes {
		if a.Nodes[i].Title != b.Nodes[i].Title {
			return false
		}
	}
	return true
}

func sameConfigs(a, b workrun.Workflow) bool {
	for i := range a.Nodes {
		var x, y any
		if json.Unmarshal(a.Nodes[i].Config, &x) != nil || json.Unmarshal(b.Nodes[i].Config, &y) != nil {
			return string(a.Nodes[i].Config) == string(b.Nodes[i].Config)
		}
		bx, _ := json.Marshal(x)
		by, _ := json.Marshal(y)
		if string(bx) != string(by) {
			return false
		}
	}
	return true
}
