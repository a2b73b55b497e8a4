package workrun_test

import (
	"context"
	"fmt"
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
// state change durably saved in the real SQLite store (SPEC W4). The cost
// must grow linearly: 10× the nodes ≤ 12× the time (docs/BENCHMARKS.md).
func BenchmarkFanIn(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ctx := context.Background()
			st, err := store.Open(ctx, b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			cs := &commitCounter{Store: st}
			e := workrun.NewEngine(cs, nil, start.Kind{}, join.Kind{}, trivialKind{})
			wf := fanIn(n)
			for b.Loop() {
				id, err := e.Start(ctx, "", wf, nil)
				if err != nil {
					b.Fatal(err)
				}
				r, err := e.Wait(ctx, id)
				if err != nil || r.Status != workrun.RunSucceeded {
					b.Fatalf("run %s: %v %s", r.Status, err, r.Reason)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n+2), "ns/node")
			b.ReportMetric(float64(cs.nodeSaves.Load())/float64(b.N), "node-commits/op")
		})
	}
}
