package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"workrun/workrun"
)

// pushFlow hands its input to a Remote Agent node.
const pushFlow = `{"name":"Delegate","state":{"job":"text","answer":"text"},
 "publish":{"inputs":["job"],"outputs":["answer"]},
 "nodes":[{"id":"start","type":"start"},
  {"id":"ask","type":"remote_agent","config":{"url":%q,"inputs":["job"],"output":"answer","timeout_seconds":60}},
  {"id":"end","type":"output","config":{"fields":["answer"]}}],
 "edges":[{"from":"start","to":"ask"},{"from":"ask","to":"end"}]}`

// jsPushAgent is a2a/testdata/jsagent/server.mjs started with --push.
type jsPushAgent struct {
	url string
	cmd *exec.Cmd
}

type jsPushStats struct {
	Methods         map[string]int `json:"methods"`
	PushesSent      int            `json:"pushesSent"`
	PushesFailed    int            `json:"pushesFailed"`
	PushTokens      []string       `json:"pushTokens"`
	Held            []string       `json:"held"`
	OpenConnections int            `json:"openConnections"`
}

func startJSPushAgent(t *testing.T) *jsPushAgent {
	t.Helper()
	if _, err := os.Stat("a2a/testdata/jsagent/node_modules/@a2a-js/sdk"); err != nil {
		t.Fatalf("@a2a-js/sdk is not installed (npm ci in a2a/testdata/jsagent, as make test does): %v", err)
	}
	cmd := exec.Command("node", "server.mjs", "--push", "--watch-stdin")
	cmd.Dir = "a2a/testdata/jsagent"
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() }) //nolint:errcheck // ended either way
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		if sc.Scan() {
			line <- sc.Text()
		}
		close(line)
		io.Copy(io.Discard, out) //nolint:errcheck // drained
	}()
	select {
	case l, ok := <-line:
		u, found := strings.CutPrefix(l, "listening ")
		if !ok || !found {
			t.Fatalf("js agent did not start: %q %s", l, stderr.String())
		}
		return &jsPushAgent{url: strings.Fields(u)[0], cmd: cmd}
	case <-time.After(60 * time.Second):
		t.Fatalf("js agent not listening within 60 s: %s", stderr.String())
	}
	return nil
}

func (a *jsPushAgent) stats(t *testing.T) jsPushStats {
	t.Helper()
	resp, err := http.Get(a.url + "/_stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var s jsPushStats
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func (a *jsPushAgent) release(t *testing.T, task string) {
	t.Helper()
	resp, err := http.Post(a.url+"/_release/"+url.PathEscape(task), "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("release %s: HTTP %d", task, resp.StatusCode)
	}
}

// servedState is the state and output text of a served task (GetTask).
func servedState(t *testing.T, agentURL, id string) (string, string) {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":%q}}`, id)
	req, _ := http.NewRequestWithContext(t.Context(), "POST", agentURL, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "1.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "unreachable", ""
	}
	defer resp.Body.Close()
	var rep struct {
		Result jsTask `json:"result"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&rep); err != nil {
		t.Fatal(err)
	}
	text := ""
	for _, a := range rep.Result.Artifacts {
		for _, p := range a.Parts {
			text += p.Text
		}
	}
	return rep.Result.Status.State, text
}

// pushWaitingRun is the run whose Remote Agent node waits by push, once
// there is one.
func pushWaitingRun(t *testing.T, dataDir string, not map[string]bool) (workrun.Run, bool) {
	for _, r := range runsIn(t, dataDir) {
		if !not[r.ID] && r.Status == workrun.RunInterrupted && r.Interruption == workrun.InterruptedByPush {
			return r, true
		}
	}
	return workrun.Run{}, false
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestServePush is issue 39's "waits that hold nothing" against real
// processes: `workrun serve --public-url` runs a Remote Agent node against
// @a2a-js/sdk 1.3.0's server with push notifications on. The node sends
// once with a push config and lets go: while the task works, the agent
// counts 0 open connections from Workrun and the run is interrupted by
// push; a push with a wrong token is 401 and resumes nothing; the agent's
// own push settles the task (one GetTask, no stream, no subscription).
// Then a push missed while serve is down (SIGKILL) is caught at the next
// start by one GetTask. The token the agent pushed with is nowhere in the
// data directory.
func TestServePush(t *testing.T) {
	bin := buildWorkrun(t)
	agent := startJSPushAgent(t)
	dataDir := t.TempDir()
	flow := writeFlow(t, t.TempDir(), "delegate.json", fmt.Sprintf(pushFlow, agent.url))
	addr := freePort(t)
	public := "http://" + addr
	args := []string{"--addr", addr, "--public-url", public, flow}
	s := startServe(t, bin, dataDir, args...)
	served := s.urls["delegate"]
	if served == "" {
		t.Fatalf("no a2a line for delegate: %v", s.urls)
	}
	send := func(msgID string) string {
		return postTaskID(t, served, fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":%q,"role":"ROLE_USER","parts":[{"data":{"job":"held"}}]},"configuration":{"returnImmediately":true}}}`, msgID))
	}

	// 1. The task settles by push, with nothing held while it waits.
	task1 := send("push-1")
	var run1 workrun.Run
	waitFor(t, 60*time.Second, "the run to wait by push", func() bool {
		var ok bool
		run1, ok = pushWaitingRun(t, dataDir, nil)
		return ok
	})
	st := agent.stats(t)
	if len(st.Held) != 1 {
		t.Fatalf("held tasks at the agent: %v", st.Held)
	}
	waitFor(t, 2*time.Second, "0 open connections from Workrun to the agent (well before Node's 5 s keep-alive timeout would close an idle one)", func() bool { return agent.stats(t).OpenConnections == 0 })
	time.Sleep(time.Second) // still none a second later: nothing reconnects
	if st = agent.stats(t); st.OpenConnections != 0 || st.Methods["SendMessage"] != 1 || st.Methods["SendStreamingMessage"] != 0 || st.Methods["SubscribeToTask"] != 0 || st.Methods["GetTask"] != 0 {
		t.Fatalf("while waiting by push: %+v", st)
	}
	t.Logf("waiting by push: run %s interrupted (%s), agent: %d open connections, methods %v", run1.ID, run1.Reason, st.OpenConnections, st.Methods)
	if state, _ := servedState(t, served, task1); state != "TASK_STATE_WORKING" {
		t.Fatalf("served task while waiting: %s", state)
	}
	// A push without the right token is refused and resumes nothing.
	pushURL := public + "/push/" + url.PathEscape(run1.ID) + "/ask/send"
	for _, tok := range []string{"", "wrong"} {
		req, _ := http.NewRequest("POST", pushURL, strings.NewReader(`{"statusUpdate":{"taskId":"x","status":{"state":"TASK_STATE_COMPLETED"}}}`))
		req.Header.Set("Content-Type", "application/json")
		if tok != "" {
			req.Header.Set("X-A2A-Notification-Token", tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("push with token %q: HTTP %d, want 401", tok, resp.StatusCode)
		}
	}
	if r, ok := pushWaitingRun(t, dataDir, nil); !ok || r.ID != run1.ID {
		t.Fatal("a refused push changed the waiting run")
	}
	agent.release(t, st.Held[0])
	waitFor(t, 60*time.Second, "the pushed task to settle", func() bool {
		state, _ := servedState(t, served, task1)
		return state == "TASK_STATE_COMPLETED"
	})
	if _, out := servedState(t, served, task1); out != "released" {
		t.Fatalf("output %q, want the agent's artifact", out)
	}
	st = agent.stats(t)
	if st.PushesSent == 0 || st.Methods["GetTask"] != 1 || st.Methods["SubscribeToTask"] != 0 || st.Methods["SendStreamingMessage"] != 0 {
		t.Fatalf("after the push: %+v", st)
	}
	t.Logf("settled by push: %d pushes sent, methods %v", st.PushesSent, st.Methods)

	// 2. A push missed while serve is down is caught by one GetTask at start.
	task2 := send("push-2")
	waitFor(t, 60*time.Second, "the second run to wait by push", func() bool {
		_, ok := pushWaitingRun(t, dataDir, map[string]bool{run1.ID: true})
		return ok
	})
	waitFor(t, 2*time.Second, "0 open connections again", func() bool { return agent.stats(t).OpenConnections == 0 })
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	s.cmd.Wait() //nolint:errcheck // killed
	st = agent.stats(t)
	failedBefore := st.PushesFailed
	agent.release(t, st.Held[0])
	waitFor(t, 30*time.Second, "the agent's push to fail while serve is down", func() bool { return agent.stats(t).PushesFailed > failedBefore })
	s = startServe(t, bin, dataDir, args...)
	waitFor(t, 60*time.Second, "the missed push to be caught", func() bool {
		state, _ := servedState(t, served, task2)
		return state == "TASK_STATE_COMPLETED"
	})
	st = agent.stats(t)
	if st.Methods["GetTask"] != 2 || st.Methods["SendMessage"] != 2 || st.Methods["SubscribeToTask"] != 0 {
		t.Fatalf("after the restart: %+v (want exactly one more GetTask)", st)
	}
	t.Logf("missed push caught at restart: %d pushes failed while down, methods %v", st.PushesFailed, st.Methods)
	if _, out := servedState(t, served, task2); out != "released" {
		t.Fatalf("output %q after the restart", out)
	}

	// The tokens the agent pushed with never reached the data directory.
	if len(st.PushTokens) != 2 {
		t.Fatalf("push tokens seen by the agent: %d", len(st.PushTokens))
	}
	s.cmd.Process.Signal(os.Interrupt) //nolint:errcheck // checked by Wait
	s.cmd.Wait()                       //nolint:errcheck // exit status is TestServeA2A's business
	filepath.Walk(dataDir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, rerr := os.ReadFile(p)
		if rerr != nil {
			return rerr
		}
		for _, tok := range st.PushTokens {
			if bytes.Contains(b, []byte(tok)) {
				t.Errorf("push token found in %s", p)
			}
		}
		return nil
	})
}
