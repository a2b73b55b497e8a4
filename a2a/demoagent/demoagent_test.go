package demoagent_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/a2a/demoagent"
)

// These tests speak raw JSON-RPC so that they depend on nothing but the wire;
// the client-side view is in a2a/interop_test.go.

type rpcReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      any             `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

type wireTask struct {
	ID     string `json:"id"`
	Status struct {
		State   string `json:"state"`
		Message *struct {
			Parts []wirePart `json:"parts"`
		} `json:"message"`
	} `json:"status"`
	Artifacts []struct {
		Name  string     `json:"name"`
		Parts []wirePart `json:"parts"`
	} `json:"artifacts"`
}

type wirePart struct {
	Text      string `json:"text,omitempty"`
	Raw       []byte `json:"raw,omitempty"`
	Filename  string `json:"filename,omitempty"`
	MediaType string `json:"mediaType,omitempty"`
}

var rpcID atomic.Int64

type server struct {
	t     *testing.T
	agent *demoagent.Server
	url   string
}

func newServer(t *testing.T, opts demoagent.Options) *server {
	t.Helper()
	a := demoagent.New(opts)
	srv := httptest.NewServer(a.Handler())
	t.Cleanup(func() { a.Close(); srv.Close() })
	return &server{t: t, agent: a, url: srv.URL}
}

func (s *server) post(method string, params any, header http.Header) *http.Response {
	s.t.Helper()
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": rpcID.Add(1), "method": method, "params": params})
	if err != nil {
		s.t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(s.t.Context(), http.MethodPost, s.url+demoagent.JSONRPCPath, bytes.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "1.0")
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	return resp
}

func (s *server) call(method string, params any) rpcReply {
	s.t.Helper()
	resp := s.post(method, params, nil)
	defer resp.Body.Close()
	var r rpcReply
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		s.t.Fatalf("%s: decode: %v", method, err)
	}
	return r
}

func message(id, text string, extra ...wirePart) map[string]any {
	parts := []any{map[string]any{"text": text}}
	for _, p := range extra {
		parts = append(parts, p)
	}
	return map[string]any{"message": map[string]any{"messageId": id, "role": "ROLE_USER", "parts": parts}}
}

func (s *server) send(id, text string, extra ...wirePart) wireTask {
	s.t.Helper()
	r := s.call("SendMessage", message(id, text, extra...))
	if r.Error != nil {
		s.t.Fatalf("SendMessage %q: error %d %s", text, r.Error.Code, r.Error.Message)
	}
	var res struct {
		Task *wireTask `json:"task"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil || res.Task == nil {
		s.t.Fatalf("SendMessage %q: result %s: %v", text, r.Result, err)
	}
	return *res.Task
}

// stream returns the JSON-RPC objects of an SSE reply, in order.
func (s *server) stream(method string, params any) []rpcReply {
	s.t.Helper()
	resp := s.post(method, params, http.Header{"Accept": {"text/event-stream"}})
	defer resp.Body.Close()
	var out []rpcReply
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data:")
		if !ok {
			continue
		}
		var r rpcReply
		if err := json.Unmarshal([]byte(strings.TrimSpace(data)), &r); err != nil {
			s.t.Fatalf("%s: event %q: %v", method, data, err)
		}
		out = append(out, r)
	}
	return out
}

func states(replies []rpcReply) []string {
	var out []string
	for _, r := range replies {
		var ev struct {
			Task         *wireTask `json:"task"`
			StatusUpdate *struct {
				Status struct {
					State string `json:"state"`
				} `json:"status"`
			} `json:"statusUpdate"`
			ArtifactUpdate json.RawMessage `json:"artifactUpdate"`
		}
		if r.Error != nil {
			out = append(out, fmt.Sprintf("error %d", r.Error.Code))
			continue
		}
		json.Unmarshal(r.Result, &ev) //nolint:errcheck // shape checked by the switch
		switch {
		case ev.Task != nil:
			out = append(out, "task "+ev.Task.Status.State)
		case ev.StatusUpdate != nil:
			out = append(out, ev.StatusUpdate.Status.State)
		case ev.ArtifactUpdate != nil:
			out = append(out, "artifact")
		}
	}
	return out
}

func TestEndStates(t *testing.T) {
	s := newServer(t, demoagent.Options{})
	tests := []struct {
		text      string
		wantState string
		wantMsg   string
	}{
		{"fail", "TASK_STATE_FAILED", demoagent.FailText},
		{"input please", "TASK_STATE_INPUT_REQUIRED", demoagent.InputText},
		{"auth", "TASK_STATE_AUTH_REQUIRED", demoagent.AuthText},
		{"REJECT", "TASK_STATE_REJECTED", demoagent.RejectText},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			task := s.send("m-"+tt.text, tt.text)
			if task.Status.State != tt.wantState {
				t.Fatalf("state = %s, want %s", task.Status.State, tt.wantState)
			}
			if task.Status.Message == nil || len(task.Status.Message.Parts) == 0 || task.Status.Message.Parts[0].Text != tt.wantMsg {
				t.Fatalf("status message = %+v, want %q", task.Status.Message, tt.wantMsg)
			}
		})
	}
}

func TestEchoCountsSubmissionOnce(t *testing.T) {
	s := newServer(t, demoagent.Options{})
	task := s.send("echo-1", "echo hello there")
	if task.Status.State != "TASK_STATE_COMPLETED" || len(task.Artifacts) != 1 || task.Artifacts[0].Parts[0].Text != "echo hello there" {
		t.Fatalf("echo task = %+v", task)
	}
	if got := s.agent.SubmissionsFor("echo-1"); got != 1 {
		t.Fatalf("SubmissionsFor = %d, want 1", got)
	}
	if got := s.agent.Calls("SendMessage"); got != 1 {
		t.Fatalf("Calls(SendMessage) = %d, want 1", got)
	}
}

func TestInputFollowUpCompletes(t *testing.T) {
	s := newServer(t, demoagent.Options{})
	task := s.send("in-1", "input")
	r := s.call("SendMessage", map[string]any{"message": map[string]any{
		"messageId": "in-2", "taskId": task.ID, "role": "ROLE_USER", "parts": []any{map[string]any{"text": "here it is"}},
	}})
	var res struct{ Task wireTask }
	if r.Error != nil || json.Unmarshal(r.Result, &res) != nil {
		t.Fatalf("follow-up: %+v %s", r.Error, r.Result)
	}
	if res.Task.Status.State != "TASK_STATE_COMPLETED" || res.Task.Artifacts[len(res.Task.Artifacts)-1].Parts[0].Text != "here it is" {
		t.Fatalf("follow-up task = %+v", res.Task)
	}
}

func TestSlowStreamsEveryStep(t *testing.T) {
	s := newServer(t, demoagent.Options{SlowInterval: time.Millisecond})
	got := states(s.stream("SendStreamingMessage", message("slow-1", "slow 3")))
	want := []string{"task TASK_STATE_SUBMITTED", "TASK_STATE_WORKING", "TASK_STATE_WORKING", "TASK_STATE_WORKING", "artifact", "TASK_STATE_COMPLETED"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("slow 3 events (-want +got):\n%s", diff)
	}
}

func TestFileReportAndReturnedFile(t *testing.T) {
	s := newServer(t, demoagent.Options{})
	task := s.send("file-1", "file",
		wirePart{Raw: []byte("hello"), Filename: "a.txt", MediaType: "text/plain"},
		wirePart{Raw: bytes.Repeat([]byte{7}, 1024), Filename: "b.bin"},
	)
	if len(task.Artifacts) != 2 {
		t.Fatalf("artifacts = %+v", task.Artifacts)
	}
	if got, want := task.Artifacts[0].Parts[0].Text, "files: 2\na.txt 5 text/plain\nb.bin 1024 -"; got != want {
		t.Fatalf("report = %q, want %q", got, want)
	}
	f := task.Artifacts[1].Parts[0]
	if f.Filename != demoagent.DemoFile.Name || f.MediaType != demoagent.DemoFile.MediaType || !bytes.Equal(f.Raw, demoagent.DemoFile.Content) {
		t.Fatalf("returned file = %+v", f)
	}
}

func (s *server) start(id, text string) wireTask {
	s.t.Helper()
	params := message(id, text)
	params["configuration"] = map[string]any{"returnImmediately": true}
	r := s.call("SendMessage", params)
	var res struct{ Task *wireTask }
	if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || res.Task == nil {
		s.t.Fatalf("start %q: %+v %s", text, r.Error, r.Result)
	}
	return *res.Task
}

func errCode(r rpcReply) int {
	if r.Error == nil {
		return 0
	}
	return r.Error.Code
}

func TestCancel(t *testing.T) {
	s := newServer(t, demoagent.Options{UncancelableFor: -1})

	hang := s.start("h-1", "hang")
	r := s.call("CancelTask", map[string]any{"id": hang.ID})
	var task wireTask
	if r.Error != nil || json.Unmarshal(r.Result, &task) != nil || task.Status.State != "TASK_STATE_CANCELED" {
		t.Fatalf("cancel hang: %+v %s", r.Error, r.Result)
	}
	if got := s.agent.Cancels(hang.ID); got != 1 {
		t.Fatalf("Cancels = %d, want 1", got)
	}

	unc := s.start("u-1", "uncancelable")
	if got := errCode(s.call("CancelTask", map[string]any{"id": unc.ID})); got != -32002 {
		t.Fatalf("cancel uncancelable: code %d, want -32002", got)
	}
	r = s.call("GetTask", map[string]any{"id": unc.ID})
	if r.Error != nil || json.Unmarshal(r.Result, &task) != nil || (task.Status.State != "TASK_STATE_WORKING" && task.Status.State != "TASK_STATE_SUBMITTED") {
		t.Fatalf("uncancelable after cancel: %+v %s", r.Error, r.Result)
	}

	done := s.send("e-1", "echo x")
	if got := errCode(s.call("CancelTask", map[string]any{"id": done.ID})); got != -32002 {
		t.Fatalf("cancel completed: code %d, want -32002", got)
	}
}

func TestUnfinishedAnswersBlockingSendEarly(t *testing.T) {
	s := newServer(t, demoagent.Options{})
	task := s.send("uf-1", "unfinished business") // blocking: no returnImmediately
	if task.Status.State != "TASK_STATE_SUBMITTED" && task.Status.State != "TASK_STATE_WORKING" {
		t.Fatalf("state = %s, want SUBMITTED or WORKING", task.Status.State)
	}
	r := s.call("CancelTask", map[string]any{"id": task.ID})
	var canceled wireTask
	if r.Error != nil || json.Unmarshal(r.Result, &canceled) != nil || canceled.Status.State != "TASK_STATE_CANCELED" {
		t.Fatalf("cancel unfinished: %+v %s", r.Error, r.Result)
	}
}

func TestSubscribe(t *testing.T) {
	s := newServer(t, demoagent.Options{SlowInterval: 50 * time.Millisecond})
	running := s.start("s-1", "slow 4")
	got := states(s.stream("SubscribeToTask", map[string]any{"id": running.ID}))
	if len(got) < 2 || !strings.HasPrefix(got[0], "task ") || got[len(got)-1] != "TASK_STATE_COMPLETED" {
		t.Fatalf("subscribe to running task: %v", got)
	}
	// a2asrv answers -32001 here where the spec says -32004 (see doc.go); in
	// the moment before it forgets the execution it sends the final snapshot.
	ended := states(s.stream("SubscribeToTask", map[string]any{"id": running.ID}))
	if !cmp.Equal([]string{"error -32001"}, ended) && !cmp.Equal([]string{"task TASK_STATE_COMPLETED"}, ended) {
		t.Fatalf("subscribe to ended task = %q, want error -32001 or the final snapshot", ended)
	}
}

func TestNonStreaming(t *testing.T) {
	s := newServer(t, demoagent.Options{DisableStreaming: true})
	if task := s.send("ns-1", "echo hi"); task.Status.State != "TASK_STATE_COMPLETED" {
		t.Fatalf("blocking send on non-streaming agent: %+v", task)
	}
	got := states(s.stream("SendStreamingMessage", message("ns-2", "echo hi")))
	if diff := cmp.Diff([]string{"error -32004"}, got); diff != "" {
		t.Fatalf("streaming on non-streaming agent (-want +got):\n%s", diff)
	}
}

func TestAuth(t *testing.T) {
	s := newServer(t, demoagent.Options{BearerToken: "tok", APIKey: "key", APIKeyHeader: "X-Demo-Key"})
	tests := []struct {
		name   string
		header http.Header
		want   int
	}{
		{"none", nil, http.StatusUnauthorized},
		{"wrong bearer", http.Header{"Authorization": {"Bearer nope"}}, http.StatusUnauthorized},
		{"bearer", http.Header{"Authorization": {"Bearer tok"}}, http.StatusOK},
		{"api key", http.Header{"X-Demo-Key": {"key"}}, http.StatusOK},
		{"wrong api key", http.Header{"X-Demo-Key": {"tok"}}, http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := s.post("GetTask", map[string]any{"id": "nope"}, tt.header)
			io.Copy(io.Discard, resp.Body) //nolint:errcheck
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Fatalf("status = %d, want %d", resp.StatusCode, tt.want)
			}
			if tt.want == http.StatusUnauthorized && resp.Header.Get("WWW-Authenticate") == "" {
				t.Fatal("401 without WWW-Authenticate")
			}
		})
	}
	if got := s.agent.Stats().Unauthorized; got != 3 {
		t.Fatalf("Unauthorized = %d, want 3", got)
	}
	// The card is public and declares both schemes.
	resp, err := http.Get(s.url + "/.well-known/agent-card.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var card struct {
		SupportedInterfaces  []struct{ URL, ProtocolBinding, ProtocolVersion string }
		SecuritySchemes      map[string]json.RawMessage
		SecurityRequirements []json.RawMessage
	}
	if err := json.NewDecoder(resp.Body).Decode(&card); err != nil {
		t.Fatal(err)
	}
	if card.SupportedInterfaces[0].URL != s.url+demoagent.JSONRPCPath || len(card.SecuritySchemes) != 2 || len(card.SecurityRequirements) != 2 {
		t.Fatalf("card = %+v", card)
	}
}

func TestBodyLimit413(t *testing.T) {
	s := newServer(t, demoagent.Options{MaxBodyBytes: 1000})
	raw := base64.StdEncoding.EncodeToString(make([]byte, 2000))
	resp := s.post("SendMessage", message("big", "file", wirePart{Text: raw}), nil)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status = %d, want 413", resp.StatusCode)
	}
	if got := s.agent.SubmissionsFor("big"); got != 0 {
		t.Fatalf("SubmissionsFor(big) = %d, want 0", got)
	}
}
