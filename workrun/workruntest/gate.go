package workruntest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"workrun/workrun"
)

// gateWait is how long FailWhen waits for its condition before it reports
// the wait and lets the node fail anyway, so the run can end.
const gateWait = 30 * time.Second

// FailWhen returns the config of a "process" node that fails (exit 3,
// "disk full" on stderr) once ready holds, instead of after a guessed sleep:
// the node waits for a file that a watcher creates when ready first returns
// true. ready is polled with a context that ends with the test; the watcher
// is stopped and waited for when the test (or subtest) t ends.
func FailWhen(t testing.TB, ready func(ctx context.Context) bool) json.RawMessage {
	t.Helper()
	gate := filepath.Join(t.TempDir(), "gate")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		openGateWhen(ctx, t, gate, ready)
	}()
	t.Cleanup(func() { cancel(); <-done })
	return json.RawMessage(fmt.Sprintf(`{"command":["sh","-c","while [ ! -e %s ]; do sleep 0.01; done; echo disk full >&2; exit 3"]}`, gate))
}

// RunLister lists runs; *store.Store and *MemStore are ones.
type RunLister interface {
	ListRuns(ctx context.Context, f workrun.RunFilter) ([]workrun.Run, error)
}

// FailWhenRun is FailWhen for a test whose runs holds one run: ready gets
// that run's id once it exists.
func FailWhenRun(t testing.TB, runs RunLister, ready func(ctx context.Context, runID string) bool) json.RawMessage {
	t.Helper()
	return FailWhen(t, func(ctx context.Context) bool {
		rs, err := runs.ListRuns(ctx, workrun.RunFilter{})
		return err == nil && len(rs) == 1 && ready(ctx, rs[0].ID)
	})
}

// openGateWhen creates the file gate once ready holds. After gateWait it
// reports the wait and opens the gate anyway; once ctx ends (the test is
// over) it stops quietly.
func openGateWhen(ctx context.Context, t testing.TB, gate string, ready func(ctx context.Context) bool) {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.Now().Add(gateWait)
	for {
		ok := ready(ctx)
		if ctx.Err() != nil {
			return
		}
		if ok || time.Now().After(deadline) {
			if !ok {
				t.Errorf("the run never reached the state the failing node waits for (%v)", gateWait)
			}
			if err := os.WriteFile(gate, nil, 0o600); err != nil {
				t.Errorf("open gate: %v", err)
			}
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
