package ui

import (
	"context"
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"workrun/workrun"
)

// BenchmarkCanvas_FirstFrame200x300 builds the canvas of a 200-node,
// 300-edge workflow and renders its first frame with the test driver
// (docs/product.md W1: under 1 s).
func BenchmarkCanvas_FirstFrame200x300(b *testing.B) {
	test.NewTempApp(b)
	wf := bigWorkflow(200, 300)
	if len(wf.Edges) != 300 {
		b.Fatalf("%d edges", len(wf.Edges))
	}
	b.ReportAllocs()
	for b.Loop() {
		cv := NewCanvasView(NewDocument(wf), false)
		win := test.NewWindow(cv)
		win.Resize(fyne.NewSize(1280, 800))
		cv.Fit()
		if img := win.Canvas().Capture(); img.Bounds().Dx() == 0 {
			b.Fatal("empty frame")
		}
		win.Close()
	}
}

// BenchmarkCanvas_DragStep moves one node of the 200-node canvas by one
// drag event: only that node and its edges are touched.
func BenchmarkCanvas_DragStep(b *testing.B) {
	test.NewTempApp(b)
	cv := NewCanvasView(NewDocument(bigWorkflow(200, 300)), false)
	win := test.NewWindow(cv)
	defer win.Close()
	win.Resize(fyne.NewSize(1280, 800))
	nb := cv.nodes["n100"]
	ev := &fyne.DragEvent{Dragged: fyne.Delta{DX: 1, DY: 0}}
	b.ReportAllocs()
	for b.Loop() {
		nb.Dragged(ev)
	}
	nb.DragEnd()
}

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

// The editor's size target: 500 nodes and 800 edges. First frame under 1 s,
// a drag step under 16 ms, Fit under 50 ms (test driver), next to the
// 200/300 baseline above.
func BenchmarkCanvas_FirstFrame500x800(b *testing.B) {
	test.NewTempApp(b)
	wf := bigWorkflow(500, 800)
	if len(wf.Edges) != 800 {
		b.Fatalf("%d edges", len(wf.Edges))
	}
	b.ReportAllocs()
	for b.Loop() {
		cv := NewCanvasView(NewDocument(wf), false)
		win := test.NewWindow(cv)
		win.Resize(fyne.NewSize(1280, 800))
		cv.Fit()
		if img := win.Canvas().Capture(); img.Bounds().Dx() == 0 {
			b.Fatal("empty frame")
		}
		win.Close()
	}
}

func BenchmarkCanvas_DragStep500x800(b *testing.B) {
	test.NewTempApp(b)
	cv := NewCanvasView(NewDocument(bigWorkflow(500, 800)), false)
	win := test.NewWindow(cv)
	defer win.Close()
	win.Resize(fyne.NewSize(1280, 800))
	nb := cv.nodes["n250"]
	ev := &fyne.DragEvent{Dragged: fyne.Delta{DX: 1, DY: 0}}
	b.ReportAllocs()
	for b.Loop() {
		nb.Dragged(ev)
	}
	nb.DragEnd()
}

func BenchmarkCanvas_Fit500x800(b *testing.B) {
	test.NewTempApp(b)
	cv := NewCanvasView(NewDocument(bigWorkflow(500, 800)), false)
	win := test.NewWindow(cv)
	defer win.Close()
	win.Resize(fyne.NewSize(1280, 800))
	b.ReportAllocs()
	for b.Loop() {
		cv.SetZoom(1)
		cv.Fit()
	}
}

func BenchmarkCanvas_Fit200x300(b *testing.B) {
	test.NewTempApp(b)
	cv := NewCanvasView(NewDocument(bigWorkflow(200, 300)), false)
	win := test.NewWindow(cv)
	defer win.Close()
	win.Resize(fyne.NewSize(1280, 800))
	b.ReportAllocs()
	for b.Loop() {
		cv.SetZoom(1)
		cv.Fit()
	}
}

// bigWorkflow is a chain-and-fan workflow of n nodes and about 1.5·n edges
// (the canvas benchmark uses 200/300).
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
