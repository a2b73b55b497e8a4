package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/mcp"
	"workrun/mcp/demoserver"
)

func startDemo(t *testing.T, opts demoserver.Options) (*demoserver.Server, string) {
	t.Helper()
	if opts.StageDuration == 0 {
		opts.StageDuration = 50 * time.Millisecond
	}
	if opts.PollInterval == 0 {
		opts.PollInterval = 20 * time.Millisecond
	}
	d := demoserver.New(opts)
	srv := httptest.NewServer(d.Mux())
	t.Cleanup(func() { d.Close(); srv.Close() })
	return d, srv.URL + demoserver.Path
}

func connect(t *testing.T, url string) *mcp.Client {
	t.Helper()
	c, err := mcp.New(url, mcp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Initialize(t.Context()); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestDemo_InitializeListAndSyncCall(t *testing.T) {
	d, url := startDemo(t, demoserver.Options{})
	c := connect(t, url)
	init := c.InitializeResult()
	if c.Session() == "" || c.Version() != mcp.Version20251125 {
		t.Fatalf("session %q version %q", c.Session(), c.Version())
	}
	if got := init.Capabilities.TaskForm(); got != mcp.FormExtension {
		t.Errorf("task form = %q", got)
	}
	tools, err := c.ListTools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	support := map[string]string{}
	for _, tl := range tools {
		support[tl.Name] = tl.TaskSupport()
	}
	want := map[string]string{"echo": "forbidden", "broken": "forbidden", "research": "optional", "hang": "required",
		"ask": "required", "survey": "optional", "sign_in": "optional", "start_job": "forbidden", "get_job_result": "forbidden", "cancel_job": "forbidden"}
	if diff := cmp.Diff(want, support); diff != "" {
		t.Errorf("task support (-want +got):\n%s", diff)
	}
	res, err := c.CallTool(t.Context(), mcp.CallParams{Name: "echo", Arguments: json.RawMessage(`{"text":"hi"}`), IdempotencyKey: "k1"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Task != nil || res.Result.Text() != "echo: hi" || !strings.Contains(string(res.Result.StructuredContent), `"echo":"hi"`) {
		t.Errorf("echo = %+v", res.Result)
	}
	reqs := d.Requests()
	last := reqs[len(reqs)-1]
	if last.Key != "k1" || last.Session != c.Session() {
		t.Errorf("request = %+v", last)
	}
	if err := c.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	_, err = c.ListTools(t.Context())
	if !errors.Is(err, mcp.ErrSessionNotFound) {
		t.Errorf("after DELETE: %v, want ErrSessionNotFound", err)
	}
}

func TestDemo_CoreTaskFlow(t *testing.T) {
	_, url := startDemo(t, demoserver.Options{})
	c := connect(t, url)
	res, err := c.CallTool(t.Context(), mcp.CallParams{Name: "research", Arguments: json.RawMessage(`{"topic":"tides","stages":2}`), Task: mcp.FormCore, TTLMillis: 60000})
	if err != nil {
		t.Fatal(err)
	}
	if res.Task == nil || res.Form != mcp.FormCore || res.Task.Status != mcp.StatusWorking || res.Task.PollMillis() != 20 {
		t.Fatalf("call = %+v", res)
	}
	got, err := c.GetTask(t.Context(), res.Task.TaskID)
	if err != nil || got.TaskID != res.Task.TaskID {
		t.Fatalf("get = %+v, %v", got, err)
	}
	r, err := c.TaskResult(t.Context(), res.Task.TaskID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Text(), "Research on tides: 2 stages done.") || len(r.Content) != 4 {
		t.Errorf("result = %+v", r)
	}
	if _, err := c.GetTask(t.Context(), "no-such-task"); !errors.Is(err, mcp.ErrTaskNotFound) {
		t.Errorf("unknown task: %v", err)
	}
}

func TestDemo_CoreCancel(t *testing.T) {
	_, url := startDemo(t, demoserver.Options{})
	c := connect(t, url)
	h, err := c.CallTool(t.Context(), mcp.CallParams{Name: "hang", Task: mcp.FormCore})
	if err != nil {
		t.Fatal(err)
	}
	ct, err := c.CancelTask(t.Context(), h.Task.TaskID)
	if err != nil || ct.Status != mcp.StatusCancelled {
		t.Fatalf("cancel = %+v, %v", ct, err)
	}
	if _, err := c.TaskResult(t.Context(), h.Task.TaskID); err == nil {
		t.Error("result of a cancelled task: no error")
	}
}

func TestDemo_InputRequiredEndsTheWait(t *testing.T) {
	_, url := startDemo(t, demoserver.Options{})
	c := connect(t, url)
	res, err := c.CallTool(t.Context(), mcp.CallParams{Name: "ask", Task: mcp.FormCore})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	_, err = c.TaskResult(ctx, res.Task.TaskID)
	if !errors.Is(err, mcp.ErrInputRequired) || !strings.Contains(err.Error(), "Which region") {
		t.Fatalf("err = %v", err)
	}
}

// TestDemo_CutStreamIsResumed: a tasks/result reply cut after its priming
// event is resumed (GET with Last-Event-ID) and the result arrives.
func TestDemo_CutStreamIsResumed(t *testing.T) {
	d, url := startDemo(t, demoserver.Options{CutResultStreams: 1})
	c := connect(t, url)
	res, err := c.CallTool(t.Context(), mcp.CallParams{Name: "research", Arguments: json.RawMessage(`{"topic":"x","stages":1}`), Task: mcp.FormCore})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.TaskResult(t.Context(), res.Task.TaskID); err != nil {
		t.Fatalf("cut stream, resumed: %v", err)
	}
	resumes := 0
	for _, q := range d.Requests() {
		if q.Method == "GET" && q.Header.Get("Last-Event-ID") != "" {
			resumes++
		}
	}
	if resumes == 0 {
		t.Error("the result came without a GET + Last-Event-ID resume")
	}
}

func TestDemo_LegacyToolRequiresTask(t *testing.T) {
	_, url := startDemo(t, demoserver.Options{})
	c := connect(t, url)
	_, err := c.CallTool(t.Context(), mcp.CallParams{Name: "hang"})
	if !errors.Is(err, mcp.ErrMethodNotFound) {
		t.Fatalf("plain call of a task-required tool: %v", err)
	}
	res, err := c.CallTool(t.Context(), mcp.CallParams{Name: "start_job", Arguments: json.RawMessage(`{"seconds":0}`)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Result.Text(), `"job_id":"job-1"`) {
		t.Errorf("start_job = %q", res.Result.Text())
	}
}
