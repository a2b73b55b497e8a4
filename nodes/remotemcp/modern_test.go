package remotemcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"workrun/mcp"
	"workrun/mcp/demoserver"
	"workrun/nodes/remotemcp"
	"workrun/remotecall"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// modernServer is a 2026-07-28-only server with the Tasks extension, written
// to the wire (docs/remote-mcp.md M2–M6): server/discover, tools/list,
// tools/call answering a task, tasks/get, an empty tasks/cancel ack and,
// when listen is set, subscriptions/listen.
type modernServer struct {
	// breakCalls: how many tools/call streams are cut before the answer.
	breakCalls int
	// workingReads: how many tasks/get answer working before completed;
	// -1 never completes.
	workingReads int
	// pollMs is the task's pollIntervalMs.
	pollMs int
	// listen: subscriptions/listen acknowledges the task and sends its
	// completion after listenAfter.
	listen      bool
	listenAfter time.Duration
	// callAnswer, if set, replaces the tools/call answer.
	callAnswer map[string]any

	mu   sync.Mutex
	reqs []modernRequest
}

type modernRequest struct {
	Method string
	Header http.Header
	Meta   map[string]any
}

func (f *modernServer) count(method string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, r := range f.reqs {
		if r.Method == method {
			n++
		}
	}
	return n
}

func (f *modernServer) requests(method string) []modernRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []modernRequest
	for _, r := range f.reqs {
		if r.Method == method {
			out = append(out, r)
		}
	}
	return out
}

func (f *modernServer) start(t *testing.T) string {
	t.Helper()
	gets := 0
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Meta map[string]any `json:"_meta"`
			} `json:"params"`
		}
		json.NewDecoder(r.Body).Decode(&m) //nolint:errcheck // the client under test sends JSON
		f.mu.Lock()
		f.reqs = append(f.reqs, modernRequest{Method: m.Method, Header: r.Header.Clone(), Meta: m.Params.Meta})
		calls := 0
		for _, q := range f.reqs {
			if q.Method == "tools/call" {
				calls++
			}
		}
		if m.Method == "tasks/get" {
			gets++
		}
		reads := gets
		f.mu.Unlock()
		if m.Params.Meta["io.modelcontextprotocol/protocolVersion"] != "2026-07-28" || r.Header.Get("MCP-Protocol-Version") != "2026-07-28" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32022,"message":"Unsupported","data":{"supported":["2026-07-28"]}}}`, m.ID)
			return
		}
		answer := func(result any) {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result}) //nolint:errcheck // test server
		}
		done := map[string]any{"resultType": "complete", "taskId": "tk-1", "status": "completed",
			"result": map[string]any{"content": []any{map[string]any{"type": "text", "text": "finished"}}}}
		switch m.Method {
		case "server/discover":
			answer(map[string]any{"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "supportedVersions": []string{"2026-07-28"},
				"capabilities": map[string]any{"tools": map[string]any{}, "extensions": map[string]any{mcp.TasksExtension: map[string]any{}}},
				"serverInfo":   map[string]any{"name": "modern", "version": "1"}})
		case "tools/list":
			answer(map[string]any{"resultType": "complete", "tools": []any{map[string]any{"name": "t", "inputSchema": map[string]any{"type": "object"}}}})
		case "tools/call":
			if calls <= f.breakCalls {
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"x\",\"progress\":1,\"message\":\"started\"}}\n\n") //nolint:errcheck // test server
				return                                                                                                                                                                 // the stream ends before the answer
			}
			if f.callAnswer != nil {
				answer(f.callAnswer)
				return
			}
			answer(map[string]any{"resultType": "task", "taskId": "tk-1", "status": "working", "ttlMs": 60000, "pollIntervalMs": f.pollMs})
		case "tasks/get":
			if f.workingReads < 0 || reads <= f.workingReads {
				answer(map[string]any{"resultType": "complete", "taskId": "tk-1", "status": "working", "pollIntervalMs": f.pollMs})
				return
			}
			answer(done)
		case "tasks/cancel":
			answer(map[string]any{"resultType": "complete"})
		case "subscriptions/listen":
			if !f.listen {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(404)
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, m.ID)
				return
			}
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":{\"notifications\":{\"taskIds\":[\"tk-1\"]}}}\n\n") //nolint:errcheck // test server
			w.(http.Flusher).Flush()
			select {
			case <-time.After(f.listenAfter):
			case <-r.Context().Done():
				return
			}
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/tasks", "params": done})
			fmt.Fprintf(w, "data: %s\n\n", b)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		default:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(404)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, m.ID)
		}
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

func declaresTasks(meta map[string]any) bool {
	caps, _ := meta[mcp.MetaClientCapabilities].(map[string]any)
	ext, _ := caps["extensions"].(map[string]any)
	return ext[mcp.TasksExtension] != nil
}

// A task on 2026-07-28 to completion: no initialize, the extension declared
// on the call's requests, Mcp-Name the task id on tasks/get, a progress
// token sent, the revision recorded, one tools/call.
func TestModernTaskToCompletion(t *testing.T) {
	f := &modernServer{workingReads: 1, pollMs: 10}
	url := f.start(t)
	e := newEnv(t, "")
	r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "t", `,"output":"answer"`)}), nil)
	if r.Status != workrun.RunSucceeded || r.State["answer"] != "finished" {
		t.Fatalf("run %s: %s; state %v; %q", r.Status, r.Reason, r.State, e.messages(t, r.ID, "m"))
	}
	if f.count("initialize") != 0 || f.count("tools/call") != 1 || f.count("tasks/get") < 2 {
		t.Errorf("initialize %d, tools/call %d, tasks/get %d", f.count("initialize"), f.count("tools/call"), f.count("tasks/get"))
	}
	call := f.requests("tools/call")[0]
	if !declaresTasks(call.Meta) || call.Meta["progressToken"] == nil || call.Header.Get("Mcp-Name") != "t" || call.Header.Get("Idempotency-Key") == "" {
		t.Errorf("tools/call: %v %v", call.Header, call.Meta)
	}
	for _, g := range f.requests("tasks/get") {
		if !declaresTasks(g.Meta) || g.Header.Get("Mcp-Name") != "tk-1" || g.Header.Get("Mcp-Session-Id") != "" {
			t.Errorf("tasks/get: %v %v", g.Header, g.Meta)
		}
	}
	c := e.call(t, r.ID, "m")
	if c.TaskID != "tk-1" || !strings.Contains(c.ContextID, "protocol=2026-07-28; handle=task; form=extension; session=") || !strings.HasSuffix(c.ContextID, "session=") {
		t.Errorf("record = %+v", c)
	}
}

// docs/remote-mcp.md M6: a tools/call stream broken before the answer is
// re-issued once with the same idempotency key; broken twice, the call is
// "submission result unknown" and is not sent a third time.
func TestModernBrokenStreamReissuesOnce(t *testing.T) {
	for _, breaks := range []int{1, 2} {
		t.Run(fmt.Sprintf("breaks=%d", breaks), func(t *testing.T) {
			f := &modernServer{breakCalls: breaks, workingReads: 0, pollMs: 10}
			url := f.start(t)
			e := newEnv(t, "")
			r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "t", `,"output":"answer"`)}), nil)
			msgs := e.messages(t, r.ID, "m")
			calls := f.requests("tools/call")
			if len(calls) != 2 {
				t.Fatalf("tools/call sent %d times, want 2", len(calls))
			}
			key := remotemcp.IdempotencyKey(r.ID, "m")
			for _, c := range calls {
				if c.Header.Get("Idempotency-Key") != key || c.Meta[mcp.MetaIdempotencyKey] != key {
					t.Errorf("a call without the same key: %v %v", c.Header, c.Meta)
				}
			}
			if !contains(msgs, "Progress: started") {
				t.Errorf("the server's progress is not shown: %q", msgs)
			}
			if !contains(msgs, "sent once more with the same idempotency key "+key) {
				t.Errorf("no re-issue message: %q", msgs)
			}
			if breaks == 1 {
				if r.Status != workrun.RunSucceeded || r.State["answer"] != "finished" {
					t.Fatalf("run %s: %s", r.Status, r.Reason)
				}
				return
			}
			if r.Status != workrun.RunFailed || !strings.Contains(r.Reason, "submission result unknown") {
				t.Fatalf("run %s: %s", r.Status, r.Reason)
			}
		})
	}
}

// A failing parallel branch sends exactly one tasks/cancel; its empty
// acknowledgement is saved as canceled.
func TestModernFailingBranchCancelsOnce(t *testing.T) {
	f := &modernServer{workingReads: -1, pollMs: 20000}
	url := f.start(t)
	e := newEnv(t, "")
	fail := workruntest.FailWhenRun(t, e.st, func(ctx context.Context, runID string) bool {
		return taskSaved(ctx, e.st, runID, "m")
	})
	r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "t", ""), {ID: "fail", Type: "process", Config: fail}}), nil)
	if r.Status != workrun.RunFailed || r.FailedNode != "fail" {
		t.Fatalf("run %s at %q: %s", r.Status, r.FailedNode, r.Reason)
	}
	waitUntil(t, 10*time.Second, func() bool { return e.call(t, r.ID, "m").CancelOutcome != "" })
	c := e.call(t, r.ID, "m")
	if f.count("tasks/cancel") != 1 || c.CancelOutcome != string(remotecall.CancelCanceled) {
		t.Errorf("tasks/cancel %d, outcome %q (%s)", f.count("tasks/cancel"), c.CancelOutcome, c.CancelText)
	}
	if cancel := f.requests("tasks/cancel")[0]; !declaresTasks(cancel.Meta) || cancel.Header.Get("Mcp-Name") != "tk-1" {
		t.Errorf("tasks/cancel: %v %v", cancel.Header, cancel.Meta)
	}
	if msgs := e.messages(t, r.ID, "m"); !contains(msgs, enCanceled) || contains(msgs, "has no taskId") {
		t.Errorf("messages %q", msgs)
	}
}

// A status notification on subscriptions/listen ends the wait at once: the
// poll interval is a minute, the task ends after 300 ms.
func TestModernNotificationEndsTheWait(t *testing.T) {
	f := &modernServer{workingReads: -1, pollMs: 60000, listen: true, listenAfter: 300 * time.Millisecond}
	url := f.start(t)
	e := newEnv(t, "")
	start := time.Now()
	r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "t", `,"output":"answer"`)}), nil)
	if r.Status != workrun.RunSucceeded || r.State["answer"] != "finished" {
		t.Fatalf("run %s: %s", r.Status, r.Reason)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("took %v: the notification did not end the wait", took)
	}
	if l := f.requests("subscriptions/listen"); len(l) != 1 || !declaresTasks(l[0].Meta) {
		t.Errorf("listen requests: %+v", l)
	}
}

// docs/remote-mcp.md M10, M15: an input_required answer makes the node
// wait for the person, never an unknown resultType; nothing is cancelled.
func TestModernInputRequiredInterrupts(t *testing.T) {
	f := &modernServer{callAnswer: map[string]any{"resultType": "input_required",
		"inputRequests": map[string]any{"q": map[string]any{"method": "elicitation/create", "params": map[string]any{"message": "Which region?"}}},
		"requestState":  "opaque"}}
	url := f.start(t)
	e := newEnv(t, "")
	r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "t", "")}), nil)
	if q := e.question(t, r.ID, "m"); r.Status != workrun.RunInterrupted || r.Interruption != workrun.InterruptedByHuman || q == nil || q.Message != "Which region?" || q.RequestID != "q" {
		t.Fatalf("run %s (%s): %s; question %+v", r.Status, r.Interruption, r.Reason, q)
	}
	if f.count("tools/call") != 1 || f.count("tasks/cancel") != 0 {
		t.Errorf("tools/call %d, tasks/cancel %d", f.count("tools/call"), f.count("tasks/cancel"))
	}
}

// Against the demo server on 2026-07-28 (not the test's own fake): a task
// to completion with the extension, then a failing branch whose one
// tasks/cancel is acknowledged with an empty result, read as canceled.
func TestModernDemoServer(t *testing.T) {
	d := demoserver.New(demoserver.Options{StageDuration: 100 * time.Millisecond, PollInterval: 50 * time.Millisecond})
	srv := httptest.NewServer(d.Mux())
	t.Cleanup(func() { d.Close(); srv.Close() })
	url := srv.URL + demoserver.Path
	e := newEnv(t, "")
	r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "research", `,"arguments":{"topic":"tides","stages":2},"output":"answer"`)}), nil)
	if r.Status != workrun.RunSucceeded || r.State["answer"] != "Research on tides: 2 stages done." {
		t.Fatalf("run %s: %s; %q", r.Status, r.Reason, e.messages(t, r.ID, "m"))
	}
	if c := e.call(t, r.ID, "m"); !strings.Contains(c.ContextID, "protocol=2026-07-28; handle=task; form=extension") {
		t.Errorf("record = %+v", c)
	}
	e2 := newEnv(t, "")
	fail := workruntest.FailWhenRun(t, e2.st, func(ctx context.Context, runID string) bool { return taskSaved(ctx, e2.st, runID, "h") })
	r = e2.run(t, flow(state, []workrun.NodeSpec{mcpNode("h", url, "hang", ""), {ID: "fail", Type: "process", Config: fail}}), nil)
	if r.Status != workrun.RunFailed || r.FailedNode != "fail" {
		t.Fatalf("run %s at %q: %s", r.Status, r.FailedNode, r.Reason)
	}
	waitUntil(t, 10*time.Second, func() bool { return e2.call(t, r.ID, "h").CancelOutcome != "" })
	if c := e2.call(t, r.ID, "h"); c.CancelOutcome != string(remotecall.CancelCanceled) || count(d, "tasks/cancel", "") != 1 {
		t.Errorf("outcome %q (%s), tasks/cancel %d", c.CancelOutcome, c.CancelText, count(d, "tasks/cancel", ""))
	}
}
