package main

// Bounded under a large result (issue 27): a real `workrun run` process
// against a loopback A2A agent that streams a large text answer in
// append chunks. Peak RSS is the child's getrusage maximum; the database
// and the artifact directory are measured before and after.

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// bigTextAgent is a minimal A2A 1.0 JSON-RPC agent: SendStreamingMessage
// answers with the task, then chunks append events of one text artifact of
// chunkBytes each, then COMPLETED. Each chunk begins with its number so the
// stored text can be checked.
type bigTextAgent struct {
	chunks, chunkBytes int
	// secret, when set, is written into the answer split across the
	// boundary of the first two chunks, as an agent echoing a token would.
	secret string
	// hold, when set, keeps the stream open after that many chunks until
	// the client goes away (for the SIGKILL test); reached is closed then.
	hold    int
	reached chan struct{}
	once    sync.Once
	// files: each chunk is a file part (raw bytes, base64 on the wire)
	// appended to the artifact instead of text.
	files bool
	// rest, when set, is one more chunk of that many bytes after the
	// others (a size that is not a whole number of chunks).
	rest int
}

func startBigTextAgent(t *testing.T, a *bigTextAgent) string {
	t.Helper()
	a.reached = make(chan struct{})
	ts := httptest.NewServer(a)
	t.Cleanup(ts.Close)
	return ts.URL
}

func (a *bigTextAgent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"name": "big text", "version": "1", //nolint:errcheck
			"supportedInterfaces": []any{map[string]any{"url": "http://" + r.Host + "/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}},
			"capabilities":        map[string]any{"streaming": true},
			"defaultInputModes":   []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"}, "skills": []any{}})
		return
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if req.Method != "SendStreamingMessage" {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, req.ID)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fl := w.(http.Flusher)
	id := string(req.ID)
	fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"task\":{\"id\":\"t1\",\"contextId\":\"c1\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}}\n\n", id)
	fl.Flush()
	body := bytes.Repeat([]byte("x"), a.chunkBytes)
	n := a.chunks
	if a.rest > 0 {
		n++
	}
	for i := range n {
		if a.hold > 0 && i == a.hold {
			a.once.Do(func() { close(a.reached) })
			<-r.Context().Done()
			return
		}
		chunk := body
		if i == a.chunks {
			chunk = body[:a.rest]
		}
		if a.secret != "" && i < 2 {
			// The first half of the secret ends chunk 0, the rest begins chunk 1.
			chunk = bytes.Clone(body)
			half := len(a.secret) / 2
			if i == 0 {
				copy(chunk[len(chunk)-half:], a.secret[:half])
			} else {
				copy(chunk, a.secret[half:])
			}
		}
		copy(chunk[min(len(chunk)-1, 100):], fmt.Sprintf("<chunk %d>", i))
		if a.files {
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"artifactUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c1\",\"append\":%t,\"artifact\":{\"artifactId\":\"answer\",\"parts\":[{\"filename\":\"part-%d.bin\",\"mediaType\":\"application/octet-stream\",\"raw\":\"", id, i > 0, i)
			enc := base64.NewEncoder(base64.StdEncoding, w)
			enc.Write(chunk) //nolint:errcheck
			enc.Close()      //nolint:errcheck
			if _, err := w.Write([]byte("\"}]}}}}\n\n")); err != nil {
				return
			}
			fl.Flush()
			continue
		}
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"artifactUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c1\",\"append\":%t,\"artifact\":{\"artifactId\":\"answer\",\"parts\":[{\"text\":\"", id, i > 0)
		w.Write(chunk) //nolint:errcheck
		if _, err := w.Write([]byte("\"}]}}}}\n\n")); err != nil {
			return
		}
		fl.Flush()
	}
	fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"statusUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c1\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}}}\n\n", id)
	fl.Flush()
}

// buildPlainWorkrun builds the binary without -race whatever the test was
// built with: memory is measured on the binary people run.
func buildPlainWorkrun(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "workrun")
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// largeAnswerFlow: start → a remote agent whose text answer goes to
// "answer" → an output node reading it (so "answer" is the next node's
// input too).
func largeAnswerFlow(t testing.TB, url string) string {
	t.Helper()
	wf := fmt.Sprintf(`{"name":"large answer","state":{"question":"text","answer":"text"},
	"nodes":[{"id":"start","type":"start"},
	 {"id":"ask","type":"remote_agent","config":{"url":%q,"inputs":["question"],"output":"answer","timeout_seconds":120}},
	 {"id":"end","type":"output","config":{"fields":["answer"]}}],
	"edges":[{"from":"start","to":"ask"},{"from":"ask","to":"end"}]}`, url)
	p := filepath.Join(t.TempDir(), "flow.json")
	if err := os.WriteFile(p, []byte(wf), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// runMeasured runs the binary and returns its peak RSS in bytes.
func runMeasured(t *testing.T, bin string, args ...string) (int64, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "LANG=C.UTF-8", "LANGUAGE=en")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("workrun %s: %v\n%s", strings.Join(args, " "), err, tail(out))
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Fatal("no rusage for the child")
	}
	return ru.Maxrss << 10, string(out) // Linux: KiB
}

func tail(b []byte) []byte {
	if len(b) > 4000 {
		return b[len(b)-4000:]
	}
	return b
}

// dirSize sums the sizes of the files under dir matching keep.
func dirSize(t *testing.T, dir string, keep func(rel string) bool) int64 {
	t.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if keep(rel) {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			n += fi.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func isDB(rel string) bool { return strings.HasPrefix(rel, "workrun.db") }

// TestLargeTextResultBounded (issue 27 item 2): 30 × 8 MB of text appended
// to one artifact. The run's peak RSS stays within 64 MiB of the same run
// with a small answer, the database grows by far less than the answer, and
// the data directory by the answer once (one artifact).
func TestLargeTextResultBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("moves 240 MB")
	}
	bin := buildPlainWorkrun(t)
	const chunks, chunkBytes = 30, 8 << 20
	const size = chunks * chunkBytes

	measure := func(chunks, chunkBytes int, files bool) (rss, db, data int64, out string) {
		url := startBigTextAgent(t, &bigTextAgent{chunks: chunks, chunkBytes: chunkBytes, files: files})
		dir := t.TempDir()
		flow := largeAnswerFlow(t, url)
		if files {
			flow = largeFilesFlow(t, url)
		}
		runMeasured(t, bin, "--data-dir", dir, "runs") // the empty database
		db0, data0 := dirSize(t, dir, isDB), dirSize(t, dir, func(string) bool { return true })
		rss, out = runMeasured(t, bin, "--data-dir", dir, "run", flow, "--input", "question=q")
		return rss, dirSize(t, dir, isDB) - db0, dirSize(t, dir, func(string) bool { return true }) - data0, out
	}
	idleRSS, _, _, _ := measure(1, 1024, false)
	rss, db, data, out := measure(chunks, chunkBytes, false)
	t.Logf("peak RSS: %d MiB with a 1 KiB answer, %d MiB with %d MiB (+%d MiB); database +%.1f MiB, data directory +%.1f MiB",
		idleRSS>>20, rss>>20, size>>20, (rss-idleRSS)>>20, float64(db)/(1<<20), float64(data)/(1<<20))
	if rss-idleRSS > 64<<20 {
		t.Errorf("peak RSS %d MiB is %d MiB above the small run's (limit 64 MiB)", rss>>20, (rss-idleRSS)>>20)
	}
	if db > 8<<20 {
		t.Errorf("the database grew by %d MiB for a %d MiB answer: the answer is in it", db>>20, size>>20)
	}
	if data > size+16<<20 {
		t.Errorf("the data directory grew by %d MiB for a %d MiB answer: it is stored more than once", data>>20, size>>20)
	}
	if !strings.Contains(out, "<chunk 0>") || !strings.Contains(out, "more bytes kept in artifact") {
		t.Errorf("the output node does not show the answer's beginning and its artifact:\n%s", tail([]byte(out)))
	}

	// The same bytes as 30 file parts (base64 on the wire, 8 MiB each).
	rss, db, data, out = measure(chunks, chunkBytes, true)
	t.Logf("files: peak RSS %d MiB with %d × %d MiB files (+%d MiB above the 1 KiB text run); database +%.1f MiB, data directory +%.1f MiB",
		rss>>20, chunks, chunkBytes>>20, (rss-idleRSS)>>20, float64(db)/(1<<20), float64(data)/(1<<20))
	if rss-idleRSS > 64<<20 {
		t.Errorf("files: peak RSS %d MiB is %d MiB above the small run's (limit 64 MiB)", rss>>20, (rss-idleRSS)>>20)
	}
	if db > 8<<20 {
		t.Errorf("files: the database grew by %d MiB for %d MiB of files", db>>20, size>>20)
	}
	if data > size+16<<20 || data < size {
		t.Errorf("files: the data directory grew by %d MiB for %d MiB of files: not stored exactly once", data>>20, size>>20)
	}
	if !strings.Contains(out, "part-29.bin") {
		t.Errorf("the output node does not list the last file:\n%s", tail([]byte(out)))
	}
}

// largeFilesFlow: start → a remote agent whose file parts go to "files"
// → an output node showing them.
func largeFilesFlow(t testing.TB, url string) string {
	t.Helper()
	wf := fmt.Sprintf(`{"name":"large files","state":{"question":"text","answer":"text","files":"files"},
	"nodes":[{"id":"start","type":"start"},
	 {"id":"ask","type":"remote_agent","config":{"url":%q,"inputs":["question"],"output":"answer","output_files":"files","timeout_seconds":300}},
	 {"id":"end","type":"output","config":{"fields":["answer","files"]}}],
	"edges":[{"from":"start","to":"ask"},{"from":"ask","to":"end"}]}`, url)
	p := filepath.Join(t.TempDir(), "flow.json")
	if err := os.WriteFile(p, []byte(wf), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// withCredential saves a bearer credential for origin in the Secret
// Service (the session's under make test, else a private one) and returns
// the environment the binary needs to read it.
func withCredential(t *testing.T, bin, dir, name, origin, secret string) []string {
	t.Helper()
	home := t.TempDir()
	env := append(append(os.Environ(), "LANG=C.UTF-8", "LANGUAGE=en"), sessionKeyring(t, home)...)
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		env = append(env, "HOME="+home)
	}
	cmd := exec.Command(bin, "--data-dir", dir, "credential", "set", name, "--kind", "bearer", "--origin", origin)
	cmd.Env, cmd.Stdin = env, strings.NewReader(secret)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("credential set: %v\n%s", err, out)
	}
	return env
}

// filesHolding lists the files under dir whose bytes contain any of needles.
func filesHolding(t *testing.T, dir string, needles ...string) []string {
	t.Helper()
	var hits []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, n := range needles {
			if bytes.Contains(b, []byte(n)) {
				rel, _ := filepath.Rel(dir, p)
				hits = append(hits, fmt.Sprintf("%s (%q)", rel, n))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

// killWhileSpooled: once the spool of the data directory dir holds n
// bytes, with no file holding a needle, it SIGKILLs cmd (a `workrun run`
// on dir, its output in out). The kill must leave a spool file (else the
// test proves nothing); the next start (any command opening dir) must
// remove it and leave no file holding a needle.
func killWhileSpooled(t *testing.T, bin, dir string, cmd *exec.Cmd, out fmt.Stringer, n int64, needles ...string) {
	t.Helper()
	tmp := filepath.Join(dir, "artifacts", "tmp")
	deadline := time.Now().Add(60 * time.Second)
	for treeSize(tmp) < n {
		if time.Now().After(deadline) {
			t.Fatalf("nothing spooled in %s:\n%s", tmp, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if hits := filesHolding(t, dir, needles...); len(hits) > 0 {
		t.Errorf("while the answer is spooled, files hold the token: %v", hits)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if left, _ := os.ReadDir(tmp); len(left) == 0 {
		t.Fatal("no spool file was left by the kill: the test proves nothing")
	}
	if b, err := exec.Command(bin, "--data-dir", dir, "runs").CombinedOutput(); err != nil {
		t.Fatalf("runs: %v\n%s", err, b)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("after the next start, temporary files are left: %v", left)
	}
	if hits := filesHolding(t, dir, needles...); len(hits) > 0 {
		t.Errorf("after the next start, files hold the token: %v", hits)
	}
}

// TestSpoolKilledLeavesNoSecret (issue 27 item 3): an agent echoes the
// credential's token inside a large text answer, split across two append
// chunks. A `workrun run` killed (SIGKILL) while the answer is spooled
// leaves no file that holds the token or either half of it, and the next
// start removes its spool file. A run that completes stores the answer
// with the token redacted, although no chunk held it whole.
func TestSpoolKilledLeavesNoSecret(t *testing.T) {
	bin := buildPlainWorkrun(t)
	const token = "sk-live-7Hq2Zp9Lw4Rt6Vn3"
	halves := []string{token[:len(token)/2], token[len(token)/2:]}
	agent := &bigTextAgent{chunks: 8, chunkBytes: 2 << 20, secret: token, hold: 4}
	url := startBigTextAgent(t, agent)
	dir := t.TempDir()
	env := withCredential(t, bin, dir, "bounded-spool", url, token)
	wf := strings.Replace(string(must(os.ReadFile(largeAnswerFlow(t, url)))), `"timeout_seconds":120`, `"timeout_seconds":120,"credential":"bounded-spool"`, 1)
	flow := filepath.Join(t.TempDir(), "flow.json")
	if err := os.WriteFile(flow, []byte(wf), 0o600); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(bin, "--data-dir", dir, "run", flow, "--input", "question=q")
	cmd.Env = env
	var out syncBuf
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	select {
	case <-agent.reached:
	case <-time.After(60 * time.Second):
		t.Fatalf("the agent never sent 4 chunks:\n%s", out.String())
	}
	// The four chunks (8 MiB) are spooled once the spool file has them.
	killWhileSpooled(t, bin, dir, cmd, &out, 4*(2<<20), append(halves, token)...)

	// Completed: the answer is stored redacted.
	agent2 := &bigTextAgent{chunks: 3, chunkBytes: 2 << 20, secret: token}
	url2 := startBigTextAgent(t, agent2)
	wf2 := strings.ReplaceAll(wf, url, url2)
	if err := os.WriteFile(flow, []byte(wf2), 0o600); err != nil {
		t.Fatal(err)
	}
	env = withCredential(t, bin, dir, "bounded-spool", url2, token)
	run := exec.Command(bin, "--data-dir", dir, "run", flow, "--input", "question=q")
	run.Env = env
	if b, err := run.CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, tail(b))
	}
	if hits := filesHolding(t, dir, append(halves, token)...); len(hits) > 0 {
		t.Errorf("after a completed run, files hold the token: %v", hits)
	}
	if hits := filesHolding(t, filepath.Join(dir, "artifacts"), "x"+remotecallRedacted+"x"); len(hits) == 0 {
		t.Error("the stored answer does not hold the redaction marker where the token was")
	}
}

const remotecallRedacted = "[redacted]"

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// BenchmarkLargeTextResult reports peak RSS, its excess over a run with a
// 1 KiB answer, database and data-directory growth and wall time of a real
// `workrun run` against result sizes 1, 10, 100 and 240 MiB (8 MiB append
// chunks, the last one shorter), text and file parts, for this binary and,
// side by side, the binary named by WORKRUN_BASELINE_BIN (docs/BENCHMARKS.md).
func BenchmarkLargeTextResult(b *testing.B) {
	bins := baselineBins(b, "WORKRUN_BASELINE_BIN")
	idle := map[string]int64{}
	for _, name := range []string{"before", "after"} {
		if bin, ok := bins[name]; ok {
			b.Run(name+"/idle/1KiB", func(b *testing.B) {
				r := measureA2A(b, bin, 1<<10, false)
				idle[name] = r.rss
				r.report(b, r.rss)
			})
		}
	}
	for _, kind := range []string{"text", "files"} {
		for _, mib := range []int{1, 10, 100, 240} {
			for _, name := range []string{"before", "after"} {
				bin, ok := bins[name]
				if !ok {
					continue
				}
				b.Run(fmt.Sprintf("%s/%s/%dMiB", name, kind, mib), func(b *testing.B) {
					measureA2A(b, bin, mib<<20, kind == "files").report(b, idle[name])
				})
			}
		}
	}
}

// baselineBins: "after" is this tree's binary, "before" the one named by
// the environment variable env when it is set.
func baselineBins(b *testing.B, env string) map[string]string {
	bins := map[string]string{"after": buildPlainWorkrunB(b)}
	if base := os.Getenv(env); base != "" {
		bins["before"] = base
	}
	return bins
}

// benchRun is one measured `workrun run`: the child's peak RSS, the growth
// of the database (with -wal, -shm) and of the whole data directory, and
// the run's wall time.
type benchRun struct {
	rss, db, data int64
	wall          time.Duration
}

func (r benchRun) report(b *testing.B, idle int64) {
	b.ReportMetric(float64(r.rss)/(1<<20), "peakRSS-MiB")
	b.ReportMetric(float64(r.rss-idle)/(1<<20), "aboveIdle-MiB")
	b.ReportMetric(float64(r.db)/(1<<20), "db-MiB")
	b.ReportMetric(float64(r.data)/(1<<20), "data-MiB")
	b.ReportMetric(r.wall.Seconds(), "wall-s")
}

// measureA2A runs one A2A answer (text, or file parts) of size bytes in
// 8 MiB append chunks.
func measureA2A(b *testing.B, bin string, size int, files bool) benchRun {
	chunk := min(size, 8<<20)
	a := &bigTextAgent{chunks: size / chunk, chunkBytes: chunk, rest: size % chunk, reached: make(chan struct{}), files: files}
	ts := httptest.NewServer(a)
	defer ts.Close()
	dir := b.TempDir()
	flow := largeAnswerFlow(b, ts.URL)
	if files {
		flow = largeFilesFlow(b, ts.URL)
	}
	exec.Command(bin, "--data-dir", dir, "runs").Run() // the empty database
	db0, data0 := dbSize(dir), treeSize(dir)
	cmd := exec.Command(bin, "--data-dir", dir, "run", flow, "--input", "question=q")
	cmd.Env = append(os.Environ(), "LANG=C.UTF-8", "LANGUAGE=en")
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v\n%s", err, tail(out))
	}
	wall := time.Since(start)
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return benchRun{rss: ru.Maxrss << 10, db: dbSize(dir) - db0, data: treeSize(dir) - data0, wall: wall}
}

func dbSize(dir string) int64 {
	var n int64
	for _, s := range []string{"", "-wal", "-shm"} {
		if fi, err := os.Stat(filepath.Join(dir, "workrun.db"+s)); err == nil {
			n += fi.Size()
		}
	}
	return n
}

func buildPlainWorkrunB(b *testing.B) string {
	bin := filepath.Join(b.TempDir(), "workrun")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// mountSmallFS mounts a tmpfs of size on a new directory for the test (the
// full-disk tests need a disk that fills). Mounting needs CAP_SYS_ADMIN:
// make test runs as root; elsewhere the test is skipped, never under CI.
func mountSmallFS(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0700", "tmpfs", dir).CombinedOutput(); err != nil {
		msg := fmt.Sprintf("cannot mount a %s tmpfs for the full-disk test: %v %s", size, err, out)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	return dir
}

// fillDisk writes into path until the file system is full.
func fillDisk(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling the disk: %v", err)
			}
			return
		}
	}
}

type runJSON struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	Interruption string `json:"interruption"`
	Reason       string `json:"reason"`
}

// workrunJSON runs a command of the binary with --json and decodes its output.
func workrunJSON(t *testing.T, bin, dir string, v any, args ...string) {
	t.Helper()
	out, err := exec.Command(bin, append([]string{"--data-dir", dir}, append(args, "--json")...)...).Output()
	if err != nil {
		t.Fatalf("workrun %v: %v\n%s", args, err, out)
	}
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("workrun %v: %v\n%s", args, err, out)
	}
}

// TestFullDiskRecord (issue 27 item 4): real `workrun run` processes on a
// small tmpfs that fills. The run's final status cannot be saved; it is
// retried, then kept in the space the store reserved when it opened. While
// the disk is still full `workrun runs` reports the run as interrupted
// because its final state could not be saved (never "running"); once space
// is freed the next start saves that record, what had been saved is all
// there, and resume refuses — a failed run never becomes succeeded, a
// person's Stop is never undone — while `workrun stop` ends it.
func TestFullDiskRecord(t *testing.T) {
	bin := buildPlainWorkrun(t)
	fsDir := mountSmallFS(t, "8m")
	filler := filepath.Join(fsDir, "filler")

	t.Run("failed", func(t *testing.T) {
		dir := filepath.Join(fsDir, "failed")
		flow := filepath.Join(t.TempDir(), "fill.json")
		wf := fmt.Sprintf(`{"name":"fill","state":{"out":"text"},
		"nodes":[{"id":"start","type":"start"},
		 {"id":"fill","type":"process","config":{"command":["sh","-c","cat /dev/zero > %s 2>/dev/null; echo filled; exit 1"],"timeout_seconds":60,"stdout":"out"}},
		 {"id":"end","type":"output","config":{"fields":["out"]}}],
		"edges":[{"from":"start","to":"fill"},{"from":"fill","to":"end"}]}`, filler)
		if err := os.WriteFile(flow, []byte(wf), 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bin, "--data-dir", dir, "run", flow).CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Fatalf("run on a full disk: %v, want exit 1\n%s", err, out)
		}
		if want := "interrupted (unsaved): the final state could not be saved (disk full); the run had ended failed"; !strings.Contains(string(out), want) {
			t.Fatalf("run output lacks %q:\n%s", want, out)
		}
		var runs []runJSON
		workrunJSON(t, bin, dir, &runs, "runs") // the disk is still full
		if len(runs) != 1 || runs[0].Status != "interrupted" || runs[0].Interruption != "unsaved" {
			t.Fatalf("runs on the full disk: %+v", runs)
		}
		id := runs[0].ID

		if err := os.Remove(filler); err != nil {
			t.Fatal(err)
		}
		checkUnsavedRecord(t, bin, dir, id, "the run had ended failed")
		var show struct {
			Nodes []struct {
				ID       string `json:"node_id"`
				Status   string `json:"status"`
				Messages []struct {
					Text string `json:"text"`
				} `json:"messages"`
			} `json:"nodes"`
		}
		workrunJSON(t, bin, dir, &show, "show", id)
		saved := map[string]string{}
		for _, n := range show.Nodes {
			saved[n.ID] = n.Status
			if n.ID == "start" && (len(n.Messages) == 0 || n.Messages[0].Text != "Started with no inputs") {
				t.Errorf("start's saved message is lost: %+v", n.Messages)
			}
		}
		if saved["start"] != "succeeded" {
			t.Errorf("node records after the full disk: %v", saved)
		}
	})

	t.Run("stopped", func(t *testing.T) {
		dir := filepath.Join(fsDir, "stopped")
		flow := filepath.Join(t.TempDir(), "wait.json")
		wf := `{"name":"wait","nodes":[{"id":"start","type":"start"},
		 {"id":"wait","type":"process","config":{"command":["sleep","300"],"timeout_seconds":600}}],
		"edges":[{"from":"start","to":"wait"}]}`
		if err := os.WriteFile(flow, []byte(wf), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "--data-dir", dir, "run", flow)
		var out syncBuf
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		deadline := time.Now().Add(2 * time.Minute)
		for !strings.Contains(out.String(), `Running "sleep 300"`) {
			if time.Now().After(deadline) {
				t.Fatalf("the node never ran:\n%s", out.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
		fillDisk(t, filler)
		if err := cmd.Process.Signal(os.Interrupt); err != nil { // a person's Stop
			t.Fatal(err)
		}
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Fatalf("stop on a full disk: %v, want exit 1\n%s", err, out.String())
		}
		if want := "the final state could not be saved (disk full); the run had ended stopped: stopped by the user"; !strings.Contains(out.String(), want) {
			t.Fatalf("run output lacks %q:\n%s", want, out.String())
		}
		var runs []runJSON
		workrunJSON(t, bin, dir, &runs, "runs")
		if len(runs) != 1 || runs[0].Interruption != "unsaved" || !strings.Contains(runs[0].Reason, "stopped by the user") {
			t.Fatalf("runs on the full disk: %+v", runs)
		}
		id := runs[0].ID
		if err := os.Remove(filler); err != nil {
			t.Fatal(err)
		}
		checkUnsavedRecord(t, bin, dir, id, "the run had ended stopped: stopped by the user")

		stop, err := exec.Command(bin, "--data-dir", dir, "stop", id).CombinedOutput()
		if err != nil {
			t.Fatalf("workrun stop: %v\n%s", err, stop)
		}
		var sh struct{ Run runJSON }
		workrunJSON(t, bin, dir, &sh, "show", id)
		if sh.Run.Status != "stopped" {
			t.Errorf("after workrun stop the run is %s (%s)", sh.Run.Status, sh.Run.Reason)
		}
	})
}

// checkUnsavedRecord: after space was freed, the next start saved the kept
// record (no lock file is left), it reads as interrupted because the final
// state could not be saved, and resume refuses it (exit 2), leaving it so.
func checkUnsavedRecord(t *testing.T, bin, dir, id, ended string) {
	t.Helper()
	var sh struct{ Run runJSON }
	workrunJSON(t, bin, dir, &sh, "show", id)
	r := sh.Run
	want := "the final state could not be saved (disk full); " + ended
	if r.Status != "interrupted" || r.Interruption != "unsaved" || !strings.HasPrefix(r.Reason, want) {
		t.Fatalf("after space was freed: %+v, want interrupted (unsaved) %q", r, want)
	}
	if locks, _ := filepath.Glob(filepath.Join(dir, "locks", "*.lock")); len(locks) != 0 {
		t.Errorf("kept statuses were not saved into the record: %v left", locks)
	}
	out, err := exec.Command(bin, "--data-dir", dir, "resume", id).CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), "its final state could not be saved") {
		t.Errorf("resume of the unsaved run: %v\n%s", err, out)
	}
	workrunJSON(t, bin, dir, &sh, "show", id)
	if r = sh.Run; r.Status != "interrupted" || r.Interruption != "unsaved" {
		t.Errorf("after resume was refused: %+v", r)
	}
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
