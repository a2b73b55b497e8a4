package output

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

func TestOutputLogsFields(t *testing.T) {
	wf := workrun.Workflow{State: map[string]workrun.FieldType{"a": "text", "n": "number", "fs": "files"}}
	st, err := Kind{}.Compile(workrun.NodeSpec{ID: "o", Config: json.RawMessage(`{"fields":["a","n","fs"]}`)}, wf)
	if err != nil {
		t.Fatal(err)
	}
	nc := &workruntest.NodeContext{In: workrun.Values{"a": "x", "fs": []any{"id1", "id2"}}}
	if _, err := st.Run(t.Context(), nc); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a: x", "n: (not set)", "fs: id1, id2"}, nc.Logs()); diff != "" {
		t.Error(diff)
	}
	if _, err := (Kind{}).Compile(workrun.NodeSpec{ID: "o", Config: json.RawMessage(`{"fields":[]}`)}, wf); err == nil {
		t.Error("an output with no fields compiled")
	}
}
