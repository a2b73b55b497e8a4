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
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"workrun/a2a/demoagent"
	"workrun/store"
	"workrun/workrun"
)

// serveMCPRelay is a published workflow whose one node is a remote call:
// a Remote Agent node asking the demo agent, which hangs on "hang" until
// it is cancelled. Served as an MCP tool, its tasks/cancel must reach that
// inner call exactly once.
func serveMCPRelay(agentURL string) string {
	return `{"name":"Relay","state":{"q":"text","a":"text"},"publish":{"inputs":["q"],"outputs":["a"]},
 "nodes":[{"id":"start","type":"start"},{"id":"ask","type":"remote_agent","config":{"url":"` + agentURL + `","inputs":["q"],"output":"a","timeout_seconds":120}}],
 "edges":[{"from":"start","to":"ask"}]}`
}

// serveMCPLong works long enough to be killed mid-run however slow the
// client is to start, and completes after a restart.
const serveMCPLong = `{"name":"Long","state":{"out":"text"},"publish":{"outputs":["out"]},
 "nodes":[{"id":"start","type":"start"},{"id":"wait","type":"process","config":{"command":["sh","-c","echo started; sleep 10; echo done"],"stdout":"out"}}],
 "edges":[{"from":"start","to":"wait"}]}`

// mcpURLOf is the served MCP endpoint (docs/serve.md M1: BASE/mcp beside
// the a2a URLs).
func mcpURLOf(t *testing.T, s *served) string {
	t.Helper()
	for _, u := range s.urls {
		if i := strings.Index(u, "/a2a/"); i > 0 {
			return u[:i] + "/mcp"
		}
	}
	t.Fatal("serve printed no a2a URL")
	return ""
}

// tsClientDir is the TypeScript SDK v2 client's folder; its node_modules
// come from npm ci (scripts/test.sh).
func tsClientDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("serve", "testdata", "tsclient"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		missing(t, "node is needed for the TypeScript SDK client: "+err.Error())
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "client", "package.json")); err != nil {
		missing(t, "the TypeScript SDK client is not installed (npm ci in serve/testdata/tsclient): "+err.Error())
	}
	return dir
}

// tsResult is one JSON line client.mjs prints.
type tsResult struct {
	Kind, TaskID, Status, Text, Snapshot string
	IsError                              bool
	Asked                                []string
}

// tsClient runs client.mjs to its end and returns its last line.
func tsClient(t *testing.T, dir string, args ...string) tsResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{"client.mjs"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("client.mjs %v: %v\n%s\n%s", args, err, out, stderr)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var r tsResult
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &r); err != nil {
		t.Fatalf("client.mjs %v printed %q: %v", args, out, err)
	}
	return r
}

// servedTask reads the served task (and its run) from serve's data
// directory.
func servedTask(t *testing.T, dataDir, id string) (workrun.ServedTask, workrun.Run) {
	t.Helper()
	st, err := store.Open(t.Context(), dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	task, err := st.ServedTask(t.Context(), id)
	if err != nil {
		t.Fatalf("served task %s: %v", id, err)
	}
	run, err := st.GetRun(t.Context(), task.RunID)
	if err != nil {
		t.Fatal(err)
	}
	return task, run
}

// nodeRunning reports whether the run's node is saved running.
func nodeRunning(t *testing.T, dataDir, runID, node string) bool {
	t.Helper()
	st, err := store.Open(t.Context(), dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	recs, err := st.NodeRuns(t.Context(), runID)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.NodeID == node && r.Status == workrun.NodeRunning {
			return true
		}
	}
	return false
}

// demoCancels counts the CancelTask calls the demo agent got.
func demoCancels(a *demoagent.Server) int {
	n := 0
	for _, k := range a.Stats().Cancels {
		n += k
	}
	return n
}

// TestServeMCPClients is issue 38's client proof against the real
// `workrun serve` binary, both revisions: the TypeScript SDK v2 client
// (@modelcontextprotocol/client 2.4.0 with @modelcontextprotocol/ext-tasks
// 0.2.2, serve/testdata/tsclient/client.mjs) runs a long workflow as a task
// to completion, cancels one whose inner remote call then gets exactly one
// cancel, answers a Human Review (2025-11-25: elicitation on the stream;
// 2026-07-28: the task's input_required, answered by tasks/update), and
// after SIGKILL and a restart of serve reads the task (tasks/get) and its
// result from the resumed run. Workrun's own Remote MCP Tool node (a
// `workrun run` of a remote_mcp flow) calls a served workflow as a task to
// completion, and a Stop of that run cancels the served task down to its
// inner remote call, once.
func TestServeMCPClients(t *testing.T) {
	bin := buildWorkrun(t)
	flows := t.TempDir()
	slow := writeFlow(t, flows, "slow.json", serveSlow)
	review := writeFlow(t, flows, "review.json", serveReview)
	long := writeFlow(t, flows, "long.json", serveMCPLong)

	for _, rev := range []string{"2025-11-25", "2026-07-28"} {
		t.Run("TypeScriptSDK/"+rev, func(t *testing.T) {
			dir := tsClientDir(t)
			agent := demoagent.New(demoagent.Options{})
			agentURL, stopAgent, err := agent.Start("127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(stopAgent)
			relay := writeFlow(t, t.TempDir(), "relay.json", serveMCPRelay(agentURL))
			data := t.TempDir()
			s := startServe(t, bin, data, slow, review, relay, long)
			url := mcpURLOf(t, s)

			// A long workflow as a task, to completion.
			r := tsClient(t, dir, rev, url, "complete", "slow", `{}`)
			if r.Kind != "task" || r.Status != "completed" || r.Text != "started\ndone" || r.IsError {
				t.Fatalf("slow: %+v", r)
			}
			if task, run := servedTask(t, data, r.TaskID); run.Status != workrun.RunSucceeded || task.Publication != "slow" {
				t.Fatalf("slow's run: %s %+v", run.Status, task)
			}

			// A Human Review answered through the client.
			r = tsClient(t, dir, rev, url, "review", "review", `{"draft":"D"}`)
			if r.Status != "completed" || r.Text != "Published: D" || len(r.Asked) != 1 || r.Asked[0] != "Publish this draft?" {
				t.Fatalf("review: %+v", r)
			}

			// tasks/cancel stops the run; its inner remote call gets one cancel.
			ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "node", "client.mjs", rev, url, "cancel", "relay", `{"q":"hang"}`)
			cmd.Dir = dir
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := bufio.NewScanner(stdout)
			var first, last tsResult
			if !lines.Scan() || json.Unmarshal(lines.Bytes(), &first) != nil || first.Kind != "task" {
				cmd.Wait() //nolint:errcheck // failed already
				t.Fatalf("cancel: first line %q: %s", lines.Text(), stderr.String())
			}
			waitFor(t, 60*time.Second, "the demo agent to get the relayed message", func() bool { return len(agent.Stats().Submissions) == 1 })
			// The inner call is cancelable once its task id is saved: a Stop
			// before that is "submission result unknown", no cancel
			// (docs/remote-agent.md R9).
			waitFor(t, 60*time.Second, "the relay's inner call to save the agent's task id", func() bool {
				_, run := servedTask(t, data, first.TaskID)
				return innerTaskSaved(t, data, run.ID)
			})
			io.WriteString(stdin, "cancel\n") //nolint:errcheck // a broken pipe shows in the outcome
			stdin.Close()
			if !lines.Scan() || json.Unmarshal(lines.Bytes(), &last) != nil {
				cmd.Wait() //nolint:errcheck // failed already
				t.Fatalf("cancel: last line %q: %s", lines.Text(), stderr.String())
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("cancel: %v %s", err, stderr.String())
			}
			if last.Status != "cancelled" {
				t.Fatalf("cancel: outcome %+v", last)
			}
			for deadline := time.Now().Add(30 * time.Second); demoCancels(agent) == 0; time.Sleep(50 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("no cancel reached the demo agent within 30 s; the relay's run:\n%s", runStory(t, data, first.TaskID))
				}
			}
			time.Sleep(time.Second) // a second cancel would come now
			if n := demoCancels(agent); n != 1 {
				t.Fatalf("the inner remote call got %d cancels, want 1 (%v)", n, agent.Stats().Cancels)
			}
			if _, run := servedTask(t, data, first.TaskID); run.Status != workrun.RunStopped {
				t.Fatalf("relay's run after tasks/cancel: %s", run.Status)
			}

			// SIGKILL mid-run, restart: tasks/get answers, the run resumes.
			started := tsClient(t, dir, rev, url, "start", "long", `{}`)
			if started.Kind != "task" || started.TaskID == "" {
				t.Fatalf("start: %+v", started)
			}
			_, run := servedTask(t, data, started.TaskID)
			waitFor(t, 60*time.Second, "long's process node to run", func() bool { return nodeRunning(t, data, run.ID, "wait") })
			if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			s.cmd.Wait() //nolint:errcheck // killed
			s2 := startServe(t, bin, data, slow, review, relay, long)
			got := tsClient(t, dir, rev, mcpURLOf(t, s2), "get", started.TaskID)
			if got.Status != "completed" || got.Text != "started\ndone" {
				t.Fatalf("after restart: %+v", got)
			}
			if _, run := servedTask(t, data, started.TaskID); run.Status != workrun.RunSucceeded {
				t.Fatalf("the killed run after restart: %s", run.Status)
			}
		})
	}

	// The node detects the revision (docs/remote-mcp.md M2): against serve
	// it speaks 2026-07-28; behind a gateway that knows only 2025-11-25 (it
	// refuses server/discover) the same node falls back to initialize and a
	// session.
	for _, rev := range []string{"2026-07-28", "2025-11-25"} {
		t.Run("RemoteMCPToolNode/"+rev, func(t *testing.T) { testServedToolFromNode(t, bin, slow, rev) })
	}
}

// legacyGateway is a reverse proxy in front of an MCP endpoint that
// forwards 2025-11-25 traffic and answers server/discover 404, as a
// gateway built before 2026-07-28 does.
func legacyGateway(t *testing.T, target string) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
	proxy.FlushInterval = -1 // SSE goes through as it comes
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			var msg struct {
				Method string `json:"method"`
			}
			if json.Unmarshal(body, &msg) == nil && msg.Method == "server/discover" {
				http.NotFound(w, r)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		r.Host = u.Host // serve guards its loopback listener by Host
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + u.Path
}

func testServedToolFromNode(t *testing.T, bin, slow, rev string) {
	{
		agent := demoagent.New(demoagent.Options{})
		agentURL, stopAgent, err := agent.Start("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stopAgent)
		relay := writeFlow(t, t.TempDir(), "relay.json", serveMCPRelay(agentURL))
		data := t.TempDir()
		s := startServe(t, bin, data, slow, relay)
		endpoint := mcpURLOf(t, s)
		if rev == "2025-11-25" {
			endpoint = legacyGateway(t, endpoint)
		}
		caller := func(tool, args string) string {
			return writeFlow(t, t.TempDir(), "call.json", `{"name":"Call","state":{"a":"text"},
 "nodes":[{"id":"start","type":"start"},{"id":"call","type":"remote_mcp","config":{"url":"`+endpoint+`","tool":"`+tool+`","arguments":`+args+`,"output":"a","timeout_seconds":120}},
  {"id":"end","type":"output","config":{"fields":["a"]}}],
 "edges":[{"from":"start","to":"call"},{"from":"call","to":"end"}]}`)
		}

		// A long workflow as a task, to completion.
		cmd := exec.Command(bin, "--data-dir", t.TempDir(), "run", caller("slow", `{}`), "--json")
		cmd.Env = append(os.Environ(), "LANGUAGE=en")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), `"status":"succeeded"`) || !strings.Contains(string(out), `started\ndone`) {
			t.Fatalf("run: %v\n%s", err, out)
		}
		if want := "(MCP " + rev; !strings.Contains(string(out), want) {
			t.Fatalf("the node did not speak %s (no %q in its messages):\n%s", rev, want, out)
		}
		var tasks int
		for _, r := range runsIn(t, data) {
			if r.Status != workrun.RunSucceeded {
				t.Fatalf("served run %s: %s", r.ID, r.Status)
			}
			tasks++
		}
		if tasks != 1 {
			t.Fatalf("%d served runs for one call", tasks)
		}

		// Stop (SIGINT) of the calling run: the node's cancel stops the
		// served task, whose inner remote call gets one cancel.
		callData := t.TempDir()
		cmd = exec.Command(bin, "--data-dir", callData, "run", caller("relay", `{"q":"hang"}`), "--json")
		cmd.Env = append(os.Environ(), "LANGUAGE=en")
		var runOut strings.Builder
		cmd.Stderr = &runOut
		pipe, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() }) //nolint:errcheck // ended already in the normal case
		// The node knows the served task once its own message says "accepted (session …)"
		// (a tools/call answered resultType "task" after serve's sync bound).
		accepted := make(chan struct{})
		lines := make(chan string, 1024)
		go func() {
			defer close(lines)
			sc := bufio.NewScanner(pipe)
			seen := false
			for sc.Scan() {
				if !seen && strings.Contains(sc.Text(), "accepted (session") {
					seen = true
					close(accepted)
				}
				lines <- sc.Text()
			}
		}()
		waitFor(t, 60*time.Second, "the demo agent to get the relayed message", func() bool { return len(agent.Stats().Submissions) == 1 })
		select {
		case <-accepted:
		case <-time.After(60 * time.Second):
			t.Fatal("the Remote MCP Tool node never got the served task")
		}
		waitFor(t, 60*time.Second, "the relay's inner call to save the agent's task id", func() bool {
			for _, r := range runsIn(t, data) {
				if r.Status == workrun.RunRunning && innerTaskSaved(t, data, r.ID) {
					return true
				}
			}
			return false
		})
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		for l := range lines {
			runOut.WriteString(l + "\n")
		}
		err = cmd.Wait()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 4 {
			t.Fatalf("the stopped run: %v (want exit 4)\n%s", err, runOut.String())
		}
		for deadline := time.Now().Add(30 * time.Second); demoCancels(agent) == 0; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				var served []string
				for _, r := range runsIn(t, data) {
					served = append(served, r.WorkflowName+" "+string(r.Status))
				}
				t.Fatalf("no cancel reached the demo agent within 30 s; served runs %v; serve: %s\ncalling run:\n%s", served, s.err.String(), runOut.String())
			}
		}
		time.Sleep(time.Second) // a second cancel would come now
		if n := demoCancels(agent); n != 1 {
			t.Fatalf("the inner remote call got %d cancels, want 1 (%v)", n, agent.Stats().Cancels)
		}
		var stopped int
		for _, r := range runsIn(t, data) {
			if r.Status == workrun.RunStopped {
				stopped++
			}
		}
		if stopped != 1 {
			t.Fatalf("%d served runs stopped, want 1 (the relay's)", stopped)
		}
	}
}

// innerTaskSaved reports whether a remote call of run has saved the task id
// its agent gave it (only then can a Stop cancel it).
func innerTaskSaved(t *testing.T, dataDir, runID string) bool {
	t.Helper()
	st, err := store.Open(t.Context(), dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cs, err := st.RemoteCallsForRun(t.Context(), runID)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if c.TaskID != "" {
			return true
		}
	}
	return false
}

// runStory is a served task's run as a failure message shows it: its
// status, its node messages and its remote call records.
func runStory(t *testing.T, dataDir, taskID string) string {
	t.Helper()
	_, run := servedTask(t, dataDir, taskID)
	st, err := store.Open(t.Context(), dataDir)
	if err != nil {
		return err.Error()
	}
	defer st.Close()
	var b strings.Builder
	fmt.Fprintf(&b, "run %s: %s %s %s\n", run.ID, run.Status, run.Interruption, run.Reason)
	ms, err := st.Messages(t.Context(), run.ID)
	if err != nil {
		fmt.Fprintf(&b, "messages: %v\n", err)
	}
	for _, m := range ms {
		fmt.Fprintf(&b, "  %s %s: %s\n", m.Time.Format("15:04:05.000"), m.NodeID, m.Key+" "+strings.Join(m.Args, " | ")+m.Text)
	}
	cs, err := st.RemoteCallsForRun(t.Context(), run.ID)
	if err != nil {
		fmt.Fprintf(&b, "remote calls: %v\n", err)
	}
	for _, c := range cs {
		fmt.Fprintf(&b, "  call %s/%s task %q ended %v cancel %q\n", c.NodeID, c.CallKey, c.TaskID, c.Ended, c.CancelOutcome)
	}
	return b.String()
}
