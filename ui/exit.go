package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"fyne.io/fyne/v2"

	"workrun/ui/panes"
)

// Exiting. Every way out of the window — Ctrl+Q, File → Quit, the window's
// close button, SIGINT and SIGTERM — ends in Window.exit, on the UI
// goroutine: the window's context ends, the open workflow is saved, the
// window lets go of the engine, and Deps.Exit ends the process.
//
// Why not Fyne's own shutdown: when its loop stops, Fyne drains and closes
// its function queue while its lifecycle goroutine may still be handing it
// the "stopped" hook or a last input event (fyne-io/fyne#5748). Under load
// that is a data race inside Fyne and sometimes a hang (the lifecycle
// queue waits for a function the closed loop never runs). Ending the
// process once our own work is saved never starts that shutdown. For the
// same reason Fyne's signal watcher, which quits through that shutdown, is
// replaced by ours (takeSignals).

// exit ends the window and then the process (Deps.Exit). Without Deps.Exit
// (the tests' windows) it quits the Fyne app instead.
func (w *Window) exit() {
	w.loop.markStopping() // before Quit: Fyne may run queued work inline from then on (uithread.go)
	w.stop()
	w.rememberSize()
	w.saveAtExit()
	w.Close()
	if w.deps.Exit != nil {
		w.deps.Exit()
		return
	}
	w.app.Quit()
}

// saveAtExit saves the open workflow when it changed, without touching the
// widgets.
func (w *Window) saveAtExit() {
	if !w.doc.Dirty() {
		return
	}
	if _, err := w.wfs.SaveWorkflow(context.WithoutCancel(w.ctx), w.wfID, w.doc.Workflow()); err != nil {
		fyne.LogError("save the open workflow at exit", err)
	}
}

// errNoFyneWatcher: Fyne's signal watcher was not seen parked on its
// channel; Fyne then still quits on SIGTERM by itself.
var errNoFyneWatcher = errors.New("ui: Fyne's signal watcher did not start within 10 s")

// takeSignals leaves SIGINT and SIGTERM to sigs alone. Fyne's driver
// starts its watcher (glfw catchTerm) as its loop starts; once that
// goroutine is parked on its channel its signal.Notify has been made, and
// Ignore followed by Notify(sigs) drops it. A signal in the microseconds
// between the two is ignored rather than killing the process.
func takeSignals(sigs chan<- os.Signal) error {
	for deadline := time.Now().Add(10 * time.Second); !fyneWatcherParked(); {
		if time.Now().After(deadline) {
			return errNoFyneWatcher
		}
		time.Sleep(10 * time.Millisecond)
	}
	signal.Ignore(os.Interrupt, syscall.SIGTERM)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	return nil
}

// fyneWatcherParked reports whether a goroutine blocks in Fyne's signal
// watcher's channel receive.
func fyneWatcherParked() bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		if bytes.Contains(g, []byte("[chan receive")) && bytes.Contains(g, []byte("glfw.(*gLDriver).catchTerm")) {
			return true
		}
	}
	return false
}

// rememberSize keeps the window's size for the next start on a screen of
// this size (screen.go).
func (w *Window) rememberSize() {
	if w.screenKey == "" {
		return
	}
	sz := w.win.Canvas().Size()
	if sz.Width >= panes.MinSize.Width && sz.Height >= panes.MinSize.Height {
		w.app.Preferences().SetString(prefWindowSize+w.screenKey, fmt.Sprintf("%g %g", sz.Width, sz.Height))
	}
}
