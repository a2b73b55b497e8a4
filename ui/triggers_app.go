package ui

import (
	"context"
	"sync/atomic"
	"time"

	"workrun/ui/inspector"
	"workrun/workrun"
)

// triggerHooks answers the Triggers section (triggers.go) for the open
// workflow: the app layer owns its timer and reads the fires off the UI
// thread (Window.background), on the window's context.
func (w *Window) triggerHooks() inspector.TriggerHooks {
	h := inspector.TriggerHooks{
		Every: w.every,
		Saved: func() (bool, bool) {
			return w.wfID != "" && !w.doc.Dirty(), w.doc.Workflow().Publish != nil
		},
	}
	if fires := w.deps.Fires; fires != nil {
		h.Fires = func(show func([]FiredRun, error)) {
			id, wf := w.wfID, w.doc.Workflow()
			if id == "" {
				show(nil, nil) // never saved: never fired
				return
			}
			var fs []FiredRun
			var err error
			w.background(func() {
				ctx, cancel := context.WithTimeout(w.ctx, 10*time.Second)
				defer cancel()
				fs, err = fires(ctx, id, wf, 50)
			}, func() { show(fs, err) })
		}
	}
	if runs := w.deps.Runs; runs != nil {
		h.OpenRun = func(runID string) {
			var r workrun.Run
			var err error
			w.background(func() {
				ctx, cancel := context.WithTimeout(w.ctx, 10*time.Second)
				defer cancel()
				r, err = runs.GetRun(ctx, runID)
			}, func() {
				if err != nil {
					w.showError(err)
					return
				}
				w.openRecord(r)
			})
		}
	}
	return h
}

// every calls tick on the UI thread every d until it returns false or the
// window closes: one goroutine for the caller, never one per widget.
func (w *Window) every(d time.Duration, tick func() bool) {
	go func() {
		t := time.NewTicker(d)
		defer t.Stop()
		var done atomic.Bool
		for !done.Load() {
			select {
			case <-w.ctx.Done():
				return
			case <-t.C:
			}
			w.do(func() {
				if !tick() {
					done.Store(true)
				}
			})
		}
	}()
}
