package set

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

func TestMain(m *testing.M) { workruntest.MainInEnglish(m) }

// TestSetMessageInBothLanguages.
func TestSetMessageInBothLanguages(t *testing.T) {
	for _, c := range []struct{ lang, want string }{
		{"en", "Set m, msg"},
		{"zh_CN", "已设置：m、msg"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			workruntest.InLanguage(t, c.lang)
			st, err := compile(t, `{"values":{"msg":"hi","m":2}}`)
			if err != nil {
				t.Fatal(err)
			}
			nc := &workruntest.NodeContext{In: workrun.Values{}}
			if _, err := st.Run(t.Context(), nc); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{c.want}, nc.Logs()); diff != "" {
				t.Error(diff)
			}
		})
	}
}
