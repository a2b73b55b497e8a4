package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/zalando/go-keyring"

	"workrun/a2a/a2atest"
	"workrun/a2a/demoagent"
	"workrun/store"
	"workrun/workrun"
)

const serveHello = `{"name":"Hello","state":{"name":"text","message":"text"},
 "publish":{"description":"greets","inputs":["name"],"outputs":["message"]},
 "nodes":[{"id":"start","type":"start"},{"id":"greet","type":"set","config":{"values":{"message":"Hello, {{name}}!"}}},
  {"id":"end","type":"output","config":{"fields":["message"]}}],
 "edges":[{"from":"start","to":"greet"},{"from":"greet","to":"end"}]}`

// serveSlow works a little while: long enough to be killed or cancelled
// mid-run, short enough to complete after a restart.
const serveSlow = `{"name":"Slow","state":{"out":"text"},"publish":{"outputs":["out"]},
 "nodes":[{"id":"start","type":"start"},{"id":"wait","type":"process","config":{"command":["sh","-c","echo started; sleep 3; echo done"],"stdout":"out"}}],
 "edges":[{"from":"start","to":"wait"}]}`

const serveReview = `{"name":"Review","state":{"draft":"text","published":"text"},
 "publish":{"inputs":["draft"],"outputs":["published"]},
 "nodes":[{"id":"start","type":"start"},{"id":"review","type":"human_review","config":{"prompt":"Publish this draft?","fields":["draft"]}},
  {"id":"publish","type":"set","config":{"values":{"published":"Published: {{draft}}"}}}],
 "edges":[{"from":"start","to":"review"},{"from":"review","to":"publish"}]}`

type served struct {
	cmd   *exec.Cmd
	urls  map[string]string // publication id → agent URL
	lines []string          // its stdout lines before ready
	err   *bytes.Buffer
}

func writeFlow(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// startServe runs `workrun serve` and waits for its "ready" line,
// keeping the lines before it.
func startServe(t *testing.T, bin, dataDir string, args ...string) *served {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--data-dir", dataDir, "serve"}, args...)...)
	cmd.Env = append(os.Environ(), "LANGUAGE=en")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() }) //nolint:errcheck // already ended in the normal case
	s := &served{cmd: cmd, urls: map[string]string{}, err: &stderr}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	deadline := time.After(60 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("serve ended before ready: %s", stderr.String())
			}
			if l == "ready" {
				go func() {
					for range lines {
					}
				}()
				return s
			}
			s.lines = append(s.lines, l)
			if u, ok := strings.CutPrefix(l, "a2a "); ok {
				s.urls[u[strings.LastIndex(u, "/")+1:]] = u
			}
		case <-deadline:
			t.Fatalf("no ready line within 60 s: %s", stderr.String())
		}
	}
}

func sdkFor(t *testing.T, url string) *a2aclient.Client {
	t.Helper()
	card, err := agentcard.NewResolver(http.DefaultClient).Resolve(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	c, err := a2aclient.NewFromCard(t.Context(), card)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func runsIn(t *testing.T, dataDir string) []workrun.Run {
	t.Helper()
	st, err := store.Open(t.Context(), dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.ListRuns(t.Context(), workrun.RunFilter{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

// TestServeA2A is issue 37's acceptance test against the real binary:
// a2a-go's a2aclient and @a2a-js/sdk's ClientFactory (node
// a2a/testdata/jsagent/serve_client.mjs) discover, send, stream, get,
// list, cancel and resubscribe (the JS one also answers INPUT_REQUIRED);
// a two-hop chain caller → serve → serve →
// demo agent cancels end to end with exactly one CancelTask per hop;
// one messageId sent to two serve processes at once makes
// one run; SIGKILL mid-run then restart completes the one run; Workrun's
// own Remote Agent node calls a served workflow; a non-loopback address
// without TLS and tokens is refused; with tokens, no token is 401.
func TestServeA2A(t *testing.T) {
	bin := buildWorkrun(t)
	flows := t.TempDir()
	hello := writeFlow(t, flows, "hello.json", serveHello)
	slow := writeFlow(t, flows, "slow.json", serveSlow)
	review := writeFlow(t, flows, "review.json", serveReview)

	t.Run("SDKClient", func(t *testing.T) {
		data := t.TempDir()
		s := startServe(t, bin, data, hello, slow)
		c := sdkFor(t, s.urls["hello"])
		res, err := c.SendMessage(t.Context(), &sdk.SendMessageRequest{Message: sdk.NewMessage(sdk.MessageRoleUser, sdk.NewTextPart("Ada"))})
		if err != nil {
			t.Fatal(err)
		}
		task := res.(*sdk.Task)
		if task.Status.State != sdk.TaskStateCompleted || task.Artifacts[0].Parts[0].Text() != "Hello, Ada!" {
			t.Fatalf("send: %+v", task)
		}
		if got, err := c.GetTask(t.Context(), &sdk.GetTaskRequest{ID: task.ID}); err != nil || got.Status.State != sdk.TaskStateCompleted {
			t.Fatalf("get: %+v %v", got, err)
		}
		if l, err := c.ListTasks(t.Context(), &sdk.ListTasksRequest{}); err != nil || len(l.Tasks) != 1 {
			t.Fatalf("list: %+v %v", l, err)
		}
		sc := sdkFor(t, s.urls["slow"])
		var id sdk.TaskID
		for ev, err := range sc.SendStreamingMessage(t.Context(), &sdk.SendMessageRequest{Message: sdk.NewMessage(sdk.MessageRoleUser, sdk.NewDataPart(map[string]any{}))}) {
			if err != nil {
				t.Fatal(err)
			}
			if tk, ok := ev.(*sdk.Task); ok {
				id = tk.ID
			}
			if u, ok := ev.(*sdk.TaskStatusUpdateEvent); ok && u.Status.Message != nil && strings.Contains(u.Status.Message.Parts[0].Text(), "started") {
				break
			}
		}
		states := make(chan sdk.TaskState, 16)
		go func() {
			defer close(states)
			for ev, err := range sc.SubscribeToTask(t.Context(), &sdk.SubscribeToTaskRequest{ID: id}) {
				if err != nil {
					return
				}
				switch e := ev.(type) {
				case *sdk.Task:
					states <- e.Status.State
				case *sdk.TaskStatusUpdateEvent:
					states <- e.Status.State
				}
			}
		}()
		if st := <-states; st != sdk.TaskStateWorking {
			t.Fatalf("resubscribed first state %s", st)
		}
		got, err := sc.CancelTask(t.Context(), &sdk.CancelTaskRequest{ID: id})
		if err != nil || got.Status.State != sdk.TaskStateCanceled {
			t.Fatalf("cancel: %+v %v", got, err)
		}
		var last sdk.TaskState
		for st := range states {
			last = st
		}
		if last != sdk.TaskStateCanceled {
			t.Fatalf("subscriber saw %s last", last)
		}
	})

	t.Run("JSClientFactory", func(t *testing.T) {
		if !a2atest.NodeAvailable(t) {
			return
		}
		a2atest.EnsureNodeModules(t)
		data := t.TempDir()
		s := startServe(t, bin, data, hello, slow, review)
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "node", "serve_client.mjs", s.urls["hello"], s.urls["slow"], s.urls["review"])
		cmd.Dir = a2atest.Dir()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("serve_client.mjs: %v\n%s\nserve: %s", err, stderr.String(), s.err.String())
		}
		checkJSClient(t, out)
		// Two messageIds to hello (one sent twice), one to slow, one to
		// review (its answer goes on the same run): four runs.
		if runs := runsIn(t, data); len(runs) != 4 {
			t.Fatalf("%d runs, want 4 (one per new task)", len(runs))
		}
	})

	t.Run("SameMessageIDTwoProcessesOneRun", func(t *testing.T) {
		data := t.TempDir()
		a := startServe(t, bin, data, hello)
		b := startServe(t, bin, data, hello)
		body := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"same-id","role":"ROLE_USER","parts":[{"text":"Ada"}]}}}`
		ids := make([]string, 6)
		var wg sync.WaitGroup
		for i := range ids {
			u := a.urls["hello"]
			if i%2 == 1 {
				u = b.urls["hello"]
			}
			wg.Go(func() { ids[i] = postTaskID(t, u, body) })
		}
		wg.Wait()
		for _, id := range ids {
			if id == "" || id != ids[0] {
				t.Fatalf("tasks %v", ids)
			}
		}
		if runs := runsIn(t, data); len(runs) != 1 {
			t.Fatalf("%d runs for one messageId", len(runs))
		}
	})

	t.Run("KillRestartCompletesOneRun", func(t *testing.T) {
		data := t.TempDir()
		s := startServe(t, bin, data, slow)
		body := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"k1","role":"ROLE_USER","parts":[{"data":{}}]},"configuration":{"returnImmediately":true}}}`
		id := postTaskID(t, s.urls["slow"], body)
		// Wait until its process node runs, then SIGKILL the server.
		c := sdkFor(t, s.urls["slow"])
		for ev, err := range c.SubscribeToTask(t.Context(), &sdk.SubscribeToTaskRequest{ID: sdk.TaskID(id)}) {
			if err != nil {
				t.Fatal(err)
			}
			if u, ok := ev.(*sdk.TaskStatusUpdateEvent); ok && u.Status.Message != nil && strings.Contains(u.Status.Message.Parts[0].Text(), "started") {
				break
			}
		}
		if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		s.cmd.Wait() //nolint:errcheck // killed
		s2 := startServe(t, bin, data, slow)
		// Nothing but the restarted server's resume moves the run on now.
		c2 := sdkFor(t, s2.urls["slow"])
		// Follow it to its end (a final task refuses a subscription: read it).
		for ev, err := range c2.SubscribeToTask(t.Context(), &sdk.SubscribeToTaskRequest{ID: sdk.TaskID(id)}) {
			if err != nil {
				break
			}
			_ = ev // the stream ends at the final state
		}
		got, err := c2.GetTask(t.Context(), &sdk.GetTaskRequest{ID: sdk.TaskID(id)})
		if err != nil || got.Status.State != sdk.TaskStateCompleted {
			t.Fatalf("after restart: %+v %v", got, err)
		}
		// The same messageId after the restart: the same task.
		if again := postTaskID(t, s2.urls["slow"], body); again != id {
			t.Fatalf("after restart the messageId made task %s, not %s", again, id)
		}
		if runs := runsIn(t, data); len(runs) != 1 {
			t.Fatalf("%d runs", len(runs))
		}
	})

	t.Run("RemoteAgentNodeCallsServedWorkflow", func(t *testing.T) {
		s := startServe(t, bin, t.TempDir(), hello)
		flow := writeFlow(t, t.TempDir(), "call.json", `{"name":"Call","state":{"q":"text","a":"text"},
 "nodes":[{"id":"start","type":"start"},{"id":"ask","type":"remote_agent","config":{"url":"`+s.urls["hello"]+`","inputs":["q"],"output":"a","timeout_seconds":60}},
  {"id":"end","type":"output","config":{"fields":["a"]}}],
 "edges":[{"from":"start","to":"ask"},{"from":"ask","to":"end"}]}`)
		cmd := exec.Command(bin, "--data-dir", t.TempDir(), "run", flow, "--input", "q=Grace", "--json")
		cmd.Env = append(os.Environ(), "LANGUAGE=en")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("run: %v\n%s", err, out)
		}
		if !strings.Contains(string(out), "Hello, Grace!") || !strings.Contains(string(out), `"status":"succeeded"`) {
			t.Fatalf("run output:\n%s", out)
		}
	})

	t.Run("TwoHopCancelReachesTheBottomOnce", func(t *testing.T) {
		// caller → serve A (Remote Agent node) → serve B (Remote Agent
		// node) → the demo agent. B is reached through a counting proxy.
		agent := demoagent.New(demoagent.Options{})
		agentURL, stopAgent, err := agent.Start("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stopAgent)
		relay := func(name, url string) string {
			return `{"name":"` + name + `","state":{"q":"text","a":"text"},"publish":{"inputs":["q"],"outputs":["a"]},
 "nodes":[{"id":"start","type":"start"},{"id":"ask","type":"remote_agent","config":{"url":"` + url + `","inputs":["q"],"output":"a","timeout_seconds":120}}],
 "edges":[{"from":"start","to":"ask"}]}`
		}
		dir := t.TempDir()
		b := startServe(t, bin, t.TempDir(), writeFlow(t, dir, "inner.json", relay("Inner", agentURL)))
		proxy := newCountingProxy(t, b.urls["inner"])
		a := startServe(t, bin, t.TempDir(), writeFlow(t, dir, "outer.json", relay("Outer", proxy.agentURL)))

		c := sdkFor(t, a.urls["outer"])
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		defer cancel()
		res, err := c.SendMessage(ctx, &sdk.SendMessageRequest{Message: sdk.NewMessage(sdk.MessageRoleUser, sdk.NewTextPart("hang")),
			Config: &sdk.SendMessageConfig{ReturnImmediately: true}})
		if err != nil {
			t.Fatal(err)
		}
		top := res.(*sdk.Task)
		// Wait until the bottom agent hangs on the message B relayed.
		waitFor(t, 60*time.Second, "the demo agent to get the relayed message", func() bool { return len(agent.Stats().Submissions) == 1 })
		got, err := c.CancelTask(ctx, &sdk.CancelTaskRequest{ID: top.ID})
		if err != nil || got.Status.State != sdk.TaskStateCanceled {
			t.Fatalf("cancel at the top: %+v %v", got, err)
		}
		cancels := func() int {
			n := 0
			for _, k := range agent.Stats().Cancels {
				n += k
			}
			return n
		}
		waitFor(t, 30*time.Second, "the CancelTask to reach the demo agent", func() bool { return cancels() > 0 })
		time.Sleep(time.Second) // a second cancel would come now
		if n := proxy.count("CancelTask"); n != 1 {
			t.Fatalf("serve B got %d CancelTask, want 1", n)
		}
		if n := cancels(); n != 1 {
			t.Fatalf("the demo agent got %d CancelTask, want 1 (%v)", n, agent.Stats().Cancels)
		}
		if n := proxy.count("SendMessage") + proxy.count("SendStreamingMessage"); n != 1 {
			t.Fatalf("serve B got %d messages, want 1", n)
		}
		final, err := c.GetTask(ctx, &sdk.GetTaskRequest{ID: top.ID})
		if err != nil || final.Status.State != sdk.TaskStateCanceled {
			t.Fatalf("top task: %+v %v", final, err)
		}
	})

	t.Run("NonLoopbackRefused", func(t *testing.T) {
		cmd := exec.Command(bin, "--data-dir", t.TempDir(), "serve", "--addr", "0.0.0.0:0", hello)
		cmd.Env = append(os.Environ(), "LANGUAGE=en")
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "needs TLS") {
			t.Fatalf("exit %v: %s", err, out)
		}
	})

	t.Run("TokenRequired401", func(t *testing.T) {
		probe := "workrun-serve-probe-" + filepath.Base(t.TempDir())
		if err := keyring.Set("workrun-test", probe, "x"); err != nil {
			missing(t, "no Secret Service reachable for serve tokens: "+err.Error())
		}
		_ = keyring.Delete("workrun-test", probe) // a probe: nothing to keep
		data := t.TempDir()
		cmd := exec.Command(bin, "--data-dir", data, "serve", "token", "create", "caller-one")
		cmd.Env = append(os.Environ(), "LANGUAGE=en")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		secret, err := cmd.Output()
		if err != nil {
			t.Fatalf("token create: %v %s", err, stderr.String())
		}
		tok := strings.TrimSpace(string(secret))
		t.Cleanup(func() { exec.Command(bin, "--data-dir", data, "serve", "token", "revoke", "caller-one").Run() }) //nolint:errcheck // the keyring entry of a test
		st, err := store.Open(t.Context(), data)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := os.ReadFile(st.Path())
		st.Close()
		if bytes.Contains(raw, []byte(tok)) {
			t.Fatal("the token's secret is in SQLite")
		}
		s := startServe(t, bin, data, hello)
		body := `{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}`
		if code := post(t, s.urls["hello"], body, ""); code != 401 {
			t.Fatalf("no token: %d", code)
		}
		if code := post(t, s.urls["hello"], body, "wrong"); code != 401 {
			t.Fatalf("wrong token: %d", code)
		}
		if code := post(t, s.urls["hello"], body, tok); code != 200 {
			t.Fatalf("token: %d", code)
		}
		// A run started by an authenticated caller is marked with the
		// token's label in `workrun runs` and `workrun show`.
		send := `{"jsonrpc":"2.0","id":2,"method":"SendMessage","params":{"message":{"messageId":"by-1","role":"ROLE_USER","parts":[{"text":"Ada"}]}}}`
		if code := post(t, s.urls["hello"], send, tok); code != 200 {
			t.Fatalf("send with token: %d", code)
		}
		out := func(args ...string) string {
			cmd := exec.Command(bin, append([]string{"--data-dir", data}, args...)...)
			cmd.Env = append(os.Environ(), "LANGUAGE=en")
			b, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("workrun %v: %v\n%s", args, err, b)
			}
			return string(b)
		}
		var rows []struct{ ID string }
		if err := json.Unmarshal([]byte(out("runs", "--json")), &rows); err != nil || len(rows) != 1 {
			t.Fatalf("runs --json: %v %+v", err, rows)
		}
		if list := out("runs"); !strings.Contains(list, "A2A caller (caller-one)") {
			t.Errorf("runs does not name the caller:\n%s", list)
		}
		if shown := out("show", "--lang", "en", rows[0].ID); !strings.Contains(shown, "Started by: A2A caller (caller-one)") {
			t.Errorf("show does not name the caller:\n%s", shown)
		}
	})
}

func post(t *testing.T, url, body, token string) int {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), "POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "1.0")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body) //nolint:errcheck // only the status matters
	resp.Body.Close()
	return resp.StatusCode
}

func postTaskID(t *testing.T, url, body string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "1.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return ""
	}
	defer resp.Body.Close()
	var rep struct {
		Result struct {
			Task struct{ ID string } `json:"task"`
		} `json:"result"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&rep); err != nil || rep.Result.Task.ID == "" {
		t.Errorf("send: %v %s", err, rep.Error)
	}
	return rep.Result.Task.ID
}

// jsTask is the wire form of a task as serve_client.mjs prints it.
type jsTask struct {
	ID     string `json:"id"`
	Status struct {
		State string `json:"state"`
	} `json:"status"`
	Artifacts []struct {
		Name  string `json:"name"`
		Parts []struct {
			Text string `json:"text"`
		} `json:"parts"`
	} `json:"artifacts"`
	History []struct {
		MessageID string `json:"messageId"`
		Role      string `json:"role"`
	} `json:"history"`
}

type jsStreamEvent struct {
	Task         *jsTask `json:"task"`
	StatusUpdate *struct {
		TaskID    string `json:"taskId"`
		ContextID string `json:"contextId"`
		Status    struct {
			State string `json:"state"`
		} `json:"status"`
	} `json:"statusUpdate"`
}

// checkJSClient checks what the @a2a-js/sdk client saw of workrun serve.
func checkJSClient(t *testing.T, out []byte) {
	t.Helper()
	var r struct {
		SDK       string `json:"sdk"`
		Card      string `json:"card"`
		Blocking  jsTask `json:"blocking"`
		Duplicate jsTask `json:"duplicate"`
		Immediate jsTask `json:"immediate"`
		Get       jsTask `json:"get"`
		GetFull   jsTask `json:"getFull"`
		List      struct {
			IDs           []string
			NextPageToken string
		} `json:"list"`
		List2 struct {
			IDs           []string
			NextPageToken string
		} `json:"list2"`
		Stream   []jsStreamEvent `json:"stream"`
		Resub    []jsStreamEvent `json:"resubscribed"`
		Cancel   jsTask          `json:"cancel"`
		After    jsTask          `json:"after"`
		Asked    *jsTask         `json:"asked"`
		Answered *jsTask         `json:"answered"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("decode %s: %v", out, err)
	}
	if r.SDK != "1.3.0" || r.Card != "Hello" {
		t.Fatalf("sdk %q card %q", r.SDK, r.Card)
	}
	b := r.Blocking
	if b.Status.State != "TASK_STATE_COMPLETED" || len(b.Artifacts) != 1 || b.Artifacts[0].Parts[0].Text != "Hello, Ada!" {
		t.Fatalf("blocking send: %+v", b)
	}
	if r.Duplicate.ID != b.ID {
		t.Fatalf("the same messageId made task %s, then %s", b.ID, r.Duplicate.ID)
	}
	if r.Immediate.ID == "" || r.Immediate.ID == b.ID || len(r.Immediate.History) == 0 || r.Immediate.History[0].MessageID != "js-m2" {
		t.Fatalf("returnImmediately: %+v", r.Immediate)
	}
	if len(r.Get.History) != 1 || len(r.GetFull.History) < 1 || r.GetFull.History[0].MessageID != "js-m1" {
		t.Fatalf("GetTask historyLength 1: %+v; without: %+v", r.Get.History, r.GetFull.History)
	}
	if len(r.List.IDs) != 1 || r.List.NextPageToken == "" || len(r.List2.IDs) != 1 || r.List2.IDs[0] == r.List.IDs[0] || r.List2.NextPageToken != "" {
		t.Fatalf("ListTasks pages: %+v %+v", r.List, r.List2)
	}
	if len(r.Stream) < 2 || r.Stream[0].Task == nil || r.Stream[0].Task.Status.State != "TASK_STATE_WORKING" {
		t.Fatalf("stream: %s", out)
	}
	for _, ev := range r.Stream[1:] {
		if ev.StatusUpdate == nil || ev.StatusUpdate.TaskID != r.Stream[0].Task.ID || ev.StatusUpdate.ContextID == "" {
			t.Fatalf("stream event without task or context id: %+v", ev)
		}
	}
	if len(r.Resub) == 0 || r.Resub[0].Task == nil || r.Resub[0].Task.Status.State != "TASK_STATE_WORKING" {
		t.Fatalf("resubscribe: %+v", r.Resub)
	}
	if last := r.Resub[len(r.Resub)-1]; last.StatusUpdate == nil || last.StatusUpdate.Status.State != "TASK_STATE_CANCELED" {
		t.Fatalf("the subscriber's last event: %+v", last)
	}
	if r.Cancel.Status.State != "TASK_STATE_CANCELED" || r.After.Status.State != "TASK_STATE_CANCELED" {
		t.Fatalf("cancel %+v, then %+v", r.Cancel.Status, r.After.Status)
	}
	if r.Asked == nil || r.Asked.Status.State != "TASK_STATE_INPUT_REQUIRED" {
		t.Fatalf("review: %+v", r.Asked)
	}
	if a := r.Answered; a == nil || a.ID != r.Asked.ID || a.Status.State != "TASK_STATE_COMPLETED" || len(a.Artifacts) != 1 || a.Artifacts[0].Parts[0].Text != "Published: D" {
		t.Fatalf("answered: %+v", r.Answered)
	}
}

func waitFor(t *testing.T, d time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", d, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// countingProxy forwards to one served agent and counts its JSON-RPC
// methods; the agent's card is rewritten to name the proxy, so a client
// that discovers the agent through it keeps calling through it.
type countingProxy struct {
	agentURL string
	mu       sync.Mutex
	methods  map[string]int
}

func (p *countingProxy) count(method string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.methods[method]
}

func newCountingProxy(t *testing.T, agentURL string) *countingProxy {
	t.Helper()
	target, err := url.Parse(agentURL)
	if err != nil {
		t.Fatal(err)
	}
	origin := &url.URL{Scheme: target.Scheme, Host: target.Host}
	p := &countingProxy{methods: map[string]int{}}
	rp := httputil.NewSingleHostReverseProxy(origin)
	rp.FlushInterval = -1
	srv := httptest.NewUnstartedServer(nil)
	self := (&url.URL{Scheme: "http", Host: srv.Listener.Addr().String()}).String()
	rp.ModifyResponse = func(resp *http.Response) error {
		if !strings.HasSuffix(resp.Request.URL.Path, "/.well-known/agent-card.json") {
			return nil
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		body = bytes.ReplaceAll(body, []byte(origin.String()), []byte(self))
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			var req struct{ Method string }
			if json.Unmarshal(body, &req) == nil {
				p.mu.Lock()
				p.methods[req.Method]++
				p.mu.Unlock()
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		rp.ServeHTTP(w, r)
	})
	srv.Start()
	t.Cleanup(srv.Close)
	p.agentURL = strings.Replace(agentURL, origin.String(), self, 1)
	return p
}
