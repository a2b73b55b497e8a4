package ui

import "sync/atomic"

// loopState says whether the Fyne driver's loop still runs the functions
// handed to fyne.Do on itself. The app layer sets it explicitly: running
// from just before ShowAndRun, stopping from the first of Window.exit (every
// quit of ours, exit.go), the app's OnStopped hook and ShowAndRun returning.
// Under the test driver it stays loopAbsent: that driver runs fyne.Do on the
// calling goroutine, and everything is run.
//
// Why it is needed: once Fyne's loop has begun shutting down it stops its
// queue and fyne.Do runs the function at once, on the goroutine that called
// it (fyne-io/fyne#5748). Work handed over then would touch widgets and the
// driver's event queues concurrently with the shutdown. Window.do and the
// signal watcher therefore drop a function once the loop is marked stopping.
// Every quit of ours marks it on the loop itself before it calls Quit, so no
// function Fyne runs inline after that is run; only a quit Fyne makes by
// itself (its own signal watcher, in the moment before takeSignals replaces
// it) is marked later, by OnStopped.
type loopState struct{ v atomic.Int32 }

const (
	loopAbsent int32 = iota
	loopRunning
	loopStopping
)

func (l *loopState) start() { l.v.CompareAndSwap(loopAbsent, loopRunning) }

func (l *loopState) markStopping() { l.v.Store(loopStopping) }

// runs reports whether a function handed to fyne.Do may run now: the loop
// is running it, or there is no loop (the test driver).
func (l *loopState) runs() bool { return l.v.Load() != loopStopping }
