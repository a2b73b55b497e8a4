package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// BenchmarkCanvas_FirstFrame200x300 builds the canvas of a 200-node,
// 300-edge workflow and renders its first frame with the test driver
// (issue 7: under 1 s).
func BenchmarkCanvas_FirstFrame200x300(b *testing.B) {
	test.NewTempApp(b)
	wf := BigWorkflow(200, 300)
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
	cv := NewCanvasView(NewDocument(BigWorkflow(200, 300)), false)
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
