package remoteagent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"workrun/a2a"
	"workrun/workrun"
)

// heapPeak samples the heap in use until stop is called and returns the
// highest value seen above the level at the start.
func heapPeak() (stop func() uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > base && ms.HeapInuse-base > peak.Load() {
				peak.Store(ms.HeapInuse - base)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() uint64 { close(done); wg.Wait(); return peak.Load() }
}

// TestRun_AppendChunksAreCapped: 150 append chunks of 8 MB each, each a
// fresh allocation as the client decodes them. The chunks
// go to the spool as they arrive (the heap stays flat), the call stops at
// the 256 MiB per-call limit with an error naming it, and the temporary
// file is gone afterwards.
func TestRun_AppendChunksAreCapped(t *testing.T) {
	chunk := make([]byte, 8<<20)
	for i := range chunk {
		chunk[i] = byte('a' + i%26)
	}
	agent := &fakeAgent{streaming: true}
	var sent atomic.Int32
	agent.SendStreamingMessageFunc = func(context.Context, a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
		return func(yield func(a2a.StreamEvent, error) bool) {
			if !yield(taskEv("t1", a2a.TaskStateWorking, ""), nil) {
				return
			}
			for i := range 150 {
				ev := a2a.StreamEvent{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{TaskID: "t1", Append: i > 0,
					Artifact: a2a.Artifact{ArtifactID: "big", Name: "big.bin", Parts: []a2a.Part{{Raw: bytes.Clone(chunk), Filename: "big.bin"}}}}}
				sent.Add(1)
				if !yield(ev, nil) {
					return
				}
			}
			yield(statusEv("t1", a2a.TaskStateCompleted, ""), nil)
		}
	}
	spool := t.TempDir()
	st := compile(t, Deps{Calls: newMemCalls(), Connect: connectTo(agent), SpoolDir: spool}, baseCfg)
	stop := heapPeak()
	_, err := st.Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "x"}))
	peak := stop()
	if !errors.Is(err, ErrResultTooLarge) || !strings.Contains(err.Error(), "256 MiB") {
		t.Fatalf("err = %v, want ErrResultTooLarge naming 256 MiB", err)
	}
	if n := sent.Load(); n != 33 {
		t.Errorf("the call read %d chunks, want 33 (32 fit in 256 MiB)", n)
	}
	t.Logf("heap peak above the start: %d MiB", peak>>20)
	if peak > 64<<20 {
		t.Errorf("heap peak %d MiB above the start: chunks accumulate in memory", peak>>20)
	}
	if left, _ := os.ReadDir(spool); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestRun_ManyArtifactsFast: 100,000 distinct artifactIds are found by id in
// constant time (a linear search took 53 s).
func TestRun_ManyArtifactsFast(t *testing.T) {
	const n = 100_000
	agent := &fakeAgent{streaming: true}
	agent.SendStreamingMessageFunc = func(context.Context, a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
		return func(yield func(a2a.StreamEvent, error) bool) {
			if !yield(taskEv("t1", a2a.TaskStateWorking, ""), nil) {
				return
			}
			for i := range n {
				if !yield(artifactEv("t1", fmt.Sprintf("a%d", i), "x", false), nil) {
					return
				}
			}
			// One more chunk to the first artifact: it must still be found.
			if !yield(artifactEv("t1", "a0", "y", true), nil) {
				return
			}
			yield(statusEv("t1", a2a.TaskStateCompleted, ""), nil)
		}
	}
	st := compile(t, Deps{Calls: newMemCalls(), Connect: connectTo(agent)}, baseCfg)
	start := time.Now()
	out, err := st.Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "x"}))
	d := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	text := out["answer"].(string)
	if !strings.HasPrefix(text, "xy\nx\nx") || strings.Count(text, "\n") != n-1 {
		t.Errorf("answer starts %q with %d lines", text[:10], strings.Count(text, "\n")+1)
	}
	t.Logf("%d artifacts in %v", n, d)
	if d > 25*time.Second { // a linear search per event took 53 s
		t.Errorf("%d artifacts took %v", n, d)
	}
}

// TestRun_LargeResultFromSpoolFile: results past the in-memory part of the
// spool are read back from its file intact — text joined in order, files
// byte for byte.
func TestRun_LargeResultFromSpoolFile(t *testing.T) {
	text1 := strings.Repeat("t", spoolInMemory-10)
	raw := make([]byte, 3<<20)
	for i := range raw {
		raw[i] = byte(i * 7)
	}
	agent := &fakeAgent{streaming: true}
	agent.SendStreamingMessageFunc = func(context.Context, a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
		return events(nil, taskEv("t1", a2a.TaskStateWorking, ""),
			artifactEv("t1", "txt", text1, false),
			a2a.StreamEvent{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{TaskID: "t1", Artifact: a2a.Artifact{ArtifactID: "bin", Parts: []a2a.Part{{Raw: raw, Filename: "b.bin", MediaType: "application/octet-stream"}}}}},
			artifactEv("t1", "txt", "-tail", true),
			statusEv("t1", a2a.TaskStateCompleted, ""))
	}
	nc := newNC("r", "ra", workrun.Values{"prompt": "x"})
	spool := t.TempDir()
	out, err := compile(t, Deps{Calls: newMemCalls(), Connect: connectTo(agent), SpoolDir: spool}, baseCfg).Run(t.Context(), nc)
	if err != nil {
		t.Fatal(err)
	}
	// Past workrun.InlineValueLimit the answer is kept once, as an artifact.
	if _, ok := out["answer"].(workrun.ValueRef); !ok {
		t.Errorf("answer is %T, want a workrun.ValueRef", out["answer"])
	}
	answer, err := workrun.ResolveValue(t.Context(), nc.Arts, out["answer"])
	if err != nil {
		t.Fatal(err)
	}
	if answer != text1+"-tail" {
		t.Errorf("answer: %d bytes, want %d", len(answer.(string)), len(text1)+5)
	}
	ids := out["outfiles"].([]any)
	arts := nc.Arts.(*memArtifacts)
	if len(ids) != 1 || string(arts.files[ids[0].(string)]) != string(raw) {
		t.Errorf("saved files %v differ from what was sent", ids)
	}
	if left, _ := os.ReadDir(spool); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
