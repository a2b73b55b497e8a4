package remoteagent

import "testing"

// TestProgressLine_ResultNamedResult: the demo agent's artifact named
// "result" reads "Result: done after 6 steps", not "Result result: …"
// (issue 40); another name is still given.
func TestProgressLine_ResultNamedResult(t *testing.T) {
	for _, tt := range []struct {
		id, lang, want string
	}{
		{"result", "en", "Result: done after 6 steps"},
		{"Result", "zh", "结果：done after 6 steps"},
		{"", "en", "Result: done after 6 steps"},
		{"report", "en", "Result report: done after 6 steps"},
	} {
		l := progressLine{kind: progressArtifact, artifactID: tt.id, text: "done after 6 steps"}
		if got := l.msg(0).In(tt.lang); got != tt.want {
			t.Errorf("artifact %q in %s: %q, want %q", tt.id, tt.lang, got, tt.want)
		}
	}
}
