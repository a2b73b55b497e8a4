package remotecall

import (
	"context"
	"errors"
	"testing"
	"time"
)

var fast = FollowPolicy{BackoffMin: time.Millisecond, BackoffMax: 4 * time.Millisecond, UnreachableFor: 50 * time.Millisecond, MaxNoProgress: 3}

func TestBackoffGrowsCappedWithJitter(t *testing.T) {
	p := FollowPolicy{BackoffMin: 100 * time.Millisecond, BackoffMax: time.Second}
	for n, want := range []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond, time.Second, time.Second} {
		for range 50 {
			if d := p.Backoff(n); d < want/2 || d > want {
				t.Fatalf("Backoff(%d) = %v, want in [%v, %v]", n, d, want/2, want)
			}
		}
	}
	if d := p.Backoff(1000); d > time.Second {
		t.Errorf("Backoff(1000) = %v", d)
	}
}

// TestFollow_Bounds: a progressless loop ends after MaxNoProgress; a
// progressing one goes on; reads that fail end as ErrUnreachable after
// the bound; a gone task ends at once.
func TestFollow_Bounds(t *testing.T) {
	ctx := t.Context()
	subs := 0
	_, err := fast.Follow(ctx, Steps{
		Read:        func(context.Context) (bool, error, error) { return false, nil, nil },
		Subscribe:   func(context.Context) (bool, error, error) { subs++; return false, errors.New("closed"), nil },
		Fingerprint: func() string { return "same" },
	})
	var np *NoProgressError
	if !errors.As(err, &np) || subs != 3 || np.Times != 3 {
		t.Errorf("no progress: %v after %d subscriptions", err, subs)
	}
	n := 0
	done, err := fast.Follow(ctx, Steps{
		Read:        func(context.Context) (bool, error, error) { return n >= 10, nil, nil },
		Subscribe:   func(context.Context) (bool, error, error) { n++; return false, errors.New("closed"), nil },
		Fingerprint: func() string { return string(rune('a' + n)) },
	})
	if !done || err != nil || n != 10 {
		t.Errorf("progressing: done %v, %v after %d", done, err, n)
	}
	reads, told := 0, 0
	start := time.Now()
	_, err = fast.Follow(ctx, Steps{
		Read:        func(context.Context) (bool, error, error) { reads++; return false, errors.New("502"), nil },
		Unreachable: func(time.Time, error) { told++ },
	})
	var ur *UnreachableError
	if !errors.As(err, &ur) || !errors.Is(err, ErrUnreachable) || told != 1 || reads < 3 || time.Since(start) < fast.UnreachableFor {
		t.Errorf("unreachable: %v, %d reads, told %d", err, reads, told)
	}
	_, err = fast.Follow(ctx, Steps{
		Read: func(context.Context) (bool, error, error) { return false, errors.New("not found"), nil },
		Gone: func(error) bool { return true },
	})
	if !errors.Is(err, ErrTaskGone) {
		t.Errorf("gone: %v", err)
	}
}
