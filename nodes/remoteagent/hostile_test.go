package remoteagent

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"workrun/workrun"
)

// hostileAgent is an A2A server of our own, written as a buggy or hostile
// agent would be (issue 27 item 1): the submission stream names task t1
// and breaks, GetTask says t1 is working, and every SubscribeToTask is
// answered the way mode says.
type hostileAgent struct {
	mode string
	// keepAlive, when not zero, is how often a quiet stream gets an SSE
	// comment.
	keepAlive time.Duration
	// quietFor is how long the submission stream stays quiet after its
	// first event before it completes the task (mode "quiet").
	quietFor time.Duration

	mu    sync.Mutex
	calls map[string]int
	srv   *httptest.Server
}

func newHostileAgent(t *testing.T, mode string) *hostileAgent {
	a := &hostileAgent{mode: mode, calls: map[string]int{}}
	a.srv = httptest.NewServer(a)
	t.Cleanup(a.srv.Close)
	return a
}

func (a *hostileAgent) count(method string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.calls[method]
}

func (a *hostileAgent) total() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for _, c := range a.calls {
		n += c
	}
	return n
}

const hostileTask = `{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}`

func (a *hostileAgent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"name":"hostile","description":"x","version":"1","supportedInterfaces":[{"url":%q,"protocolBinding":"JSONRPC","protocolVersion":"1.0"}],
			"capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}`, a.srv.URL+"/rpc")
		return
	}
	var in struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&in); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	a.mu.Lock()
	a.calls[in.Method]++
	a.mu.Unlock()
	event := func(result string) string {
		return fmt.Sprintf("data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}\n\n", in.ID, result)
	}
	flush := func() {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	switch in.Method {
	case "GetTask":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, in.ID, hostileTask)
		return
	case "CancelTask":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_CANCELED"}}}`, in.ID)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	if in.Method == "SendStreamingMessage" {
		io.WriteString(w, event(`{"task":`+hostileTask+`}`))
		flush()
		if a.mode != "quiet" {
			return // the stream breaks once the task is known
		}
		end := time.After(a.quietFor)
		var tick <-chan time.Time
		if a.keepAlive > 0 {
			t := time.NewTicker(a.keepAlive)
			defer t.Stop()
			tick = t.C
		}
		for {
			select {
			case <-tick:
				io.WriteString(w, ": keep-alive\n\n")
				flush()
			case <-end:
				io.WriteString(w, event(`{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}`))
				flush()
				return
			case <-r.Context().Done():
				return
			}
		}
	}
	// SubscribeToTask
	switch a.mode {
	case "snapshot-then-close":
		io.WriteString(w, event(`{"task":`+hostileTask+`}`))
	case "foreign-task":
		io.WriteString(w, event(`{"task":{"id":"t2","contextId":"c2","status":{"state":"TASK_STATE_WORKING"}}}`))
	case "huge-event":
		io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"id\":"+string(in.ID)+",\"result\":{\"task\":{\"id\":\"t1\",\"contextId\":\"c1\",\"metadata\":{\"x\":\"")
		chunk := strings.Repeat("x", 1<<20)
		for range 65 { // 65 MiB, over the 64 MiB event cap
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
		io.WriteString(w, "\"}}}}\n\n")
	case "endless-line":
		io.WriteString(w, "data: ")
		chunk := strings.Repeat("y", 1<<20)
		for {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
	}
}

// TestHostileAgentsAreBounded: an agent that answers every subscription
// with its snapshot and then closes, with another task's event, with a
// 64 MiB event or with an endless SSE line makes the node reconnect with
// backoff a bounded number of times and then interrupts it with a message
// naming what the agent kept doing — never an endless loop, never a
// cancel. (Before issue 27 the first three reset the reconnect guard and
// looped without backoff: 5,487 GetTask + 5,487 SubscribeToTask in 20 s.)
func TestHostileAgentsAreBounded(t *testing.T) {
	for _, mode := range []string{"snapshot-then-close", "foreign-task", "huge-event", "endless-line"} {
		t.Run(mode, func(t *testing.T) {
			a := newHostileAgent(t, mode)
			cfg := fmt.Sprintf(`{"url":%q,"inputs":["prompt"],"output":"answer","timeout_seconds":10}`, a.srv.URL)
			follow := fastFollow
			follow.BackoffMin, follow.BackoffMax = 50*time.Millisecond, 200*time.Millisecond
			nc := newNC("r", "ra", workrun.Values{"prompt": "x"})
			start := time.Now()
			_, err := compile(t, Deps{Calls: newMemCalls(), Follow: follow}, cfg).Run(t.Context(), nc)
			took := time.Since(start)
			var ie *workrun.InterruptError
			if !errors.As(err, &ie) || ie.Cause != workrun.InterruptedByUnreachable ||
				!strings.Contains(ie.Reason, "kept ending the update stream of task t1 without the task changing") {
				t.Fatalf("err = %v, want interrupted: kept ending the update stream…", err)
			}
			if took > 2*time.Minute { // bounded, not endless; four 64 MiB reads are slow on a loaded machine
				t.Errorf("took %v", took)
			}
			subs, gets := a.count("SubscribeToTask"), a.count("GetTask")
			if subs != follow.MaxNoProgress || gets != follow.MaxNoProgress || a.count("SendStreamingMessage") != 1 || a.count("CancelTask") != 0 {
				t.Errorf("requests: %v; want %d subscriptions, %d reads, one submission, no cancel", a.calls, follow.MaxNoProgress, follow.MaxNoProgress)
			}
			if n := len(nc.Texts()) + len(nc.ProgressTexts()); n > maxReconnectLines+20 {
				t.Errorf("%d lines saved", n)
			}
			t.Logf("%s: %d requests in %v; %s", mode, a.total(), took.Round(time.Millisecond), ie.Reason)
		})
	}
}
