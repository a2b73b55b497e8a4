package ui

import (
	"context"
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"workrun/workrun"
)

// BenchmarkWindow_StartWith10kRuns opens the whole window over a run store
// holding 10,000 runs (a few of them interrupted) and renders its first
// frame: start-up reads one status index, never the history (docs/product.md W5).
func BenchmarkWindow_StartWith10kRuns(b *testing.B) {
	a := test.NewTempApp(b)
	SetupLanguage("en")
	all := make([]workrun.Run, 10000)
	for i := range all {
		all[i] = workrun.Run{ID: fmt.Sprintf("r%05d", i), WorkflowName: "wf", Status: workrun.RunSucceeded}
	}
	for i := 0; i < 3; i++ {
		all[i*1000].Status = workrun.RunInterrupted
	}
	var listed int
	runs := &fakeRuns{ListRunsFunc: func(_ context.Context, f workrun.RunFilter) ([]workrun.Run, error) {
		var out []workrun.Run
		for _, r := range all {
			if (f.Status == "" || r.Status == f.Status) && len(out) < f.Limit {
				out = append(out, r)
			}
		}
		listed += len(out)
		return out, nil
	}, WithStatus: func(_ context.Context, s workrun.RunStatus) ([]workrun.Run, error) {
		var out []workrun.Run
		for _, r := range all {
			if r.Status == s {
				out = append(out, r)
			}
		}
		return out, nil
	}}
	b.ReportAllocs()
	for b.Loop() {
		w := NewWindow(a, Deps{Runs: runs})
		w.win.Resize(fyne.NewSize(1280, 800))
		if img := w.win.Canvas().Capture(); img.Bounds().Dx() == 0 {
			b.Fatal("empty frame")
		}
		w.Close()
		w.win.Close()
	}
	b.ReportMetric(float64(listed)/float64(b.N), "runs-read/op")
}

// bigWorkflow is a chain-and-fan workflow of n nodes and about 1.5·n edges
// (the window's tests; the canvas benchmarks have their own, ui/canvas).
func bigWorkflow(n, edges int) workrun.Workflow {
	wf := workrun.Workflow{Name: "big", State: map[string]workrun.FieldType{"x": workrun.FieldText}}
	for i := 0; i < n; i++ {
		kind := "join"
		if i == 0 {
			kind = "start"
		}
		wf.Nodes = append(wf.Nodes, workrun.NodeSpec{ID: fmt.Sprintf("n%d", i), Type: kind,
			Position: pos(float32(i%20)*200, float32(i/20)*100)})
	}
	for i := 1; i < n && len(wf.Edges) < edges; i++ {
		wf.Edges = append(wf.Edges, workrun.Edge{From: fmt.Sprintf("n%d", i-1), To: fmt.Sprintf("n%d", i)})
	}
	for i := 2; i < n && len(wf.Edges) < edges; i++ {
		wf.Edges = append(wf.Edges, workrun.Edge{From: fmt.Sprintf("n%d", i-2), To: fmt.Sprintf("n%d", i)})
	}
	return wf
}
