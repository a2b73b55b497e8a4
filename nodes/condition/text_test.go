package condition

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

func TestMain(m *testing.M) { workruntest.MainInEnglish(m) }

// TestConditionMessageInBothLanguages: the operator and "not set"
// read in the app's language; the branch keeps its name.
func TestConditionMessageInBothLanguages(t *testing.T) {
	for _, c := range []struct {
		lang string
		in   workrun.Values
		want string
	}{
		{"en", workrun.Values{"n": 5.0}, "n (5) gt 3: true"},
		{"zh_CN", workrun.Values{"n": 5.0}, "n（5）大于 3：走 true 分支"},
		{"en", workrun.Values{}, "n ((not set)) gt 3: false"},
		{"zh_CN", workrun.Values{}, "n（未设置）大于 3：走 false 分支"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			workruntest.InLanguage(t, c.lang)
			st, err := compile(`{"field":"n","op":"gt","value":3}`)
			if err != nil {
				t.Fatal(err)
			}
			nc := &workruntest.NodeContext{In: c.in}
			if _, err := st.Run(t.Context(), nc); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{c.want}, nc.Logs()); diff != "" {
				t.Error(diff)
			}
		})
	}
}
