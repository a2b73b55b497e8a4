package remoteagent_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

// statusStream is a minimal A2A 1.0 agent for throughput and crash tests:
// SendStreamingMessage answers with the task, n WORKING status updates (each
// with its own text, as an LLM agent sends one per chunk) and a COMPLETED
// status. The task counts as completed once its stream ended, whether the
// client read it all or went away; GetTask and SubscribeToTask then answer
// it completed with its result.
type statusStream struct {
	n     int
	pause time.Duration // after every 100 updates (0: as fast as read)

	mu          sync.Mutex
	submissions map[string]int // per messageId
	methods     map[string]int
}

const streamResult = "stream done"

func startStatusStream(tb testing.TB, n int, pause time.Duration) (*statusStream, string) {
	tb.Helper()
	s := &statusStream{n: n, pause: pause, submissions: map[string]int{}, methods: map[string]int{}}
	ts := httptest.NewServer(s)
	tb.Cleanup(ts.Close)
	return s, ts.URL
}

func (s *statusStream) count(method, messageID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.methods[method]++
	if messageID != "" {
		s.submissions[messageID]++
	}
}

func (s *statusStream) stats() (methods, submissions map[string]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, sub := map[string]int{}, map[string]int{}
	for k, v := range s.methods {
		m[k] = v
	}
	for k, v := range s.submissions {
		sub[k] = v
	}
	return m, sub
}

func (s *statusStream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"name": "status stream", "version": "1", //nolint:errcheck
			"supportedInterfaces": []any{map[string]any{"url": "http://" + r.Host + "/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}},
			"capabilities":        map[string]any{"streaming": true},
			"defaultInputModes":   []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"}, "skills": []any{}})
		return
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			ID      string `json:"id"`
			Message struct {
				MessageID string `json:"messageId"`
			} `json:"message"`
		} `json:"params"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.count(req.Method, req.Params.Message.MessageID)
	taskID := "task-" + req.Params.Message.MessageID
	if req.Params.ID != "" {
		taskID = req.Params.ID
	}
	completed := fmt.Sprintf(`{"id":%q,"contextId":"ctx-1","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"out","parts":[{"text":%q}]}]}`, taskID, streamResult)
	switch req.Method {
	case "GetTask":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, completed)
		return
	case "SubscribeToTask":
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"task\":%s}}\n\n", req.ID, completed)
		return
	case "SendStreamingMessage":
	default:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, req.ID)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fl := w.(http.Flusher)
	id := string(req.ID)
	var b bytes.Buffer
	fmt.Fprintf(&b, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"task\":{\"id\":%q,\"contextId\":\"ctx-1\",\"status\":{\"state\":\"TASK_STATE_SUBMITTED\"}}}}\n\n", id, taskID)
	w.Write(b.Bytes()) //nolint:errcheck
	fl.Flush()
	prefix := []byte("data: {\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"statusUpdate\":{\"taskId\":\"" + taskID +
		"\",\"contextId\":\"ctx-1\",\"status\":{\"state\":\"TASK_STATE_WORKING\",\"message\":{\"messageId\":\"m-")
	for i := 0; i < s.n; {
		b.Reset()
		for end := min(i+100, s.n); i < end; i++ {
			b.Write(prefix)
			b.WriteString(strconv.Itoa(i))
			b.WriteString(`","role":"ROLE_AGENT","parts":[{"text":"chunk `)
			b.WriteString(strconv.Itoa(i))
			b.WriteString(" of the answer being written\"}]}}}}}\n\n")
		}
		if _, err := w.Write(b.Bytes()); err != nil {
			return // the client went away
		}
		if s.pause > 0 {
			fl.Flush()
			time.Sleep(s.pause)
		}
	}
	fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"artifactUpdate\":{\"taskId\":%q,\"contextId\":\"ctx-1\",\"artifact\":{\"artifactId\":\"out\",\"parts\":[{\"text\":%q}]}}}}\n\n", id, taskID, streamResult)
	fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"statusUpdate\":{\"taskId\":%q,\"contextId\":\"ctx-1\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}}}\n\n", id, taskID)
	fl.Flush()
}
