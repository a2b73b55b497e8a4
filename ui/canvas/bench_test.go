package canvas

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
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
		cv := newTestView(wf)
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
	cv := newTestView(bigWorkflow(200, 300))
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
		cv := newTestView(wf)
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
	cv := newTestView(bigWorkflow(500, 800))
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
	cv := newTestView(bigWorkflow(500, 800))
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
	cv := newTestView(bigWorkflow(200, 300))
	win := test.NewWindow(cv)
	defer win.Close()
	win.Resize(fyne.NewSize(1280, 800))
	b.ReportAllocs()
	for b.Loop() {
		cv.SetZoom(1)
		cv.Fit()
	}
}
