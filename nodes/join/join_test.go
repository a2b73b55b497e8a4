package join

import (
	"encoding/json"
	"testing"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

func TestJoinHasNoWorkAndNoConfig(t *testing.T) {
	st, err := Kind{}.Compile(workrun.NodeSpec{ID: "j", Config: json.RawMessage(`{}`)}, workrun.Workflow{})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Reads())+len(st.Writes()) != 0 {
		t.Error("join declares fields")
	}
	out, err := st.Run(t.Context(), &workruntest.NodeContext{})
	if err != nil || out != nil {
		t.Errorf("join ran: %v %v", out, err)
	}
	if _, err := (Kind{}).Compile(workrun.NodeSpec{ID: "j", Config: json.RawMessage(`{"wait":"all"}`)}, workrun.Workflow{}); err == nil {
		t.Error("join accepted a config")
	}
}
