package runpanel

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
)

// TestRunPanel_WaitsByPush: a run whose Remote Agent task waits by push
// (docs/triggers.md P2) says so in the window's language, and offers
// Resume (one read of the task now) and Stop (the task's cancel).
func TestRunPanel_WaitsByPush(t *testing.T) {
	defer setLanguage("en")
	for _, tt := range []struct{ lang, want string }{
		{"en", "Waiting by push"},
		{"zh", "等待推送"},
	} {
		setLanguage(tt.lang)
		run := workrun.Run{ID: "r", Status: workrun.RunInterrupted, Interruption: workrun.InterruptedByPush}
		if got := interruptionText(langNow(), testWording(langNow()), run); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s: interruption text %q, want it to start %q", tt.lang, got, tt.want)
		}
	}
	setLanguage("en")
	p := newPanel(langNow(), false)
	p.OnStop, p.OnResume, p.OnRunAgain, p.OnSignIn = func() {}, func() {}, func() {}, func() {}
	p.Start("r", workrun.Workflow{Name: "wf"})
	p.Apply(runEv(workrun.Run{ID: "r", Status: workrun.RunInterrupted, Interruption: workrun.InterruptedByPush}))
	if diff := cmp.Diff([]string{"Resume", "Stop"}, p.ActionLabels()); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
}
