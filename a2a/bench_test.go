package a2a

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const streamEvents = 10_000

// streamTemplate is 10,000 SSE events of ~300 bytes: 9,999 WORKING status
// updates and a COMPLETED one; "@ID@" stands for the request id.
func streamTemplate() (body []byte, eventBytes int) {
	var b bytes.Buffer
	for i := range streamEvents {
		state := "TASK_STATE_WORKING"
		if i == streamEvents-1 {
			state = "TASK_STATE_COMPLETED"
		}
		data := fmt.Sprintf(`{"jsonrpc":"2.0","id":@ID@,"result":{"statusUpdate":{"taskId":"task-0001","contextId":"ctx-0001","status":{"state":%q,"timestamp":"2026-11-29T10:30:00.000Z","message":{"messageId":"m-%05d","role":"ROLE_AGENT","parts":[{"text":"progress %05d of 10000: still working on it"}]}}}}}`, state, i, i)
		fmt.Fprintf(&b, "data: %s\n\n", data)
	}
	return b.Bytes(), b.Len() / streamEvents
}

// BenchmarkStreamDecode10k reads a 10,000-event stream of ~300-byte
// statusUpdates from an httptest server through SubscribeToTask.
func BenchmarkStreamDecode10k(b *testing.B) {
	tmpl, per := streamTemplate()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in rpcIn
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(bytes.ReplaceAll(tmpl, []byte("@ID@"), in.ID))
	}))
	defer srv.Close()
	c, err := newFromCard(&AgentCard{Name: "bench", SupportedInterfaces: []AgentInterface{{URL: srv.URL, ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"}}}, srv.URL, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	start, cpu0 := time.Now(), processCPU()
	for b.Loop() {
		n := 0
		for ev, err := range c.SubscribeToTask(context.Background(), "task-0001") {
			if err != nil {
				b.Fatal(err)
			}
			if ev.StatusUpdate == nil {
				b.Fatal("not a status update")
			}
			n++
		}
		if n != streamEvents {
			b.Fatalf("%d events", n)
		}
	}
	elapsed, cpu := time.Since(start), processCPU()-cpu0
	runtime.ReadMemStats(&ms1)
	events := float64(b.N * streamEvents)
	b.ReportMetric(events/elapsed.Seconds(), "events/s")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/events, "allocs/event")
	b.ReportMetric(float64(per), "bytes/event")
	// CPU of the whole process (client and in-process server) per event.
	b.ReportMetric(float64(cpu.Nanoseconds())/1e3/events, "cpu-µs/event")
}

// heapSampler records the peak of live+unswept heap objects while running.
type heapSampler struct {
	stop chan struct{}
	done chan struct{}
	peak atomic.Uint64
}

func heapNow() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func startSampler() *heapSampler {
	h := &heapSampler{stop: make(chan struct{}), done: make(chan struct{})}
	h.peak.Store(heapNow())
	go func() {
		defer close(h.done)
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-t.C:
				if v := heapNow(); v > h.peak.Load() {
					h.peak.Store(v)
				}
			}
		}
	}()
	return h
}

func (h *heapSampler) Stop() uint64 {
	close(h.stop)
	<-h.done
	if v := heapNow(); v > h.peak.Load() {
		h.peak.Store(v)
	}
	return h.peak.Load()
}

// BenchmarkSend20MiB sends 10 files totalling 20 MiB in one SendMessage and
// reports the heap peak above idle against the encoded request size (target
// ≤ 2×, docs/remote-agent.md R14). "raw" holds the files in Part.Raw (idle includes them);
// "source" streams them from disk through Part.Source (idle excludes them).
func BenchmarkSend20MiB(b *testing.B) {
	const files, total = 10, 20 << 20
	var received atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The id is read from the body's head: the body starts
		// {"jsonrpc":"2.0","id":N, and is too big to parse whole here.
		br := bufio.NewReader(r.Body)
		head, _ := br.Peek(64)
		_, id, _ := strings.Cut(string(head), `"id":`)
		id, _, _ = strings.Cut(id, ",")
		n, err := io.Copy(io.Discard, br)
		if err != nil || n != r.ContentLength {
			http.Error(w, fmt.Sprintf("read %d of %d: %v", n, r.ContentLength, err), 400)
			return
		}
		received.Store(n)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":`+id+`,"result":{"message":{"messageId":"r","role":"ROLE_AGENT","parts":[{"text":"ok"}]}}}`)
	}))
	defer srv.Close()
	dir := b.TempDir()
	for i := range files {
		data := bytes.Repeat([]byte{byte(i), 0xAA, 0x55, byte(i * 7)}, total/files/4)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.bin", i)), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, mode := range []string{"raw", "source"} {
		b.Run(mode, func(b *testing.B) {
			c, err := newFromCard(&AgentCard{Name: "bench", SupportedInterfaces: []AgentInterface{{URL: srv.URL, ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"}}}, srv.URL, Options{})
			if err != nil {
				b.Fatal(err)
			}
			var worst float64
			var size int64
			for b.Loop() {
				b.StopTimer()
				req := SendMessageRequest{Message: Message{MessageID: "m", Role: RoleUser, Parts: []Part{{Text: "ten files"}}}}
				for i := range files {
					p := filepath.Join(dir, fmt.Sprintf("f%d.bin", i))
					part := Part{Filename: filepath.Base(p), MediaType: "application/octet-stream"}
					if mode == "raw" {
						if part.Raw, err = os.ReadFile(p); err != nil {
							b.Fatal(err)
						}
					} else {
						part.Source = &FileSource{Size: total / files, Open: func() (io.ReadCloser, error) { return os.Open(p) }}
					}
					req.Message.Parts = append(req.Message.Parts, part)
				}
				if size, err = c.RequestSize(req); err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				idle := heapNow()
				h := startSampler()
				b.StartTimer()
				if _, err := c.SendMessage(context.Background(), req); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				peak := h.Stop()
				worst = max(worst, float64(peak-min(peak, idle)))
				runtime.KeepAlive(req)
				b.StartTimer()
			}
			if got := received.Load(); got > size || size-got > 30 {
				b.Fatalf("server read %d bytes, RequestSize said %d", got, size)
			}
			b.ReportMetric(float64(size)/(1<<20), "encoded-MiB")
			b.ReportMetric(worst/(1<<20), "peak-above-idle-MiB")
			b.ReportMetric(worst/float64(size), "peak/encoded")
			b.SetBytes(size)
		})
	}
}

// BenchmarkEchoLatency compares a loopback SendMessage with a bare net/http
// JSON POST of the same request to the same server (target ≤ 1.2×).
func BenchmarkEchoLatency(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in rpcIn
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, resultJSON(in.ID, `{"message":{"messageId":"r1","contextId":"c1","role":"ROLE_AGENT","parts":[{"text":"echo: hello"}]}}`))
	}))
	defer srv.Close()
	c, err := newFromCard(&AgentCard{Name: "bench", SupportedInterfaces: []AgentInterface{{URL: srv.URL, ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"}}}, srv.URL, Options{})
	if err != nil {
		b.Fatal(err)
	}
	req := textMessage("echo hello")
	body, err := json.Marshal(rpcRequest{JSONRPC: "2.0", ID: 1, Method: "SendMessage", Params: req})
	if err != nil {
		b.Fatal(err)
	}
	bare := func() {
		resp, err := http.Post(srv.URL, "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK || out["result"] == nil {
			b.Fatalf("bare POST: HTTP %d, %v, %v", resp.StatusCode, out, err)
		}
	}
	ours := func() {
		if _, err := c.SendMessage(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
	// The two go first in turn, so neither always meets the server warm
	// from the other's request.
	var lat [2][]time.Duration
	fs := [2]func(){bare, ours}
	for n := 0; b.Loop(); n++ {
		for j := range 2 {
			i := (n + j) % 2
			t := time.Now()
			fs[i]()
			lat[i] = append(lat[i], time.Since(t))
		}
	}
	pct := func(d []time.Duration, p float64) float64 {
		slices.Sort(d)
		return float64(d[int(float64(len(d)-1)*p)].Microseconds())
	}
	b.ReportMetric(pct(lat[0], 0.50), "bare-p50-µs")
	b.ReportMetric(pct(lat[0], 0.99), "bare-p99-µs")
	b.ReportMetric(pct(lat[1], 0.50), "a2a-p50-µs")
	b.ReportMetric(pct(lat[1], 0.99), "a2a-p99-µs")
	b.ReportMetric(pct(lat[1], 0.50)/pct(lat[0], 0.50), "p50-ratio")
	b.ReportMetric(pct(lat[1], 0.99)/pct(lat[0], 0.99), "p99-ratio")
}

// newFromCard returns a client for an already fetched card, so no
// discovery request is measured; cardURL resolves relative interface URLs
// and is the credential's default origin.
func newFromCard(card *AgentCard, cardURL string, opts Options) (*Client, error) {
	u, err := url.Parse(cardURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("card URL %q is not an absolute URL", cardURL)
	}
	return newClient(card, u, opts.withDefaults())
}
