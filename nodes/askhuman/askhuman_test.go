package askhuman

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

var wf = workrun.Workflow{State: map[string]workrun.FieldType{"reply": "text", "n": "number"}}

func TestAskHumanWaitsThenWritesTheAnswer(t *testing.T) {
	st, err := Kind{}.Compile(workrun.NodeSpec{ID: "a", Type: "ask_human", Config: json.RawMessage(`{"prompt":"Name?","field":"reply"}`)}, wf)
	if err != nil {
		t.Fatal(err)
	}
	var ie *workrun.InterruptError
	if _, err := st.Run(t.Context(), &workruntest.NodeContext{}); !errors.As(err, &ie) || ie.Cause != workrun.InterruptedByHuman {
		t.Fatalf("no answer: %v", err)
	}
	nc := &workruntest.NodeContext{DecisionFunc: func(context.Context) (workrun.Decision, bool, error) {
		return workrun.Decision{Text: "Ada"}, true, nil
	}}
	out, err := st.Run(t.Context(), nc)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(workrun.Values{"reply": "Ada"}, out); diff != "" {
		t.Error(diff)
	}
}

func TestAskHumanCompileErrors(t *testing.T) {
	for _, tc := range []struct{ config, want string }{
		{`{"field":"reply"}`, `"prompt" is required`},
		{`{"prompt":"?"}`, `"field" is required`},
		{`{"prompt":"?","field":"n"}`, "type mismatch"},
		{`{"prompt":"?","field":"zz"}`, "not declared"},
	} {
		_, err := Kind{}.Compile(workrun.NodeSpec{ID: "a", Config: json.RawMessage(tc.config)}, wf)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.config, err, tc.want)
		}
	}
}
