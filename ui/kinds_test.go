package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"
	"github.com/google/go-cmp/cmp"

	"workrun/ui/document"
	"workrun/ui/inspector"
	"workrun/workrun"
)

// TestWindowProblems_R3: the problems the canvas and the problem list show
// before a run is allowed (docs/product.md W1, docs/remote-agent.md R3) are
// the engine's, each located on its node.
func TestWindowProblems_R3(t *testing.T) {
	state := map[string]workrun.FieldType{"question": workrun.FieldText, "document": workrun.FieldFile, "answer": workrun.FieldText}
	raNode := func(raw json.RawMessage) workrun.Workflow {
		return workrun.Workflow{Name: "r3", State: state,
			Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "ask", Type: "remote_agent", Config: raw}},
			Edges: []workrun.Edge{{From: "start", To: "ask"}}}
	}
	ra := func(c Config) workrun.Workflow { return raNode(EncodeConfig(c)) }
	ok := Config{URL: "http://127.0.0.1:41241", Inputs: []string{"question"}, Attachments: []string{"document"}, Output: "answer", TimeoutSeconds: 120}
	tests := []struct {
		name string
		wf   workrun.Workflow
		at   []string // the node of each problem
		want []string // substrings, one per expected problem
	}{
		{"valid remote agent", ra(ok), nil, nil},
		{"timeout too long", ra(func() Config { c := ok; c.TimeoutSeconds = 601; return c }()), []string{"ask"}, []string{"from 1 to 600"}},
		{"timeout zero", raNode(document.WithConfigKey(EncodeConfig(ok), "timeout_seconds", 0)), []string{"ask"}, []string{"from 1 to 600"}},
		{"no url", ra(func() Config { c := ok; c.URL = ""; return c }()), []string{"ask"}, []string{"url is required"}},
		{"ftp url", ra(func() Config { c := ok; c.URL = "ftp://x"; return c }()), []string{"ask"}, []string{"not an absolute http(s) URL"}},
		{"attachment not a file", ra(func() Config { c := ok; c.Attachments = []string{"question"}; return c }()), []string{"ask"}, []string{`"question" is text`}},
		{"unknown input", ra(func() Config { c := ok; c.Inputs = []string{"nope"}; return c }()), []string{"ask"}, []string{`no field "nope"`}},
		{"unknown key kept and refused", raNode(document.WithConfigKey(EncodeConfig(ok), "future_key", 1)), []string{"ask"}, []string{`"future_key"`}},
		{"no start", workrun.Workflow{Name: "x", Nodes: []workrun.NodeSpec{{ID: "j", Type: "join"}}}, []string{""}, []string{"no start node"}},
		{"unreachable", workrun.Workflow{Name: "x", Nodes: []workrun.NodeSpec{{ID: "s", Type: "start"}, {ID: "j", Type: "join"}}}, []string{"j"}, []string{"not reachable"}},
		{"cycle", workrun.Workflow{Name: "x", Nodes: []workrun.NodeSpec{{ID: "s", Type: "start"}, {ID: "a", Type: "join"}, {ID: "b", Type: "join"}},
			Edges: []workrun.Edge{{From: "s", To: "a"}, {From: "a", To: "b"}, {From: "b", To: "a"}}}, []string{"b"}, []string{"cycle"}},
		{"unknown kind", workrun.Workflow{Name: "x", Nodes: []workrun.NodeSpec{{ID: "s", Type: "start"}, {ID: "x", Type: "warp"}}, Edges: []workrun.Edge{{From: "s", To: "x"}}},
			[]string{"x"}, []string{`unknown node type "warp"`}},
	}
	w := newTestWindow(t, Deps{Engine: checkingEngine()})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w.OpenWorkflow("", tt.wf)
			got := w.Problems()
			if len(got) != len(tt.want) {
				t.Fatalf("got %d problems %v, want %d", len(got), got, len(tt.want))
			}
			for i, want := range tt.want {
				if !strings.Contains(got[i].Message, want) || got[i].NodeID != tt.at[i] {
					t.Errorf("problem %d = %q on %q, want it to mention %q on %q", i, got[i].Message, got[i].NodeID, want, tt.at[i])
				}
			}
			if len(tt.want) > 0 && w.RunEnabled() {
				t.Error("Run enabled with problems")
			}
		})
	}
}

// TestKinds_FromTheirDescriptions: the palette, the labels and new nodes'
// configs come from the kinds' own descriptions; a kind the window was not
// given gets no palette entry and a config it keeps as it is.
func TestKinds_FromTheirDescriptions(t *testing.T) {
	w := newTestWindow(t, Deps{})
	var got [][]string
	for _, g := range KindGroups(langNow()) {
		got = append(got, append([]string{g.Name}, g.Kinds...))
	}
	want := [][]string{{"agents", "remote_agent", "remote_mcp"}, {"logic", "start", "set", "condition", "join", "output"},
		{"people", "human_review", "ask_human"}, {"local", "process", "tool_app"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("palette groups (-want +got):\n%s", diff)
	}
	for kind, cfg := range map[string]string{
		"remote_mcp": `{"task":"auto","timeout_seconds":120}`, "remote_agent": `{"timeout_seconds":120}`,
		"process": `{"timeout_seconds":60}`, "condition": `{"op":"eq"}`, "human_review": `{"prompt":"Approve?"}`,
		"start": `{}`, "warp": `{}`,
	} {
		if got := string(DefaultConfig(langNow(), kind)); got != cfg {
			t.Errorf("new %s node: config %s, want %s", kind, got, cfg)
		}
	}
	if got := KindLabel(langNow(), "warp"); got != "warp" {
		t.Errorf("label of an unknown kind %q", got)
	}
	w.SetLanguage("zh-Hans")
	if got := KindLabel(langNow(), "remote_mcp"); got != "远程 MCP 工具" {
		t.Errorf("zh label %q", got)
	}
	w.SetLanguage("en")
	if got := KindLabel(langNow(), "remote_mcp"); got != "Remote MCP Tool" {
		t.Errorf("en label %q", got)
	}
}

// TestDescriptions_MatchCompile: every key a kind describes is one its
// Compile reads: a config that sets each described key to a value of its
// value kind compiles, and a new node's config has no key the kind refuses.
func TestDescriptions_MatchCompile(t *testing.T) {
	for _, k := range realKinds() {
		info := k.(workrun.Describer).Describe()
		if info.Type != k.Type() {
			t.Errorf("%s describes itself as %q", k.Type(), info.Type)
		}
		wf := workrun.Workflow{State: map[string]workrun.FieldType{}}
		cfg := map[string]any{}
		for _, f := range info.Fields {
			field := func() string { // a State field of its own for each key, of a type it accepts
				typ := workrun.FieldText
				if len(f.FieldTypes) > 0 {
					typ = f.FieldTypes[0]
				}
				wf.State[f.Key] = typ
				return f.Key
			}
			var v any
			switch f.Value {
			case workrun.ValueText, workrun.ValueLongText, workrun.ValueTool, workrun.ValueJSON:
				v = "x"
			case workrun.ValueTemplate:
				v = "x {{" + field() + "}}"
			case workrun.ValueURL:
				v = "http://127.0.0.1:1/"
			case workrun.ValueCredential:
				v = "token"
			case workrun.ValueInt:
				v = f.Max
			case workrun.ValueChoice:
				v = f.Options[len(f.Options)-1].Value
			case workrun.ValueField:
				v = field()
			case workrun.ValueFields:
				v = []string{field()}
			case workrun.ValueAssignments:
				v = map[string]string{field(): "x"}
			case workrun.ValueCommand:
				v = []string{"true"}
			case workrun.ValueEnv:
				v = map[string]string{"A": "b"}
			case workrun.ValueToolArguments, workrun.ValueJSONObject:
				v = map[string]any{"a": "x"}
			default:
				t.Errorf("%s.%s: value kind %q has no editor", info.Type, f.Key, f.Value)
			}
			cfg[f.Key] = v
		}
		st, err := k.Compile(workrun.NodeSpec{ID: "n", Type: info.Type, Config: document.EncodeConfig(cfg)}, wf)
		if err != nil {
			t.Errorf("%s: every described key set: %v\n%s", info.Type, err, document.EncodeConfig(cfg))
			continue
		}
		var branches []string
		if b, ok := st.(workrun.BranchingStep); ok {
			branches = b.Branches()
		}
		if !cmp.Equal(branches, info.Branches) {
			t.Errorf("%s: describes branches %q, its step takes %q", info.Type, info.Branches, branches)
		}
		if _, err := k.Compile(workrun.NodeSpec{ID: "n", Type: info.Type, Config: info.DefaultConfig()}, wf); err != nil && strings.Contains(err.Error(), "unknown field") {
			t.Errorf("%s: a new node's config %s: %v", info.Type, info.DefaultConfig(), err)
		}
		if info.Label.In("en") == info.Label.Key || info.Label.In("zh") == info.Label.In("en") {
			t.Errorf("%s: label %q / %q is not in both languages", info.Type, info.Label.In("en"), info.Label.In("zh"))
		}
	}
}

// TestMergeConfig_KeepsUnknownKeys: the inspector writes the keys the kind
// describes and never drops the others (a newer engine's).
func TestMergeConfig_KeepsUnknownKeys(t *testing.T) {
	newTestWindow(t, Deps{})
	info, _ := kindInfo("remote_agent")
	got := document.MergeConfig([]byte(`{"url":"http://a","future_key":{"x":1},"timeout_seconds":5,"output":"old"}`), info,
		map[string]any{"url": "http://b", "inputs": []string{"q"}, "timeout_seconds": 9})
	var m map[string]any
	if err := json.Unmarshal(got, &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"url": "http://b", "inputs": []any{"q"}, "timeout_seconds": 9.0, "future_key": map[string]any{"x": 1.0}}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("merged (-want +got):\n%s", diff)
	}
}

// TestInspectorAnswers (docs/workflow-format.md "answers"): the inspector
// edits both remote kinds' `answers` — the Remote Agent's as one text
// template, the Remote MCP Tool's as a JSON object of field → template —
// writes it into the workflow, shows it again, removes the key when the box
// is emptied (a person answers), shows the engine's problem for a template
// over a field State lacks, refuses a form's answers that are not an
// object, and labels the field in Chinese too.
func TestInspectorAnswers(t *testing.T) {
	state := map[string]workrun.FieldType{"city": workrun.FieldText, "region": workrun.FieldText, "answer": workrun.FieldText}
	for _, c := range []struct {
		kind, given, bad, zh string
		base                 map[string]any
		check                func(json.RawMessage) bool
	}{
		{kind: "remote_agent", given: "To {{city}}, soon", bad: "To {{nowhere}}", zh: "对智能体第一个问题的回答",
			base: map[string]any{"url": "http://127.0.0.1:41241/", "inputs": []string{"city"}, "output": "answer", "timeout_seconds": 120},
			check: func(raw json.RawMessage) bool {
				var v string
				return json.Unmarshal(raw, &v) == nil && v == "To {{city}}, soon"
			}},
		{kind: "remote_mcp", given: `{"region": "{{region}}", "depth": "quick"}`, bad: "quick, please", zh: "对服务器第一个表单的回答",
			base: map[string]any{"url": "http://127.0.0.1:41251/mcp", "tool": "survey", "output": "answer", "timeout_seconds": 120},
			check: func(raw json.RawMessage) bool {
				var v map[string]string
				return json.Unmarshal(raw, &v) == nil && v["region"] == "{{region}}" && v["depth"] == "quick" && len(v) == 2
			}},
	} {
		t.Run(c.kind, func(t *testing.T) {
			w := newTestWindow(t, Deps{Engine: kindsEngine()})
			cfg, _ := json.Marshal(c.base)
			w.OpenWorkflow("", workrun.Workflow{Name: "answers", State: state,
				Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "n", Type: c.kind, Config: cfg}},
				Edges: []workrun.Edge{{From: "start", To: "n"}}})
			w.doc.Select("n", false)
			answers := func() (json.RawMessage, bool) {
				n, _ := w.doc.Node("n")
				var m map[string]json.RawMessage
				if err := json.Unmarshal(n.Config, &m); err != nil {
					t.Fatalf("config %s: %v", n.Config, err)
				}
				v, ok := m["answers"]
				return v, ok
			}
			entry := func() *widget.Entry {
				switch e := w.insp.Widget("answers").(type) {
				case *inspector.TemplateEntry: // the Remote Agent's text template
					return &e.Entry
				case *widget.Entry:
					return e
				}
				t.Fatalf("no answers editor in the %s inspector", c.kind)
				return nil
			}
			entry().SetText(c.given)
			if v, ok := answers(); !ok || !c.check(v) {
				t.Fatalf("answers after editing: %s (set %v)", v, ok)
			}
			if p := w.Problems(); len(p) != 0 {
				t.Fatalf("problems: %v", p)
			}
			w.doc.Select("start", false)
			w.doc.Select("n", false)
			if got := entry().Text; !strings.Contains(got, "{{") {
				t.Errorf("shown again: %q", got)
			}
			entry().SetText(c.bad)
			switch c.kind {
			case "remote_agent":
				if p := w.Problems(); len(p) != 1 || p[0].NodeID != "n" || !strings.Contains(p[0].Message, `answers: State has no field "nowhere"`) {
					t.Errorf("a template over a missing field: problems %v", p)
				}
			case "remote_mcp":
				if p := w.insp.Pending(); !strings.Contains(p, "write a JSON object") || !strings.Contains(p, c.bad) {
					t.Errorf("answers that are not an object: pending %q, want it refused, named", p)
				}
				if v, _ := answers(); !c.check(v) {
					t.Errorf("the refused text replaced the answers: %s", v)
				}
			}
			entry().SetText("")
			if v, ok := answers(); ok {
				t.Errorf("an emptied box left answers %s in the config", v)
			}
			w.SetLanguage("zh-Hans")
			defer SetupLanguage("en")
			w.doc.Select("start", false)
			w.doc.Select("n", false)
			if shown := strings.Join(texts(w.insp.Object()), ""); !strings.Contains(shown, c.zh) {
				t.Errorf("no Chinese label for answers:\n%s", shown)
			}
		})
	}
}
