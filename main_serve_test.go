package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/zalando/go-keyring"

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

type served struct {
	cmd  *exec.Cmd
	urls map[string]string // publication id → agent URL
	err  *bytes.Buffer
}

func writeFlow(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// startServe runs `workrun serve` and waits for its "ready" line.
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
// a2a-go's a2aclient discovers, sends, streams, gets, lists, cancels and
// resubscribes; one messageId sent to two serve processes at once makes
// one run; SIGKILL mid-run then restart completes the one run; Workrun's
// own Remote Agent node calls a served workflow; a non-loopback address
// without TLS and tokens is refused; with tokens, no token is 401.
func TestServeA2A(t *testing.T) {
	bin := buildWorkrun(t)
	flows := t.TempDir()
	hello := writeFlow(t, flows, "hello.json", serveHello)
	slow := writeFlow(t, flows, "slow.json", serveSlow)

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
