//go:build glprobe

package ui

// The frame probe measures the real window, not the test driver: it opens
// the Workrun window with Fyne's GL driver (Mesa under Xvfb), starts a run
// of the Remote Agent sample through a function-field fake engine, and
// streams 100,000 status lines of the "ask" node at 50,000 a second through
// the window's own event pump. It builds only with the glprobe tag, since
// the GL driver must own the main OS thread (TestMain below runs the app
// there and the tests beside it); nothing of it is in the product binary.
//
//	xvfb-run -a -s '-screen 0 1440x900x24' go test -tags glprobe -count=1 -run GLFrames -v ./ui
//
// The UI thread runs the painter and every fyne.Do function in one loop, so
// how late a fyne.Do posted every few milliseconds runs is how long the
// thread was busy with something else: the longest delay is the longest
// frame (or event batch) the window had.

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"workrun/workrun"
)

var glApp fyne.App

func TestMain(m *testing.M) {
	// The app keeps its preferences under the user's config directory.
	dir, err := os.MkdirTemp("", "workrun-glprobe")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := os.Setenv("XDG_CONFIG_HOME", dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	glApp = app.NewWithID(AppID + ".glprobe")
	done := make(chan int, 1)
	glApp.Lifecycle().SetOnStarted(func() {
		go func() {
			done <- m.Run()
			fyne.Do(glApp.Quit)
		}()
	})
	glApp.Run()
	code := 2 // the app ended before the tests did
	select {
	case code = <-done:
	case <-time.After(10 * time.Second):
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// probeDelays posts a fyne.Do every period until stop is closed and
// returns how late each ran (scheduled → executed), and for each probe that
// was already waiting when the one before it ran, the UI thread's CPU time
// between the two: the work that kept it waiting, which other work on the
// machine does not inflate.
func probeDelays(period time.Duration, stop <-chan struct{}) (delays, cpuGaps []time.Duration) {
	var mu sync.Mutex
	var out, gaps []time.Duration
	var lastCPU time.Duration
	var lastRan time.Time
	var pending sync.WaitGroup
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			pending.Wait()
			mu.Lock()
			defer mu.Unlock()
			return out, gaps
		case <-tick.C:
			at := time.Now()
			pending.Add(1)
			fyne.Do(func() {
				now, c := time.Now(), threadCPU() // on the UI thread
				mu.Lock()
				out = append(out, now.Sub(at))
				if lastCPU > 0 && at.Before(lastRan) {
					gaps = append(gaps, c-lastCPU)
				}
				lastCPU, lastRan = c, now
				mu.Unlock()
				pending.Done()
			})
		}
	}
}

type frameStats struct {
	n             int
	p50, p99, max time.Duration
}

func statsOf(ds []time.Duration) frameStats {
	if len(ds) == 0 {
		return frameStats{}
	}
	slices.Sort(ds)
	q := func(f float64) time.Duration { return ds[min(len(ds)-1, int(f*float64(len(ds))))] }
	return frameStats{n: len(ds), p50: q(0.5), p99: q(0.99), max: ds[len(ds)-1]}
}

func (s frameStats) String() string {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
	return fmt.Sprintf("%d probes: p50 %s, p99 %s, max %s", s.n, ms(s.p50), ms(s.p99), ms(s.max))
}

// TestGLFrames streams the lines and reports the UI thread's longest stall
// while they arrive, next to the same window idle.
func TestGLFrames(t *testing.T) {
	SetupLanguage("en")
	const (
		n    = 100_000
		rate = 50_000 // lines a second
	)
	eng := &fakeEngine{StartFunc: func(context.Context, string, workrun.Workflow, workrun.Values) (string, error) {
		return "r", nil
	}}
	var w *Window
	fyne.DoAndWait(func() {
		// The remote task records are read off the UI thread, as in the
		// product; this run has none.
		w = NewWindow(glApp, Deps{Engine: eng, RemoteCalls: func(context.Context, string) ([]workrun.RemoteCall, error) { return nil, nil }})
		w.win.Resize(fyne.NewSize(1280, 800))
		w.win.Show()
		w.OpenWorkflow("", SampleRemote(langNow(), "http://127.0.0.1:1"))
	})
	// Hidden, not closed: closing the last window would end the app.
	defer fyne.DoAndWait(func() { w.Close(); w.win.Hide() })
	time.Sleep(time.Second) // the first frames load fonts and build textures

	var shown sync.WaitGroup
	shown.Add(n)
	var seen int
	fyne.DoAndWait(func() {
		w.applied = func(ev Event) {
			if ev.Message != nil {
				seen++
				shown.Done()
			}
		}
		w.launch(w.doc.Workflow(), workrun.Values{"question": "stream"})
	})

	stop := make(chan struct{})
	idle := make(chan [2][]time.Duration)
	go func() { d, c := probeDelays(5*time.Millisecond, stop); idle <- [2][]time.Duration{d, c} }()
	time.Sleep(2 * time.Second)
	close(stop)
	idleRes := <-idle

	stop = make(chan struct{})
	busy := make(chan [2][]time.Duration)
	go func() { d, c := probeDelays(5*time.Millisecond, stop); busy <- [2][]time.Duration{d, c} }()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	var cpu0, cpu1 time.Duration
	fyne.DoAndWait(func() { cpu0 = threadCPU() })
	start := time.Now()
	eng.Publish(Event{Type: "node", RunID: "r", NodeID: "ask", Node: &workrun.NodeRun{RunID: "r", NodeID: "ask", Type: "remote_agent", Status: workrun.NodeRunning, StartedAt: start}})
	for i := 0; i < n; {
		// Catch up to the rate: the lines a fast agent has sent by now.
		due := min(n, int(time.Since(start).Seconds()*rate)+1)
		for ; i < due; i++ {
			eng.Publish(Event{Type: "message", RunID: "r", NodeID: "ask", Message: &workrun.Message{
				RunID: "r", NodeID: "ask", Time: time.Now(), // Seq 0: a progress line shown before its commit
				Args: []string{fmt.Sprintf("chunk %d of the agent's answer", i)}}})
		}
		time.Sleep(time.Millisecond)
	}
	sent := time.Since(start)
	shown.Wait()
	took := time.Since(start)
	fyne.DoAndWait(func() { cpu1 = threadCPU() })
	close(stop)
	busyRes := <-busy
	runtime.ReadMemStats(&ms1)

	var held int
	fyne.DoAndWait(func() { held = w.panel.MessageCount("ask") })
	if held != n || seen != n {
		t.Fatalf("the panel holds %d lines and the window applied %d, want %d", held, seen, n)
	}
	t.Logf("%d lines sent in %v, all shown after %v (%.0f lines/s); %d GCs; UI thread CPU %v (%.0f%% busy)", n, sent.Round(time.Millisecond), took.Round(time.Millisecond), n/took.Seconds(), ms1.NumGC-ms0.NumGC,
		(cpu1 - cpu0).Round(time.Millisecond), 100*(cpu1-cpu0).Seconds()/took.Seconds())
	t.Logf("idle window:     delay %v; UI-thread CPU while a probe waited: %v", statsOf(idleRes[0]), statsOf(idleRes[1]))
	t.Logf("while streaming: delay %v; UI-thread CPU while a probe waited: %v", statsOf(busyRes[0]), statsOf(busyRes[1]))
}
