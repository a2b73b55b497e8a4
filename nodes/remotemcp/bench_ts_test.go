package remotemcp_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"workrun/mcp/mcptest"
	"workrun/nodes/remotemcp"
	"workrun/nodes/start"
	"workrun/store/storetest"
	"workrun/workrun"
)

// benchDurations are the task lengths, in seconds, of a benchmark's ops:
// spread over half a second (golden-ratio steps) so the task's end falls
// at varied points of a poll interval, the same sequence on every side.
func benchDurations(n int) []float64 {
	d := make([]float64, n)
	for i := range d {
		f := float64(i) * 0.6180339887
		d[i] = 0.25 + 0.5*(f-float64(int(f)))
	}
	return d
}

// reportLatency reports the latencies' median, 90th percentile and maximum
// in milliseconds.
func reportLatency(b *testing.B, ms []float64) {
	slices.Sort(ms)
	at := func(q float64) float64 { return ms[min(len(ms)-1, int(q*float64(len(ms))))] }
	b.ReportMetric(at(0.5), "p50-ms")
	b.ReportMetric(at(0.9), "p90-ms")
	b.ReportMetric(ms[len(ms)-1], "max-ms")
	b.ReportMetric(0, "ns/op") // the op is a whole task: its wall time says nothing
}

// BenchmarkTaskEndToResult (docs/BENCHMARKS.md "Remote MCP Tool: task end →
// node result"): the time from a task's end on the server (the TypeScript
// SDK v2 peer's own clock) to the result being in hand — for the node, the
// instant its record is saved as ended (the engine's NodeRun.EndedAt,
// after the output is committed); for the baseline, the official
// TypeScript client with the official Tasks requester
// (mcp/testdata/tsserver/bench_client.mjs), the instant its settle()
// resolves. The server announces pollIntervalMs 1000 on every side.
// Run with -benchtime 20x (each op is one task of 0.25–0.75 s).
func BenchmarkTaskEndToResult(b *testing.B) {
	const pollMs = 1000
	listening := mcptest.Start(b, mcptest.Options{Mode: mcptest.ModernOnly, PollMs: pollMs})
	polling := mcptest.Start(b, mcptest.Options{Mode: mcptest.ModernOnly, PollMs: pollMs, NoListen: true})

	node := func(b *testing.B, p *mcptest.TSServer) {
		_, st, arts := storetest.Open(b, "")
		eng := workrun.NewEngine(st, arts, start.Kind{}, remotemcp.New(remotemcp.Deps{Calls: st}))
		before := p.Stats(b)
		var ms []float64
		for _, d := range benchDurations(b.N) {
			wf := flow(state, []workrun.NodeSpec{mcpNode("m", p.URL, "slow", fmt.Sprintf(`,"arguments":{"seconds":%g},"output":"answer"`, d))})
			id, err := eng.Start(b.Context(), "", wf, nil)
			if err != nil {
				b.Fatal(err)
			}
			if r := storetest.Wait(b, eng, id, time.Minute); r.Status != workrun.RunSucceeded {
				b.Fatalf("run %s: %s", r.Status, r.Reason)
			}
			recs, err := st.NodeRuns(b.Context(), id)
			if err != nil {
				b.Fatal(err)
			}
			i := slices.IndexFunc(recs, func(n workrun.NodeRun) bool { return n.NodeID == "m" })
			end := p.TaskEnd(b, storetest.Call(b, st, id, "m", "call").TaskID)
			if i < 0 || end.IsZero() {
				b.Fatalf("no end instant: node %d, task end %v", i, end)
			}
			ms = append(ms, float64(recs[i].EndedAt.Sub(end).Microseconds())/1000)
		}
		seen := since(before, p.Stats(b))
		b.ReportMetric(float64(seen.TasksGet)/float64(b.N), "tasks/get/op")
		b.ReportMetric(float64(seen.Listens)/float64(b.N), "listens/op")
		reportLatency(b, ms)
	}
	b.Run("workrun/notifications", func(b *testing.B) { node(b, listening) })
	b.Run("workrun/polling", func(b *testing.B) { node(b, polling) })
	ts := func(b *testing.B, p *mcptest.TSServer) {
		before := p.Stats(b)
		args := []string{"bench_client.mjs", p.URL}
		for _, d := range benchDurations(b.N) {
			args = append(args, strconv.FormatFloat(d, 'g', -1, 64))
		}
		cmd := exec.Command("node", args...)
		cmd.Dir = filepath.Join("..", "..", "mcp", "testdata", "tsserver")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("bench_client.mjs: %v\n%s", err, stderr.Bytes())
		}
		var ms []float64
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			var v struct {
				LatencyMs float64 `json:"latencyMs"`
			}
			if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
				b.Fatalf("bench_client.mjs said %q: %v", sc.Text(), err)
			}
			ms = append(ms, v.LatencyMs)
		}
		if len(ms) != b.N {
			b.Fatalf("bench_client.mjs reported %d tasks, want %d:\n%s", len(ms), b.N, out)
		}
		seen := since(before, p.Stats(b))
		b.ReportMetric(float64(seen.TasksGet)/float64(b.N), "tasks/get/op")
		b.ReportMetric(float64(seen.Listens)/float64(b.N), "listens/op")
		reportLatency(b, ms)
	}
	// The SDK client has no way to ask for task notifications (its
	// subscriptions/listen filter has no taskIds), so it polls even where
	// the server would notify: both servers are measured.
	b.Run("ts-sdk-client/polling", func(b *testing.B) { ts(b, polling) })
	b.Run("ts-sdk-client/notifying-server", func(b *testing.B) { ts(b, listening) })
}
