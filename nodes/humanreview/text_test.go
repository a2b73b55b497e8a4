package humanreview

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

func TestMain(m *testing.M) { workruntest.MainInEnglish(m) }

// TestHumanReviewTextsInBothLanguages: the prompt message, the
// interruption reason and the rejection (a run failure reason) follow the
// app's language; the rejection still is ErrRejected.
func TestHumanReviewTextsInBothLanguages(t *testing.T) {
	for _, c := range []struct {
		lang                         string
		waiting, reason, log, reject string
	}{
		{"en", "Waiting for review: Ship it?", "waiting for review: Ship it?", "Rejected: typos", "rejected by the reviewer: typos"},
		{"zh_CN", "等待审核：Ship it?", "等待审核：Ship it?", "已驳回：typos", "审核人已驳回：typos"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			workruntest.InLanguage(t, c.lang)
			nc := &workruntest.NodeContext{}
			_, err := compiled(t).Run(t.Context(), nc)
			var ie *workrun.InterruptError
			if !errors.As(err, &ie) || ie.Reason != c.reason {
				t.Errorf("waiting: %v, want reason %q", err, c.reason)
			}
			if diff := cmp.Diff([]string{c.waiting}, nc.Logs()); diff != "" {
				t.Error(diff)
			}
			nc = &workruntest.NodeContext{DecisionFunc: decided(workrun.Decision{Text: "typos"})}
			_, err = compiled(t).Run(t.Context(), nc)
			if !errors.Is(err, ErrRejected) || err.Error() != c.reject {
				t.Errorf("rejected: %v, want %q", err, c.reject)
			}
			if diff := cmp.Diff([]string{c.log}, nc.Logs()); diff != "" {
				t.Error(diff)
			}
		})
	}
}
