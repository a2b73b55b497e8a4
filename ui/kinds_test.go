package ui

import (
	"strings"
	"testing"

	"workrun/workrun"
)

// TestCheckWorkflow_R3 checks the problems the inspector and canvas show
// before a run is allowed (docs/product.md W1, docs/remote-agent.md R3).
func TestCheckWorkflow_R3(t *testing.T) {
	state := map[string]workrun.FieldType{"question": workrun.FieldText, "document": workrun.FieldFile, "answer": workrun.FieldText}
	ra := func(c Config) workrun.Workflow {
		return workrun.Workflow{State: state,
			Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "ask", Type: "remote_agent", Config: EncodeConfig(c)}},
			Edges: []workrun.Edge{{From: "start", To: "ask"}}}
	}
	ok := Config{URL: "http://127.0.0.1:41241", Inputs: []string{"question"}, Attachments: []string{"document"}, Output: "answer", TimeoutSeconds: 120}
	tests := []struct {
		name string
		wf   workrun.Workflow
		want []string // substrings, one per expected problem
	}{
		{"valid remote agent", ra(ok), nil},
		{"timeout too long", ra(func() Config { c := ok; c.TimeoutSeconds = 601; return c }()), []string{"1–600"}},
		{"timeout zero", ra(func() Config { c := ok; c.TimeoutSeconds = 0; return c }()), []string{"1–600"}},
		{"no url", ra(func() Config { c := ok; c.URL = ""; return c }()), []string{"URL"}},
		{"ftp url", ra(func() Config { c := ok; c.URL = "ftp://x"; return c }()), []string{"http://"}},
		{"attachment not a file", ra(func() Config { c := ok; c.Attachments = []string{"question"}; return c }()), []string{`"question" is text`}},
		{"unknown input", ra(func() Config { c := ok; c.Inputs = []string{"nope"}; return c }()), []string{`unknown State field "nope"`}},
		{"no start", workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "j", Type: "join"}}}, []string{"exactly one start"}},
		{"unreachable", workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "s", Type: "start"}, {ID: "j", Type: "join"}}}, []string{"not reachable"}},
		{"cycle", workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "s", Type: "start"}, {ID: "a", Type: "join"}, {ID: "b", Type: "join"}},
			Edges: []workrun.Edge{{From: "s", To: "a"}, {From: "a", To: "b"}, {From: "b", To: "a"}}}, []string{"cycle"}},
		{"unknown kind", workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "s", Type: "start"}, {ID: "x", Type: "warp"}}, Edges: []workrun.Edge{{From: "s", To: "x"}}}, []string{`unknown node type "warp"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CheckWorkflow(tt.wf)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d problems %v, want %d", len(got), got, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i].Message, w) {
					t.Errorf("problem %d = %q, want it to mention %q", i, got[i].Message, w)
				}
			}
		})
	}
}
