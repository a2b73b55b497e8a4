package store

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
)

type testMsgID string

var testTexts = workrun.NewCatalog(map[testMsgID][2]string{
	"storetest.working": {"remote task: working (%s%%)", "远程任务：进行中（%s%%）"},
	"storetest.done":    {"done", "完成"},
})

// TestMessages_KeyAndArgsRenderInReadersLanguage stores keyed, verbatim
// and legacy lines: keyed lines are stored as key and arguments only (no
// rendering in the row) and render in whichever language is asked for.
func TestMessages_KeyAndArgsRenderInReadersLanguage(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	if err := s.CreateRun(ctx, sampleRun("r1", t0)); err != nil {
		t.Fatal(err)
	}
	working := testTexts.Msg("storetest.working", 42)
	in := []workrun.Message{
		{RunID: "r1", NodeID: "ra", Time: t0, Key: working.Key, Args: working.Args, Text: working.In("en")},
		{RunID: "r1", NodeID: "ra", Time: t0, Key: "storetest.done", Text: "done"},
		{RunID: "r1", NodeID: "ra", Time: t0, Args: workrun.Plain("agent says 100% <ok>").Args, Text: "agent says 100% <ok>"},
		{RunID: "r1", NodeID: "ra", Time: t0, Text: "legacy line 5%d"},
	}
	for _, m := range in {
		if _, err := s.AppendMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AppendProgress(ctx, workrun.Message{RunID: "r1", NodeID: "ra", Time: t0, Key: working.Key, Args: []string{"43"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := s.Messages(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ Key, Args, En, Zh string }
	var rows []row
	for _, m := range got {
		rows = append(rows, row{m.Key, strings.Join(m.Args, "|"), m.In("en"), m.In("zh")})
	}
	want := []row{
		{"storetest.working", "42", "remote task: working (42%)", "远程任务：进行中（42%）"},
		{"storetest.done", "", "done", "完成"},
		{"", "agent says 100% <ok>", "agent says 100% <ok>", "agent says 100% <ok>"},
		{"", "", "legacy line 5%d", "legacy line 5%d"},
		{"storetest.working", "43", "remote task: working (43%)", "远程任务：进行中（43%）"},
	}
	if d := cmp.Diff(want, rows); d != "" {
		t.Errorf("messages (-want +got):\n%s", d)
	}
	// The row holds no rendering of a keyed line: it is rendered on read.
	var texts []string
	r, err := s.r.QueryContext(ctx, `SELECT text FROM messages WHERE run_id='r1' ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	for r.Next() {
		var x string
		r.Scan(&x)
		texts = append(texts, x)
	}
	r.Close()
	if d := cmp.Diff([]string{"", "", "", "legacy line 5%d", ""}, texts); d != "" {
		t.Errorf("stored text column (-want +got):\n%s", d)
	}
}

// TestMigrate_FromV3Fixture upgrades the frozen version-3 schema, whose
// lines are rendered text only: they come back as saved, in any language,
// and new lines continue the sequence with a key.
func TestMigrate_FromV3Fixture(t *testing.T) {
	ctx := t.Context()
	dir, path := fixtureDB(t, "schema_v3.sql")
	s := upgradeFrom(t, dir, path, 3)
	ms, err := s.Messages(ctx, "run-v3")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		if m.Key != "" || m.Args != nil || m.Repeat != 0 {
			t.Errorf("old line %d came back with key %q args %q repeat %d", m.Seq, m.Key, m.Args, m.Repeat)
		}
		got = append(got, fmt.Sprintf("%d %s | %s", m.Seq, m.In("zh"), m.In("en")))
	}
	want := []string{
		"1 remote task: working (42%) | remote task: working (42%)",
		"2 远程任务：已完成 | 远程任务：已完成",
		"3  | ",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("old lines after upgrade (-want +got):\n%s", d)
	}
	m, err := s.AppendMessage(ctx, workrun.Message{RunID: "run-v3", NodeID: "ra", Key: "storetest.done"})
	if err != nil || m.Seq != 4 {
		t.Fatalf("AppendMessage after upgrade = %+v, %v", m, err)
	}
	ms, err = s.Messages(ctx, "run-v3")
	if err != nil || len(ms) != 4 || ms[3].In("zh") != "完成" {
		t.Errorf("new line after upgrade = %+v, %v", ms, err)
	}
}

// heapNow is the live heap after a collection.
func heapNow() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestAppendProgress_MillionUpdatesCoalesce sends a million distinct
// status updates of one node, as a chatty agent would: they become a
// handful of rows whose counts add up to a million, memory stays flat, and
// the last update is the last line.
func TestAppendProgress_MillionUpdatesCoalesce(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	if err := s.CreateRun(ctx, sampleRun("r1", t0)); err != nil {
		t.Fatal(err)
	}
	const n = 1_000_000
	base := heapNow()
	var peak uint64
	for i := range n {
		m := workrun.Message{RunID: "r1", NodeID: "ra", Key: "storetest.working", Args: []string{fmt.Sprint(i)}}
		if err := s.AppendProgress(ctx, m); err != nil {
			t.Fatal(err)
		}
		if i%100_000 == 0 {
			peak = max(peak, heapNow())
		}
	}
	peak = max(peak, heapNow())
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if grew := int64(peak) - int64(base); grew > 32<<20 {
		t.Errorf("heap grew by %d MiB during the burst, want flat (< 32 MiB)", grew>>20)
	}
	ms, err := s.Messages(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	var counted int64
	for _, m := range ms {
		counted += m.Repeat + 1
	}
	if counted != n {
		t.Errorf("rows count %d updates, want %d", counted, n)
	}
	if len(ms) > 1000 {
		t.Errorf("a million updates became %d rows, want few (coalesced)", len(ms))
	}
	last := ms[len(ms)-1]
	if last.Args[0] != fmt.Sprint(n-1) {
		t.Errorf("last line = %q, want the last update", last.In("en"))
	}
	t.Logf("%d updates → %d rows, %d commits; last line %q", n, len(ms), s.commits.Load(), last.In("en"))
}

// TestAppendProgress_CoalescesPerNodeAndKey: lines of two nodes in turn
// coalesce per node; a different key, or a line written through
// AppendMessage in between, ends a run of updates.
func TestAppendProgress_CoalescesPerNodeAndKey(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	if err := s.CreateRun(ctx, sampleRun("r1", t0)); err != nil {
		t.Fatal(err)
	}
	progress := func(node, key, arg string) {
		t.Helper()
		if err := s.AppendProgress(ctx, workrun.Message{RunID: "r1", NodeID: node, Key: key, Args: []string{arg}}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 5 {
		progress("a", "storetest.working", fmt.Sprint(i))
		progress("b", "storetest.working", fmt.Sprint(10+i))
	}
	progress("a", "", "verbatim")
	progress("a", "storetest.working", "50")
	if _, err := s.AppendMessage(ctx, workrun.Message{RunID: "r1", NodeID: "a", Key: "storetest.done"}); err != nil {
		t.Fatal(err)
	}
	progress("a", "storetest.working", "60")
	progress("a", "storetest.working", "61")
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	ms, err := s.Messages(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, fmt.Sprintf("%d %s %s", m.Seq, m.NodeID, m.In("en")))
	}
	want := []string{
		"1 a remote task: working (4%) (+4 updates)",
		"2 b remote task: working (14%) (+4 updates)",
		"3 a verbatim",
		"4 a remote task: working (50%)",
		"5 a done",
		"6 a remote task: working (61%) (+1 update)",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("lines (-want +got):\n%s", d)
	}
	if zh := ms[0].In("zh"); zh != "远程任务：进行中（4%） （另有 4 条更新）" {
		t.Errorf("zh rendering = %q", zh)
	}
}

// TestAppendProgress_BurstOfDistinctLines: 100,000 lines that cannot be
// coalesced (keys alternate) are all kept, in order, with at most one
// commit (one fsync) per 100 lines, and the queue never holds more than
// its hard bound.
func TestAppendProgress_BurstOfDistinctLines(t *testing.T) {
	ctx := t.Context()
	s := openTest(t)
	if err := s.CreateRun(ctx, sampleRun("r1", t0)); err != nil {
		t.Fatal(err)
	}
	const n = 100_000
	before := s.commits.Load()
	maxQueued := 0
	for i := range n {
		key := "storetest.working"
		if i%2 == 1 {
			key = "storetest.other"
		}
		if err := s.AppendProgress(ctx, workrun.Message{RunID: "r1", NodeID: "ra", Key: key, Args: []string{fmt.Sprint(i)}}); err != nil {
			t.Fatal(err)
		}
		s.qMu.Lock()
		maxQueued = max(maxQueued, len(s.pending))
		s.qMu.Unlock()
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	commits := s.commits.Load() - before
	if per := float64(commits) / n; per > 0.01 {
		t.Errorf("%d commits for %d lines = %.4f per line, want ≤ 0.01", commits, n, per)
	}
	if maxQueued > hardPendingLines {
		t.Errorf("queue held %d lines, want ≤ %d", maxQueued, hardPendingLines)
	}
	ms, err := s.Messages(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != n {
		t.Fatalf("%d rows, want %d", len(ms), n)
	}
	for i, m := range ms {
		if m.Seq != int64(i+1) || m.Args[0] != fmt.Sprint(i) || m.Repeat != 0 {
			t.Fatalf("row %d = seq %d args %v repeat %d", i, m.Seq, m.Args, m.Repeat)
		}
	}
	t.Logf("%d lines, %d commits, at most %d queued", n, commits, maxQueued)
}

// TestMessages_HugeTextIsCut: a 60 MB status text, as a progress line and
// as a message, is stored cut to the field bound with a marker saying how
// much was cut; the database stays small and memory flat.
func TestMessages_HugeTextIsCut(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateRun(ctx, sampleRun("r1", t0)); err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("界", 20<<20) // 60 MiB of 3-byte runes
	args := []string{huge}
	for range 3 {
		if err := s.AppendProgress(ctx, workrun.Message{RunID: "r1", NodeID: "ra", Args: args}); err != nil {
			t.Fatal(err)
		}
	}
	if args[0] != huge {
		t.Error("AppendProgress changed the caller's arguments")
	}
	if _, err := s.AppendMessage(ctx, workrun.Message{RunID: "r1", NodeID: "ra", Text: huge}); err != nil {
		t.Fatal(err)
	}
	ms, err := s.Messages(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 {
		t.Fatalf("%d lines, want 2 (three progress updates coalesced, one message)", len(ms))
	}
	for _, m := range ms {
		text := m.In("en")
		if len(text) > maxFieldBytes+100 || !strings.Contains(text, "more bytes cut]") || !strings.HasPrefix(text, "界界界") {
			t.Errorf("line %d: %d bytes, ends %q; want cut to about %d bytes with a marker", m.Seq, len(text), text[max(0, len(text)-40):], maxFieldBytes)
		}
		if !strings.Contains(text, fmt.Sprint(len(huge)-maxFieldBytes+1)) && !strings.Contains(text, fmt.Sprint(len(huge)-maxFieldBytes+2)) && !strings.Contains(text, fmt.Sprint(len(huge)-maxFieldBytes)) {
			t.Errorf("line %d marker does not say how many bytes were cut: %q", m.Seq, text[len(text)-40:])
		}
	}
	s.Close()
	var size int64
	for _, f := range []string{FileName, FileName + "-wal"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err == nil {
			size += fi.Size()
		}
	}
	if size > 4<<20 {
		t.Errorf("database is %d bytes after two cut lines, want < 4 MiB", size)
	}
}
