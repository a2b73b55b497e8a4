package condition

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

var state = map[string]workrun.FieldType{"n": "number", "s": "text", "b": "boolean", "fs": "files", "j": "json"}

func compile(config string) (workrun.Step, error) {
	return Kind{}.Compile(workrun.NodeSpec{ID: "c", Type: "condition", Config: json.RawMessage(config)}, workrun.Workflow{State: state})
}

func TestConditionPicksBranch(t *testing.T) {
	tests := []struct {
		config string
		in     workrun.Values
		want   string
	}{
		{`{"field":"n","op":"gt","value":3}`, workrun.Values{"n": 4.0}, "true"},
		{`{"field":"n","op":"gt","value":3}`, workrun.Values{"n": 3.0}, "false"},
		{`{"field":"n","op":"lt","value":3}`, workrun.Values{"n": 1.0}, "true"},
		{`{"field":"n","op":"eq","value":3}`, workrun.Values{"n": 3.0}, "true"},
		{`{"field":"s","op":"eq","value":"yes"}`, workrun.Values{"s": "yes"}, "true"},
		{`{"field":"s","op":"ne","value":"yes"}`, workrun.Values{"s": "no"}, "true"},
		{`{"field":"s","op":"ne","value":"yes"}`, workrun.Values{}, "true"},
		{`{"field":"s","op":"eq","value":"yes"}`, workrun.Values{}, "false"},
		{`{"field":"s","op":"contains","value":"ell"}`, workrun.Values{"s": "hello"}, "true"},
		{`{"field":"b","op":"eq","value":true}`, workrun.Values{"b": false}, "false"},
		{`{"field":"fs","op":"contains","value":"a1"}`, workrun.Values{"fs": []any{"a0", "a1"}}, "true"},
		{`{"field":"j","op":"contains","value":2}`, workrun.Values{"j": []any{1.0, 2.0}}, "true"},
		{`{"field":"n","op":"gt","value":3}`, workrun.Values{}, "false"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.config, tc.in), func(t *testing.T) {
			st, err := compile(tc.config)
			if err != nil {
				t.Fatal(err)
			}
			if b := st.(workrun.BranchingStep).Branches(); len(b) != 2 {
				t.Fatalf("branches %v", b)
			}
			nc := &workruntest.NodeContext{In: tc.in}
			if _, err := st.Run(t.Context(), nc); err != nil {
				t.Fatal(err)
			}
			if nc.Branch() != tc.want {
				t.Errorf("branch %q, want %q", nc.Branch(), tc.want)
			}
			if len(nc.Logs()) != 1 || !strings.HasSuffix(nc.Logs()[0], ": "+tc.want) {
				t.Errorf("log %q", nc.Logs())
			}
		})
	}
}

func TestConditionCompileErrors(t *testing.T) {
	for _, tc := range []struct{ config, want string }{
		{`{"op":"eq","value":1}`, `"field" is required`},
		{`{"field":"zz","op":"eq","value":1}`, "not declared in State"},
		{`{"field":"n","op":"around","value":1}`, `unknown op "around"`},
		{`{"field":"n","value":1}`, `"op" is required`},
		{`{"field":"s","op":"gt","value":1}`, "type mismatch"},
		{`{"field":"n","op":"eq","value":"3"}`, "type mismatch"},
		{`{"field":"b","op":"contains","value":"x"}`, "type mismatch"},
		{`{"field":"n","op":"lt"}`, "type mismatch"},
	} {
		if _, err := compile(tc.config); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.config, err, tc.want)
		}
	}
}
