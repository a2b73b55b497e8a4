package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"workrun/nodes/process"
	"workrun/nodes/start"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// TestRetryLine_NowAndNoDoubledDash: the run panel's line for a failed
// attempt tried again at once says "trying again now" / "立即重试", not
// "in 0s", and the Chinese line has no doubled dash after the reason
// (a real engine run of a process that fails twice).
func TestRetryLine_NowAndNoDoubledDash(t *testing.T) {
	test.NewTempApp(t)
	st := workruntest.NewMemStore()
	eng := workrun.NewEngine(st, &fakeArtifacts{}, start.Kind{}, process.Kind{})
	wf := workrun.Workflow{
		Name: "retried",
		Nodes: []workrun.NodeSpec{
			{ID: "start", Type: "start"},
			{ID: "check", Type: "process", Retry: &workrun.RetryPolicy{MaxAttempts: 2},
				Config: EncodeConfig(Config{Command: []string{"sh", "-c", "echo 'check failed' >&2; exit 3"}, TimeoutSeconds: 60})},
		},
		Edges: []workrun.Edge{{From: "start", To: "check"}},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	id, err := eng.Start(ctx, "", wf, workrun.Values{})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := eng.Wait(ctx, id); err != nil || r.Status != workrun.RunFailed {
		t.Fatalf("run: %s, %v; want failed", r.Status, err)
	}
	ms, err := st.Messages(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ lng, want string }{{"en", "— trying again now"}, {"zh-Hans", "；立即重试"}} {

		var lines []string
		for _, m := range ms {
			if s := MessageText(workrun.NewLocalizer(tt.lng), m); m.NodeID == "check" && (strings.Contains(s, "Attempt 1") || strings.Contains(s, "第 1 次")) {
				lines = append(lines, s)
			}
		}
		if len(lines) != 1 || !strings.HasSuffix(lines[0], tt.want) || strings.Contains(lines[0], "——") || strings.Contains(lines[0], " 0s") {
			t.Errorf("%s: the retry line reads %q, want one ending %q with no doubled dash and no 0s", tt.lng, lines, tt.want)
		}
	}

}
