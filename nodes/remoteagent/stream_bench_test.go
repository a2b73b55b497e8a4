package remoteagent_test

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"workrun/artifacts"
	"workrun/nodes/output"
	"workrun/nodes/remoteagent"
	"workrun/nodes/start"
	"workrun/store"
	"workrun/workrun"
)

// BenchmarkRemoteStatusStream runs start → remote_agent against a local agent
// that streams N status updates, through the engine and the real SQLite
// store (fresh data directory per run): events/s end to end, and the
// process's peak RSS after each size (events=0 is the idle run). Count fsyncs
// with strace (docs/BENCHMARKS.md).
func BenchmarkRemoteStatusStream(b *testing.B) {
	for _, n := range []int{0, 10_000, 100_000} {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			_, url := startStatusStream(b, n, 0)
			var total time.Duration
			for range b.N {
				dir := b.TempDir()
				st, err := store.Open(context.Background(), dir)
				if err != nil {
					b.Fatal(err)
				}
				arts, err := artifacts.New(dir, st)
				if err != nil {
					b.Fatal(err)
				}
				eng := workrun.NewEngine(st, arts, start.Kind{}, output.Kind{}, remoteagent.New(remoteagent.Deps{Calls: st}))
				wf := flow([]workrun.NodeSpec{raNode("ra", url, "")})
				t0 := time.Now()
				id, err := eng.Start(context.Background(), "", wf, workrun.Values{"prompt_ra": "go"})
				if err != nil {
					b.Fatal(err)
				}
				r, err := eng.Wait(context.Background(), id)
				total += time.Since(t0)
				if err != nil || r.Status != workrun.RunSucceeded {
					b.Fatalf("run %v: %s %v", r.Status, r.Reason, err)
				}
				st.Close()
			}
			if n > 0 {
				b.ReportMetric(float64(n)*float64(b.N)/total.Seconds(), "events/s")
			}
			var ru syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru) //nolint:errcheck
			b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MiB")
		})
	}
}
