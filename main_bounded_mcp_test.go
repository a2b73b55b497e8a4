package main

// Bounded under a large MCP result (issue 27 item 2): a real `workrun run`
// against a loopback MCP server (2025-11-25, plain JSON replies) whose one
// tool answers with a large text block or a large structuredContent, or
// with a reply over the client's 64 MiB cap.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// bigMCPServer is a minimal MCP server: server/discover is unknown (so the
// client falls back to initialize), initialize, tools/list with one tool
// "big", and tools/call answering with size bytes as text (json false) or
// as structuredContent {"items": ["…", …]} (json true); meta puts the size
// bytes in the result's _meta instead, where nothing is spooled.
type bigMCPServer struct {
	size int
	json bool
	meta bool
	// secret, when set, is echoed in the text, split across two writes
	// (each flushed) 1 MiB in; hold, when set, keeps the reply open after
	// that many text bytes until the client goes away (reached closed then).
	secret  string
	hold    int
	reached chan struct{}
}

func (s *bigMCPServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	reply := func(result string) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
	}
	switch req.Method {
	case "initialize":
		w.Header().Set("Mcp-Session-Id", "s1")
		reply(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"big","version":"1"}}`)
	case "notifications/initialized":
		w.WriteHeader(http.StatusAccepted)
	case "tools/list":
		reply(`{"tools":[{"name":"big","inputSchema":{"type":"object"}}]}`)
	case "tools/call":
		w.Header().Set("Content-Type", "application/json")
		if s.meta {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"_meta":{"x":"`, req.ID)
			writeFiller(w, s.size, "<meta>")
			io.WriteString(w, `"},"content":[{"type":"text","text":"small"}]}}`)
			return
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, req.ID)
		if !s.json && (s.secret != "" || s.hold > 0) {
			fl := w.(http.Flusher)
			const at = 1 << 20
			writeFiller(w, at, "<text>")
			half := len(s.secret) / 2
			io.WriteString(w, s.secret[:half])
			fl.Flush()
			io.WriteString(w, s.secret[half:])
			written := at + len(s.secret)
			if s.hold > 0 {
				writeFiller(w, s.hold-written, "<more>")
				fl.Flush()
				close(s.reached)
				<-r.Context().Done()
				return
			}
			writeFiller(w, s.size-written, "<more>")
			io.WriteString(w, `"}]}}`)
			return
		}
		if !s.json {
			writeFiller(w, s.size, "<text>")
			io.WriteString(w, `"}]}}`)
			return
		}
		io.WriteString(w, `small"}],"structuredContent":{"items":[`)
		const item = 64 << 10
		for i := 0; i*item < s.size; i++ {
			if i > 0 {
				io.WriteString(w, ",")
			}
			io.WriteString(w, `"`)
			writeFiller(w, item, fmt.Sprintf("<item %d>", i))
			io.WriteString(w, `"`)
		}
		io.WriteString(w, `]}}}`)
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, req.ID)
	}
}

// writeFiller writes n bytes of JSON-safe text beginning with mark.
func writeFiller(w io.Writer, n int, mark string) {
	line := []byte(mark + strings.Repeat("abcdefghij", 100))
	for n > 0 {
		k := min(n, len(line))
		w.Write(line[:k])
		n -= k
	}
}

func bigMCPFlow(t testing.TB, url string) string {
	wf := fmt.Sprintf(`{"name":"large mcp","state":{"report":"text","found":"json"},
	"nodes":[{"id":"start","type":"start"},
	 {"id":"call","type":"remote_mcp","config":{"url":%q,"tool":"big","output":"report","output_json":"found","timeout_seconds":300}},
	 {"id":"end","type":"output","config":{"fields":["report","found"]}}],
	"edges":[{"from":"start","to":"call"},{"from":"call","to":"end"}]}`, url)
	p := filepath.Join(t.TempDir(), "flow.json")
	if err := os.WriteFile(p, []byte(wf), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// runBigMCP runs the flow against a server answering size bytes and
// returns the child's peak RSS, the database's growth, the data
// directory's growth and the output.
func runBigMCP(t testing.TB, bin string, size int, asJSON bool) (rss, db, data int64, out string, exit int) {
	return runMCPServer(t, bin, &bigMCPServer{size: size, json: asJSON})
}

func runMCPServer(t testing.TB, bin string, srv *bigMCPServer) (rss, db, data int64, out string, exit int) {
	ts := httptest.NewServer(srv)
	defer ts.Close()
	dir := t.TempDir()
	flow := bigMCPFlow(t, ts.URL+"/mcp")
	exec.Command(bin, "--data-dir", dir, "runs").Run() // the empty database
	db0, data0 := dbSize(dir), treeSize(dir)
	cmd := exec.Command(bin, "--data-dir", dir, "run", flow)
	cmd.Env = append(os.Environ(), "LANG=C.UTF-8", "LANGUAGE=en")
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("workrun run: %v", err)
		}
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return ru.Maxrss << 10, dbSize(dir) - db0, treeSize(dir) - data0, buf.String(), cmd.ProcessState.ExitCode()
}

func treeSize(dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return nil
	})
	return n
}

// TestLargeMCPResultStoredOnce: a 40 MiB text result and a 40 MiB
// structuredContent are each stored once, as an artifact: the database
// grows by next to nothing (State, node outputs, the next node's inputs and
// the call record hold a reference), the data directory by the result
// once. Peak RSS stays within 64 MiB of a run with a small result: the
// client streams the reply and its long values go to the spool
// (docs/BENCHMARKS.md). A reply over the 256 MiB spooled-reply cap, and a
// reply whose 100 MiB sit where nothing is spooled (over the 64 MiB
// in-memory cap), fail the node and cost no more than the cap's buffer.
func TestLargeMCPResultStoredOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("moves 600 MB")
	}
	bin := buildPlainWorkrun(t)
	const size = 40 << 20
	idle, _, _, out, exit := runBigMCP(t, bin, 1<<10, false)
	if exit != 0 {
		t.Fatalf("small run: exit %d\n%s", exit, tail([]byte(out)))
	}
	for _, asJSON := range []bool{false, true} {
		what := map[bool]string{false: "text", true: "structuredContent"}[asJSON]
		rss, db, data, out, exit := runBigMCP(t, bin, size, asJSON)
		if exit != 0 {
			t.Fatalf("%s: exit %d\n%s", what, exit, tail([]byte(out)))
		}
		t.Logf("%s of %d MiB: peak RSS %d MiB (small result: %d MiB, +%d MiB); database +%.2f MiB; data directory +%.1f MiB",
			what, size>>20, rss>>20, idle>>20, (rss-idle)>>20, float64(db)/(1<<20), float64(data)/(1<<20))
		if db > 4<<20 {
			t.Errorf("%s: the database grew by %d MiB for a %d MiB result: the result is in it", what, db>>20, size>>20)
		}
		if data > size+size/8+8<<20 {
			t.Errorf("%s: the data directory grew by %d MiB for a %d MiB result: it is stored more than once", what, data>>20, size>>20)
		}
		if rss-idle > 64<<20 {
			t.Errorf("%s: peak RSS %d MiB above the small run for a %d MiB result (target: 64 MiB)", what, (rss-idle)>>20, size>>20)
		}
		if !strings.Contains(out, "more bytes kept in artifact") {
			t.Errorf("%s: the output node does not show the artifact:\n%s", what, tail([]byte(out)))
		}
	}
	for _, c := range []struct {
		what  string
		srv   *bigMCPServer
		limit string
	}{
		{"a 300 MiB text over the spooled-reply cap", &bigMCPServer{size: 300 << 20}, "over the 268435456-byte limit"},
		{"100 MiB in _meta, over the in-memory cap", &bigMCPServer{size: 100 << 20, meta: true}, "over the 67108864-byte limit"},
	} {
		rss, _, data, out, exit := runMCPServer(t, bin, c.srv)
		t.Logf("refused (%s): peak RSS %d MiB (+%d MiB above the small run); data directory +%.1f MiB", c.what, rss>>20, (rss-idle)>>20, float64(data)/(1<<20))
		if exit != 1 || !strings.Contains(out, c.limit) {
			t.Errorf("%s: exit %d\n%s", c.what, exit, tail([]byte(out)))
		}
		if rss-idle > 64<<20+32<<20 {
			t.Errorf("%s: the refusal cost %d MiB above the small run; the cap's buffer is 64 MiB", c.what, (rss-idle)>>20)
		}
		if data > 4<<20 {
			t.Errorf("%s: the data directory kept %d MiB of a refused reply (the spool must go)", c.what, data>>20)
		}
	}
}

// BenchmarkLargeMCPResult: peak RSS, its excess over a run with a 1 KiB
// result, database and data-directory growth and wall time of a real
// `workrun run` against result size, MCP text and structuredContent;
// "before" is WORKRUN_BASELINE_MCP_BIN, else WORKRUN_BASELINE_BIN, when set
// (docs/BENCHMARKS.md). A baseline that refuses a reply over its 64 MiB cap
// is measured as it is; this tree's binary must take every size.
func BenchmarkLargeMCPResult(b *testing.B) {
	env := "WORKRUN_BASELINE_BIN"
	if os.Getenv("WORKRUN_BASELINE_MCP_BIN") != "" {
		env = "WORKRUN_BASELINE_MCP_BIN"
	}
	bins := baselineBins(b, env)
	measure := func(b *testing.B, bin string, size int, asJSON, mustPass bool) benchRun {
		start := time.Now()
		rss, db, data, out, exit := runBigMCP(b, bin, size, asJSON)
		if exit != 0 && mustPass {
			b.Fatalf("exit %d\n%s", exit, tail([]byte(out)))
		}
		return benchRun{rss: rss, db: db, data: data, wall: time.Since(start)}
	}
	idle := map[string]int64{}
	for _, name := range []string{"before", "after"} {
		if bin, ok := bins[name]; ok {
			b.Run(name+"/idle/1KiB", func(b *testing.B) {
				r := measure(b, bin, 1<<10, false, true)
				idle[name] = r.rss
				r.report(b, r.rss)
			})
		}
	}
	for _, kind := range []string{"text", "structured"} {
		for _, mib := range []int{1, 10, 40, 100, 240} {
			for _, name := range []string{"before", "after"} {
				bin, ok := bins[name]
				if !ok {
					continue
				}
				b.Run(fmt.Sprintf("%s/%s/%dMiB", name, kind, mib), func(b *testing.B) {
					measure(b, bin, mib<<20, kind == "structured", mib < 64 || name == "after").report(b, idle[name])
				})
			}
		}
	}
}

// TestRefusedA2AEventBounded (issue 27): an A2A agent that sends one 100
// MiB event, over the client's 64 MiB event cap: the event is refused (the
// node then follows the task, which this agent cannot show; the test
// stops the process by exit once the refusal is shown) and the refusal
// costs about the cap's buffer above a run with a small answer.
func TestRefusedA2AEventBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("moves 100 MB")
	}
	bin := buildPlainWorkrun(t)
	measure := func(chunks, chunkBytes int, until string) (int64, string) {
		url := startBigTextAgent(t, &bigTextAgent{chunks: chunks, chunkBytes: chunkBytes})
		dir := t.TempDir()
		cmd := exec.Command(bin, "--data-dir", dir, "run", largeAnswerFlow(t, url), "--input", "question=q")
		cmd.Env = append(os.Environ(), "LANG=C.UTF-8", "LANGUAGE=en")
		var out syncBuf
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if until != "" {
			deadline := time.Now().Add(3 * time.Minute)
			for !strings.Contains(out.String(), until) {
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("no %q in:\n%s", until, tail([]byte(out.String())))
				}
				time.Sleep(50 * time.Millisecond)
			}
			cmd.Process.Signal(syscall.SIGTERM) // exit: the run is interrupted, nothing canceled
		}
		cmd.Wait()
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		return ru.Maxrss << 10, out.String()
	}
	idle, out := measure(1, 1<<10, "")
	if !strings.Contains(out, "succeeded") {
		t.Fatalf("small run:\n%s", tail([]byte(out)))
	}
	rss, _ := measure(1, 100<<20, "over the 67108864-byte limit")
	t.Logf("refused 100 MiB event: peak RSS %d MiB (+%d MiB above a 1 KiB answer)", rss>>20, (rss-idle)>>20)
	if rss-idle > 64<<20+32<<20 {
		t.Errorf("a refused event cost %d MiB above the small run; the cap's buffer is 64 MiB", (rss-idle)>>20)
	}
}

// TestMCPSpoolKilledLeavesNoSecret (issue 27 item 3, MCP): a server echoes
// the credential's token inside a large text result, split across two
// writes. A `workrun run` killed (SIGKILL) while the reply is being
// spooled leaves no file that holds the token or either half, and the
// next start removes its spool file. A run that completes stores the text
// with the token redacted.
func TestMCPSpoolKilledLeavesNoSecret(t *testing.T) {
	bin := buildPlainWorkrun(t)
	const token = "sk-live-Mc9Pq2Lw7Tz4Rb8N"
	halves := []string{token[:len(token)/2], token[len(token)/2:]}
	srv := &bigMCPServer{secret: token, hold: 8 << 20, reached: make(chan struct{})}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	url := ts.URL + "/mcp"
	dir := t.TempDir()
	env := withCredential(t, bin, dir, "bounded-mcp", ts.URL, token)
	wf := strings.Replace(string(must(os.ReadFile(bigMCPFlow(t, url)))), `"timeout_seconds":300`, `"timeout_seconds":300,"credential":"bounded-mcp"`, 1)
	flow := filepath.Join(t.TempDir(), "flow.json")
	if err := os.WriteFile(flow, []byte(wf), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--data-dir", dir, "run", flow)
	cmd.Env = env
	var out syncBuf
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	select {
	case <-srv.reached:
	case <-time.After(60 * time.Second):
		t.Fatalf("the server never sent 8 MiB:\n%s", out.String())
	}
	killWhileSpooled(t, bin, dir, cmd, &out, 6<<20, append(halves, token)...)

	// Completed: the text is stored once, redacted.
	srv2 := &bigMCPServer{size: 4 << 20, secret: token}
	ts2 := httptest.NewServer(srv2)
	defer ts2.Close()
	env = withCredential(t, bin, dir, "bounded-mcp", ts2.URL, token)
	if err := os.WriteFile(flow, []byte(strings.ReplaceAll(wf, ts.URL, ts2.URL)), 0o600); err != nil {
		t.Fatal(err)
	}
	run := exec.Command(bin, "--data-dir", dir, "run", flow)
	run.Env = env
	b, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("run: %v\n%s", err, tail(b))
	}
	if bytes.Contains(b, []byte(halves[0])) || bytes.Contains(b, []byte(halves[1])) {
		t.Errorf("the output shows the token")
	}
	if hits := filesHolding(t, dir, append(halves, token)...); len(hits) > 0 {
		t.Errorf("after a completed run, files hold the token: %v", hits)
	}
	if hits := filesHolding(t, filepath.Join(dir, "artifacts"), remotecallRedacted+"<more>"); len(hits) == 0 {
		t.Error("the stored text does not hold the redaction marker where the token was")
	}
}
