package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"workrun/workrun"
)

// TestQuit_AsksWhileRunsGoOn: Ctrl+Q with no run going quits at once;
// with one going it says, in the window's language, that the remote tasks
// keep running and the run can be resumed, and quits only on Quit.
func TestQuit_AsksWhileRunsGoOn(t *testing.T) {
	for _, tt := range []struct{ lang, keeps, resume, quit, keep, running string }{
		{"en", "keep running on their servers", "resumed (Resume)", "Quit", "Keep working", "running"},
		{"zh-Hans", "继续运行", "“恢复”继续", "退出", "继续工作", "运行中"},
	} {
		t.Run(tt.lang, func(t *testing.T) {
			eng := &fakeEngine{}
			w := newTestWindow(t, Deps{Engine: eng})
			if tt.lang != "en" {
				w.SetLanguage(tt.lang)
				t.Cleanup(func() { SetupLanguage("en") })
			}
			quits := 0
			var asked string
			w.rs.quit = func() { quits++ }
			w.rs.quitAsked = func(msg string) { asked = msg }
			ctrlQ := &desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierShortcutDefault}

			publish := func(st workrun.RunStatus) {
				t.Helper()
				seen := make(chan struct{}, 1)
				onUI(w, func() {
					w.applied = func(Event) {
						select {
						case seen <- struct{}{}:
						default:
						}
					}
				})
				eng.Publish(Event{RunID: "r1", Run: &workrun.Run{ID: "r1", WorkflowName: "Report", Status: st}})
				select {
				case <-seen:
				case <-time.After(10 * time.Second):
					t.Fatal("the event was never shown")
				}
			}
			onUI(w, func() { w.panel.Start("r1", workrun.Workflow{Name: "Report"}) })
			publish(workrun.RunRunning)
			// The window title names the run's status in the window's language.
			if title := w.win.Title(); !strings.HasSuffix(title, " — "+tt.running) {
				t.Errorf("window title %q, want it to end with %q", title, tt.running)
			}
			onUI(w, func() { shortcut(w, ctrlQ) })
			if quits != 0 {
				t.Fatal("Ctrl+Q during a run quit without asking")
			}
			for _, want := range []string{"Report", tt.keeps, tt.resume} {
				if !strings.Contains(asked, want) {
					t.Errorf("the quit dialog says %q, want it to contain %q", asked, want)
				}
			}
			top := w.win.Canvas().Overlays().Top()
			if top == nil {
				t.Fatal("no quit dialog")
			}
			onUI(w, func() { tapButton(t, top, tt.keep) })
			if quits != 0 {
				t.Fatal("Keep working quit")
			}
			onUI(w, func() { shortcut(w, ctrlQ) })
			onUI(w, func() { tapButton(t, w.win.Canvas().Overlays().Top(), tt.quit) })
			if quits != 1 {
				t.Fatalf("Quit in the dialog quit %d times, want once", quits)
			}
			if w.ctx.Err() == nil {
				t.Error("the window's context was still live when the app was told to quit")
			}
		})
	}
}

// TestQuit_NoRunQuitsAtOnce: with no run going, closing quits at once and
// File → Quit is the menu's quit item bound to Ctrl+Q.
func TestQuit_NoRunQuitsAtOnce(t *testing.T) {
	eng := &fakeEngine{}
	w := newTestWindow(t, Deps{Engine: eng})
	quits := 0
	w.rs.quit = func() { quits++ }
	onUI(w, w.requestQuit)
	if quits != 1 || w.win.Canvas().Overlays().Top() != nil {
		t.Fatalf("quit %d times, dialog %v; want at once, no dialog", quits, w.win.Canvas().Overlays().Top())
	}
	file := w.menu().Items[0]
	last := file.Items[len(file.Items)-1]
	if !last.IsQuit || last.Label != "Quit" {
		t.Fatalf("File's last item %q IsQuit=%v, want our Quit", last.Label, last.IsQuit)
	}
	if sc, ok := last.Shortcut.(*desktop.CustomShortcut); !ok || sc.KeyName != fyne.KeyQ {
		t.Errorf("File → Quit shortcut %v, want Ctrl+Q", last.Shortcut)
	}
}

// TestLoopState: work is run while there is no loop (the test driver) or
// the loop runs, and dropped once the loop is marked stopping.
func TestLoopState(t *testing.T) {
	var l loopState
	if !l.runs() {
		t.Fatal("with no loop work is not run")
	}
	l.start()
	if !l.runs() {
		t.Fatal("with the loop running work is not run")
	}
	l.markStopping()
	if l.runs() {
		t.Fatal("with the loop stopping work is still run")
	}
	l.start()
	if l.runs() {
		t.Fatal("start after stopping made the loop run again")
	}
}

// TestDo_DropsWorkRunOffTheLoop: once the loop is marked stopping (Fyne
// then runs fyne.Do's functions inline, on the caller's goroutine),
// Window.do drops what it is handed.
func TestDo_DropsWorkRunOffTheLoop(t *testing.T) {
	w := newTestWindow(t, Deps{})
	ran := false
	w.do(func() { ran = true })
	if !ran {
		t.Fatal("with no loop do did not run the function")
	}
	w.loop.start()
	ran = false
	w.do(func() { ran = true })
	if !ran {
		t.Fatal("with the loop running do did not run the function")
	}
	w.loop.markStopping()
	ran = false
	w.do(func() { ran = true })
	if ran {
		t.Fatal("do ran a function after the loop was marked stopping")
	}
}
