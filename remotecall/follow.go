package remotecall

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// The follow skeleton: how both remote kinds keep following a task the
// server accepted, after its stream broke (docs/remote-agent.md R7):
//
//	stream → on a break: read → (if not ended) subscribe → read → …
//
// with capped exponential backoff and jitter before every reconnect,
// whatever the previous stream delivered. Nothing polls on a timer: a
// quiet live stream stays open; a read happens only after a break (or on
// resume). The loop is bounded three ways:
//   - a failed or timed-out read is retried (backoff); past
//     UnreachableFor without an answer the call is interrupted
//     (ErrUnreachable) — never failed, nothing cancelled;
//   - MaxNoProgress reconnects in a row whose stream lived less than
//     LoopWindow and left the task as it was (its state, status message and
//     results: not bytes or events) interrupt the call (ErrNoProgress),
//     naming what the server kept doing;
//   - only an answer proving the task is gone (Steps.Gone) ends it as
//     ErrTaskGone.

// Follow defaults (the shipped bounds; tests set smaller ones).
const (
	DefaultBackoffMin     = 500 * time.Millisecond
	DefaultBackoffMax     = 30 * time.Second
	DefaultUnreachableFor = 10 * time.Minute // long enough for a proxy or agent restart
	DefaultMaxNoProgress  = 8
	DefaultLoopWindow     = time.Minute
)

// Errors of Follow.
var (
	// ErrUnreachable: reads kept failing for longer than UnreachableFor.
	ErrUnreachable = errors.New("the server has not answered")
	// ErrNoProgress: the server kept ending streams without the task
	// changing.
	ErrNoProgress = errors.New("the server kept reconnecting without the task changing")
	// ErrTaskGone: the server answered that it does not know the task.
	ErrTaskGone = errors.New("remote task status unknown: the server no longer knows the task")
)

// FollowPolicy holds the loop's bounds; zero fields take the defaults.
type FollowPolicy struct {
	BackoffMin, BackoffMax time.Duration
	UnreachableFor         time.Duration
	MaxNoProgress          int
	LoopWindow             time.Duration
}

func (p FollowPolicy) withDefaults() FollowPolicy {
	if p.BackoffMin <= 0 {
		p.BackoffMin = DefaultBackoffMin
	}
	if p.BackoffMax <= 0 {
		p.BackoffMax = DefaultBackoffMax
	}
	if p.UnreachableFor <= 0 {
		p.UnreachableFor = DefaultUnreachableFor
	}
	if p.MaxNoProgress <= 0 {
		p.MaxNoProgress = DefaultMaxNoProgress
	}
	if p.LoopWindow <= 0 {
		p.LoopWindow = DefaultLoopWindow
	}
	return p
}

// Backoff is the wait before reconnect attempt n (0-based): BackoffMin·2ⁿ
// capped at BackoffMax, with jitter drawn from its upper half so calls that
// broke together do not come back together.
func (p FollowPolicy) Backoff(n int) time.Duration {
	p = p.withDefaults()
	d := p.BackoffMax
	if n < 30 {
		d = min(p.BackoffMin<<n, p.BackoffMax)
	}
	return d/2 + rand.N(d/2+1)
}

// Steps are a kind's protocol operations for Follow.
type Steps struct {
	// Read reads the task once (bounded by timeout_seconds); done: it has
	// ended (or needs a person), and the caller finishes. failed is a read
	// that got no usable answer (retried with backoff); err a failure that
	// ends the call as it is.
	Read func(ctx context.Context) (done bool, failed error, err error)
	// Subscribe follows the task's updates until the stream ends; done as
	// for Read; err a failure that ends the call as it is.
	Subscribe func(ctx context.Context) (done bool, broke error, err error)
	// Fingerprint says what the task is now (state, status message,
	// results); Follow compares it across reconnects.
	Fingerprint func() string
	// Gone reports whether a read's error proves the task is gone.
	Gone func(error) bool
	// Unreachable is told once per outage, when the first read fails.
	Unreachable func(since time.Time, err error)
	// Reconnecting is told before each wait (the stream's break).
	Reconnecting func(broke error, wait time.Duration)
}

// UnreachableError is ErrUnreachable with when it began and the last error.
type UnreachableError struct {
	Since time.Time
	Last  error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("%v since %s (last: %v)", ErrUnreachable, e.Since.UTC().Format(time.RFC3339), e.Last)
}
func (e *UnreachableError) Unwrap() error { return ErrUnreachable }

// NoProgressError is ErrNoProgress with the count and what the server did.
type NoProgressError struct {
	Times int
	Last  error
}

func (e *NoProgressError) Error() string {
	return fmt.Sprintf("%v: %d reconnects in a row, each stream ending with: %v", ErrNoProgress, e.Times, e.Last)
}
func (e *NoProgressError) Unwrap() error { return ErrNoProgress }

// Follow runs the skeleton from a read (the stream that came before just
// broke, or the call was resumed). It returns done (the caller finishes
// the task) or an error: ErrUnreachable, ErrNoProgress, ErrTaskGone, ctx's
// error, or a failure of Subscribe.
func (p FollowPolicy) Follow(ctx context.Context, s Steps) (bool, error) {
	p = p.withDefaults()
	attempt, noProgress := 0, 0
	for {
		done, err := p.read(ctx, s)
		if done || err != nil {
			return done, err
		}
		before := s.Fingerprint()
		start := time.Now()
		done, broke, err := s.Subscribe(ctx)
		if done || err != nil {
			return done, err
		}
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		switch {
		case s.Fingerprint() != before:
			noProgress, attempt = 0, 0
		case time.Since(start) >= p.LoopWindow:
			// A long-lived stream that was cut (a proxy's idle limit) is
			// not a loop.
			noProgress, attempt = 0, 0
		default:
			noProgress++
		}
		if noProgress >= p.MaxNoProgress {
			return false, &NoProgressError{Times: noProgress, Last: broke}
		}
		wait := p.Backoff(attempt)
		attempt++
		if s.Reconnecting != nil {
			s.Reconnecting(broke, wait)
		}
		if err := sleep(ctx, wait); err != nil {
			return false, err
		}
	}
}

// read reads until the server answers, retrying with backoff.
func (p FollowPolicy) read(ctx context.Context, s Steps) (bool, error) {
	var since time.Time
	for n := 0; ; n++ {
		done, failed, err := s.Read(ctx)
		if err != nil {
			return false, err
		}
		if failed == nil {
			return done, nil
		}
		err = failed
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		if s.Gone != nil && s.Gone(err) {
			return false, fmt.Errorf("%w: %w", ErrTaskGone, err)
		}
		if since.IsZero() {
			since = time.Now()
			if s.Unreachable != nil {
				s.Unreachable(since, err)
			}
		}
		if time.Since(since) >= p.UnreachableFor {
			return false, &UnreachableError{Since: since, Last: err}
		}
		if err := sleep(ctx, min(p.Backoff(n), p.UnreachableFor-time.Since(since)+time.Millisecond)); err != nil {
			return false, err
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
