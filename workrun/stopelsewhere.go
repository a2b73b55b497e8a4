package workrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"
)

// Stop across processes (docs/engine.md "Stop across processes"). A run
// going on in another live process — `workrun serve`, another `workrun
// run`, the window — is not claimed: Stop saves a request addressed to
// that process (StopRequester), which notices it within StopPollEvery and
// stops the run exactly as its own Stop does, abort hooks and all. The
// caller waits for the run to end.

const (
	// StopPollEvery is how often an engine with runs going on reads the
	// stop requests addressed to it.
	StopPollEvery = 250 * time.Millisecond
	// DefaultStopWait bounds how long a Stop of a run in another process
	// waits for it to end: the owner's abort hooks have DefaultAbortTimeout.
	DefaultStopWait = 30 * time.Second
	// stopWaitEvery is how often that wait reads the run.
	stopWaitEvery = 100 * time.Millisecond
)

// ErrStopPending: a Stop was asked of the process that runs the run, which
// has not ended it within the wait; the request stands while the run goes
// on there.
var ErrStopPending = errors.New("stop asked, but the run has not ended yet")

// StopPendingError is ErrStopPending for one run: who runs it and how long
// the caller waited.
type StopPendingError struct {
	RunID  string
	PID    int
	Waited time.Duration
}

func (e *StopPendingError) Error() string {
	by := "another process"
	if e.PID > 0 {
		by = fmt.Sprintf("process %d", e.PID)
	}
	return fmt.Sprintf("run %s is going on in %s: stop asked, but it has not ended within %s", e.RunID, by, e.Waited.Round(time.Second))
}

func (e *StopPendingError) Unwrap() error { return ErrStopPending }

func (e *Engine) stopWait() time.Duration {
	if e.StopWait > 0 {
		return e.StopWait
	}
	return DefaultStopWait
}

// stopElsewhere asks the live process that runs r to stop it and waits for
// the run to end. done is false when the run is no longer that process's
// to stop — it was interrupted, or its owner ended — and the caller takes
// it over with a claim instead. A run found stopping is left to the
// process stopping it (the claim then says so).
func (e *Engine) stopElsewhere(ctx context.Context, sr StopRequester, r Run, strict bool) (done bool, err error) {
	if r.Status != RunRunning {
		return false, nil
	}
	c, err := sr.RequestStop(ctx, r.ID)
	if err != nil {
		return true, err
	}
	if !c.OK {
		return false, nil // ended, interrupted, taken over, or its owner is gone
	}
	// From here the request is saved: the owner stops the run, or the run
	// ends or is interrupted first. Either way the caller learns which.
	clear := func() error { return sr.DeleteStopRequest(context.WithoutCancel(ctx), r.ID) }
	waited := e.stopWait()
	deadline := time.Now().Add(waited)
	t := time.NewTicker(stopWaitEvery)
	defer t.Stop()
	for {
		h, err := e.holder(ctx, r.ID)
		if err != nil {
			return true, err
		}
		switch {
		case h.Status.Terminal():
			// The owner removed the request when it took it, or will find
			// it stale; removing it here too leaves nothing behind.
			if err := clear(); err != nil {
				return true, err
			}
			if strict && h.Status == RunSucceeded {
				return true, &ClaimError{RunID: r.ID, Status: h.Status, Stop: true} // it ended before the stop reached it
			}
			return true, nil
		case h.Status == RunInterrupted, !h.OwnerAlive:
			// Not that process's any more: the caller claims it.
			return false, clear()
		}
		if time.Now().After(deadline) {
			return true, &StopPendingError{RunID: r.ID, PID: c.OwnerPID, Waited: waited}
		}
		select {
		case <-t.C:
		case <-ctx.Done():
			return true, ctx.Err()
		}
	}
}

// holder reads the run's status and whether its owner still runs (always,
// with a store that cannot tell).
func (e *Engine) holder(ctx context.Context, runID string) (RunClaim, error) {
	if c, ok := e.runs.(RunClaimer); ok {
		return c.RunHolder(ctx, runID)
	}
	r, err := e.runs.GetRun(ctx, runID)
	if err != nil {
		return RunClaim{}, err
	}
	return RunClaim{Status: r.Status, OwnerAlive: true}, nil
}

// watchStopsLocked starts the goroutine that reads the stop requests
// addressed to this engine's store, unless it runs; e.mu is held. It ends
// once no run is going on here.
func (e *Engine) watchStopsLocked() {
	sr, ok := e.runs.(StopRequester)
	if !ok || e.watching {
		return
	}
	e.watching = true
	go e.watchStops(sr)
}

func (e *Engine) watchStops(sr StopRequester) {
	t := time.NewTicker(StopPollEvery)
	defer t.Stop()
	var lastErr string
	for range t.C {
		e.mu.Lock()
		if len(e.active) == 0 {
			e.watching = false
			e.mu.Unlock()
			return
		}
		e.mu.Unlock()
		err := e.takeStopRequests(sr)
		if err != nil {
			e.mu.Lock()
			// The last run ended meanwhile and its process may be closing
			// the store: nothing was missed.
			idle := len(e.active) == 0
			e.mu.Unlock()
			if idle {
				continue
			}
		}
		// A failing read is said once, not four times a second.
		if err != nil && err.Error() != lastErr {
			w := e.Errors
			if w == nil {
				w = os.Stderr
			}
			fmt.Fprintf(w, "workrun: %s\n", texts.Text(msgStopRequestFailed, err))
		}
		lastErr = ""
		if err != nil {
			lastErr = err.Error()
		}
	}
}

// takeStopRequests stops each run going on here that another process
// asked to stop, as Stop does, and removes the requests it read: those of
// runs no longer going on here are stale (the run ended or was
// interrupted before the request was seen; its asker takes it from there).
func (e *Engine) takeStopRequests(sr StopRequester) error {
	ctx := context.Background()
	reqs, err := sr.StopRequests(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, q := range reqs {
		e.mu.Lock()
		x := e.active[q.RunID]
		e.mu.Unlock()
		if x != nil {
			x.requestStop()
		}
		if err := sr.DeleteStopRequest(ctx, q.RunID); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
