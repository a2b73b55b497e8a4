package set

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

var state = map[string]workrun.FieldType{"name": "text", "n": "number", "m": "number", "msg": "text", "ok": "boolean", "data": "json"}

func compile(t *testing.T, config string) (workrun.Step, error) {
	t.Helper()
	return Kind{}.Compile(workrun.NodeSpec{ID: "s", Type: "set", Config: json.RawMessage(config)}, workrun.Workflow{State: state})
}

func TestSetAssignsLiteralsTemplatesAndCopies(t *testing.T) {
	st, err := compile(t, `{"values":{"msg":"hi {{name}}, n={{n}}","m":"{{n}}","ok":true,"data":{"k":[1,2]}}}`)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"n", "name"}, st.Reads()); diff != "" {
		t.Errorf("reads (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"data", "m", "msg", "ok"}, st.Writes()); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	nc := &workruntest.NodeContext{In: workrun.Values{"name": "Ada", "n": 2.5}}
	out, err := st.Run(t.Context(), nc)
	if err != nil {
		t.Fatal(err)
	}
	want := workrun.Values{"msg": "hi Ada, n=2.5", "m": 2.5, "ok": true, "data": map[string]any{"k": []any{1.0, 2.0}}}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("out (-want +got):\n%s", diff)
	}
}

func TestSetCompileErrors(t *testing.T) {
	for _, tc := range []struct{ config, want string }{
		{`{}`, `"values" must assign at least one field`},
		{`{"values":{"nope":"x"}}`, `"nope", which is not declared`},
		{`{"values":{"n":"three"}}`, "type mismatch"},
		{`{"values":{"n":"n is {{n}}"}}`, "a template makes text"},
		{`{"values":{"ok":"{{n}}"}}`, "type mismatch"},
		{`{"values":{"msg":"{{ghost}}"}}`, `reads field "ghost"`},
		{`{"values":[]}`, `"values" must be an object`},
	} {
		if _, err := compile(t, tc.config); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.config, err, tc.want)
		}
	}
}
