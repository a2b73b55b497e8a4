package start

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

func TestMain(m *testing.M) { workruntest.MainInEnglish(m) }

// TestStartMessageInBothLanguages: the node message is written in
// the app's language, which the GUI's switch puts in LANGUAGE.
func TestStartMessageInBothLanguages(t *testing.T) {
	for _, c := range []struct{ lang, want string }{
		{"en", "Started with inputs: question"},
		{"zh_CN", "已启动，输入：question"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			workruntest.InLanguage(t, c.lang)
			st, err := Kind{}.Compile(workrun.NodeSpec{ID: "start"}, workrun.Workflow{})
			if err != nil {
				t.Fatal(err)
			}
			nc := &workruntest.NodeContext{In: workrun.Values{"question": "why?"}}
			if _, err := st.Run(t.Context(), nc); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{c.want}, nc.Logs()); diff != "" {
				t.Error(diff)
			}
		})
	}
}
