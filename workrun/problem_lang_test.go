package workrun_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"workrun/nodes/askhuman"
	"workrun/nodes/condition"
	"workrun/nodes/humanreview"
	"workrun/nodes/join"
	"workrun/nodes/output"
	"workrun/nodes/process"
	"workrun/nodes/remoteagent"
	"workrun/nodes/remotemcp"
	"workrun/nodes/set"
	"workrun/nodes/start"
	"workrun/nodes/toolapp"
	"workrun/workrun"
)

// TestProblemsHaveKeys: every problem Validate finds in a broken workflow —
// its own (names, ids, types, edges, cycles, reachability, reads) and every
// kind's configuration errors — carries a catalogue key, renders in Chinese
// to Chinese words different from the English, and renders in English to
// its Message, so the CLI and JSON keep their wording.
func TestProblemsHaveKeys(t *testing.T) {
	eng := workrun.NewEngine(nil, nil, remoteagent.New(remoteagent.Deps{}), remotemcp.New(remotemcp.Deps{}), toolapp.New(toolapp.Deps{}),
		start.Kind{}, set.Kind{}, condition.Kind{}, join.Kind{}, output.Kind{},
		humanreview.Kind{}, askhuman.Kind{}, process.Kind{})
	wf := workrun.Workflow{Name: "bad\u200bname", State: map[string]workrun.FieldType{
		"n": workrun.FieldNumber, "t": workrun.FieldText, "f": workrun.FieldFile, "a b": workrun.FieldText, "x": "bogus", "z\u200b": workrun.FieldText}}
	add := func(id, typ, config string) {
		wf.Nodes = append(wf.Nodes, workrun.NodeSpec{ID: id, Type: typ, Config: []byte(config)})
	}
	add("s0", "start", `{}`)
	add("s1", "start", `{}`)
	add("s2", "start", `{"x":1}`)
	add("", "join", `{}`)
	add("j", "join", `{}`)
	add("j", "join", `{}`)
	add("k\u200b", "join", `{}`)
	add("j2", "join", `{"a":1}`)
	add("agent", "remote_agent", `{}`)
	add("agent2", "remote_agent", `{"url":"ftp://x","inputs":["t"]}`)
	add("agent3", "remote_agent", `{"url":"http://127.0.0.1:1","inputs":["t"],"timeout_seconds":0.5}`)
	add("agent4", "remote_agent", `{"url":"http://127.0.0.1:1"}`)
	add("agent5", "remote_agent", `{"url":"http://127.0.0.1:1","inputs":["nope"]}`)
	add("mcp", "remote_mcp", `{"url":"http://127.0.0.1:1"}`)
	add("mcp2", "remote_mcp", `{"url":"http://127.0.0.1:1","tool":"x","task":"maybe"}`)
	add("set", "set", `{}`)
	add("set2", "set", `{"values":{"n":"{{t}} and more"}}`)
	add("cond", "condition", `{}`)
	add("cond2", "condition", `{"field":"n"}`)
	add("cond3", "condition", `{"field":"t","op":"gt","value":1}`)
	add("out", "output", `{}`)
	add("out2", "output", `{"fields":["nope"]}`)
	add("review", "human_review", `{}`)
	add("ask", "ask_human", `{}`)
	add("ask2", "ask_human", `{"prompt":"p","field":"n"}`)
	add("ask3", "ask_human", `{"bogus":1}`)
	add("ask4", "ask_human", `{"prompt":["p"]}`)
	add("agent6", "remote_agent", `{"url":"http://127.0.0.1:1","inputs":["f"]}`)
	add("proc", "process", `{}`)
	add("app", "tool_app", `{}`)
	add("app2", "tool_app", `{"command":["x"]}`)
	add("app3", "tool_app", `{"command":["x"],"tool":"t","env":{"A B":"1"}}`)
	add("app4", "tool_app", `{"command":["x"],"tool":"t","cleanup_arguments":{"a":"{{nope}}"}}`)
	add("app5", "tool_app", `{"command":["x"],"tool":"t","cleanup_tool":"u","cleanup_arguments":{"a":"{{nope}}"}}`)
	add("proc2", "process", `{"command":["x"],"timeout_seconds":0}`)
	add("odd", "no_such_kind", `{}`)
	add("c", "condition", `{"field":"n","op":"gt","value":1}`)
	add("o", "output", `{"fields":["t"]}`)
	add("p", "process", `{"command":["echo","{{t}}"]}`)
	add("q", "process", `{"command":["echo"]}`)
	wf.Edges = []workrun.Edge{
		{From: "ghost", To: "o"}, {From: "s0", To: "ghost"}, {From: "s0", To: "s1"},
		{From: "s0", To: "s0"}, {From: "s0", To: "c"}, {From: "c", To: "o"},
		{From: "s0", To: "p", When: "yes"}, {From: "s0", To: "p", When: "yes"},
		{From: "p", To: "q"}, {From: "q", To: "p"}, {From: "s0\u200b", To: "o"},
	}
	probs := eng.Validate(wf)
	if len(probs) < 40 {
		t.Fatalf("only %d problems: %v", len(probs), probs)
	}
	for _, p := range probs {
		if p.Key == "" {
			t.Errorf("no catalogue key: %v", p)
			continue
		}
		if en := p.In("en"); en != p.Message {
			t.Errorf("%s: English %q, Message %q", p.Key, en, p.Message)
		}
		zh := p.In("zh")
		if zh == p.Message || strings.IndexFunc(zh, func(r rune) bool { return unicode.Is(unicode.Han, r) }) < 0 {
			t.Errorf("%s: Chinese %q is not Chinese (English %q)", p.Key, zh, p.Message)
		}
		if strings.Contains(zh, "%!") || strings.Contains(zh, " or ") || strings.Contains(zh, " a ") {
			t.Errorf("%s: bad format %q", p.Key, zh)
		}
	}
	if testing.Verbose() {
		for _, p := range probs {
			t.Log(p.StringIn("zh"))
		}
	}
	// Where a problem is said is translated too; in English it is
	// String, as before.
	for _, p := range probs {
		if p.StringIn("en") != p.String() {
			t.Errorf("StringIn(en) %q, String %q", p.StringIn("en"), p.String())
		}
		if p.NodeID != "" && !strings.HasPrefix(p.StringIn("zh"), "节点 ") {
			t.Errorf("StringIn(zh) %q", p.StringIn("zh"))
		}
	}
}

// TestProblemWithoutKey: a kind whose Compile error carries no Text (one
// written without a catalogue) shows its words in any language.
func TestProblemWithoutKey(t *testing.T) {
	eng := workrun.NewEngine(nil, nil, start.Kind{}, plainKind{})
	wf := workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "s", Type: "start"}, {ID: "p", Type: "plain"}},
		Edges: []workrun.Edge{{From: "s", To: "p"}}}
	probs := eng.Validate(wf)
	if len(probs) != 1 || probs[0].Key != "" || probs[0].In("zh") != "plain: no good" || probs[0].Message != "plain: no good" {
		t.Fatalf("problems %#v", probs)
	}
	if got := probs[0].StringIn("zh"); got != `节点 "p"：plain: no good` {
		t.Errorf("StringIn(zh) %q", got)
	}
}

type plainKind struct{}

func (plainKind) Type() string { return "plain" }
func (plainKind) Compile(workrun.NodeSpec, workrun.Workflow) (workrun.Step, error) {
	return nil, errors.New("plain: no good")
}

var verb = regexp.MustCompile(`%(\[\d+\])?[a-zA-Z]`)

// TestEveryCatalogueEntryHasChinese: every key registered by the engine,
// remotecall and the kinds (their configuration errors included) has English
// and Chinese wording, the Chinese in Chinese, under "<package>.".
func TestEveryCatalogueEntryHasChinese(t *testing.T) {
	reg := workrun.RegisteredTexts()
	cfg := 0
	for k, w := range reg {
		pkg, _, ok := strings.Cut(k, ".")
		if !ok || pkg == "" {
			t.Errorf("key %q has no package", k)
		}
		words := strings.IndexFunc(verb.ReplaceAllString(w[0], ""), unicode.IsLetter) >= 0 // not just "%s: %s"
		if w[0] == "" || w[1] == "" || words && strings.IndexFunc(w[1], func(r rune) bool { return unicode.Is(unicode.Han, r) }) < 0 {
			t.Errorf("%s: %q / %q", k, w[0], w[1])
		}
		if strings.Contains(k, ".cfg_") {
			cfg++
		}
	}
	// The kinds' configuration errors are registered (this test binary
	// imports every kind).
	if cfg < 40 {
		t.Errorf("%d configuration errors registered, want every kind's", cfg)
	}
	if _, ok := reg["remotecall.url_required"]; !ok {
		t.Error("remotecall's texts are not registered")
	}
}
