package askhuman

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

func TestMain(m *testing.M) { workruntest.MainInEnglish(m) }

// TestAskHumanTextsInBothLanguages.
func TestAskHumanTextsInBothLanguages(t *testing.T) {
	for _, c := range []struct{ lang, waiting, reason, answered string }{
		{"en", "Waiting for an answer: Name?", "waiting for an answer: Name?", "Answered"},
		{"zh_CN", "等待回答：Name?", "等待回答：Name?", "已回答"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			workruntest.InLanguage(t, c.lang)
			st, err := Kind{}.Compile(workrun.NodeSpec{ID: "a", Type: "ask_human", Config: json.RawMessage(`{"prompt":"Name?","field":"reply"}`)}, wf)
			if err != nil {
				t.Fatal(err)
			}
			nc := &workruntest.NodeContext{}
			_, err = st.Run(t.Context(), nc)
			var ie *workrun.InterruptError
			if !errors.As(err, &ie) || ie.Reason != c.reason {
				t.Fatalf("waiting: %v, want reason %q", err, c.reason)
			}
			nc2 := &workruntest.NodeContext{DecisionFunc: func(context.Context) (workrun.Decision, bool, error) {
				return workrun.Decision{Text: "Ada"}, true, nil
			}}
			if _, err := st.Run(t.Context(), nc2); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{c.waiting, c.answered}, append(nc.Logs(), nc2.Logs()...)); diff != "" {
				t.Error(diff)
			}
		})
	}
}
