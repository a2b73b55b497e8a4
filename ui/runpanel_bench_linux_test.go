package ui

import (
	"fmt"
	"image/color"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"workrun/workrun"
)

// BenchmarkRunPanelStream streams n node messages of one Remote Agent node
// into the run panel as the window receives them from a fast agent: 50,000
// events a second, 800 per 60 Hz frame. Each frame is the UI thread's work —
// apply the frame's events, redraw, paint the window (software painter of
// the test driver, 1024×700) — and max-frame-ms is the longest. per-frame is
// what the window does (one Flush per batch, which redraws the message list
// at most every listEvery); per-event redraws after every event, the
// baseline without coalescing. max-update-ms is the
// longest apply-and-redraw alone, max-paint-ms the longest paint; the first
// frame, which loads the fonts, is left out. The -cpu-ms figures are the
// same frames in CPU time of the UI thread (getrusage RUSAGE_THREAD), which
// a machine shared with other work does not inflate; p99- is the 99th
// percentile of the frames. empty-paint-cpu-ms is the test driver's paint
// of an empty window of the same size (it composes whole-window images,
// whatever is shown), the part of each paint the panel cannot change. The
// events of a frame are made before the frame is timed: the engine makes
// them on its own goroutine. After the stream the list is scrolled to the
// top and back to the bottom, each with a paint (scroll-ms: the slower of
// the two).
func BenchmarkRunPanelStream(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		for _, mode := range []string{"per-frame", "per-event"} {
			if mode == "per-event" && n > 10_000 {
				continue // minutes per run; 10,000 shows the difference
			}
			b.Run(fmt.Sprintf("msgs=%d/%s", n, mode), func(b *testing.B) {
				test.NewTempApp(b)
				SetupLanguage("en")
				const perFrame = 800
				wf := workrun.Workflow{Name: "stream", Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "ask", Type: "remote_agent"}}}
				runtime.LockOSThread() // threadCPU measures this goroutine's thread
				defer runtime.UnlockOSThread()
				var maxFrame, maxUpdate, maxPaint, scroll, cpuUpdate, cpuPaint time.Duration
				var frames, cpuFrames []time.Duration
				empty := emptyPaintCPU()
				for b.Loop() {
					p := newRunPanel(langNow(), false)
					win := test.NewWindow(p.Object())
					win.Resize(fyne.NewSize(1024, 700))
					p.Start("r", wf)
					p.Apply(Event{Type: "node", RunID: "r", NodeID: "ask", Node: &workrun.NodeRun{RunID: "r", NodeID: "ask", Type: "remote_agent", Status: workrun.NodeRunning, StartedAt: time.Now()}})
					base := time.Now()
					evs := make([]Event, 0, perFrame)
					for i := 0; i < n; i += perFrame {
						// The engine makes the events on its own goroutine;
						// the UI thread only applies them.
						evs = evs[:0]
						for j := i; j < min(i+perFrame, n); j++ {
							evs = append(evs, Event{Type: "message", RunID: "r", NodeID: "ask", Message: &workrun.Message{
								RunID: "r", NodeID: "ask", Seq: int64(j + 1), Time: base,
								Key: "", Args: []string{fmt.Sprintf("chunk %d of the agent's answer", j)}}})
						}
						t0, c0 := time.Now(), threadCPU()
						for _, ev := range evs {
							if mode == "per-event" {
								p.Apply(ev)
							} else {
								p.ApplyQuiet(ev)
							}
						}
						p.Flush()
						t1, c1 := time.Now(), threadCPU()
						win.Canvas().Capture()
						c2 := threadCPU()
						if i > 0 { // the first frame loads the fonts
							frames = append(frames, time.Since(t0))
							cpuFrames = append(cpuFrames, c2-c0)
							cpuUpdate = max(cpuUpdate, c1-c0)
							cpuPaint = max(cpuPaint, c2-c1)
							maxUpdate = max(maxUpdate, t1.Sub(t0))
							maxPaint = max(maxPaint, time.Since(t1))
							maxFrame = max(maxFrame, time.Since(t0))
						}
					}
					if got := p.MessageCount("ask"); got != n {
						b.Fatalf("panel holds %d messages, want %d", got, n)
					}
					for _, to := range []func(){p.Parts().MessageList.ScrollToTop, p.Parts().MessageList.ScrollToBottom} {
						t0 := time.Now()
						to()
						win.Canvas().Capture()
						scroll = max(scroll, time.Since(t0))
					}
					win.Close()
				}
				b.ReportMetric(float64(maxFrame.Microseconds())/1000, "max-frame-ms")
				b.ReportMetric(float64(quantile(frames, 0.99).Microseconds())/1000, "p99-frame-ms")
				b.ReportMetric(float64(quantile(cpuFrames, 0.99).Microseconds())/1000, "p99-frame-cpu-ms")
				b.ReportMetric(float64(quantile(cpuFrames, 1).Microseconds())/1000, "max-frame-cpu-ms")
				b.ReportMetric(float64(maxUpdate.Microseconds())/1000, "max-update-ms")
				b.ReportMetric(float64(maxPaint.Microseconds())/1000, "max-paint-ms")
				b.ReportMetric(float64(scroll.Microseconds())/1000, "scroll-ms")
				b.ReportMetric(float64(cpuUpdate.Microseconds())/1000, "max-update-cpu-ms")
				b.ReportMetric(float64(cpuPaint.Microseconds())/1000, "max-paint-cpu-ms")
				b.ReportMetric(float64(empty.Microseconds())/1000, "empty-paint-cpu-ms")
			})
		}
	}
}

// emptyPaintCPU is the median CPU time the test driver takes to paint an
// empty window of the benchmark's size: it composes whole-window images
// whatever the window shows, which a real window does not do.
func emptyPaintCPU() time.Duration {
	win := test.NewWindow(canvas.NewRectangle(color.Transparent))
	defer win.Close()
	win.Resize(fyne.NewSize(1024, 700))
	win.Canvas().Capture()
	var ds []time.Duration
	for range 9 {
		c0 := threadCPU()
		win.Canvas().Capture()
		ds = append(ds, threadCPU()-c0)
	}
	return quantile(ds, 0.5)
}

// quantile is the q-quantile of ds (1: the largest); it sorts ds.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[min(len(ds)-1, int(q*float64(len(ds))))]
}

// threadCPU is the CPU time the calling OS thread has used.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
