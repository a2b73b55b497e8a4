//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"workrun/a2a/a2atest"
	"workrun/store"
	"workrun/workrun"
)

// BenchmarkServeVsSDKServers is issue 37's speed check, side by side in one
// run (figures in docs/BENCHMARKS.md, "serve: a workflow as an A2A agent"):
// the real `workrun serve` process serving a hello workflow
// (start → set → output, every task and run durable in SQLite) against the
// a2a-go v2.3.1 server (serve/a2aserve/testdata/gohello) and the
// @a2a-js/sdk 1.3.0 server (a2a/testdata/jsagent/bench_hello_server.mjs),
// whose executors return the same text. One client (net/http, the same
// JSON-RPC body) for all three. Phases, each server in turn:
//
//   - blocking SendMessage p50/p99 with 1 caller (200 sends) and with 50
//     concurrent callers (20 sends each);
//
//   - 200 callers × 5 messages: every reply COMPLETED with its own text and
//     task, and for workrun one run per messageId (no loss, no duplicate);
//
//   - fsync+fdatasync calls per task of the serve process (strace -f -c on
//     every thread during 100 sequential sends), if strace is there.
//
//     go test . -run '^$' -bench ServeVsSDKServers -benchtime 1x
func BenchmarkServeVsSDKServers(b *testing.B) {
	bin := buildWorkrunB(b)
	servers := startBenchServers(b, bin)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 256}}
	seq := 0
	for range b.N {
		for _, phase := range []struct {
			name            string
			callers, eachOf int
		}{{"c1", 1, 200}, {"c50", 50, 20}} {
			for _, s := range servers {
				lat, errs := sendMany(client, s.url, fmt.Sprintf("%s-%s-%d", phase.name, s.name, seq), phase.callers, phase.eachOf)
				seq++
				if errs > 0 {
					b.Fatalf("%s %s: %d sends failed", s.name, phase.name, errs)
				}
				s.sent += phase.callers * phase.eachOf
				b.ReportMetric(pct(lat, 0.50), s.name+"-"+phase.name+"-p50-µs")
				b.ReportMetric(pct(lat, 0.99), s.name+"-"+phase.name+"-p99-µs")
				s.p50[phase.name] = pct(lat, 0.50)
			}
		}
		for _, s := range servers {
			lost, dup := manyCallers(client, s.url, fmt.Sprintf("many-%s-%d", s.name, seq), 200, 5)
			seq++
			s.sent += 1000
			b.ReportMetric(float64(lost), s.name+"-200x5-lost")
			b.ReportMetric(float64(dup), s.name+"-200x5-duplicate-tasks")
			if lost > 0 || dup > 0 {
				b.Errorf("%s 200×5: %d lost, %d duplicate tasks", s.name, lost, dup)
			}
		}
		for _, phase := range []string{"c1", "c50"} {
			b.ReportMetric(servers[0].p50[phase]/servers[1].p50[phase], "workrun/a2a-go-"+phase+"-p50-ratio")
			b.ReportMetric(servers[0].p50[phase]/servers[2].p50[phase], "workrun/a2a-js-"+phase+"-p50-ratio")
		}
		n, sent, err := fsyncsPerTask(client, servers[0], fmt.Sprintf("fsync-%d", seq), 100)
		servers[0].sent += sent
		if err != nil {
			b.Logf("fsyncs per task not measured: %v", err)
		} else {
			b.ReportMetric(n, "workrun-fsyncs/task")
		}
		seq++
	}
	// No duplicate run, no lost run: one run per messageId sent to workrun.
	w := servers[0]
	stopServe(b, w)
	st, err := store.Open(context.Background(), w.dataDir)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	runs, err := st.ListRuns(context.Background(), workrun.RunFilter{Limit: 1 << 20})
	if err != nil {
		b.Fatal(err)
	}
	ok := 0
	for _, r := range runs {
		if r.Status == workrun.RunSucceeded {
			ok++
		}
	}
	b.ReportMetric(float64(len(runs)), "workrun-runs")
	b.ReportMetric(float64(w.sent), "workrun-messages")
	if len(runs) != w.sent || ok != w.sent {
		b.Fatalf("%d messages made %d runs (%d succeeded)", w.sent, len(runs), ok)
	}
}

type benchServer struct {
	name    string
	url     string // the JSON-RPC endpoint
	cmd     *exec.Cmd
	dataDir string
	sent    int
	p50     map[string]float64
}

func buildWorkrunB(b *testing.B) string {
	b.Helper()
	d := b.TempDir()
	bin := filepath.Join(d, "workrun")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("build workrun: %v\n%s", err, out)
	}
	return bin
}

// launch starts cmd and reads its first stdout line's URL (after prefix).
func launch(b *testing.B, cmd *exec.Cmd, re *regexp.Regexp) string {
	b.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() }) //nolint:errcheck // ended already in the normal case
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		sent := false
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil && !sent {
				found <- m[1]
				sent = true
			}
		}
		if !sent {
			close(found)
		}
	}()
	select {
	case u, ok := <-found:
		if !ok {
			b.Fatalf("%s ended without its URL: %s", cmd.Path, stderr.String())
		}
		return u
	case <-time.After(60 * time.Second):
		b.Fatalf("%s printed no URL within 60 s: %s", cmd.Path, stderr.String())
	}
	return ""
}

func startBenchServers(b *testing.B, bin string) []*benchServer {
	b.Helper()
	flows := b.TempDir()
	hello := filepath.Join(flows, "hello.json")
	if err := os.WriteFile(hello, []byte(serveHello), 0o644); err != nil {
		b.Fatal(err)
	}
	data := b.TempDir()
	wcmd := exec.Command(bin, "--data-dir", data, "serve", hello)
	wcmd.Env = append(os.Environ(), "LANGUAGE=en")
	w := &benchServer{name: "workrun", cmd: wcmd, dataDir: data, p50: map[string]float64{}}
	w.url = launch(b, wcmd, regexp.MustCompile(`^a2a (\S+)$`))

	gobin := filepath.Join(b.TempDir(), "gohello")
	if out, err := exec.Command("go", "build", "-o", gobin, "./serve/a2aserve/testdata/gohello").CombinedOutput(); err != nil {
		b.Fatalf("build gohello: %v\n%s", err, out)
	}
	g := &benchServer{name: "a2a-go", cmd: exec.Command(gobin), p50: map[string]float64{}}
	g.url = launch(b, g.cmd, regexp.MustCompile(`^listening (\S+)$`))

	if !a2atest.NodeAvailable(b) {
		b.Fatal("node is needed for the @a2a-js/sdk server")
	}
	a2atest.EnsureNodeModules(b)
	jcmd := exec.Command("node", "bench_hello_server.mjs")
	jcmd.Dir = a2atest.Dir()
	stdin, err := jcmd.StdinPipe() // closed when this process ends: node exits too
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stdin.Close() })
	j := &benchServer{name: "a2a-js", cmd: jcmd, p50: map[string]float64{}}
	j.url = launch(b, jcmd, regexp.MustCompile(`^listening (\S+)$`))
	return []*benchServer{w, g, j}
}

// sendOne posts a blocking SendMessage and checks the reply's text.
func sendOne(c *http.Client, url, id, name string) (taskID string, err error) {
	body := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"` + id + `","role":"ROLE_USER","parts":[{"text":"` + name + `"}]}}}`
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "1.0")
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	var rep struct {
		Result struct {
			Task struct {
				ID     string
				Status struct{ State string }
				// Artifacts' first text part.
				Artifacts []struct {
					Parts []struct{ Text string }
				}
			}
		}
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		return "", fmt.Errorf("%s: %w", raw, err)
	}
	tk := rep.Result.Task
	if tk.Status.State != "TASK_STATE_COMPLETED" || len(tk.Artifacts) == 0 || len(tk.Artifacts[0].Parts) == 0 ||
		tk.Artifacts[0].Parts[0].Text != "Hello, "+name+"!" {
		return "", fmt.Errorf("reply %s", raw)
	}
	return tk.ID, nil
}

// sendMany runs callers goroutines of each sends and returns every latency (µs).
func sendMany(c *http.Client, url, prefix string, callers, each int) ([]float64, int) {
	var mu sync.Mutex
	var lat []float64
	errs := 0
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			for k := range each {
				id := fmt.Sprintf("%s-%d-%d", prefix, i, k)
				t0 := time.Now()
				_, err := sendOne(c, url, id, "N"+strconv.Itoa(i))
				d := float64(time.Since(t0).Microseconds())
				mu.Lock()
				if err != nil {
					errs++
				} else {
					lat = append(lat, d)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return lat, errs
}

// manyCallers: callers × each distinct messages at once; lost counts sends
// without a completed task, dup task ids given to two messages.
func manyCallers(c *http.Client, url, prefix string, callers, each int) (lost, dup int) {
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			for k := range each {
				id, err := sendOne(c, url, fmt.Sprintf("%s-%d-%d", prefix, i, k), "M"+strconv.Itoa(i))
				mu.Lock()
				switch {
				case err != nil:
					lost++
				case seen[id]:
					dup++
				default:
					seen[id] = true
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return lost, dup
}

var straceCalls = regexp.MustCompile(`(?m)^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(fsync|fdatasync)\s*$`)

// fsyncsPerTask traces every thread of the serve process for n sequential sends.
func fsyncsPerTask(c *http.Client, s *benchServer, prefix string, n int) (perTask float64, sent int, err error) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		return 0, sent, err
	}
	out := filepath.Join(os.TempDir(), fmt.Sprintf("serve-strace-%d.txt", os.Getpid()))
	defer os.Remove(out)
	// -f with -p attaches every thread of the process, and new ones.
	cmd := exec.Command(strace, "-f", "-c", "-e", "trace=fsync,fdatasync", "-o", out, "-p", strconv.Itoa(s.cmd.Process.Pid))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return 0, sent, err
	}
	time.Sleep(500 * time.Millisecond) // attached
	for k := range n {
		sent++
		if _, err := sendOne(c, s.url, fmt.Sprintf("%s-%d", prefix, k), "F"); err != nil {
			cmd.Process.Kill() //nolint:errcheck // the measurement failed anyway
			cmd.Wait()         //nolint:errcheck // killed
			return 0, sent, err
		}
	}
	time.Sleep(300 * time.Millisecond) // the last commit's fsync
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		return 0, sent, err
	}
	// strace ends by the SIGINT it was sent (exit status "interrupt").
	if err := cmd.Wait(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != -1 {
			return 0, sent, fmt.Errorf("strace: %w: %s", err, stderr.String())
		}
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		return 0, sent, err
	}
	total := 0
	for _, m := range straceCalls.FindAllStringSubmatch(string(raw), -1) {
		k, _ := strconv.Atoi(m[1])
		total += k
	}
	if total == 0 {
		return 0, sent, fmt.Errorf("strace saw no fsync: %s", raw)
	}
	return float64(total) / float64(n), sent, nil
}

func stopServe(b *testing.B, s *benchServer) {
	b.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		b.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		b.Fatal("workrun serve did not stop on SIGTERM")
	}
}

func pct(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(q * float64(len(s)-1))
	return s[i]
}
