package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// brokenWorkflow has a problem on a node of every kind (each with a config
// its kind refuses), an unknown kind, a node no path reaches that reads a
// field nothing provides, an edge to a missing node and an edge that makes
// a cycle.
func brokenWorkflow() workrun.Workflow {
	wf := workrun.Workflow{Name: "坏流程", State: map[string]workrun.FieldType{"数": workrun.FieldNumber, "文": workrun.FieldText}}
	add := func(id, typ, config string) {
		wf.Nodes = append(wf.Nodes, workrun.NodeSpec{ID: id, Type: typ, Config: []byte(config),
			Position: &workrun.Position{X: float32(40 + 220*(len(wf.Nodes)%4)), Y: float32(60 + 140*(len(wf.Nodes)/4))}})
	}
	add("s0", "start", `{}`)
	add("s1", "start", `{"x":1}`)
	add("agent", "remote_agent", `{}`)
	add("agent2", "remote_agent", `{"url":"http://127.0.0.1:1","inputs":["无"]}`)
	add("mcp", "remote_mcp", `{"url":"http://127.0.0.1:1"}`)
	add("set", "set", `{}`)
	add("cond", "condition", `{}`)
	add("join", "join", `{"a":1}`)
	add("out", "output", `{}`)
	add("review", "human_review", `{}`)
	add("ask", "ask_human", `{}`)
	add("ask2", "ask_human", `{"prompt":"问","field":"数"}`)
	add("proc", "process", `{}`)
	add("odd", "no_such_kind", `{}`)
	add("lost", "output", `{"fields":["文"]}`)
	wf.Edges = []workrun.Edge{{From: "s0", To: "ghost"}, {From: "s0", To: "s0"}}
	return wf
}

// englishWords are words of the engine's and kinds' English problems; none
// may be left in a problem shown in Chinese.
var englishWords = []string{"config", "required", "declared", "reachable", "missing", "must", "node", "edge", "field", "type", "takes", "list", "unknown", "cycle"}

var quoted = regexp.MustCompile(`"[^"]*"`)

// TestProblemsInChinese: with the real kinds, every problem the window
// shows (the problem list, the warning on each node, the inspector's form)
// is in the window's language, and switching the language re-renders them.
func TestProblemsInChinese(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: kindsEngine()})
	t.Cleanup(func() { SetupLanguage("en") })
	wf := brokenWorkflow()
	onUI(w, func() { w.OpenWorkflow("", wf) })

	shown := func() (list []string, nodes map[string]string, forms map[string][]string) {
		nodes, forms = map[string]string{}, map[string][]string{}
		onUI(w, func() {
			for i := range w.Problems() {
				o := w.probBox.CreateItem()
				w.probBox.UpdateItem(i, o)
				list = append(list, o.(*widget.Label).Text)
			}
			for _, n := range wf.Nodes {
				nodes[n.ID] = w.cv.NodeWarning(n.ID)
				w.doc.Select(n.ID, false)
				forms[n.ID] = w.insp.Problems()
			}
			w.doc.Select("", false)
		})
		return list, nodes, forms
	}

	probs := w.Problems()
	if len(probs) < len(wf.Nodes) {
		t.Fatalf("%d problems, want at least one per node: %v", len(probs), probs)
	}
	list, _, _ := shown()
	for i, p := range probs {
		if p.Key == "" {
			t.Errorf("problem %v has no catalogue key", p)
		}
		want := "⚠ " + p.Message
		if p.NodeID != "" {
			want = "⚠ " + p.NodeID + ": " + p.Message
		}
		if list[i] != want {
			t.Errorf("English list line %q, want %q", list[i], want)
		}
	}

	onUI(w, func() { w.SetLanguage("zh-Hans") })
	list, nodes, forms := shown()
	chinese := func(where, s string) {
		t.Helper()
		if strings.IndexFunc(s, isCJK) < 0 {
			t.Errorf("%s: %q is not Chinese", where, s)
		}
		// A config key in quotes ("field") is a name, not English.
		low := strings.ToLower(quoted.ReplaceAllString(s, ""))
		for _, e := range englishWords {
			if strings.Contains(low, e) {
				t.Errorf("%s: %q keeps the English word %q", where, s, e)
			}
		}
	}
	if len(list) != len(probs) {
		t.Fatalf("the list shows %d problems after the switch, want %d", len(list), len(probs))
	}
	for i, s := range list {
		chinese(fmt.Sprintf("problem list %d", i), s)
	}
	for _, n := range wf.Nodes {
		if nodes[n.ID] == "" {
			t.Errorf("node %s shows no problem", n.ID)
		}
		chinese("canvas "+n.ID, nodes[n.ID])
		for _, s := range forms[n.ID] {
			chinese("inspector "+n.ID, s)
		}
	}
	if len(forms["proc"]) == 0 || len(forms["agent"]) == 0 {
		t.Errorf("the inspector shows no problem for proc (%q) or agent (%q)", forms["proc"], forms["agent"])
	}
}
