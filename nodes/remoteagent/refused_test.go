package remoteagent_test

import (
	"strings"
	"testing"

	"workrun/a2a/demoagent"
	"workrun/workrun"
)

// TestRefusedSubmissionIsNotUnknown: an agent that answers the submission
// with HTTP 401 has known not to have accepted it: the node says "not
// submitted: the agent refused it (HTTP 401 …)", never "submission result
// unknown", on both the streaming and the blocking path (issue 25, true
// labels).
func TestRefusedSubmissionIsNotUnknown(t *testing.T) {
	for _, streaming := range []bool{true, false} {
		srv := goServer(t, demoagent.Options{BearerToken: "tok", DisableStreaming: !streaming})
		e := newEnv(t, "", "en")
		r := e.run(t, flow([]workrun.NodeSpec{raNode("ra", srv.base, "")}), workrun.Values{"prompt_ra": "echo hi"})
		msgs := e.messages(t, r.ID, "ra")
		if r.Status != workrun.RunFailed || !strings.Contains(r.Reason, "not submitted: the agent refused it (HTTP 401") {
			t.Errorf("streaming=%v: run %s: %q", streaming, r.Status, r.Reason)
		}
		if strings.Contains(r.Reason+strings.Join(msgs, "\n"), "unknown") {
			t.Errorf("streaming=%v: a refused submission is called unknown:\n%s\n%s", streaming, r.Reason, msgs)
		}
		if s := srv.stats(t); len(s.Submissions) != 0 {
			t.Errorf("streaming=%v: submissions %v", streaming, s.Submissions)
		}
	}
}
