package output

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

func TestMain(m *testing.M) { workruntest.MainInEnglish(m) }

// TestOutputMessagesInBothLanguages.
func TestOutputMessagesInBothLanguages(t *testing.T) {
	wf := workrun.Workflow{State: map[string]workrun.FieldType{"a": "text", "b": "text"}}
	for _, c := range []struct {
		lang string
		want []string
	}{
		{"en", []string{"a: hi", "b: (not set)"}},
		{"zh_CN", []string{"a：hi", "b：（未设置）"}},
	} {
		t.Run(c.lang, func(t *testing.T) {
			workruntest.InLanguage(t, c.lang)
			st, err := Kind{}.Compile(workrun.NodeSpec{ID: "o", Config: json.RawMessage(`{"fields":["a","b"]}`)}, wf)
			if err != nil {
				t.Fatal(err)
			}
			nc := &workruntest.NodeContext{In: workrun.Values{"a": "hi"}}
			if _, err := st.Run(t.Context(), nc); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, nc.Logs()); diff != "" {
				t.Error(diff)
			}
		})
	}
}
