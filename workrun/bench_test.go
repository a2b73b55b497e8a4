package workrun_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"workrun/nodes/join"
	"workrun/nodes/start"
	"workrun/store"
	"workrun/workrun"
)

// trivialKind is a node that does nothing: the benchmark measures the
// engine and its durable saves, not node work.
type trivialKind struct{}

func (trivialKind) Type() string { return "trivial" }
func (trivialKind) Compile(workrun.NodeSpec, workrun.Workflow) (workrun.Step, error) {
	return &fakeStep{}, nil
}

// fanIn is start → n parallel trivial nodes → one join.
func fanIn(n int) workrun.Workflow {
	wf := workrun.Workflow{Name: fmt.Sprintf("fan-in %d", n), State: map[string]workrun.FieldType{}}
	wf.Nodes = append(wf.Nodes, workrun.NodeSpec{ID: "start", Type: "start"}, workrun.NodeSpec{ID: "join", Type: "join"})
	for i := range n {
		id := fmt.Sprintf("n%05d", i)
		wf.Nodes = append(wf.Nodes, workrun.NodeSpec{ID: id, Type: "trivial"})
		wf.Edges = append(wf.Edges, workrun.Edge{From: "start", To: id}, workrun.Edge{From: id, To: "join"})
	}
	return wf
}

// commitCounter counts the node-record commits the engine asks for: one per
// SaveNodeRuns (a scheduling round) or SaveNodeRun.
type commitCounter struct {
	*store.Store
	nodeSaves atomic.Int64
}

func (c *commitCounter) SaveNodeRun(ctx context.Context, n workrun.NodeRun) error {
	c.nodeSaves.Add(1)
	return c.Store.SaveNodeRun(ctx, n)
}

func (c *commitCounter) SaveNodeRuns(ctx context.Context, ns []workrun.NodeRun) error {
	c.nodeSaves.Add(1)
	return c.Store.SaveNodeRuns(ctx, ns)
}

// BenchmarkFanIn runs n parallel trivial nodes into one join with every
// state change durably saved in the real SQLite store (docs/product.md W4). The cost
// must grow linearly: 10× the nodes ≤ 12× the time (docs/BENCHMARKS.md).
//
// Every iteration gets a fresh data directory, opened before the timer
// starts and closed (and removed) after it stops, so no size measures a
// database that earlier iterations filled. Each size is run once untimed
// first (see below). Both sizes run in one invocation, b.N
// driven (-benchtime 3s gives about as much time to each), and the ratio
// of their mean time per run, over every timed iteration of every -count,
// is logged at the end (shown with -v); above 12× the benchmark fails.
//
// Metrics: ns/node; cpu-ns/op (user+system CPU time of the process while
// the timer ran, GC included: less sensitive than ns/op to other processes
// on a loaded machine; unix only); node-commits/op (node-record commits
// the engine asked for); write-B/op (bytes the process passed to write(2)
// and pwrite(2) while the timer ran: WAL frames and any checkpoint SQLite
// ran meanwhile) and close-B/op (bytes written by Close after the timer:
// the final checkpoint of what the run left in the WAL). Linux only.
func BenchmarkFanIn(b *testing.B) {
	sizes := []int{1000, 10000}
	type total struct{ ns, runs int64 }
	totals := map[int]*total{}
	for _, n := range sizes {
		totals[n] = &total{}
		wf := fanIn(n)
		warm := false
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			if !warm {
				// One untimed run first: the first runs of a process pay
				// for growing its heap (page faults; 10,000 nodes allocate
				// ~90 MB a run), which made single runs of 10,000 nodes up
				// to ~1.8× slower than the following ones.
				_, e, done := openFanIn(b)
				runFanIn(b, e, wf)
				done()
				warm = true
			}
			var commits, written, closeWritten, cpu int64
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				cs, e, done := openFanIn(b)
				w0, c0 := writtenBytes(), cpuTime()
				b.StartTimer()

				runFanIn(b, e, wf)

				b.StopTimer()
				w1 := writtenBytes()
				written += w1 - w0
				cpu += cpuTime() - c0
				commits += cs.nodeSaves.Load()
				done()
				closeWritten += writtenBytes() - w1
				b.StartTimer()
			}
			b.StopTimer()
			ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			totals[n].ns += b.Elapsed().Nanoseconds()
			totals[n].runs += int64(b.N)
			b.ReportMetric(ns/float64(n+2), "ns/node")
			b.ReportMetric(float64(commits)/float64(b.N), "node-commits/op")
			if cpu > 0 {
				b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
			}
			if w := writtenBytes(); w >= 0 {
				b.ReportMetric(float64(written)/float64(b.N), "write-B/op")
				b.ReportMetric(float64(closeWritten)/float64(b.N), "close-B/op")
			}
		})
	}
	small, large := totals[sizes[0]], totals[sizes[1]]
	if small.runs > 0 && large.runs > 0 {
		ms, ml := float64(small.ns)/float64(small.runs), float64(large.ns)/float64(large.runs)
		b.Logf("%d nodes: %.1f ms a run (mean of %d); %d nodes: %.1f ms (mean of %d); %.2f× the time for %d× the nodes (target ≤ 12×)",
			sizes[0], ms/1e6, small.runs, sizes[1], ml/1e6, large.runs, ml/ms, sizes[1]/sizes[0])
		if ml/ms > 12 {
			b.Errorf("fan-in does not grow linearly: %.2f× the time for %d× the nodes, target ≤ 12×", ml/ms, sizes[1]/sizes[0])
		}
	}
}

// openFanIn opens a store in a fresh data directory and an engine on it;
// done closes the store and removes the directory (10,000 nodes leave
// ~15 MB behind).
func openFanIn(b *testing.B) (cs *commitCounter, e *workrun.Engine, done func()) {
	dir, err := os.MkdirTemp("", "fanin-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(dir) }) // if a run fails
	st, err := store.Open(context.Background(), dir)
	if err != nil {
		b.Fatal(err)
	}
	cs = &commitCounter{Store: st}
	e = workrun.NewEngine(cs, nil, start.Kind{}, join.Kind{}, trivialKind{})
	return cs, e, func() {
		if err := st.Close(); err != nil {
			b.Fatal(err)
		}
		if err := os.RemoveAll(dir); err != nil {
			b.Fatal(err)
		}
	}
}

// runFanIn runs wf to its end and fails b unless it succeeded.
func runFanIn(b *testing.B, e *workrun.Engine, wf workrun.Workflow) {
	ctx := context.Background()
	id, err := e.Start(ctx, "", wf, nil)
	if err != nil {
		b.Fatal(err)
	}
	r, err := e.Wait(ctx, id)
	if err != nil || r.Status != workrun.RunSucceeded {
		b.Fatalf("run %s: %v %s", r.Status, err, r.Reason)
	}
}

// writtenBytes is the process's wchar from /proc/self/io: bytes passed to
// write-type system calls so far, or -1 where that file does not exist.
func writtenBytes() int64 {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return -1
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "wchar: "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				return -1
			}
			return n
		}
	}
	return -1
}
