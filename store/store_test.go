package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
)

func openTest(t testing.TB) *Store {
	t.Helper()
	s, err := Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 123456789, time.UTC)

func sampleRun(id string, created time.Time) workrun.Run {
	return workrun.Run{
		ID:           id,
		WorkflowID:   "wf1",
		WorkflowName: "Summarize",
		Workflow: workrun.Workflow{
			Name:  "Summarize",
			State: map[string]workrun.FieldType{"doc": workrun.FieldFile, "summary": workrun.FieldText},
			Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "ra", Type: "remote_agent", Config: json.RawMessage(`{"agent":"http://127.0.0.1:1"}`)}},
			Edges: []workrun.Edge{{From: "start", To: "ra"}},
		},
		Inputs:    workrun.Values{"doc": "a1"},
		Status:    workrun.RunRunning,
		CreatedAt: created,
	}
}

func TestRun_RoundTripAndUpdate(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	r := sampleRun("r1", t0)
	if err := s.CreateRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetRun(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(r, got); d != "" {
		t.Fatalf("GetRun after create (-want +got):\n%s", d)
	}

	r.Status, r.Reason, r.FailedNode = workrun.RunFailed, "agent said no", "ra"
	r.State = workrun.Values{"summary": "x", "n": 2.5, "ok": true}
	r.EndedAt = t0.Add(time.Minute)
	r.Inputs = workrun.Values{"doc": "changed"} // ignored by UpdateRun
	if err := s.UpdateRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	got, err = s.GetRun(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	r.Inputs = workrun.Values{"doc": "a1"}
	if d := cmp.Diff(r, got); d != "" {
		t.Fatalf("GetRun after update (-want +got):\n%s", d)
	}

	if _, err := s.GetRun(ctx, "nope"); !errors.Is(err, workrun.ErrNotFound) {
		t.Errorf("GetRun(missing) = %v, want ErrNotFound", err)
	}
	if err := s.UpdateRun(ctx, sampleRun("nope", t0)); !errors.Is(err, workrun.ErrNotFound) {
		t.Errorf("UpdateRun(missing) = %v, want ErrNotFound", err)
	}
	if err := s.CreateRun(ctx, sampleRun("r1", t0)); err == nil {
		t.Error("CreateRun with a duplicate id succeeded")
	}
}

func TestListRuns_PagedNewestFirstWithFilters(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	var want []string
	for i := range 7 {
		r := sampleRun(fmt.Sprintf("r%d", i), t0.Add(time.Duration(i)*time.Second))
		if i%2 == 1 {
			r.WorkflowID = "other"
		}
		if i == 3 {
			r.Status = workrun.RunFailed
		}
		if err := s.CreateRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	// Two runs with the same created time are still ordered and paged exactly once.
	if err := s.CreateRun(ctx, sampleRun("r6b", t0.Add(6*time.Second))); err != nil {
		t.Fatal(err)
	}
	want = []string{"r6b", "r6", "r5", "r4", "r3", "r2", "r1", "r0"}

	var got []string
	cursor := ""
	for {
		page, err := s.ListRuns(ctx, workrun.RunFilter{Limit: 3, Before: cursor})
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		if len(page) > 3 {
			t.Fatalf("page of %d runs, limit 3", len(page))
		}
		for _, r := range page {
			got = append(got, r.ID)
		}
		cursor = page[len(page)-1].ID
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("paged ids (-want +got):\n%s", d)
	}

	ids := func(f workrun.RunFilter) []string {
		t.Helper()
		rs, err := s.ListRuns(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}
	if d := cmp.Diff([]string{"r5", "r3", "r1"}, ids(workrun.RunFilter{WorkflowID: "other"})); d != "" {
		t.Errorf("by workflow (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"r3"}, ids(workrun.RunFilter{Status: workrun.RunFailed})); d != "" {
		t.Errorf("by status (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"r1"}, ids(workrun.RunFilter{WorkflowID: "other", Before: "r3"})); d != "" {
		t.Errorf("by workflow after cursor (-want +got):\n%s", d)
	}
	if _, err := s.ListRuns(ctx, workrun.RunFilter{Before: "missing"}); !errors.Is(err, workrun.ErrNotFound) {
		t.Errorf("unknown cursor: %v, want ErrNotFound", err)
	}
}

func TestRunsWithStatus_UsesIndex_R13(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	for i, st := range []workrun.RunStatus{workrun.RunRunning, workrun.RunSucceeded, workrun.RunRunning, workrun.RunFailed} {
		r := sampleRun(fmt.Sprintf("r%d", i), t0.Add(time.Duration(i)*time.Second))
		r.Status = st
		if err := s.CreateRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := s.RunsWithStatus(ctx, workrun.RunRunning)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rs {
		got = append(got, r.ID)
	}
	if d := cmp.Diff([]string{"r0", "r2"}, got); d != "" {
		t.Errorf("running runs (-want +got):\n%s", d)
	}
	// The query plan must search the index, not scan the runs table.
	for _, q := range []struct{ name, sql string }{
		{"RunsWithStatus", `SELECT ` + runCols + ` FROM runs INDEXED BY runs_status WHERE status=? ORDER BY created_at, id`},
		{"ListRuns first page", `SELECT ` + runCols + ` FROM runs WHERE 1=1 ORDER BY created_at DESC, id DESC LIMIT ?`},
		{"ListRuns by workflow", `SELECT ` + runCols + ` FROM runs WHERE 1=1 AND workflow_id=? ORDER BY created_at DESC, id DESC LIMIT 50`},
	} {
		plan := queryPlan(t, s, q.sql, "x")
		if strings.Contains(plan, "SCAN runs\n") || !strings.Contains(plan, "USING") && !strings.Contains(plan, "INDEX") {
			t.Errorf("%s plan walks the table:\n%s", q.name, plan)
		}
		if strings.Contains(plan, "TEMP B-TREE") {
			t.Errorf("%s plan sorts the whole table:\n%s", q.name, plan)
		}
	}
}

func queryPlan(t *testing.T, s *Store, q string, args ...any) string {
	t.Helper()
	rows, err := s.r.QueryContext(t.Context(), "EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			t.Fatal(err)
		}
		b.WriteString(detail + "\n")
	}
	return b.String()
}

func TestNodeRuns_ReplaceAndOrder(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	if err := s.CreateRun(ctx, sampleRun("r1", t0)); err != nil {
		t.Fatal(err)
	}
	a := workrun.NodeRun{RunID: "r1", NodeID: "a", Type: "set", Status: workrun.NodeRunning, Inputs: workrun.Values{"x": 1.0}, StartedAt: t0}
	b := workrun.NodeRun{RunID: "r1", NodeID: "b", Type: "set", Status: workrun.NodePending}
	for _, n := range []workrun.NodeRun{b, a} {
		if err := s.SaveNodeRun(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	a.Status, a.Outputs, a.EndedAt, a.Error = workrun.NodeFailed, workrun.Values{"y": "z"}, t0.Add(time.Second), "boom"
	if err := s.SaveNodeRun(ctx, a); err != nil {
		t.Fatal(err)
	}
	got, err := s.NodeRuns(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]workrun.NodeRun{a, b}, got); d != "" {
		t.Errorf("node runs (-want +got):\n%s", d)
	}
	if err := s.SaveNodeRun(ctx, workrun.NodeRun{RunID: "missing", NodeID: "a"}); err == nil {
		t.Error("SaveNodeRun for a missing run succeeded; foreign keys are off")
	}
}

func TestMessages_SeqOrderAndProgressBatch(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	for _, id := range []string{"r1", "r2"} {
		if err := s.CreateRun(ctx, sampleRun(id, t0)); err != nil {
			t.Fatal(err)
		}
	}
	m1, err := s.AppendMessage(ctx, workrun.Message{RunID: "r1", NodeID: "a", Time: t0, Text: "one"})
	if err != nil {
		t.Fatal(err)
	}
	if m1.Seq != 1 {
		t.Errorf("first seq = %d, want 1", m1.Seq)
	}
	if err := s.AppendProgress(ctx, workrun.Message{RunID: "r1", NodeID: "a", Time: t0, Text: "p1"}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendProgress(ctx, workrun.Message{RunID: "r2", NodeID: "a", Time: t0, Text: "other run"}); err != nil {
		t.Fatal(err)
	}
	// The next AppendMessage commits the batch first, so seqs follow call order.
	m2, err := s.AppendMessage(ctx, workrun.Message{RunID: "r1", NodeID: "b", Time: t0, Text: "two"})
	if err != nil {
		t.Fatal(err)
	}
	if m2.Seq != 3 {
		t.Errorf("seq after one progress line = %d, want 3", m2.Seq)
	}
	got, err := s.Messages(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	want := []workrun.Message{
		{RunID: "r1", NodeID: "a", Seq: 1, Time: t0, Text: "one"},
		{RunID: "r1", NodeID: "a", Seq: 2, Time: t0, Text: "p1"},
		{RunID: "r1", NodeID: "b", Seq: 3, Time: t0, Text: "two"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("messages (-want +got):\n%s", d)
	}
	r2, err := s.Messages(ctx, "r2")
	if err != nil {
		t.Fatal(err)
	}
	if len(r2) != 1 || r2[0].Seq != 1 || r2[0].Text != "other run" {
		t.Errorf("r2 messages = %+v", r2)
	}
}

func TestAppendProgress_CommittedWithinInterval(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	if err := s.CreateRun(ctx, sampleRun("r1", t0)); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := s.AppendProgress(ctx, workrun.Message{RunID: "r1", NodeID: "a", Text: "p"}); err != nil {
		t.Fatal(err)
	}
	for {
		ms, err := s.Messages(ctx, "r1")
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) == 1 {
			break
		}
		if time.Since(start) > 2*time.Second {
			t.Fatal("progress line not committed after 2s without Flush")
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("progress line committed after %v", time.Since(start))
}

func TestAppendProgress_BadLineDoesNotBlockMessages(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	if err := s.CreateRun(ctx, sampleRun("r1", t0)); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendProgress(ctx, workrun.Message{RunID: "missing", NodeID: "a", Text: "p"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendMessage(ctx, workrun.Message{RunID: "r1", NodeID: "a", Text: "m"}); err != nil {
		t.Fatalf("AppendMessage after a bad batch: %v", err)
	}
	if err := s.Flush(ctx); err == nil {
		t.Error("Flush did not report the failed batch")
	}
	if err := s.Flush(ctx); err != nil {
		t.Errorf("second Flush = %v, want nil (error reported once)", err)
	}
}

func TestClose_FlushesProgress(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateRun(ctx, sampleRun("r1", t0)); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if err := s.AppendProgress(ctx, workrun.Message{RunID: "r1", NodeID: "a", Text: fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendProgress(ctx, workrun.Message{RunID: "r1"}); !errors.Is(err, ErrClosed) {
		t.Errorf("AppendProgress after Close = %v, want ErrClosed", err)
	}
	s, err = Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ms, err := s.Messages(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	// The five updates of one node coalesce into the last one.
	if len(ms) != 1 || ms[0].Text != "4" || ms[0].Repeat != 4 {
		t.Errorf("lines after Close and reopen = %+v, want \"4\" counting 4 earlier updates", ms)
	}
}

func TestDecision(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	if err := s.CreateRun(ctx, sampleRun("r1", t0)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetDecision(ctx, "r1", "h"); !errors.Is(err, workrun.ErrNotFound) {
		t.Errorf("GetDecision before any = %v, want ErrNotFound", err)
	}
	d := workrun.Decision{RunID: "r1", NodeID: "h", Approved: true, Text: "ok", Time: t0}
	if err := s.SaveDecision(ctx, d); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetDecision(ctx, "r1", "h")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(d, got); diff != "" {
		t.Errorf("decision (-want +got):\n%s", diff)
	}
}

func TestRemoteCalls_UpsertKeepsCreatedAt(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	if err := s.CreateRun(ctx, sampleRun("r1", t0)); err != nil {
		t.Fatal(err)
	}
	now := t0
	s.now = func() time.Time { return now }
	c := workrun.RemoteCall{RunID: "r1", NodeID: "ra", CallKey: "0", AgentURL: "http://127.0.0.1:9/a2a",
		Origin: "http://127.0.0.1:9", MessageID: "m-1"}
	if err := s.SaveRemoteCall(ctx, c); err != nil {
		t.Fatal(err)
	}
	now = t0.Add(time.Second)
	c.TaskID, c.ContextID, c.RemoteState, c.StatusText = "t-1", "c-1", "TASK_STATE_COMPLETED", "done"
	c.Result, c.Ended = json.RawMessage(`{"summary":"x"}`), true
	c.CancelOutcome, c.CancelText, c.AgentName = "none", "", "Demo agent"
	if err := s.SaveRemoteCall(ctx, c); err != nil {
		t.Fatal(err)
	}
	other := workrun.RemoteCall{RunID: "r1", NodeID: "rb", CallKey: "0", MessageID: "m-2"}
	if err := s.SaveRemoteCall(ctx, other); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetRemoteCall(ctx, "r1", "ra", "0")
	if err != nil {
		t.Fatal(err)
	}
	want := c
	want.CreatedAt, want.UpdatedAt = t0, t0.Add(time.Second)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("remote call (-want +got):\n%s", d)
	}
	all, err := s.RemoteCallsForRun(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].NodeID != "ra" || all[1].NodeID != "rb" || all[1].Result != nil {
		t.Errorf("RemoteCallsForRun = %+v", all)
	}
	if _, err := s.GetRemoteCall(ctx, "r1", "ra", "1"); !errors.Is(err, workrun.ErrNotFound) {
		t.Errorf("GetRemoteCall(missing) = %v, want ErrNotFound", err)
	}
}

func TestWorkflows_Revisions(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	wf := workrun.Workflow{Name: "B", Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}}}
	rec, err := s.SaveWorkflow(ctx, "", wf)
	if err != nil {
		t.Fatal(err)
	}
	if rec.ID == "" || rec.Revision != 1 {
		t.Fatalf("first save = %+v", rec)
	}
	wf2 := wf
	wf2.Name = "B2"
	rec2, err := s.SaveWorkflow(ctx, rec.ID, wf2)
	if err != nil {
		t.Fatal(err)
	}
	if rec2.Revision != 2 {
		t.Errorf("second revision = %d", rec2.Revision)
	}
	got, err := s.GetWorkflow(ctx, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(rec2, got); d != "" {
		t.Errorf("latest (-want +got):\n%s", d)
	}
	old, err := s.WorkflowRevision(ctx, rec.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if old.Workflow.Name != "B" {
		t.Errorf("revision 1 name = %q", old.Workflow.Name)
	}
	if _, err := s.SaveWorkflow(ctx, "imported", workrun.Workflow{Name: "A"}); err != nil {
		t.Fatal(err)
	}
	list, err := s.ListWorkflows(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != "imported" || list[1].Workflow.Name != "B2" {
		t.Errorf("ListWorkflows = %+v", list)
	}
	if err := s.DeleteWorkflow(ctx, rec.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetWorkflow(ctx, rec.ID); !errors.Is(err, workrun.ErrNotFound) {
		t.Errorf("after delete: %v", err)
	}
	if _, err := s.WorkflowRevision(ctx, rec.ID, 1); !errors.Is(err, workrun.ErrNotFound) {
		t.Errorf("revision after delete: %v", err)
	}
	if err := s.DeleteWorkflow(ctx, rec.ID); !errors.Is(err, workrun.ErrNotFound) {
		t.Errorf("second delete: %v", err)
	}
}

func TestArtifactAndCredentialMeta(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	a := workrun.ArtifactInfo{ID: "a1", Name: "x.txt", Original: "../x.txt", MediaType: "text/plain",
		Size: 3, SHA256: "abc", RunID: "r1", NodeID: "n", CreatedAt: t0}
	if err := s.SaveArtifact(ctx, a, "ab/abc"); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetArtifact(ctx, "a1")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(a, got); d != "" {
		t.Errorf("artifact (-want +got):\n%s", d)
	}
	byRun, err := s.ArtifactsForRun(ctx, "r1")
	if err != nil || len(byRun) != 1 {
		t.Errorf("ArtifactsForRun = %v, %v", byRun, err)
	}
	digests, err := s.ArtifactDigests(ctx)
	if err != nil || !digests["abc"] || len(digests) != 1 {
		t.Errorf("ArtifactDigests = %v, %v", digests, err)
	}
	if err := s.DeleteArtifact(ctx, "a1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetArtifact(ctx, "a1"); !errors.Is(err, workrun.ErrNotFound) {
		t.Errorf("after delete: %v", err)
	}

	c := workrun.CredentialMeta{Name: "agent", Kind: "bearer", Origin: "https://a.example:443"}
	if err := s.SaveCredentialMeta(ctx, c); err != nil {
		t.Fatal(err)
	}
	c.Kind, c.Header = "apikey", "X-Api-Key"
	if err := s.SaveCredentialMeta(ctx, c); err != nil {
		t.Fatal(err)
	}
	gc, err := s.GetCredentialMeta(ctx, "agent")
	if err != nil {
		t.Fatal(err)
	}
	if gc.Kind != "apikey" || gc.Header != "X-Api-Key" || gc.CreatedAt.IsZero() {
		t.Errorf("credential = %+v", gc)
	}
	list, err := s.ListCredentialMeta(ctx)
	if err != nil || len(list) != 1 {
		t.Errorf("ListCredentialMeta = %v, %v", list, err)
	}
	if err := s.DeleteCredentialMeta(ctx, "agent"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetCredentialMeta(ctx, "agent"); !errors.Is(err, workrun.ErrNotFound) {
		t.Errorf("after delete: %v", err)
	}
}

// TestGroupCommit_BadWriteFailsOnlyItsCaller queues a batch as concurrent
// writers would and commits it: the line for a missing run fails alone
// (rolled back to its savepoint), the others commit in order after the
// batched progress line.
func TestGroupCommit_BadWriteFailsOnlyItsCaller(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	if err := s.CreateRun(ctx, sampleRun("r1", t0)); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendProgress(ctx, workrun.Message{RunID: "r1", NodeID: "a", Text: "p"}); err != nil {
		t.Fatal(err)
	}
	runs := []string{"r1", "missing", "r1"}
	seqs := make([]int64, len(runs))
	var reqs []writeReq
	for i, run := range runs {
		reqs = append(reqs, writeReq{res: make(chan error, 1), fn: func(ctx context.Context, tx *sql.Tx) error {
			// Two statements: the failing one must leave no half.
			if _, err := tx.ExecContext(ctx, `UPDATE runs SET reason=reason||? WHERE id='r1'`, "["+run+"]"); err != nil {
				return err
			}
			m, err := s.insertLine(ctx, tx, workrun.Message{RunID: run, NodeID: "a", Time: t0, Text: run})
			seqs[i] = m.Seq
			return err
		}})
	}
	s.queue = append(s.queue, reqs...)
	s.commitMu.Lock()
	s.commitLocked(ctx)
	s.commitMu.Unlock()
	var got []string
	for i, r := range reqs {
		err := <-r.res
		got = append(got, fmt.Sprintf("%s %d %v", runs[i], seqs[i], err != nil))
	}
	if d := cmp.Diff([]string{"r1 2 false", "missing 1 true", "r1 3 false"}, got); d != "" {
		t.Errorf("results (-want +got):\n%s", d)
	}
	ms, err := s.Messages(ctx, "r1")
	if err != nil || len(ms) != 3 || ms[0].Text != "p" {
		t.Errorf("committed lines = %+v, %v", ms, err)
	}
	r, err := s.GetRun(ctx, "r1")
	if err != nil || r.Reason != "[r1][r1]" {
		t.Errorf("reason = %q, %v", r.Reason, err)
	}
}

// TestGroupCommit_LostTransactionFailsWholeBatch simulates SQLite rolling
// back the batch's transaction itself (as on a full disk): every write of
// the batch is reported failed, nothing of it is committed, and no later
// write runs outside the transaction.
func TestGroupCommit_LostTransactionFailsWholeBatch(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	if err := s.CreateRun(ctx, sampleRun("r1", t0)); err != nil {
		t.Fatal(err)
	}
	line := func(text string) func(context.Context, *sql.Tx) error {
		return func(ctx context.Context, tx *sql.Tx) error {
			_, err := s.insertLine(ctx, tx, workrun.Message{RunID: "r1", NodeID: "a", Text: text})
			return err
		}
	}
	reqs := []writeReq{
		{fn: line("before"), res: make(chan error, 1)},
		{fn: func(ctx context.Context, tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, `ROLLBACK`); err != nil {
				return err
			}
			return errors.New("disk full")
		}, res: make(chan error, 1)},
		{fn: line("after"), res: make(chan error, 1)},
	}
	s.queue = append(s.queue, reqs...)
	s.commitMu.Lock()
	s.commitLocked(ctx)
	s.commitMu.Unlock()
	for i, r := range reqs {
		if err := <-r.res; err == nil {
			t.Errorf("write %d reported success in a lost transaction", i)
		}
	}
	ms, err := s.Messages(ctx, "r1")
	if err != nil || len(ms) != 0 {
		t.Errorf("lines committed from a lost batch: %+v, %v", ms, err)
	}
	// The store keeps working.
	if _, err := s.AppendMessage(ctx, workrun.Message{RunID: "r1", NodeID: "a", Text: "next"}); err != nil {
		t.Errorf("AppendMessage after a lost batch: %v", err)
	}
}
