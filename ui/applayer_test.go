package ui

import (
	"context"
	"errors"
	"testing"
	"time"

	"workrun/workrun"
)

// TestAppLayer_CloseCancelsItsWork: the store and keyring calls the app
// layer makes off the UI thread run on the window's context, so closing
// the window ends them instead of leaving them to run on.
func TestAppLayer_CloseCancelsItsWork(t *testing.T) {
	// blocked is a call that returns only when its context ends.
	blocked := func(ctx context.Context, ended chan<- error) error {
		<-ctx.Done()
		ended <- ctx.Err()
		return ctx.Err()
	}
	for _, tt := range []struct {
		name  string
		start func(t *testing.T, ended chan<- error) *Window
	}{
		{"run records read", func(t *testing.T, ended chan<- error) *Window {
			runs := &fakeRuns{ListRunsFunc: func(ctx context.Context, _ workrun.RunFilter) ([]workrun.Run, error) {
				return nil, blocked(ctx, ended)
			}}
			w := newTestWindow(t, Deps{Runs: runs})
			onUI(w, w.records.Reload)
			return w
		}},
		{"keyring list", func(t *testing.T, ended chan<- error) *Window {
			creds := &fakeCreds{ListFunc: func(ctx context.Context) ([]Credential, error) {
				return nil, blocked(ctx, ended)
			}}
			w := newTestWindow(t, Deps{Credentials: creds})
			onUI(w, w.showCredentials)
			return w
		}},
		{"remote tasks read", func(t *testing.T, ended chan<- error) *Window {
			calls := func(ctx context.Context, _ string) ([]workrun.RemoteCall, error) {
				return nil, blocked(ctx, ended)
			}
			w := newTestWindow(t, Deps{RemoteCalls: calls})
			onUI(w, func() { w.refreshTasks("r1") })
			return w
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ended := make(chan error, 1)
			w := tt.start(t, ended)
			select {
			case err := <-ended:
				t.Fatalf("the call ended before the window closed: %v", err)
			case <-time.After(50 * time.Millisecond):
			}
			w.Close()
			select {
			case err := <-ended:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("the call ended with %v, want context.Canceled", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("closing the window did not end the call")
			}
		})
	}
}
