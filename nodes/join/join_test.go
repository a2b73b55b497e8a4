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
	for _, bad := range []string{`{"wait":"all"}`, `{"inputs":"some"}`, `{"inputs":1}`} {
		if _, err := (Kind{}).Compile(workrun.NodeSpec{ID: "j", Config: json.RawMessage(bad)}, workrun.Workflow{}); err == nil {
			t.Errorf("join accepted the config %s", bad)
		}
	}
	for cfg, all := range map[string]bool{``: false, `{"inputs":"any"}`: false, `{"inputs":"all"}`: true} {
		st, err := Kind{}.Compile(workrun.NodeSpec{ID: "j", Config: json.RawMessage(cfg)}, workrun.Workflow{})
		if err != nil {
			t.Fatal(err)
		}
		if got := st.(workrun.AllInputsStep).NeedsAllInputs(); got != all {
			t.Errorf("config %q: NeedsAllInputs = %v, want %v", cfg, got, all)
		}
	}
}
