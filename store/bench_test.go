package store

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"workrun/workrun"
)

// Figures and the commands that produced them: docs/BENCHMARKS.md, "## store".

func benchStore(b *testing.B) *Store {
	b.Helper()
	s, err := Open(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// concurrentWriters splits b.N writes among writers goroutines, writer w
// making n of them with write, and reports the writes per second as unit.
func concurrentWriters(b *testing.B, writers int, unit string, write func(w, n int) error) {
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for w := range writers {
		n := b.N / writers
		if w < b.N%writers {
			n++
		}
		wg.Go(func() {
			if err := write(w, n); err != nil {
				b.Error(err)
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), unit)
}

// BenchmarkAppendMessage measures node messages with durable commits
// (one fsync'd transaction each) from 1 and 8 concurrent writers.
func BenchmarkAppendMessage(b *testing.B) {
	for _, writers := range []int{1, 8} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			s := benchStore(b)
			ctx := context.Background()
			for w := range writers {
				if err := s.CreateRun(ctx, sampleRun(fmt.Sprint("r", w), t0)); err != nil {
					b.Fatal(err)
				}
			}
			concurrentWriters(b, writers, "msgs/s", func(w, n int) error {
				m := workrun.Message{RunID: fmt.Sprint("r", w), NodeID: "n", Text: "remote task: working (42%)"}
				for range n {
					if _, err := s.AppendMessage(ctx, m); err != nil {
						return err
					}
				}
				return nil
			})
		})
	}
}

// BenchmarkSaveRemoteCall measures remote call record updates (the writes
// the Remote Agent node makes before acting: messageId, taskId, state) from
// 1 and 8 concurrent writers, each its own durable commit.
func BenchmarkSaveRemoteCall(b *testing.B) {
	for _, writers := range []int{1, 8} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			s := benchStore(b)
			ctx := context.Background()
			if err := s.CreateRun(ctx, sampleRun("r", t0)); err != nil {
				b.Fatal(err)
			}
			concurrentWriters(b, writers, "saves/s", func(w, n int) error {
				c := workrun.RemoteCall{RunID: "r", NodeID: fmt.Sprint("ra", w), CallKey: "0", MessageID: "m", TaskID: "t"}
				for i := range n {
					c.StatusText = fmt.Sprint("working ", i)
					if err := s.SaveRemoteCall(ctx, c); err != nil {
						return err
					}
				}
				return nil
			})
		})
	}
}

// BenchmarkAppendProgress measures batched progress lines, including the
// final commit of the last batch.
func BenchmarkAppendProgress(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	if err := s.CreateRun(ctx, sampleRun("r", t0)); err != nil {
		b.Fatal(err)
	}
	m := workrun.Message{RunID: "r", NodeID: "n", Text: "remote task: working (42%)"}
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		if err := s.AppendProgress(ctx, m); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "lines/s")
}

// burstLines is the size of one progress burst in BenchmarkProgressBurst.
const burstLines = 100_000

// BenchmarkProgressBurst appends bursts of 100,000 progress lines as fast as
// a node could and flushes them (one op = one burst). "updates" are status
// updates of one node, one key, each with its own text (what a streaming
// agent sends); "distinct" alternates two keys, so no line can be merged
// into another; "empty" appends nothing and measures the set-up (for the
// fsync count under strace, see docs/BENCHMARKS.md). It reports lines/s,
// the rows and commits per line (each commit is one fsync of the WAL) and
// the peak heap during the burst.
func BenchmarkProgressBurst(b *testing.B) {
	for _, kind := range []string{"updates", "distinct", "empty"} {
		b.Run(kind, func(b *testing.B) {
			s := benchStore(b)
			ctx := context.Background()
			lines := burstLines
			if kind == "empty" {
				lines = 0
			}
			var peak uint64
			var ms runtime.MemStats
			var rows int
			var commits int64
			b.ResetTimer()
			for i := range b.N {
				runID := fmt.Sprint("r", i)
				b.StopTimer()
				if err := s.CreateRun(ctx, sampleRun(runID, t0)); err != nil {
					b.Fatal(err)
				}
				c0 := s.commits.Load() // not counting the run's own commit
				b.StartTimer()
				for j := range lines {
					key := "remoteagent.status"
					if kind == "distinct" && j%2 == 1 {
						key = "remoteagent.artifact"
					}
					// As the engine sends it: key, arguments and a rendering.
					arg := fmt.Sprint("chunk ", j)
					m := workrun.Message{RunID: runID, NodeID: "ra", Key: key, Args: []string{"TASK_STATE_WORKING", arg}, Text: "working: " + arg}
					if err := s.AppendProgress(ctx, m); err != nil {
						b.Fatal(err)
					}
					if j%10_000 == 0 {
						runtime.ReadMemStats(&ms)
						peak = max(peak, ms.HeapInuse)
					}
				}
				if err := s.Flush(ctx); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				commits += s.commits.Load() - c0
				got, err := s.Messages(ctx, runID)
				if err != nil {
					b.Fatal(err)
				}
				rows += len(got)
				b.StartTimer()
			}
			elapsed := b.Elapsed() // the bursts alone, not the set-up and read-back
			if lines == 0 {
				return
			}
			n := float64(b.N * lines)
			b.ReportMetric(n/elapsed.Seconds(), "lines/s")
			b.ReportMetric(float64(rows)/n, "rows/line")
			b.ReportMetric(float64(commits)/n, "commits/line")
			b.ReportMetric(float64(peak)/(1<<20), "MiB-heap-peak")
		})
	}
}

// populate writes n runs (each with nodes, messages and a remote call) in
// one transaction, so setting up 10,000 runs does not take 10,000 fsyncs.
func populate(b *testing.B, dir string, n int) {
	b.Helper()
	ctx := context.Background()
	s, err := Open(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	r := sampleRun("", t0)
	wf, inputs, state, _ := marshalRun(r)
	for i := range n {
		id := fmt.Sprintf("run-%06d", i)
		status := workrun.RunSucceeded
		if i%1000 == 0 {
			status = workrun.RunRunning
		}
		exec := func(q string, args ...any) {
			if _, err := tx.ExecContext(ctx, q, args...); err != nil {
				b.Fatal(err)
			}
		}
		exec(`INSERT INTO runs VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`, id, "wf1", "Summarize", wf, inputs, state,
			string(status), "", "", "", t0.Add(time.Duration(i)*time.Second).UnixNano(), 0)
		exec(`INSERT INTO node_runs VALUES (?,?,?,?,?,?,?,?,?)`, id, "ra", "remote_agent", "succeeded", "{}", "{}", "", 1, 2)
		for j := range 5 {
			exec(`INSERT INTO messages (run_id, seq, node_id, time, text) VALUES (?,?,?,?,?)`, id, j+1, "ra", 1, "remote task: working")
		}
		exec(`INSERT INTO remote_calls VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`, id, "ra", "0", "http://127.0.0.1:1/",
			"http://127.0.0.1:1", "m", "t", "c", "TASK_STATE_COMPLETED", "", `{"ok":true}`, "", "", 1, 1, 1)
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkOpen measures start-up with 10 and with 10,000 runs in the data
// dir. The two data dirs are opened alternately within one loop, so both
// figures see the same machine load: "open" is Open+Close (schema check),
// "startup" adds the start-up query for running runs and the first page of
// the run records list (50 runs, or all 10). first_page alone, ten runs by
// workflow, is measured on an open store.
func BenchmarkOpen(b *testing.B) {
	sizes := []int{10, 10000}
	dirs := make([]string, len(sizes))
	for i, n := range sizes {
		dirs[i] = b.TempDir()
		populate(b, dirs[i], n)
	}
	ctx := context.Background()
	startup := func(b *testing.B, dir string, n int, full bool) {
		s, err := Open(ctx, dir)
		if err != nil {
			b.Fatal(err)
		}
		if full {
			running, err := s.RunsWithStatus(ctx, workrun.RunRunning)
			if err != nil || len(running) != (n+999)/1000 {
				b.Fatalf("running runs: %d, %v", len(running), err)
			}
			page, err := s.ListRuns(ctx, workrun.RunFilter{})
			if err != nil || len(page) != min(n, 50) {
				b.Fatalf("first page: %d runs, %v", len(page), err)
			}
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
	for _, full := range []bool{false, true} {
		name := "open"
		if full {
			name = "startup"
		}
		b.Run(name, func(b *testing.B) {
			spent := make([]time.Duration, len(sizes))
			for range b.N {
				for i, n := range sizes {
					start := time.Now()
					startup(b, dirs[i], n, full)
					spent[i] += time.Since(start)
				}
			}
			for i, n := range sizes {
				b.ReportMetric(float64(spent[i].Microseconds())/float64(b.N), fmt.Sprintf("µs/runs=%d", n))
			}
		})
	}
	for i, n := range sizes {
		b.Run(fmt.Sprintf("first_page/runs=%d", n), func(b *testing.B) {
			s, err := Open(ctx, dirs[i])
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			b.ResetTimer()
			for range b.N {
				// Ten runs a page on both, so the figures compare equal work.
				page, err := s.ListRuns(ctx, workrun.RunFilter{WorkflowID: "wf1", Limit: 10})
				if err != nil || len(page) != 10 {
					b.Fatalf("first page: %d runs, %v", len(page), err)
				}
			}
		})
	}
}

// BenchmarkEngineProgress runs a two-node workflow through the engine over
// this store, whose second node reports 100,000 status updates with
// NodeContext.Progress as fast as it can (one op = one run, from Start to
// Wait). It is the store's share of a streaming Remote Agent node: lines/s,
// rows and commits per line, peak heap.
func BenchmarkEngineProgress(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	steps := map[string]*testStep{
		"start": {entry: true},
		"ra": {run: func(_ context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			for j := range burstLines {
				nc.Progress(workrun.Text{Key: "remoteagent.status", Args: []string{"TASK_STATE_WORKING", fmt.Sprint("chunk ", j)}})
			}
			return nil, nil
		}},
	}
	wf := workrun.Workflow{Name: "stream",
		Nodes: []workrun.NodeSpec{{ID: "start", Type: "step"}, {ID: "ra", Type: "step"}},
		Edges: []workrun.Edge{{From: "start", To: "ra"}}}
	e := workrun.NewEngine(s, nil, testKind{typ: "step", steps: steps})
	var rows int
	var peak uint64
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() { // the node's loop is not ours to sample in
		defer close(sampled)
		var ms runtime.MemStats
		for {
			select {
			case <-stopSampling:
				return
			case <-time.After(20 * time.Millisecond):
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
			}
		}
	}()
	var commits int64
	b.ResetTimer()
	for range b.N {
		c0 := s.commits.Load()
		id, err := e.Start(ctx, "", wf, nil)
		if err != nil {
			b.Fatal(err)
		}
		r, err := e.Wait(ctx, id)
		if err != nil || r.Status != workrun.RunSucceeded {
			b.Fatalf("run %s: %v", r.Status, err)
		}
		b.StopTimer()
		commits += s.commits.Load() - c0
		ms, err := s.Messages(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		rows += len(ms)
		b.StartTimer()
	}
	b.StopTimer()
	close(stopSampling)
	<-sampled
	n := float64(b.N * burstLines)
	b.ReportMetric(n/b.Elapsed().Seconds(), "lines/s")
	b.ReportMetric(float64(rows)/n, "rows/line")
	b.ReportMetric(float64(commits)/n, "commits/line") // the run's own writes included
	b.ReportMetric(float64(peak)/(1<<20), "MiB-heap-peak")
}
