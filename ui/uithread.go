package ui

import (
	"bytes"
	"runtime"
	"strconv"
	"sync/atomic"
)

// uiGoroutine is the id of the goroutine that runs the Fyne driver's loop
// (the one that called Run), or 0 under the test driver.
//
// Why it is needed: once Fyne's loop has begun shutting down it stops its
// queue and fyne.Do runs the function at once, on the goroutine that called
// it (fyne-io/fyne#5748). Work handed over then would touch widgets and the
// driver's event queues concurrently with the shutdown. Window.do and the
// signal watcher therefore run a function only on this goroutine; a function
// that Fyne runs anywhere else is dropped (the window is going away).
var uiGoroutine atomic.Uint64

// onUIGoroutine reports whether the caller runs on the driver's loop, or
// true when no loop was recorded (the test driver runs fyne.Do inline).
func onUIGoroutine() bool {
	id := uiGoroutine.Load()
	return id == 0 || id == goroutineID()
}

// goroutineID is the caller's goroutine id, read from the first line of its
// stack ("goroutine 17 [running]:"), as Fyne's own thread check does.
func goroutineID() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	id, _ := strconv.ParseUint(string(b), 10, 64)
	return id
}
