package workrun_test

import (
	"context"
	"fmt"
	"testing"

	"workrun/nodes/join"
	"workrun/nodes/start"
	"workrun/workrun"
)

// logKind is a node that logs logLines durable messages.
type logKind struct{ lines int }

func (logKind) Type() string { return "logger" }
func (k logKind) Compile(spec workrun.NodeSpec, _ workrun.Workflow) (workrun.Step, error) {
	return &fakeStep{run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
		for i := range k.lines {
			nc.Log(workrun.Plain(fmt.Sprintf("%s line %d", spec.ID, i)))
		}
		return nil, nil
	}}, nil
}

// BenchmarkParallelLog: 16 parallel nodes each log 50 messages, every one
// committed in the real SQLite store before Log returns, and published in
// commit order (docs/BENCHMARKS.md, "Node messages in commit order").
func BenchmarkParallelLog(b *testing.B) {
	const nodes, lines = 16, 50
	wf := workrun.Workflow{Name: "log", State: map[string]workrun.FieldType{}}
	wf.Nodes = append(wf.Nodes, workrun.NodeSpec{ID: "start", Type: "start"}, workrun.NodeSpec{ID: "join", Type: "join"})
	for i := range nodes {
		id := fmt.Sprintf("n%02d", i)
		wf.Nodes = append(wf.Nodes, workrun.NodeSpec{ID: id, Type: "logger"})
		wf.Edges = append(wf.Edges, workrun.Edge{From: "start", To: id}, workrun.Edge{From: id, To: "join"})
	}
	b.ReportAllocs()
	for range b.N {
		b.StopTimer()
		cs, _, done := openFanIn(b)
		e := workrun.NewEngine(cs, nil, start.Kind{}, join.Kind{}, logKind{lines})
		events, cancel := e.Subscribe()
		go func() {
			for range events {
			}
		}()
		b.StartTimer()
		runFanIn(b, e, wf)
		b.StopTimer()
		cancel()
		done()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*nodes*lines), "ns/line")
}
