package a2a

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/remotecall"
)

func TestRequests_CarryVersionContentTypeAndCredential(t *testing.T) {
	tests := []struct {
		name       string
		cred       *remotecall.Credential
		wantHeader string
		wantValue  string
	}{
		{"none", nil, "Authorization", ""},
		{"bearer", &remotecall.Credential{Kind: remotecall.CredentialBearer, Secret: "tok"}, "Authorization", "Bearer tok"},
		{"api key", &remotecall.Credential{Kind: remotecall.CredentialAPIKey, Header: "X-API-Key", Secret: "key"}, "X-Api-Key", "key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newFakeAgent(t)
			a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
				switch in.Method {
				case "SendStreamingMessage", "SubscribeToTask":
					sseFrames(w, in.ID, `{"task":`+taskJSON("t1", "TASK_STATE_COMPLETED")+`}`)
				case "SendMessage":
					writeJSON(w, 200, resultJSON(in.ID, `{"task":`+taskJSON("t1", "TASK_STATE_COMPLETED")+`}`))
				default:
					writeJSON(w, 200, resultJSON(in.ID, taskJSON("t1", "TASK_STATE_COMPLETED")))
				}
			}
			var opts Options
			if tt.cred != nil {
				opts = CredentialOptions(t, a.srv.URL, *tt.cred)
			}
			c := a.client(t, opts)
			ctx := t.Context()
			if _, err := c.SendMessage(ctx, textMessage("hi")); err != nil {
				t.Fatal(err)
			}
			for _, err := range c.SendStreamingMessage(ctx, textMessage("hi")) {
				if err != nil {
					t.Fatal(err)
				}
			}
			for _, err := range c.SubscribeToTask(ctx, "t1") {
				if err != nil {
					t.Fatal(err)
				}
			}
			if _, err := c.GetTask(ctx, "t1"); err != nil {
				t.Fatal(err)
			}
			if _, err := c.CancelTask(ctx, "t1"); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, in := range a.Calls() {
				got = append(got, fmt.Sprintf("%s v=%s ct=%s accept=%s cred=%q", in.Method,
					in.Header.Get("A2A-Version"), in.Header.Get("Content-Type"), in.Header.Get("Accept"), in.Header.Get(tt.wantHeader)))
			}
			v := tt.wantValue
			want := []string{
				fmt.Sprintf("SendMessage v=1.0 ct=application/json accept=application/json cred=%q", v),
				fmt.Sprintf("SendStreamingMessage v=1.0 ct=application/json accept=text/event-stream cred=%q", v),
				fmt.Sprintf("SubscribeToTask v=1.0 ct=application/json accept=text/event-stream cred=%q", v),
				fmt.Sprintf("GetTask v=1.0 ct=application/json accept=application/json cred=%q", v),
				fmt.Sprintf("CancelTask v=1.0 ct=application/json accept=application/json cred=%q", v),
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSendMessage_Results(t *testing.T) {
	tests := []struct {
		name    string
		reply   func(id json.RawMessage) string
		taskID  string // the message continues this task
		want    *SendResult
		wantErr error
	}{
		{"task", func(id json.RawMessage) string {
			return resultJSON(id, `{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"a1","parts":[{"raw":"aGk=","filename":"hi.txt","mediaType":"text/plain"}]}]}}`)
		}, "", &SendResult{Task: &Task{ID: "t1", ContextID: "c1", Status: TaskStatus{State: TaskStateCompleted},
			Artifacts: []Artifact{{ArtifactID: "a1", Parts: []Part{{Raw: []byte("hi"), Filename: "hi.txt", MediaType: "text/plain"}}}}}}, nil},
		{"message", func(id json.RawMessage) string {
			return resultJSON(id, `{"message":{"messageId":"r1","role":"ROLE_AGENT","parts":[{"text":"echo: hi"}]}}`)
		}, "", &SendResult{Message: &Message{MessageID: "r1", Role: RoleAgent, Parts: []Part{{Text: "echo: hi"}}}}, nil},
		{"string id echoed for numeric id", func(id json.RawMessage) string {
			return resultJSON(json.RawMessage(`"`+string(id)+`"`), `{"message":{"messageId":"r1","role":"ROLE_AGENT","parts":[]}}`)
		}, "", nil, ErrProtocol},
		{"wrong id", func(id json.RawMessage) string {
			return resultJSON(json.RawMessage("999"), `{"task":`+taskJSON("t1", "TASK_STATE_COMPLETED")+`}`)
		}, "", nil, ErrProtocol},
		{"not JSON-RPC 2.0", func(id json.RawMessage) string {
			return fmt.Sprintf(`{"id":%s,"result":{"task":%s}}`, id, taskJSON("t1", "TASK_STATE_COMPLETED"))
		}, "", nil, ErrProtocol},
		{"both task and message", func(id json.RawMessage) string {
			return resultJSON(id, `{"task":`+taskJSON("t1", "TASK_STATE_COMPLETED")+`,"message":{"messageId":"r","role":"ROLE_AGENT","parts":[]}}`)
		}, "", nil, ErrProtocol},
		{"empty result", func(id json.RawMessage) string { return resultJSON(id, `{}`) }, "", nil, ErrProtocol},
		{"null result", func(id json.RawMessage) string { return resultJSON(id, `null`) }, "", nil, ErrProtocol},
		{"result and error", func(id json.RawMessage) string {
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"task":%s},"error":{"code":-32603,"message":"x"}}`, id, taskJSON("t1", "TASK_STATE_COMPLETED"))
		}, "", nil, ErrProtocol},
		{"garbage", func(json.RawMessage) string { return "HTTP/1.1 200 OK\r\nhello" }, "", nil, ErrProtocol},
		{"task without id", func(id json.RawMessage) string {
			return resultJSON(id, `{"task":{"status":{"state":"TASK_STATE_COMPLETED"}}}`)
		}, "", nil, ErrProtocol},
		{"continuation answered with another task", func(id json.RawMessage) string {
			return resultJSON(id, `{"task":`+taskJSON("t2", "TASK_STATE_COMPLETED")+`}`)
		}, "t1", nil, ErrProtocol},
		{"error with null id", func(json.RawMessage) string {
			return errorJSON(json.RawMessage("null"), -32009, "version")
		}, "", nil, ErrVersionNotSupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newFakeAgent(t)
			a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) { writeJSON(w, 200, tt.reply(in.ID)) }
			req := textMessage("hi")
			req.Message.TaskID = tt.taskID
			got, err := a.client(t, Options{}).SendMessage(t.Context(), req)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGetTaskCancelTask_ReplyMustNameTheTask(t *testing.T) {
	a := newFakeAgent(t)
	a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
		writeJSON(w, 200, resultJSON(in.ID, taskJSON("other", "TASK_STATE_WORKING")))
	}
	c := a.client(t, Options{})
	if _, err := c.GetTask(t.Context(), "t1"); !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), `"other"`) {
		t.Errorf("GetTask err = %v, want ErrProtocol naming the task", err)
	}
	if _, err := c.CancelTask(t.Context(), "t1"); !errors.Is(err, ErrProtocol) {
		t.Errorf("CancelTask err = %v, want ErrProtocol", err)
	}
}

func TestCancelTask_ReturnsReportedState(t *testing.T) {
	a := newFakeAgent(t)
	a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
		if diff := cmp.Diff(`{"id":"t1"}`, string(in.Params)); diff != "" {
			t.Errorf("params (-want +got):\n%s", diff)
		}
		writeJSON(w, 200, resultJSON(in.ID, taskJSON("t1", "TASK_STATE_WORKING")))
	}
	task, err := a.client(t, Options{}).CancelTask(t.Context(), "t1")
	if err != nil || task.Status.State != TaskStateWorking {
		t.Fatalf("CancelTask = %+v, %v; want the WORKING state the agent reported (docs/remote-agent.md R10)", task, err)
	}
}

func TestRPCErrors_MatchSentinels(t *testing.T) {
	tests := []struct {
		code int
		want error
	}{
		{-32001, ErrTaskNotFound}, {-32002, ErrTaskNotCancelable}, {-32003, ErrPushNotificationNotSupported},
		{-32004, ErrUnsupportedOperation}, {-32005, ErrContentTypeNotSupported}, {-32006, ErrInvalidAgentResponse},
		{-32007, ErrExtendedCardNotConfigured}, {-32008, ErrExtensionSupportRequired}, {-32009, ErrVersionNotSupported},
		{-32700, ErrParse}, {-32600, ErrInvalidRequest}, {-32601, ErrMethodNotFound}, {-32602, ErrInvalidParams},
		{-32603, ErrInternal}, {-32000, ErrServerError}, {-31401, ErrUnauthorized}, {-31403, ErrUnauthorized},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.code), func(t *testing.T) {
			a := newFakeAgent(t)
			a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
				writeJSON(w, 200, errorJSON(in.ID, tt.code, "boom"))
			}
			_, err := a.client(t, Options{}).GetTask(t.Context(), "t1")
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			var rpc *RPCError
			if !errors.As(err, &rpc) || rpc.Code != tt.code || rpc.Message != "boom" || !bytes.Contains(rpc.Data, []byte("ErrorInfo")) {
				t.Errorf("RPCError = %+v", rpc)
			}
			if errors.Is(err, ErrProtocol) {
				t.Errorf("an agent's error is not a protocol error")
			}
		})
	}
}

func TestHTTPErrors(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		header   map[string]string
		body     func(id json.RawMessage) string
		want     []error
		wantAuth string
	}{
		{"401 with challenge", 401, map[string]string{"WWW-Authenticate": `Bearer realm="agent", error="invalid_token"`},
			func(json.RawMessage) string { return "unauthorized" }, []error{ErrUnauthorized}, `Bearer realm="agent", error="invalid_token"`},
		{"403", 403, nil, func(json.RawMessage) string { return "" }, []error{ErrUnauthorized}, ""},
		{"413 with HTML", 413, map[string]string{"Content-Type": "text/html"},
			func(json.RawMessage) string {
				return "<html><head><title>413 Request Entity Too Large</title></head><body>" + strings.Repeat("x", 200<<10) + "</body></html>"
			}, []error{ErrPayloadTooLarge}, ""},
		{"500 with JSON-RPC error", 500, map[string]string{"Content-Type": "application/json"},
			func(id json.RawMessage) string { return errorJSON(id, -32603, "internal") }, []error{ErrServer, ErrInternal}, ""},
		{"502 HTML", 502, nil, func(json.RawMessage) string { return "<html>Bad Gateway</html>" }, []error{ErrServer}, ""},
		{"400 with JSON-RPC error", 400, nil, func(id json.RawMessage) string { return errorJSON(id, -32005, "content type") },
			[]error{ErrContentTypeNotSupported}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newFakeAgent(t)
			a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
				for k, v := range tt.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.body(in.ID))
			}
			c := a.client(t, Options{})
			errs := map[string]error{}
			_, errs["SendMessage"] = c.SendMessage(t.Context(), textMessage("hi"))
			for _, err := range c.SendStreamingMessage(t.Context(), textMessage("hi")) {
				errs["SendStreamingMessage"] = err
			}
			for method, err := range errs {
				for _, w := range tt.want {
					if !errors.Is(err, w) {
						t.Errorf("%s: err = %v, want %v", method, err, w)
					}
				}
				var h *HTTPError
				if !errors.As(err, &h) || h.StatusCode != tt.status || h.WWWAuthenticate != tt.wantAuth {
					t.Errorf("%s: HTTPError = %+v", method, h)
				}
			}
		})
	}
}

func TestReply_OverCapIsRefused(t *testing.T) {
	a := newFakeAgent(t)
	a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
		writeJSON(w, 200, resultJSON(in.ID, `{"id":"t1","status":{"state":"TASK_STATE_WORKING"},"metadata":{"pad":"`+strings.Repeat("x", 4096)+`"}}`))
	}
	_, err := a.client(t, Options{MaxReplyBytes: 1024}).GetTask(t.Context(), "t1")
	if !errors.Is(err, ErrReplyTooLarge) {
		t.Fatalf("err = %v, want ErrReplyTooLarge", err)
	}
}

// R14: a request over the transport limit is refused before anything is sent.
func TestRequestTooLarge_NothingSent(t *testing.T) {
	a := newFakeAgent(t)
	a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
		t.Errorf("the agent received %s", in.Method)
	}
	c := a.client(t, Options{MaxRequestBytes: 4096})
	req := textMessage("see attachment")
	req.Message.Parts = append(req.Message.Parts, Part{Raw: bytes.Repeat([]byte{7}, 4096), Filename: "a.bin"})
	size, err := c.RequestSize(req)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.SendMessage(t.Context(), req)
	if !errors.Is(err, ErrRequestTooLarge) {
		t.Fatalf("SendMessage err = %v, want ErrRequestTooLarge", err)
	}
	// The message names both sizes; the id is counted at full width by
	// RequestSize, so the real request can only be smaller.
	if !strings.Contains(err.Error(), "4096 bytes") || !strings.Contains(err.Error(), "is 5") {
		t.Errorf("message %q should name both sizes (RequestSize %d)", err, size)
	}
	for _, err := range c.SendStreamingMessage(t.Context(), req) {
		if !errors.Is(err, ErrRequestTooLarge) {
			t.Errorf("stream err = %v, want ErrRequestTooLarge", err)
		}
	}
	if n := len(a.Calls()); n != 0 {
		t.Errorf("%d requests reached the agent", n)
	}
}

// bytesEqual keeps go-cmp fast on multi-megabyte payloads; nil and empty
// differ because an empty raw part is still a raw part.
var bytesEqual = cmp.Comparer(func(a, b []byte) bool { return (a == nil) == (b == nil) && bytes.Equal(a, b) })

type countingSource struct {
	data  []byte
	opens int
}

func (s *countingSource) source() *FileSource {
	return &FileSource{Size: int64(len(s.data)), Open: func() (io.ReadCloser, error) {
		s.opens++
		return io.NopCloser(bytes.NewReader(s.data)), nil
	}}
}

// The streamed body equals what encoding/json would produce, its length is
// announced up front, and RequestSize predicts it.
func TestSendMessage_StreamedBodyIsExact(t *testing.T) {
	small := []byte("small file")
	big := bytes.Repeat([]byte("0123456789abcdefg"), (3<<20)/17) // > streamThreshold
	src := &countingSource{data: bytes.Repeat([]byte{0xfe, 0x00, 0x41}, 700_001)}
	hist := int32(3)
	req := SendMessageRequest{
		Message: Message{MessageID: "m1", ContextID: "c<1>", Role: RoleUser, Metadata: json.RawMessage(`{"k": "v"}`), Parts: []Part{
			{Text: "hello \"world\" <&>"},
			{Raw: small, Filename: "s.txt", MediaType: "text/plain"},
			{Raw: big, Filename: "big.bin"},
			{Raw: []byte{}, Filename: "empty"},
			{Source: src.source(), Filename: "src.bin", MediaType: "application/octet-stream", Metadata: json.RawMessage(`{"n":1}`)},
			{URL: "https://x.example/f", Filename: "u"},
			{Data: json.RawMessage(`{"a":[1,2]}`)},
		}},
		Configuration: &SendMessageConfiguration{AcceptedOutputModes: []string{"text/plain"}, HistoryLength: &hist},
		Metadata:      json.RawMessage(`{"trace":"x"}`),
	}
	for _, tenant := range []string{"", "acme"} {
		t.Run("tenant="+tenant, func(t *testing.T) {
			a := newFakeAgent(t)
			a.CardFunc = func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, cardJSON(a.srv.URL+"/rpc", tenant)) }
			a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
				writeJSON(w, 200, resultJSON(in.ID, `{"message":{"messageId":"r","role":"ROLE_AGENT","parts":[{"text":"ok"}]}}`))
			}
			c := a.client(t, Options{})
			predicted, err := c.RequestSize(req)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.SendMessage(t.Context(), req); err != nil {
				t.Fatal(err)
			}
			in := a.Calls()[0]
			if in.ContentLength != in.BodyLen || in.ContentLength <= 0 {
				t.Errorf("Content-Length %d, body %d bytes", in.ContentLength, in.BodyLen)
			}
			if in.BodyLen > predicted || predicted-in.BodyLen > 27 {
				t.Errorf("RequestSize %d, actual %d", predicted, in.BodyLen)
			}
			var got struct {
				Tenant string `json:"tenant"`
				SendMessageRequest
			}
			if err := json.Unmarshal(in.Params, &got); err != nil {
				t.Fatal(err)
			}
			want := req
			want.Message.Parts = append([]Part(nil), req.Message.Parts...)
			want.Message.Parts[4] = Part{Raw: src.data, Filename: "src.bin", MediaType: "application/octet-stream", Metadata: json.RawMessage(`{"n":1}`)}
			want.Message.Metadata = json.RawMessage(`{"k":"v"}`)
			if got.Tenant != tenant {
				t.Errorf("tenant = %q, want %q", got.Tenant, tenant)
			}
			if diff := cmp.Diff(want, got.SendMessageRequest, bytesEqual); diff != "" {
				t.Errorf("decoded request (-want +got):\n%.2000s", diff)
			}
		})
	}
}

func TestSendMessage_SourceErrors(t *testing.T) {
	a := newFakeAgent(t)
	a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
		t.Errorf("a broken body reached the handler")
	}
	c := a.client(t, Options{})
	data := bytes.Repeat([]byte{1}, 2<<20)
	tests := []struct {
		name string
		src  *FileSource
		want string
	}{
		{"open fails", &FileSource{Size: 2 << 20, Open: func() (io.ReadCloser, error) { return nil, errors.New("disk gone") }}, "disk gone"},
		{"file shrank", &FileSource{Size: 2<<20 + 10, Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}, "changed size"},
		{"file grew", &FileSource{Size: 2<<20 - 10, Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}, "changed size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := textMessage("x")
			req.Message.Parts = append(req.Message.Parts, Part{Source: tt.src, Filename: "f"})
			_, err := c.SendMessage(t.Context(), req)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// R3.3: a redirect to another origin never carries the credential.
func TestRedirect_CredentialNeverLeavesItsOrigin(t *testing.T) {
	var leaked []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked = append(leaked, fmt.Sprintf("%s auth=%q key=%q", r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("X-API-Key")))
		writeJSON(w, 200, `{"jsonrpc":"2.0","id":1,"result":{"id":"t1","status":{"state":"TASK_STATE_WORKING"}}}`)
	}))
	defer other.Close()
	for _, cred := range []remotecall.Credential{
		{Kind: remotecall.CredentialAPIKey, Header: "X-API-Key", Secret: "key"},
		{Kind: remotecall.CredentialBearer, Secret: "tok"},
	} {
		t.Run(cred.Kind, func(t *testing.T) {
			leaked = nil
			a := newFakeAgent(t)
			a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
				http.Redirect(w, r, other.URL+"/steal", http.StatusTemporaryRedirect)
			}
			// A redirect policy that allows everything; the transport's
			// origin check still applies to the redirected request.
			opts := CredentialOptions(t, a.srv.URL, cred)
			opts.HTTPClient.CheckRedirect = func(*http.Request, []*http.Request) error { return nil }
			c := a.client(t, opts)
			_, err := c.GetTask(t.Context(), "t1")
			if !errors.Is(err, remotecall.ErrOtherOrigin) {
				t.Errorf("err = %v, want remotecall.ErrOtherOrigin", err)
			}
			for _, l := range leaked {
				if strings.Contains(l, `"key"`) || strings.Contains(l, "tok") {
					t.Errorf("credential reached the other server: %s", l)
				}
			}
			if len(leaked) != 0 {
				t.Errorf("the request was followed to the other origin: %v", leaked)
			}
			if strings.Contains(err.Error(), "tok") || strings.Contains(err.Error(), `"key"`) {
				t.Errorf("error leaks the secret: %v", err)
			}
		})
	}
}

func TestRedirect_SameOriginKeepsCredential(t *testing.T) {
	a := newFakeAgent(t)
	var hits []string
	a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
		hits = append(hits, r.URL.RawQuery+" "+in.Header.Get("X-API-Key"))
		if r.URL.RawQuery == "" {
			http.Redirect(w, r, "/rpc?moved=1", http.StatusPermanentRedirect)
			return
		}
		writeJSON(w, 200, resultJSON(in.ID, taskJSON("t1", "TASK_STATE_WORKING")))
	}
	c := a.client(t, CredentialOptions(t, a.srv.URL, remotecall.Credential{Kind: remotecall.CredentialAPIKey, Header: "X-API-Key", Secret: "key"}))
	if _, err := c.GetTask(t.Context(), "t1"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{" key", "moved=1 key"}, hits); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
}

// Deadlines come from the context; a Timeout on the caller's client is
// dropped because it would cut streams.
func TestTimeouts_FromContextOnly(t *testing.T) {
	a := newFakeAgent(t)
	a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
		switch in.Method {
		case "GetTask":
			<-r.Context().Done()
		case "SubscribeToTask":
			sseHeader(w)
			for _, s := range []string{"TASK_STATE_WORKING", "TASK_STATE_WORKING", "TASK_STATE_COMPLETED"} {
				time.Sleep(60 * time.Millisecond)
				sseWrite(w, "data: "+resultJSON(in.ID, statusJSON("t1", s))+"\n\n")
			}
		}
	}
	c := a.client(t, Options{HTTPClient: &http.Client{Timeout: 50 * time.Millisecond}})
	n := 0
	for _, err := range c.SubscribeToTask(t.Context(), "t1") {
		if err != nil {
			t.Fatalf("stream cut: %v", err)
		}
		n++
	}
	if n != 3 {
		t.Errorf("%d events, want 3", n)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if _, err := c.GetTask(ctx, "t1"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want DeadlineExceeded", err)
	}
}

func TestCheckAccess(t *testing.T) {
	tests := []struct {
		name  string
		reply func(w http.ResponseWriter, in rpcIn)
		want  error
	}{
		{"task not found means access", func(w http.ResponseWriter, in rpcIn) { writeJSON(w, 200, errorJSON(in.ID, -32001, "nf")) }, nil},
		{"401", func(w http.ResponseWriter, in rpcIn) { w.WriteHeader(401) }, ErrUnauthorized},
		{"a2a-go unauthenticated code", func(w http.ResponseWriter, in rpcIn) { writeJSON(w, 200, errorJSON(in.ID, -31401, "who")) }, ErrUnauthorized},
		{"500", func(w http.ResponseWriter, in rpcIn) { writeJSON(w, 500, errorJSON(in.ID, -32603, "x")) }, ErrServer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newFakeAgent(t)
			a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
				if in.Method != "GetTask" {
					t.Errorf("CheckAccess called %s", in.Method)
				}
				tt.reply(w, in)
			}
			err := a.client(t, Options{}).CheckAccess(t.Context())
			if tt.want == nil && err != nil || !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestPart_JSONRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		part Part
		json string
	}{
		{"text", Part{Text: "hi"}, `{"text":"hi"}`},
		{"empty text", Part{}, `{"text":""}`},
		{"raw", Part{Raw: []byte("hi"), Filename: "a.txt", MediaType: "text/plain"}, `{"raw":"aGk=","filename":"a.txt","mediaType":"text/plain"}`},
		{"empty raw", Part{Raw: []byte{}, Filename: "e"}, `{"raw":"","filename":"e"}`},
		{"url", Part{URL: "https://x/y", MediaType: "image/png"}, `{"url":"https://x/y","mediaType":"image/png"}`},
		{"data", Part{Data: json.RawMessage(`{"a":1}`), Metadata: json.RawMessage(`{"m":true}`)}, `{"data":{"a":1},"metadata":{"m":true}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.part)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.json, string(b)); diff != "" {
				t.Errorf("marshal (-want +got):\n%s", diff)
			}
			var back Part
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.part, back); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
	var p Part
	if err := json.Unmarshal([]byte(`{"raw":"!!notbase64"}`), &p); err == nil {
		t.Errorf("bad base64 accepted")
	}
	if _, err := json.Marshal(Part{Source: &FileSource{}}); err == nil {
		t.Errorf("a FileSource part marshalled outside the request writer")
	}
}

func TestTaskState_Predicates(t *testing.T) {
	tests := []struct {
		s                     TaskState
		terminal, interrupted bool
	}{
		{TaskStateUnspecified, false, false}, {TaskStateSubmitted, false, false}, {TaskStateWorking, false, false},
		{TaskStateCompleted, true, false}, {TaskStateFailed, true, false}, {TaskStateCanceled, true, false},
		{TaskStateRejected, true, false}, {TaskStateInputRequired, false, true}, {TaskStateAuthRequired, false, true},
		{"completed", false, false},
	}
	for _, tt := range tests {
		if tt.s.Terminal() != tt.terminal || tt.s.Interrupted() != tt.interrupted {
			t.Errorf("%s: Terminal=%v Interrupted=%v", tt.s, tt.s.Terminal(), tt.s.Interrupted())
		}
	}
}

func TestSecurityRequirement_ThreeShapes(t *testing.T) {
	card := `{"name":"S","supportedInterfaces":[{"url":"https://a/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],
	 "securitySchemes":{"bearer":{"httpAuthSecurityScheme":{"scheme":"Bearer","bearerFormat":"JWT"}},
	   "key":{"apiKeySecurityScheme":{"location":"header","name":"X-API-Key"}},
	   "oidc":{"openIdConnectSecurityScheme":{"openIdConnectUrl":"https://a/.well-known/openid-configuration"}},
	   "oauth":{"oauth2SecurityScheme":{"flows":{"clientCredentials":{"tokenUrl":"https://a/t","scopes":{}}}}},
	   "mtls":{"mtlsSecurityScheme":{}}},
	 "securityRequirements":[{"schemes":{"oidc":{"list":["openid","email"]}}},{"schemes":{"key":[]}},{"bearer":["x"]},{"schemes":{"mtls":{}}}]}`
	c, err := ParseCard([]byte(card), "application/json")
	if err != nil {
		t.Fatal(err)
	}
	want := []SecurityRequirement{
		{Schemes: map[string][]string{"oidc": {"openid", "email"}}},
		{Schemes: map[string][]string{"key": {}}},
		{Schemes: map[string][]string{"bearer": {"x"}}},
		{Schemes: map[string][]string{"mtls": {}}},
	}
	if diff := cmp.Diff(want, c.SecurityRequirements); diff != "" {
		t.Errorf("requirements (-want +got):\n%s", diff)
	}
	s := c.SecuritySchemes
	if s["bearer"].HTTPAuth.Scheme != "Bearer" || s["key"].APIKey.Name != "X-API-Key" || s["oidc"].OpenIDConnect == nil || s["oauth"].OAuth2 == nil || s["mtls"].MTLS == nil {
		t.Errorf("schemes = %+v", s)
	}
	b, err := json.Marshal(want[0])
	if err != nil || string(b) != `{"schemes":{"oidc":{"list":["openid","email"]}}}` {
		t.Errorf("marshal = %s, %v", b, err)
	}
}

// R15: a large inline file in a reply arrives intact (the reply buffer is
// sized from Content-Length).
func TestSendMessage_LargeFileOutput(t *testing.T) {
	file := bytes.Repeat([]byte{0, 1, 2, 253, 254, 255}, 3<<20/6)
	a := newFakeAgent(t)
	a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
		writeJSON(w, 200, resultJSON(in.ID, `{"task":{"id":"t1","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"a","parts":[{"raw":"`+
			base64.StdEncoding.EncodeToString(file)+`","filename":"out.bin","mediaType":"application/octet-stream"}]}]}}`))
	}
	res, err := a.client(t, Options{}).SendMessage(t.Context(), textMessage("file"))
	if err != nil {
		t.Fatal(err)
	}
	p := res.Task.Artifacts[0].Parts[0]
	if !bytes.Equal(p.Raw, file) || p.Filename != "out.bin" || p.MediaType != "application/octet-stream" {
		t.Errorf("file part: %d bytes, %q, %q", len(p.Raw), p.Filename, p.MediaType)
	}
}

// TestErrors_SecretEchoedIsRedacted: an agent that echoes the credential's
// secret in WWW-Authenticate, an error body or a JSON-RPC error message gets
// it replaced in every error the client returns; the sentinels still match.
func TestErrors_SecretEchoedIsRedacted(t *testing.T) {
	const secret = "tok-echo-55"
	for _, tt := range []struct {
		name  string
		reply func(w http.ResponseWriter, in rpcIn)
		want  error
	}{
		{"401 challenge and body", func(w http.ResponseWriter, _ rpcIn) {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token", error_description="`+secret+`"`)
			w.WriteHeader(401)
			io.WriteString(w, "bad token "+secret)
		}, ErrUnauthorized},
		{"JSON-RPC error message", func(w http.ResponseWriter, in rpcIn) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, errorJSON(in.ID, -32001, "no task for "+secret))
		}, ErrTaskNotFound},
		{"JSON-RPC error over HTTP 500", func(w http.ResponseWriter, in rpcIn) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(500)
			io.WriteString(w, errorJSON(in.ID, -32603, "internal: "+secret))
		}, ErrInternal},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := newFakeAgent(t)
			a.RPCFunc = func(w http.ResponseWriter, _ *http.Request, in rpcIn) { tt.reply(w, in) }
			c := a.client(t, CredentialOptions(t, a.srv.URL, remotecall.Credential{Kind: remotecall.CredentialBearer, Secret: secret}))
			errs := map[string]error{}
			_, errs["SendMessage"] = c.SendMessage(t.Context(), textMessage("hi"))
			for _, err := range c.SendStreamingMessage(t.Context(), textMessage("hi")) {
				errs["SendStreamingMessage"] = err
			}
			for _, err := range c.SubscribeToTask(t.Context(), "t1") {
				errs["SubscribeToTask"] = err
			}
			_, errs["GetTask"] = c.GetTask(t.Context(), "t1")
			_, errs["CancelTask"] = c.CancelTask(t.Context(), "t1")
			errs["CheckAccess"] = c.CheckAccess(t.Context())
			for method, err := range errs {
				if method == "CheckAccess" && errors.Is(tt.want, ErrTaskNotFound) {
					continue // TaskNotFound is the expected answer there
				}
				if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), remotecall.Redacted) {
					t.Errorf("%s: err = %v, want the echo redacted", method, err)
				}
				if !errors.Is(err, tt.want) {
					t.Errorf("%s: err = %v, want %v", method, err, tt.want)
				}
			}
		})
	}
}
