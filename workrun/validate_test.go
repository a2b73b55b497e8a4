package workrun_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
)

func TestValidateLocatesEachProblem(t *testing.T) {
	base := func() workrun.Workflow {
		return workrun.Workflow{
			State: map[string]workrun.FieldType{"n": "number", "msg": "text", "flag": "boolean"},
			Nodes: []workrun.NodeSpec{node("start", "start", ""), node("s", "set", `{"values":{"msg":"hi {{n}}"}}`)},
			Edges: edges("start>s"),
		}
	}
	tests := []struct {
		name   string
		change func(wf *workrun.Workflow)
		want   workrun.Problem // Message compared by substring
	}{
		{"unknown node type", func(wf *workrun.Workflow) {
			wf.Nodes = append(wf.Nodes, node("x", "teleport", ""))
			wf.Edges = append(wf.Edges, workrun.Edge{From: "s", To: "x"})
		}, workrun.Problem{NodeID: "x", EdgeIndex: -1, Message: `unknown node type "teleport"`}},
		{"missing config", func(wf *workrun.Workflow) {
			wf.Nodes[1].Config = nil
		}, workrun.Problem{NodeID: "s", EdgeIndex: -1, Message: `"values" must assign at least one field`}},
		{"ill-typed config", func(wf *workrun.Workflow) {
			wf.Nodes[1] = node("s", "output", `{"fields":"msg"}`)
		}, workrun.Problem{NodeID: "s", EdgeIndex: -1, Message: `"fields" must be a list`}},
		{"unknown config key", func(wf *workrun.Workflow) {
			wf.Nodes[1] = node("s", "output", `{"fields":["msg"],"colour":"red"}`)
		}, workrun.Problem{NodeID: "s", EdgeIndex: -1, Message: `unknown field "colour"`}},
		{"edge to missing node", func(wf *workrun.Workflow) {
			wf.Edges = append(wf.Edges, workrun.Edge{From: "s", To: "ghost"})
		}, workrun.Problem{NodeID: "s", EdgeIndex: 1, Message: `edge to missing node "ghost"`}},
		{"cycle", func(wf *workrun.Workflow) {
			wf.Nodes = append(wf.Nodes, node("j", "join", ""))
			wf.Edges = append(wf.Edges, workrun.Edge{From: "s", To: "j"}, workrun.Edge{From: "j", To: "s"})
		}, workrun.Problem{NodeID: "j", EdgeIndex: 2, Message: "makes a cycle"}},
		{"unreachable node", func(wf *workrun.Workflow) {
			wf.Nodes = append(wf.Nodes, node("island", "join", ""))
		}, workrun.Problem{NodeID: "island", EdgeIndex: -1, Message: "not reachable from the start node"}},
		{"read nothing provides", func(wf *workrun.Workflow) {
			// "late" reads msg before any node writes it: no start upstream.
			wf.Nodes = append(wf.Nodes, node("late", "output", `{"fields":["msg"]}`), node("s2", "set", `{"values":{"msg":"x"}}`))
			wf.Edges = []workrun.Edge{{From: "start", To: "s"}}
			wf.Nodes[0] = node("start", "start", "")
			wf.Edges = append(wf.Edges, workrun.Edge{From: "late", To: "s2"})
		}, workrun.Problem{NodeID: "late", EdgeIndex: -1, Message: `reads field "msg", but no node before it provides it`}},
		{"type mismatch", func(wf *workrun.Workflow) {
			wf.Nodes[1] = node("s", "condition", `{"field":"msg","op":"gt","value":3}`)
		}, workrun.Problem{NodeID: "s", EdgeIndex: -1, Message: "type mismatch"}},
		{"literal of the wrong type", func(wf *workrun.Workflow) {
			wf.Nodes[1] = node("s", "set", `{"values":{"n":"three"}}`)
		}, workrun.Problem{NodeID: "s", EdgeIndex: -1, Message: "type mismatch"}},
		{"timeout out of range", func(wf *workrun.Workflow) {
			wf.Nodes[1] = node("s", "process", `{"command":["true"],"timeout_seconds":0}`)
		}, workrun.Problem{NodeID: "s", EdgeIndex: -1, Message: "timeout_seconds 0 is out of range"}},
		{"branch label on a plain edge", func(wf *workrun.Workflow) {
			wf.Edges[0].When = "true"
		}, workrun.Problem{NodeID: "start", EdgeIndex: 0, Message: "only a condition node picks a branch"}},
		{"condition edge without when", func(wf *workrun.Workflow) {
			wf.Nodes[1] = node("s", "condition", `{"field":"n","op":"gt","value":3}`)
			wf.Nodes = append(wf.Nodes, node("j", "join", ""))
			wf.Edges = append(wf.Edges, workrun.Edge{From: "s", To: "j"})
		}, workrun.Problem{NodeID: "s", EdgeIndex: 1, Message: "must say when it is followed"}},
		{"undeclared state field", func(wf *workrun.Workflow) {
			wf.Nodes[1] = node("s", "set", `{"values":{"nope":"x"}}`)
		}, workrun.Problem{NodeID: "s", EdgeIndex: -1, Message: `"nope", which is not declared in State`}},
		{"no start", func(wf *workrun.Workflow) {
			wf.Nodes = wf.Nodes[1:]
			wf.Edges = nil
		}, workrun.Problem{EdgeIndex: -1, Message: "no start node"}},
		{"unknown state type", func(wf *workrun.Workflow) {
			wf.State["when"] = "date"
		}, workrun.Problem{EdgeIndex: -1, Message: `unknown type "date"`}},
	}
	e, _ := newEngine(t, fakeKind{})
	if probs := e.Validate(base()); len(probs) != 0 {
		t.Fatalf("base workflow: %v", probs)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wf := base()
			tc.change(&wf)
			probs := e.Validate(wf)
			found := false
			for _, p := range probs {
				if p.NodeID == tc.want.NodeID && p.EdgeIndex == tc.want.EdgeIndex && strings.Contains(p.Message, tc.want.Message) {
					found = true
				}
			}
			if !found {
				t.Errorf("want %+v among %+v", tc.want, probs)
			}
			if _, err := e.Start(t.Context(), "", wf, nil); err == nil {
				t.Error("Start accepted an invalid workflow")
			}
		})
	}
}

func TestProblemJSON(t *testing.T) {
	b, err := json.Marshal(workrun.Problem{NodeID: "a", EdgeIndex: -1, Message: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`{"node_id":"a","edge_index":-1,"message":"m"}`, string(b)); diff != "" {
		t.Error(diff)
	}
}

// TestValidateRefusesInvisibleCharacters: node ids, State field names, edge
// references and the workflow name that hold control, bidi or zero-width
// characters (which could retitle a terminal or pass for another name) are
// refused, and the problem shows the name escaped.
func TestValidateRefusesInvisibleCharacters(t *testing.T) {
	e, _ := newEngine(t, fakeKind{})
	for _, tc := range []struct {
		name string
		wf   workrun.Workflow
		want string
	}{
		{"escape in a node id", workrun.Workflow{Nodes: []workrun.NodeSpec{node("start", "start", ""), node("x\x1b]0;pwned\x07", "join", "")},
			Edges: []workrun.Edge{{From: "start", To: "x\x1b]0;pwned\x07"}}}, `a node id must not contain an invisible or control character (U+001B)`},
		{"newline in a node id", workrun.Workflow{Nodes: []workrun.NodeSpec{node("start", "start", ""), node("a\n[other] succeeded", "join", "")},
			Edges: []workrun.Edge{{From: "start", To: "a\n[other] succeeded"}}}, `(U+000A)`},
		{"bidi override in a node id", workrun.Workflow{Nodes: []workrun.NodeSpec{node("start", "start", ""), node("gnp.\u202eexe", "join", "")},
			Edges: []workrun.Edge{{From: "start", To: "gnp.\u202eexe"}}}, `(U+202E)`},
		{"zero-width space in a field", workrun.Workflow{State: map[string]workrun.FieldType{"na\u200bme": "text"},
			Nodes: []workrun.NodeSpec{node("start", "start", "")}}, `state field "na\u200bme": a name must not contain an invisible or control character (U+200B)`},
		{"control in an edge when", workrun.Workflow{State: map[string]workrun.FieldType{"n": "number"},
			Nodes: []workrun.NodeSpec{node("start", "start", ""), node("c", "condition", `{"field":"n","op":"eq","value":1}`), node("j", "join", "")},
			Edges: []workrun.Edge{{From: "start", To: "c"}, {From: "c", To: "j", When: "true\x00"}}}, `edge when "true\x00" contains`},
		{"not UTF-8", workrun.Workflow{Nodes: []workrun.NodeSpec{node("start", "start", ""), node("a\xff", "join", "")},
			Edges: []workrun.Edge{{From: "start", To: "a\xff"}}}, "bytes that are not UTF-8"},
		{"escape in the name", workrun.Workflow{Name: "flow\x1b[2J", Nodes: []workrun.NodeSpec{node("start", "start", "")}}, `the workflow name "flow\x1b[2J" contains`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			probs := e.Validate(tc.wf)
			found := false
			for _, p := range probs {
				if strings.Contains(p.String(), tc.want) {
					found = true
				}
				if strings.ContainsAny(p.String(), "\x1b\n\x07\u202e\u200b") {
					t.Errorf("a problem prints the character raw: %q", p.String())
				}
			}
			if !found {
				t.Errorf("problems %q lack %q", probs, tc.want)
			}
		})
	}
	// Ordinary names, also non-ASCII ones and spaces in the workflow name, pass.
	ok := workrun.Workflow{Name: "Übersicht 报告", State: map[string]workrun.FieldType{"报告": "text"},
		Nodes: []workrun.NodeSpec{node("start", "start", ""), node("zusammenführen-1", "join", "")},
		Edges: []workrun.Edge{{From: "start", To: "zusammenführen-1"}}}
	if probs := e.Validate(ok); len(probs) > 0 {
		t.Errorf("problems %v", probs)
	}
}
