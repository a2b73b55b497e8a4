package start

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

func TestStartPassesTheInputsOn(t *testing.T) {
	st, err := Kind{}.Compile(workrun.NodeSpec{ID: "start"}, workrun.Workflow{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := st.(workrun.EntryStep); !ok {
		t.Fatal("start is not an EntryStep")
	}
	in := workrun.Values{"b": 1.0, "a": "x"}
	nc := &workruntest.NodeContext{In: in}
	out, err := st.Run(t.Context(), nc)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, out); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff([]string{"Started with inputs: a, b"}, nc.Logs()); diff != "" {
		t.Error(diff)
	}
	if _, err := (Kind{}).Compile(workrun.NodeSpec{ID: "start", Config: json.RawMessage(`{"x":1}`)}, workrun.Workflow{}); err == nil {
		t.Error("start accepted a config")
	}
}
