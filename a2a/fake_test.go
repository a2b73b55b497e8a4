package a2a

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// rpcIn is one JSON-RPC request as the fake agent received it.
type rpcIn struct {
	ID            json.RawMessage `json:"id"`
	Method        string          `json:"method"`
	Params        json.RawMessage `json:"params"`
	Header        http.Header     `json:"-"`
	ContentLength int64           `json:"-"`
	BodyLen       int64           `json:"-"`
}

// fakeAgent is an httptest A2A agent whose behaviour each test sets.
type fakeAgent struct {
	srv *httptest.Server
	// CardFunc writes the card; nil serves cardJSON(base+"/rpc").
	CardFunc func(w http.ResponseWriter, r *http.Request)
	// RPCFunc answers a JSON-RPC request at /rpc.
	RPCFunc func(w http.ResponseWriter, r *http.Request, in rpcIn)

	mu    sync.Mutex
	calls []rpcIn
}

func newFakeAgent(t *testing.T) *fakeAgent {
	t.Helper()
	a := &fakeAgent{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/agent-card.json", func(w http.ResponseWriter, r *http.Request) {
		if a.CardFunc != nil {
			a.CardFunc(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, cardJSON(a.srv.URL+"/rpc", ""))
	})
	mux.HandleFunc("POST /rpc", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		var in rpcIn
		if err := json.Unmarshal(body, &in); err != nil {
			t.Errorf("fake agent: request is not JSON: %v", err)
			http.Error(w, "bad json", 400)
			return
		}
		in.Header = r.Header.Clone()
		in.ContentLength = r.ContentLength
		in.BodyLen = int64(len(body))
		a.mu.Lock()
		a.calls = append(a.calls, in)
		a.mu.Unlock()
		if a.RPCFunc == nil {
			t.Errorf("fake agent: unexpected %s", in.Method)
			return
		}
		a.RPCFunc(w, r, in)
	})
	a.srv = httptest.NewServer(mux)
	t.Cleanup(a.srv.Close)
	return a
}

func (a *fakeAgent) Calls() []rpcIn {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]rpcIn(nil), a.calls...)
}

// client discovers the fake agent.
func (a *fakeAgent) client(t *testing.T, opts Options) *Client {
	t.Helper()
	c, err := Discover(t.Context(), a.srv.URL, opts)
	if err != nil {
		t.Fatalf("Discover: %v", err)
	}
	return c
}

func cardJSON(rpcURL, tenant string) string {
	t := ""
	if tenant != "" {
		t = fmt.Sprintf(`,"tenant":%q`, tenant)
	}
	return fmt.Sprintf(`{"name":"Fake","description":"test agent","version":"1.0.0",
 "supportedInterfaces":[{"url":%q,"protocolBinding":"JSONRPC","protocolVersion":"1.0"%s}],
 "capabilities":{"streaming":true},
 "defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}`, rpcURL, t)
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

func resultJSON(id json.RawMessage, result string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result)
}

func errorJSON(id json.RawMessage, code int, msg string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%q,"data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"X","domain":"a2a-protocol.org"}]}}`, id, code, msg)
}

func taskJSON(id, state string) string {
	return fmt.Sprintf(`{"id":%q,"contextId":"c1","status":{"state":%q}}`, id, state)
}

func statusJSON(id, state string) string {
	return fmt.Sprintf(`{"statusUpdate":{"taskId":%q,"contextId":"c1","status":{"state":%q}}}`, id, state)
}

// sseWrite writes raw SSE text and flushes it.
func sseWrite(w http.ResponseWriter, s string) {
	io.WriteString(w, s)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func sseHeader(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(200)
}

// sseFrames writes each JSON-RPC result as a standard "data: " event.
func sseFrames(w http.ResponseWriter, id json.RawMessage, results ...string) {
	sseHeader(w)
	var b strings.Builder
	for _, r := range results {
		fmt.Fprintf(&b, "data: %s\n\n", resultJSON(id, r))
	}
	sseWrite(w, b.String())
}

func textMessage(text string) SendMessageRequest {
	return SendMessageRequest{Message: Message{MessageID: "m1", Role: RoleUser, Parts: []Part{{Text: text}}}}
}
