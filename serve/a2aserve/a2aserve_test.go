package a2aserve_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"workrun/nodes/humanreview"
	"workrun/nodes/output"
	"workrun/nodes/process"
	"workrun/nodes/set"
	"workrun/nodes/start"
	"workrun/serve"
	"workrun/serve/a2aserve"
	"workrun/store/storetest"
	"workrun/workrun"
)

const helloJSON = `{"name":"Hello","state":{"name":"text","message":"text","n":"number"},
 "publish":{"description":"greets","inputs":["name","n"],"outputs":["message"]},
 "nodes":[{"id":"start","type":"start"},{"id":"greet","type":"set","config":{"values":{"message":"Hello, {{name}}!"}}},
  {"id":"end","type":"output","config":{"fields":["message"]}}],
 "edges":[{"from":"start","to":"greet"},{"from":"greet","to":"end"}]}`

const slowJSON = `{"name":"Slow","state":{"out":"text"},"publish":{"outputs":["out"]},
 "nodes":[{"id":"start","type":"start"},{"id":"wait","type":"process","config":{"command":["sh","-c","echo started; sleep 30"],"stdout":"out"}}],
 "edges":[{"from":"start","to":"wait"}]}`

const reviewJSON = `{"name":"Review","state":{"draft":"text","published":"text"},
 "publish":{"inputs":["draft"],"outputs":["published"]},
 "nodes":[{"id":"start","type":"start"},{"id":"review","type":"human_review","config":{"prompt":"Publish this draft?","fields":["draft"]}},
  {"id":"publish","type":"set","config":{"values":{"published":"Published: {{draft}}"}}}],
 "edges":[{"from":"start","to":"review"},{"from":"review","to":"publish"}]}`

type tokens map[string]string // sha256 hex → label

func (t tokens) Caller(_ context.Context, tok string) (string, bool) {
	h := sha256.Sum256([]byte(tok))
	l, ok := t[hex.EncodeToString(h[:])]
	return l, ok
}

func newServer(t testing.TB, auth a2aserve.Authenticator) *httptest.Server {
	t.Helper()
	_, st, arts := storetest.Open(t, "")
	eng := workrun.NewEngine(st, arts, start.Kind{}, set.Kind{}, output.Kind{}, humanreview.Kind{}, process.Kind{})
	t.Cleanup(func() { eng.Close(context.WithoutCancel(t.Context())) })
	var pubs []serve.Publication
	for _, f := range []string{helloJSON, slowJSON, reviewJSON} {
		wf, err := workrun.ReadWorkflow(strings.NewReader(f))
		if err != nil {
			t.Fatal(err)
		}
		p, err := serve.NewPublication("", "", wf)
		if err != nil {
			t.Fatal(err)
		}
		pubs = append(pubs, p)
	}
	svc, err := serve.New(eng, st, pubs)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	srv.Start()
	s := a2aserve.New(svc, a2aserve.Options{BaseURL: srv.URL, Tokens: auth, Artifacts: arts})
	srv.Config.Handler = s.Handler()
	t.Cleanup(srv.Close)
	return srv
}

func sdkClient(t *testing.T, url string) *a2aclient.Client {
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

func TestSDKClientSendGetList(t *testing.T) {
	srv := newServer(t, nil)
	card, err := agentcard.NewResolver(http.DefaultClient).Resolve(t.Context(), srv.URL+"/a2a/hello")
	if err != nil {
		t.Fatal(err)
	}
	if card.Name != "Hello" || !card.Capabilities.Streaming || len(card.Skills) != 1 || card.SupportedInterfaces[0].ProtocolVersion != "1.0" {
		t.Fatalf("card %+v", card)
	}
	c := sdkClient(t, srv.URL+"/a2a/hello")
	msg := sdk.NewMessage(sdk.MessageRoleUser, sdk.NewTextPart("Ada"))
	res, err := c.SendMessage(t.Context(), &sdk.SendMessageRequest{Message: msg})
	if err != nil {
		t.Fatal(err)
	}
	task, ok := res.(*sdk.Task)
	if !ok || task.Status.State != sdk.TaskStateCompleted || len(task.Artifacts) != 1 || task.Artifacts[0].Parts[0].Text() != "Hello, Ada!" {
		t.Fatalf("result %#v", res)
	}
	// The same messageId again: the same task, no second run.
	again, err := c.SendMessage(t.Context(), &sdk.SendMessageRequest{Message: msg})
	if err != nil {
		t.Fatal(err)
	}
	if again.(*sdk.Task).ID != task.ID {
		t.Fatal("a second task for the same messageId")
	}
	got, err := c.GetTask(t.Context(), &sdk.GetTaskRequest{ID: task.ID})
	if err != nil || got.Status.State != sdk.TaskStateCompleted || len(got.History) == 0 {
		t.Fatalf("get %+v %v", got, err)
	}
	// A data part by field name.
	res, err = c.SendMessage(t.Context(), &sdk.SendMessageRequest{Message: sdk.NewMessage(sdk.MessageRoleUser, sdk.NewDataPart(map[string]any{"name": "Bo", "n": 2}))})
	if err != nil || res.(*sdk.Task).Artifacts[0].Parts[0].Text() != "Hello, Bo!" {
		t.Fatalf("data part: %#v %v", res, err)
	}
	list, err := c.ListTasks(t.Context(), &sdk.ListTasksRequest{PageSize: 1})
	if err != nil || len(list.Tasks) != 1 || list.NextPageToken == "" {
		t.Fatalf("list %+v %v", list, err)
	}
	list2, err := c.ListTasks(t.Context(), &sdk.ListTasksRequest{PageSize: 1, PageToken: list.NextPageToken})
	if err != nil || len(list2.Tasks) != 1 || list2.Tasks[0].ID == list.Tasks[0].ID || list2.NextPageToken != "" {
		t.Fatalf("page 2 %+v %v", list2, err)
	}
	if _, err := c.GetTask(t.Context(), &sdk.GetTaskRequest{ID: "nope"}); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("unknown task: %v", err)
	}
}

func TestInvalidParamsNamesFieldAndStartsNothing(t *testing.T) {
	srv := newServer(t, nil)
	for _, params := range []string{
		`{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"data":{"message":"x"}}]}}`,
		`{"message":{"messageId":"m2","role":"ROLE_USER","parts":[{"data":{"n":"two"}}]}}`,
	} {
		rep := rpc(t, srv.URL+"/a2a/hello", "SendMessage", params, nil)
		if rep.Error == nil || rep.Error.Code != -32602 || !strings.Contains(rep.Error.Message, `"`) {
			t.Fatalf("%s: %+v", params, rep)
		}
	}
	rep := rpc(t, srv.URL+"/a2a/hello", "ListTasks", `{}`, nil)
	if !strings.Contains(string(rep.Result), `"tasks":[]`) {
		t.Fatalf("a refused message started something: %s", rep.Result)
	}
	if rep := rpc(t, srv.URL+"/a2a/slow", "SendMessage", `{"message":{"messageId":"m3","role":"ROLE_USER","parts":[{"text":"hi"}]}}`, nil); rep.Error == nil || rep.Error.Code != -32602 {
		t.Fatalf("text to a workflow without a text input: %+v", rep)
	}
}

type reply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	status int
}

func rpc(t *testing.T, url, method, params string, hdr http.Header) reply {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), "POST", url, bytes.NewBufferString(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "1.0")
	for k, v := range hdr {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var r reply
	r.status = resp.StatusCode
	if resp.StatusCode == 200 {
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
	}
	return r
}

func TestVersionHeaderRequired(t *testing.T) {
	srv := newServer(t, nil)
	req, _ := http.NewRequest("POST", srv.URL+"/a2a/hello", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(b), "-32009") {
		t.Fatalf("no version: %s", b)
	}
}

func TestTokens401AndCallerIsolation(t *testing.T) {
	h1, h2 := sha256.Sum256([]byte("secret-one")), sha256.Sum256([]byte("secret-two"))
	srv := newServer(t, tokens{hex.EncodeToString(h1[:]): "one", hex.EncodeToString(h2[:]): "two"})
	url := srv.URL + "/a2a/hello"
	if r := rpc(t, url, "ListTasks", `{}`, nil); r.status != 401 {
		t.Fatalf("no token: %d", r.status)
	}
	if r := rpc(t, url, "ListTasks", `{}`, http.Header{"Authorization": {"Bearer wrong"}}); r.status != 401 {
		t.Fatalf("wrong token: %d", r.status)
	}
	one := http.Header{"Authorization": {"Bearer secret-one"}}
	two := http.Header{"Authorization": {"Bearer secret-two"}}
	r := rpc(t, url, "SendMessage", `{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"A"}]}}`, one)
	var res struct {
		Task struct{ ID string } `json:"task"`
	}
	json.Unmarshal(r.Result, &res)
	if res.Task.ID == "" {
		t.Fatalf("send: %+v", r)
	}
	if r := rpc(t, url, "GetTask", `{"id":"`+res.Task.ID+`"}`, two); r.Error == nil || r.Error.Code != -32001 {
		t.Fatalf("two read one's task: %+v", r)
	}
	if r := rpc(t, url, "ListTasks", `{}`, two); !strings.Contains(string(r.Result), `"tasks":[]`) {
		t.Fatalf("two lists one's tasks: %s", r.Result)
	}
	// The card is public and names the scheme.
	resp, err := http.Get(url + "/.well-known/agent-card.json")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), "httpAuthSecurityScheme") || strings.Contains(string(b), "secret-") {
		t.Fatalf("card %s", b)
	}
}

func TestSDKStreamCancelSubscribe(t *testing.T) {
	srv := newServer(t, nil)
	c := sdkClient(t, srv.URL+"/a2a/slow")
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	var taskID sdk.TaskID
	var sawStarted bool
	for ev, err := range c.SendStreamingMessage(ctx, &sdk.SendMessageRequest{Message: sdk.NewMessage(sdk.MessageRoleUser, sdk.NewDataPart(map[string]any{}))}) {
		if err != nil {
			t.Fatal(err)
		}
		switch e := ev.(type) {
		case *sdk.Task:
			taskID = e.ID
		case *sdk.TaskStatusUpdateEvent:
			if e.Status.Message != nil && strings.Contains(e.Status.Message.Parts[0].Text(), "started") {
				sawStarted = true
			}
		}
		if sawStarted {
			break
		}
	}
	if taskID == "" || !sawStarted {
		t.Fatal("no task or no node message in the stream")
	}
	// Resubscribe: the first event is the task as it is.
	sub := make(chan sdk.TaskState, 8)
	go func() {
		defer close(sub)
		for ev, err := range c.SubscribeToTask(ctx, &sdk.SubscribeToTaskRequest{ID: taskID}) {
			if err != nil {
				return
			}
			switch e := ev.(type) {
			case *sdk.Task:
				sub <- e.Status.State
			case *sdk.TaskStatusUpdateEvent:
				sub <- e.Status.State
			}
		}
	}()
	if s := <-sub; s != sdk.TaskStateWorking {
		t.Fatalf("first subscribed state %s", s)
	}
	got, err := c.CancelTask(ctx, &sdk.CancelTaskRequest{ID: taskID})
	if err != nil || got.Status.State != sdk.TaskStateCanceled {
		t.Fatalf("cancel %+v %v", got, err)
	}
	var last sdk.TaskState
	for s := range sub {
		last = s
	}
	if last != sdk.TaskStateCanceled {
		t.Fatalf("subscriber's last state %s", last)
	}
	// SubscribeToTask on a final task: UnsupportedOperation.
	for _, err := range c.SubscribeToTask(ctx, &sdk.SubscribeToTaskRequest{ID: taskID}) {
		if err == nil || !strings.Contains(err.Error(), "final") {
			t.Fatalf("subscribe to a final task: %v", err)
		}
		break
	}
}

func TestInputRequiredAnsweredByNextMessage(t *testing.T) {
	srv := newServer(t, nil)
	c := sdkClient(t, srv.URL+"/a2a/review")
	res, err := c.SendMessage(t.Context(), &sdk.SendMessageRequest{Message: sdk.NewMessage(sdk.MessageRoleUser, sdk.NewTextPart("D"))})
	if err != nil {
		t.Fatal(err)
	}
	task := res.(*sdk.Task)
	if task.Status.State != sdk.TaskStateInputRequired || task.Status.Message == nil || task.Status.Message.Parts[0].Text() != "Publish this draft?" {
		t.Fatalf("task %+v", task.Status)
	}
	answer := sdk.NewMessageForTask(sdk.MessageRoleUser, task, sdk.NewTextPart("approve"))
	res, err = c.SendMessage(t.Context(), &sdk.SendMessageRequest{Message: answer})
	if err != nil {
		t.Fatal(err)
	}
	done := res.(*sdk.Task)
	if done.ID != task.ID || done.Status.State != sdk.TaskStateCompleted || done.Artifacts[0].Parts[0].Text() != "Published: D" {
		t.Fatalf("after answer %+v", done)
	}
	// A message to a final task is refused.
	late := sdk.NewMessageForTask(sdk.MessageRoleUser, task, sdk.NewTextPart("reject"))
	if _, err := c.SendMessage(t.Context(), &sdk.SendMessageRequest{Message: late}); err == nil {
		t.Fatal("a message to a final task was taken")
	}
}
