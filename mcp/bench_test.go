package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"workrun/mcp"
)

// BenchmarkToolsCallLatency compares a loopback tools/call through the
// client with a raw net/http POST of the same body and headers to the same
// server, the reply decoded either way, for a JSON and an SSE reply (target:
// p50 ratio ≤ 1.2).
func BenchmarkToolsCallLatency(b *testing.B) {
	const result = `{"content":[{"type":"text","text":"echo: hello"}],"structuredContent":{"echo":"hello"}}`
	for _, sse := range []bool{false, true} {
		name := "json"
		if sse {
			name = "sse"
		}
		b.Run(name, func(b *testing.B) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var in struct {
					ID     json.RawMessage `json:"id"`
					Method string          `json:"method"`
				}
				if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
					http.Error(w, err.Error(), 400)
					return
				}
				switch in.Method {
				case "initialize":
					w.Header().Set("Mcp-Session-Id", "bench-session")
					w.Header().Set("Content-Type", "application/json")
					io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(in.ID)+`,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"b","version":"1"}}}`)
					return
				case "notifications/initialized":
					w.WriteHeader(http.StatusAccepted)
					return
				}
				reply := `{"jsonrpc":"2.0","id":` + string(in.ID) + `,"result":` + result + `}`
				if sse {
					w.Header().Set("Content-Type", "text/event-stream")
					io.WriteString(w, "id: 0\ndata:\n\nevent: message\ndata: "+reply+"\n\n")
					return
				}
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, reply)
			}))
			defer srv.Close()
			url := srv.URL + "/mcp"
			c, err := mcp.New(url, mcp.Options{})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := c.Initialize(context.Background()); err != nil {
				b.Fatal(err)
			}
			args := json.RawMessage(`{"text":"hello"}`)
			body := []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{"text":"hello"},"name":"echo"}}`)
			raw := func() {
				req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("Mcp-Session-Id", "bench-session")
				req.Header.Set("MCP-Protocol-Version", "2025-11-25")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				b2, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if sse {
					_, b2, _ = bytes.Cut(b2, []byte("event: message\ndata: "))
				}
				var out map[string]any
				if err := json.Unmarshal(bytes.TrimSpace(b2), &out); err != nil {
					b.Fatal(err)
				}
			}
			ours := func() {
				res, err := c.CallTool(context.Background(), mcp.CallParams{Name: "echo", Arguments: args})
				if err != nil || res.Result == nil {
					b.Fatal(err)
				}
			}
			var lat [2][]time.Duration
			for b.Loop() {
				for i, f := range []func(){raw, ours} {
					t := time.Now()
					f()
					lat[i] = append(lat[i], time.Since(t))
				}
			}
			pct := func(d []time.Duration, p float64) float64 {
				slices.Sort(d)
				return float64(d[int(float64(len(d)-1)*p)].Nanoseconds()) / 1e3
			}
			b.ReportMetric(pct(lat[0], 0.50), "raw-p50-µs")
			b.ReportMetric(pct(lat[0], 0.99), "raw-p99-µs")
			b.ReportMetric(pct(lat[1], 0.50), "mcp-p50-µs")
			b.ReportMetric(pct(lat[1], 0.99), "mcp-p99-µs")
			b.ReportMetric(pct(lat[1], 0.50)/pct(lat[0], 0.50), "p50-ratio")
		})
	}
}
