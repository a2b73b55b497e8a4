package store

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// TestListRuns_Text: the run records' search finds runs by workflow name,
// run id, status, failure reason and failed node, ignoring case; % and _ are
// matched as written; TextStatuses adds the runs in the statuses the
// person's words named; the other filters still apply. The in-memory store
// the engine tests use answers the same.
func TestListRuns_Text(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	mem := workruntest.NewMemStore()
	add := func(id, wfID, name string, st workrun.RunStatus, reason, failed string, i int) {
		r := sampleRun(id, t0.Add(time.Duration(i)*time.Second))
		r.WorkflowID, r.WorkflowName, r.Status, r.Reason, r.FailedNode = wfID, name, st, reason, failed
		if err := s.CreateRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		if err := mem.CreateRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	add("run-aaa", "wf1", "Daily Report", workrun.RunSucceeded, "", "", 0)
	add("run-bbb", "wf2", "Backup", workrun.RunFailed, "check: exit status 3", "check", 1)
	add("run-ccc", "wf2", "Backup", workrun.RunFailed, "disk 50% full", "copy_files", 2)
	add("run-ddd", "wf1", "Daily Report", workrun.RunStopped, "", "", 3)
	add("x_yz", "wf3", "Notes", workrun.RunInterrupted, "", "", 4)
	for _, c := range []struct {
		name string
		f    workrun.RunFilter
		want []string
	}{
		{"workflow name, any case", workrun.RunFilter{Text: "report"}, []string{"run-ddd", "run-aaa"}},
		{"run id", workrun.RunFilter{Text: "BBB"}, []string{"run-bbb"}},
		{"status", workrun.RunFilter{Text: "fail"}, []string{"run-ccc", "run-bbb"}},
		{"reason", workrun.RunFilter{Text: "exit status"}, []string{"run-bbb"}},
		{"failed node", workrun.RunFilter{Text: "copy_f"}, []string{"run-ccc"}},
		{"percent as written", workrun.RunFilter{Text: "50%"}, []string{"run-ccc"}},
		{"percent matches no more", workrun.RunFilter{Text: "%"}, []string{"run-ccc"}},
		{"underscore as written", workrun.RunFilter{Text: "x_y"}, []string{"x_yz"}},
		{"underscore matches no other letter", workrun.RunFilter{Text: "n_aaa"}, nil},
		{"statuses named in another language", workrun.RunFilter{Text: "已停止", TextStatuses: []workrun.RunStatus{workrun.RunStopped}}, []string{"run-ddd"}},
		{"with the workflow filter", workrun.RunFilter{WorkflowID: "wf2", Text: "status 3"}, []string{"run-bbb"}},
		{"with the status filter", workrun.RunFilter{Status: workrun.RunSucceeded, Text: "report"}, []string{"run-aaa"}},
		{"nothing", workrun.RunFilter{Text: "no such run"}, nil},
	} {
		for _, st := range []struct {
			name string
			runs workrun.RunStore
		}{{"sqlite", s}, {"memory", mem}} {
			rs, err := st.runs.ListRuns(ctx, c.f)
			if err != nil {
				t.Fatalf("%s, %s: %v", c.name, st.name, err)
			}
			var got []string
			for _, r := range rs {
				got = append(got, r.ID)
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("%s, %s (-want +got):\n%s", c.name, st.name, d)
			}
		}
	}
}
