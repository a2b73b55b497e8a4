//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// BenchmarkServeMCPVsTSServer is issue 38's speed check, side by side in
// one run (figures in docs/BENCHMARKS.md, "serve: a workflow as an MCP
// tool"): a 2026-07-28 tools/call of the served hello workflow (start →
// set → output, every task and run durable in SQLite) on the real
// `workrun serve`, against the TypeScript SDK v2 server
// (@modelcontextprotocol/server 2.4.0, mcp/testdata/tsserver/server.mjs
// MODE=modern) calling its `echo` tool, whose handler answers a text at
// once. One client (net/http, the same request shape, plain JSON replies,
// no Tasks extension declared so both answer the call itself), sequential
// calls, each reply checked; p50/p99 per server.
//
//	go test . -run '^$' -bench ServeMCPVsTSServer -benchtime 1x
func BenchmarkServeMCPVsTSServer(b *testing.B) {
	bin := buildWorkrunB(b)
	flows := b.TempDir()
	hello := filepath.Join(flows, "hello.json")
	if err := os.WriteFile(hello, []byte(serveHello), 0o644); err != nil {
		b.Fatal(err)
	}
	wcmd := exec.Command(bin, "--data-dir", b.TempDir(), "serve", hello)
	wcmd.Env = append(os.Environ(), "LANGUAGE=en")
	wurl := launch(b, wcmd, regexp.MustCompile(`^mcp (\S+)$`))

	dir := filepath.Join("mcp", "testdata", "tsserver")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server")); err != nil {
		b.Fatalf("npm ci in %s first: %v", dir, err)
	}
	tcmd := exec.Command("node", "server.mjs")
	tcmd.Dir = dir
	tcmd.Env = append(os.Environ(), "MODE=modern")
	stdin, err := tcmd.StdinPipe() // closed when this process ends
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stdin.Close() })
	turl := launch(b, tcmd, regexp.MustCompile(`^(http://\S+/mcp)$`))

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	servers := []struct{ name, url, tool, arg, want string }{
		{"workrun", wurl, "hello", `{"name":"Ada"}`, "Hello, Ada!"},
		{"ts-sdk", turl, "echo", `{"text":"Ada"}`, "echo: Ada"},
	}
	const calls = 200
	for range b.N {
		p50 := map[string]float64{}
		for _, s := range servers {
			var lat []float64
			for i := range calls + 10 {
				start := time.Now()
				if err := mcpCall(client, s.url, s.tool, s.arg, s.want, i); err != nil {
					b.Fatalf("%s: %v", s.name, err)
				}
				if i >= 10 { // the first ten warm up
					lat = append(lat, float64(time.Since(start).Microseconds()))
				}
			}
			p50[s.name] = pct(lat, 0.50)
			b.ReportMetric(pct(lat, 0.50), s.name+"-p50-µs")
			b.ReportMetric(pct(lat, 0.99), s.name+"-p99-µs")
		}
		b.ReportMetric(p50["workrun"]/p50["ts-sdk"], "workrun/ts-sdk-p50-ratio")
	}
	stopServe(b, &benchServer{name: "workrun", cmd: wcmd})
}

// mcpCall posts one 2026-07-28 tools/call and checks the reply's text.
func mcpCall(c *http.Client, url, tool, args, want string, id int) error {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, id, tool, args)
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	// A JSON reply, or the response event of an SSE one.
	for _, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimPrefix(line, "data: ")
		var rep struct {
			ID     int `json:"id"`
			Result struct {
				Content []struct{ Text string } `json:"content"`
			} `json:"result"`
		}
		if json.Unmarshal([]byte(line), &rep) == nil && rep.ID == id && len(rep.Result.Content) > 0 {
			if rep.Result.Content[0].Text != want {
				return fmt.Errorf("reply %s", raw)
			}
			return nil
		}
	}
	return fmt.Errorf("HTTP %d: no result in %s", resp.StatusCode, raw)
}
