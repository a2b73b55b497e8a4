package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/mcp"
	"workrun/nodes/askhuman"
	"workrun/nodes/condition"
	"workrun/nodes/humanreview"
	"workrun/nodes/join"
	"workrun/nodes/output"
	"workrun/nodes/process"
	"workrun/nodes/remoteagent"
	"workrun/nodes/set"
	"workrun/nodes/start"
	"workrun/store"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

func localKinds() []workrun.Kind {
	return []workrun.Kind{start.Kind{}, set.Kind{}, condition.Kind{}, join.Kind{}, output.Kind{},
		humanreview.Kind{}, askhuman.Kind{}, process.Kind{}}
}

// fakeArtifacts is a function-field ArtifactStore.
type fakeArtifacts struct {
	PutFunc  func(ctx context.Context, name, declaredType string, r io.Reader, runID, nodeID string) (workrun.ArtifactInfo, error)
	StatFunc func(ctx context.Context, id string) (workrun.ArtifactInfo, error)
}

func (f *fakeArtifacts) Put(ctx context.Context, name, declaredType string, r io.Reader, runID, nodeID string) (workrun.ArtifactInfo, error) {
	return f.PutFunc(ctx, name, declaredType, r, runID, nodeID)
}
func (f *fakeArtifacts) Stat(ctx context.Context, id string) (workrun.ArtifactInfo, error) {
	return f.StatFunc(ctx, id)
}
func (f *fakeArtifacts) Open(ctx context.Context, id string) (io.ReadCloser, workrun.ArtifactInfo, error) {
	return nil, workrun.ArtifactInfo{}, workrun.ErrNotFound
}

// memServices is one in-memory data directory shared by several commands,
// the way one SQLite file is shared by several invocations.
type memServices struct {
	runs   *workruntest.MemStore
	arts   *fakeArtifacts
	engine *workrun.Engine
}

func newMemServices() *memServices {
	ms := &memServices{runs: workruntest.NewMemStore()}
	var mu sync.Mutex
	blobs := map[string]workrun.ArtifactInfo{}
	ms.arts = &fakeArtifacts{
		PutFunc: func(ctx context.Context, name, _ string, r io.Reader, runID, nodeID string) (workrun.ArtifactInfo, error) {
			b, err := io.ReadAll(r)
			if err != nil {
				return workrun.ArtifactInfo{}, err
			}
			mu.Lock()
			defer mu.Unlock()
			info := workrun.ArtifactInfo{ID: fmt.Sprintf("art-%d", len(blobs)+1), Name: name, MediaType: "text/plain", Size: int64(len(b))}
			blobs[info.ID] = info
			return info, nil
		},
		StatFunc: func(ctx context.Context, id string) (workrun.ArtifactInfo, error) {
			mu.Lock()
			defer mu.Unlock()
			info, ok := blobs[id]
			if !ok {
				return workrun.ArtifactInfo{}, workrun.ErrNotFound
			}
			return info, nil
		},
	}
	return ms
}

// deps opens a fresh engine over the shared store each time, like a new
// process would.
func (ms *memServices) deps() Deps {
	return Deps{Version: "test", Open: func(ctx context.Context, dataDir string) (*Services, error) {
		e := workrun.NewEngine(ms.runs, ms.arts, localKinds()...)
		e.AbortTimeout = 5 * time.Second
		ms.engine = e
		return &Services{DataDir: dataDir, Runs: ms.runs, Artifacts: ms.arts, Engine: e, Close: func() error { return nil }}, nil
	}}
}

func example(name string) string { return filepath.Join("..", "examples", name) }

func writeFlow(t *testing.T, wf string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "flow.json")
	if err := os.WriteFile(p, []byte(wf), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// jsonLines decodes --json output, one object per line.
func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	for line := range strings.Lines(out) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not a JSON line: %q: %v", line, err)
		}
		objs = append(objs, m)
	}
	if len(objs) == 0 {
		t.Fatal("no JSON output")
	}
	return objs
}

func TestRunHelloPrintsMessagesAndSucceeds(t *testing.T) {
	ms := newMemServices()
	res := runMain(t, []string{"--data-dir", t.TempDir(), "run", example("hello.json"), "--input", "name=Ada"}, nil, ms.deps())
	if res.Code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.Code, res.Stdout, res.Stderr)
	}
	for _, want := range []string{"[greet] succeeded", "[end] message: Hello, Ada!", " succeeded\n"} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, res.Stdout)
		}
	}
}

func TestRunJSONEndsWithRunIDAndStatus(t *testing.T) {
	ms := newMemServices()
	res := runMain(t, []string{"run", "--json", example("hello.json"), "--input=name=Ada", "--data-dir", t.TempDir()}, nil, ms.deps())
	if res.Code != ExitOK {
		t.Fatalf("exit %d: %s", res.Code, res.Stderr)
	}
	objs := jsonLines(t, res.Stdout)
	last := objs[len(objs)-1]
	runID, _ := last["run_id"].(string)
	if diff := cmp.Diff(map[string]any{"run_id": runID, "status": "succeeded"}, last); diff != "" || runID == "" {
		t.Errorf("last line (-want +got):\n%s", diff)
	}
	var types []string
	for _, o := range objs[:len(objs)-1] {
		types = append(types, o["type"].(string))
		if o["run_id"] != runID {
			t.Errorf("event of another run: %v", o)
		}
	}
	if types[0] != "run" || !strings.Contains(strings.Join(types, ","), "message") || !strings.Contains(strings.Join(types, ","), "node") {
		t.Errorf("event types %v", types)
	}
}

func TestRunExitCodes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want int
		text string // in stdout or stderr
	}{
		{"failing process", []string{"run", example("failing-process.json")}, ExitFailed, "failed at node fail"},
		{"interrupted for review", []string{"run", example("review.json"), "--input", "draft=hi"}, ExitInterrupted, "decide with: workrun review "},
		{"branches", []string{"run", example("branches.json"), "--input", "score=7"}, ExitOK, "[low] skipped"},
		{"invalid workflow", []string{"run", writeFlow(t, `{"name":"x","state":{},"nodes":[{"id":"s","type":"start"},{"id":"x","type":"nope"}],"edges":[{"from":"s","to":"x"}]}`)}, ExitUsage, `node "x": unknown node type "nope"`},
		{"not a workflow file", []string{"run", writeFlow(t, `{"nodes": 3}`)}, ExitUsage, "is not a workflow file"},
		{"bad input type", []string{"run", example("branches.json"), "--input", "score=high"}, ExitUsage, "not a number value"},
		{"unknown input", []string{"run", example("hello.json"), "--input", "nobody=1"}, ExitUsage, `no State field "nobody"`},
		{"no file", []string{"run"}, ExitUsage, "exactly one workflow file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ms := newMemServices()
			res := runMain(t, append([]string{"--data-dir", t.TempDir()}, tc.args...), nil, ms.deps())
			if res.Code != tc.want {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", res.Code, tc.want, res.Stdout, res.Stderr)
			}
			if tc.name == "interrupted for review" && !strings.Contains(res.Stdout, " review approve|reject") {
				t.Errorf("the hint does not name the waiting node:\n%s", res.Stdout)
			}
			if !strings.Contains(res.Stdout+res.Stderr, tc.text) {
				t.Errorf("output lacks %q:\nstdout:\n%s\nstderr:\n%s", tc.text, res.Stdout, res.Stderr)
			}
			// "stopping…" is for a person's Stop, never a failure's hooks.
			if strings.Contains(res.Stdout+res.Stderr, "stopping") {
				t.Errorf("output says stopping without a Stop:\n%s\n%s", res.Stdout, res.Stderr)
			}
		})
	}
}

func lastRunID(t *testing.T, ms *memServices) string {
	t.Helper()
	runs, err := ms.runs.ListRuns(t.Context(), workrun.RunFilter{})
	if err != nil || len(runs) == 0 {
		t.Fatalf("no runs: %v", err)
	}
	return runs[0].ID
}

func TestReviewApproveAndReject(t *testing.T) {
	for _, tc := range []struct {
		verdict string
		want    int
		text    string
	}{{"approve", ExitOK, "succeeded"}, {"reject", ExitFailed, "rejected by the reviewer: too short"}} {
		t.Run(tc.verdict, func(t *testing.T) {
			ms := newMemServices()
			dir := t.TempDir()
			res := runMain(t, []string{"--data-dir", dir, "run", example("review.json"), "--input", "draft=hi"}, nil, ms.deps())
			if res.Code != ExitInterrupted {
				t.Fatalf("run: exit %d: %s %s", res.Code, res.Stdout, res.Stderr)
			}
			id := lastRunID(t, ms)
			res = runMain(t, []string{"--data-dir", dir, "review", id, "review", tc.verdict, "--comment", "too short"}, nil, ms.deps())
			if res.Code != tc.want || !strings.Contains(res.Stdout, tc.text) {
				t.Fatalf("review %s: exit %d, want %d with %q\n%s\n%s", tc.verdict, res.Code, tc.want, tc.text, res.Stdout, res.Stderr)
			}
			// Once decided, the node is no longer waiting.
			res = runMain(t, []string{"--data-dir", dir, "review", id, "review", "approve"}, nil, ms.deps())
			if res.Code != ExitUsage {
				t.Errorf("second review: exit %d: %s", res.Code, res.Stderr)
			}
		})
	}
}

func TestAnswerFillsTheField(t *testing.T) {
	ms := newMemServices()
	dir := t.TempDir()
	flow := writeFlow(t, `{"name":"ask","state":{"reply":"text"},
		"nodes":[{"id":"start","type":"start"},{"id":"ask","type":"ask_human","config":{"prompt":"Your name?","field":"reply"}},
		         {"id":"end","type":"output","config":{"fields":["reply"]}}],
		"edges":[{"from":"start","to":"ask"},{"from":"ask","to":"end"}]}`)
	if res := runMain(t, []string{"--data-dir", dir, "run", flow}, nil, ms.deps()); res.Code != ExitInterrupted {
		t.Fatalf("run: exit %d: %s", res.Code, res.Stderr)
	}
	id := lastRunID(t, ms)
	res := runMain(t, []string{"--data-dir", dir, "answer", "--json", id, "ask", "Grace", "Hopper"}, nil, ms.deps())
	if res.Code != ExitOK {
		t.Fatalf("answer: exit %d: %s %s", res.Code, res.Stdout, res.Stderr)
	}
	if !strings.Contains(res.Stdout, `"text":"reply: Grace Hopper"`) {
		t.Errorf("output lacks the answer:\n%s", res.Stdout)
	}
}

func TestRunsAndShow(t *testing.T) {
	ms := newMemServices()
	dir := t.TempDir()
	note := filepath.Join(t.TempDir(), "note.txt")
	if err := os.WriteFile(note, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	flow := writeFlow(t, `{"name":"files","state":{"doc":"file"},
		"nodes":[{"id":"start","type":"start"},{"id":"p","type":"process","config":{"command":["sh","-c","echo oops >&2; exit 3"]}}],
		"edges":[{"from":"start","to":"p"}]}`)
	res := runMain(t, []string{"--data-dir", dir, "run", flow, "--file", "doc=" + note}, nil, ms.deps())
	if res.Code != ExitFailed {
		t.Fatalf("exit %d: %s", res.Code, res.Stderr)
	}
	id := lastRunID(t, ms)

	res = runMain(t, []string{"--data-dir", dir, "runs", "--json"}, nil, ms.deps())
	var rows []map[string]any
	if err := json.Unmarshal([]byte(res.Stdout), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("runs --json: %v %s", err, res.Stdout)
	}
	if rows[0]["id"] != id || rows[0]["status"] != "failed" || rows[0]["failed_node"] != "p" {
		t.Errorf("runs row %v", rows[0])
	}

	res = runMain(t, []string{"--data-dir", dir, "show", id, "--json"}, nil, ms.deps())
	var shown shownRun
	if err := json.Unmarshal([]byte(res.Stdout), &shown); err != nil {
		t.Fatalf("show --json: %v\n%s", err, res.Stdout)
	}
	if shown.Run.Status != workrun.RunFailed || shown.Run.FailedNode != "p" || !strings.Contains(shown.Run.Reason, "exit status 3: oops") {
		t.Errorf("run %+v", shown.Run)
	}
	if len(shown.Nodes) != 2 || shown.Nodes[1].Status != workrun.NodeFailed || len(shown.Nodes[1].Messages) == 0 {
		t.Errorf("nodes %+v", shown.Nodes)
	}
	if len(shown.Artifacts) != 1 || shown.Artifacts[0].Name != "note.txt" {
		t.Errorf("artifacts %+v", shown.Artifacts)
	}

	res = runMain(t, []string{"--data-dir", dir, "show", id}, nil, ms.deps())
	for _, want := range []string{"Status: failed", "Failed node: p", "p (process): failed", "note.txt"} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("show lacks %q:\n%s", want, res.Stdout)
		}
	}
	if res := runMain(t, []string{"--data-dir", dir, "show", "no-such-run"}, nil, ms.deps()); res.Code != ExitUsage {
		t.Errorf("show of a missing run: exit %d", res.Code)
	}
	if res := runMain(t, []string{"--data-dir", dir, "resume", id}, nil, ms.deps()); res.Code != ExitUsage || !strings.Contains(res.Stderr, "cannot be resumed") {
		t.Errorf("resume of a failed run: exit %d %s", res.Code, res.Stderr)
	}
}

// TestSIGINTStopsTheRun: SIGINT means Stop; the cleanup of a finished
// process node runs (bounded) and the exit status is 4.
func TestSIGINTStopsTheRun(t *testing.T) {
	ms := newMemServices()
	dir := t.TempDir()
	marker := filepath.Join(t.TempDir(), "cleanup")
	flow := writeFlow(t, fmt.Sprintf(`{"name":"stop","state":{},
		"nodes":[{"id":"start","type":"start"},
		  {"id":"make","type":"process","config":{"command":["true"],"cleanup":["sh","-c","echo x >> %s"]}},
		  {"id":"wait","type":"process","config":{"command":["sleep","30"]}}],
		"edges":[{"from":"start","to":"make"},{"from":"make","to":"wait"}]}`, marker))
	var stdout, stderr syncBuffer
	done := make(chan int)
	go func() {
		stdio := Stdio{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}
		done <- Main(context.Background(), []string{"--data-dir", dir, "run", flow}, stdio, ms.deps())
	}()
	// followRun installs its SIGINT handler before it prints the run's first
	// line, so a line on stdout means a SIGINT now stops the run.
	deadline := time.Now().Add(10 * time.Second)
	for {
		runs, _ := ms.runs.ListRuns(context.Background(), workrun.RunFilter{})
		if len(runs) == 1 && stdout.String() != "" {
			recs, _ := ms.runs.NodeRuns(context.Background(), runs[0].ID)
			if len(recs) == 3 && recs[2].Status == workrun.NodeRunning {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the sleep node never started or nothing was printed; stdout %q", stdout.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	res := result{Code: <-done, Stdout: stdout.String(), Stderr: stderr.String()}
	if res.Code != ExitStopped {
		t.Fatalf("exit %d, want %d\n%s\n%s", res.Code, ExitStopped, res.Stdout, res.Stderr)
	}
	if !strings.Contains(res.Stdout+res.Stderr, "stopping…") {
		t.Errorf("a stop by the user does not say stopping…:\n%s\n%s", res.Stdout, res.Stderr)
	}
	b, _ := os.ReadFile(marker)
	if got := strings.Count(string(b), "\n"); got != 1 {
		t.Errorf("cleanup ran %d times, want 1", got)
	}
}

// --- resume after a real exit ---------------------------------------------

const runnerEnv = "WORKRUN_TEST_RUNNER"

// TestMain hosts the stdio guard (the examples run a Tool App in this
// process) and turns the test binary into a workrun runner process when
// WORKRUN_TEST_RUNNER is set: the same CLI over the real SQLite store.
func TestMain(m *testing.M) {
	mcp.RunStdioGuard()
	if os.Getenv(runnerEnv) == "1" {
		args := strings.Split(os.Getenv("WORKRUN_TEST_ARGS"), "\x1f")
		os.Exit(Main(context.Background(), args, Stdio{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, realDeps()))
	}
	os.Exit(m.Run())
}

func realDeps() Deps {
	return Deps{Version: "test", Open: func(ctx context.Context, dataDir string) (*Services, error) {
		st, err := store.Open(ctx, dataDir)
		if err != nil {
			return nil, err
		}
		e := workrun.NewEngine(st, nil, append(localKinds(), remoteagent.New(remoteagent.Deps{Calls: st}))...)
		return &Services{DataDir: dataDir, Runs: st, Workflows: st, Engine: e, RemoteCalls: st, RunArtifacts: st, Close: st.Close}, nil
	}}
}

func TestResumeAfterRealExitDoesNotRerunFinishedNodes(t *testing.T) {
	dir := t.TempDir()
	marks := t.TempDir()
	count := func(name string) int {
		b, _ := os.ReadFile(filepath.Join(marks, name))
		return strings.Count(string(b), "\n")
	}
	// b sleeps only the first time it runs, so the runner is killed inside it.
	flow := writeFlow(t, fmt.Sprintf(`{"name":"crash","state":{"out":"text"},
		"nodes":[{"id":"start","type":"start"},
		  {"id":"a","type":"process","config":{"command":["sh","-c","echo a >> %[1]s/a; echo A"],"stdout":"out"}},
		  {"id":"b","type":"process","config":{"command":["sh","-c","echo b >> %[1]s/b; if [ ! -e %[1]s/b.slept ]; then touch %[1]s/b.slept; sleep 60; fi"]}},
		  {"id":"c","type":"output","config":{"fields":["out"]}}],
		"edges":[{"from":"start","to":"a"},{"from":"a","to":"b"},{"from":"b","to":"c"}]}`, marks))

	cmd, runID := startRunner(t, dir, flow)
	deadline := time.Now().Add(20 * time.Second)
	// b.slept, not b's first line: killed between the two, b would sleep
	// again when resumed.
	for _, err := os.Stat(filepath.Join(marks, "b.slept")); err != nil; _, err = os.Stat(filepath.Join(marks, "b.slept")) {
		if time.Now().After(deadline) {
			t.Fatalf("node b never started; stderr: %s", cmd.Stderr) // a *bytes.Buffer
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	// The next start: resume with a new process's engine over the same file.
	res := runMain(t, []string{"--data-dir", dir, "resume", runID}, nil, realDeps())
	if res.Code != ExitOK {
		t.Fatalf("resume: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	if got := count("a"); got != 1 {
		t.Errorf("finished node a ran %d times, want 1", got)
	}
	if got := count("b"); got != 2 {
		t.Errorf("interrupted node b ran %d times, want 2 (once before the kill, once resumed)", got)
	}
	if !strings.Contains(res.Stdout, "[c] out: A") {
		t.Errorf("State was not rebuilt from a's saved output:\n%s", res.Stdout)
	}
	res = runMain(t, []string{"--data-dir", dir, "show", "--json", runID}, nil, realDeps())
	var shown shownRun
	if err := json.Unmarshal([]byte(res.Stdout), &shown); err != nil {
		t.Fatal(err)
	}
	if shown.Run.Status != workrun.RunSucceeded {
		t.Errorf("run %s after resume", shown.Run.Status)
	}
}

// TestCleanupSurvivesTheRunnerProcess (docs/remote-agent.md R17): a process node succeeded, the
// run then waited for a review and `workrun run` exited; a reject given by
// another invocation fails the run and the cleanup runs exactly once; an
// approve never runs it.
func TestCleanupSurvivesTheRunnerProcess(t *testing.T) {
	for _, tc := range []struct {
		verdict string
		want    int
		runs    int
	}{{"reject", ExitFailed, 1}, {"approve", ExitOK, 0}} {
		t.Run(tc.verdict, func(t *testing.T) {
			ms := newMemServices()
			dir := t.TempDir()
			marker := filepath.Join(t.TempDir(), "cleanup")
			flow := writeFlow(t, fmt.Sprintf(`{"name":"c","state":{"what":"text"},
				"nodes":[{"id":"start","type":"start"},
				  {"id":"make","type":"process","config":{"command":["true"],"cleanup":["sh","-c","echo {{what}} >> %s"]}},
				  {"id":"review","type":"human_review","config":{"prompt":"ok?"}}],
				"edges":[{"from":"start","to":"make"},{"from":"make","to":"review"}]}`, marker))
			if res := runMain(t, []string{"--data-dir", dir, "run", flow, "--input", "what=bucket"}, nil, ms.deps()); res.Code != ExitInterrupted {
				t.Fatalf("run: exit %d: %s", res.Code, res.Stderr)
			}
			id := lastRunID(t, ms)
			res := runMain(t, []string{"--data-dir", dir, "review", id, "review", tc.verdict}, nil, ms.deps())
			if res.Code != tc.want {
				t.Fatalf("review: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
			}
			b, _ := os.ReadFile(marker)
			if got := strings.Count(string(b), "bucket\n"); got != tc.runs {
				t.Errorf("cleanup ran %d times, want %d", got, tc.runs)
			}
		})
	}
}
