package demoserver_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"workrun/mcp/demoserver"
)

var rpcID atomic.Int64

func start(t *testing.T, opts demoserver.Options) (*demoserver.Server, string) {
	t.Helper()
	d := demoserver.New(opts)
	srv := httptest.NewServer(d.Mux())
	t.Cleanup(func() { srv.Close(); d.Close() })
	return d, srv.URL + demoserver.Path
}

// modern sends one 2026-07-28 request with the headers and _meta it needs;
// tasks declares the Tasks extension.
func modern(t *testing.T, url, method string, params map[string]any, tasks bool) (int, map[string]any) {
	t.Helper()
	caps := map[string]any{}
	if tasks {
		caps["extensions"] = map[string]any{demoserver.TasksExtension: map[string]any{}}
	}
	if params == nil {
		params = map[string]any{}
	}
	params["_meta"] = map[string]any{"io.modelcontextprotocol/protocolVersion": demoserver.Modern,
		"io.modelcontextprotocol/clientCapabilities": caps}
	req := newReq(t, url, method, params)
	req.Header.Set("MCP-Protocol-Version", demoserver.Modern)
	req.Header.Set("Mcp-Method", method)
	switch method {
	case "tools/call":
		req.Header.Set("Mcp-Name", params["name"].(string))
		if a, ok := params["arguments"].(map[string]any); ok && a["text"] != nil {
			req.Header.Set("Mcp-Param-Text", a["text"].(string))
		}
	case "tasks/get", "tasks/update", "tasks/cancel":
		req.Header.Set("Mcp-Name", params["taskId"].(string))
	}
	return do(t, req)
}

func newReq(t *testing.T, url, method string, params map[string]any) *http.Request {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": rpcID.Add(1), "method": method, "params": params})
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	return req
}

func do(t *testing.T, req *http.Request) (int, map[string]any) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var msg map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil {
		t.Fatalf("%s: decode: %v", req.Header.Get("Mcp-Method"), err)
	}
	return resp.StatusCode, msg
}

func result(t *testing.T, msg map[string]any) map[string]any {
	t.Helper()
	r, ok := msg["result"].(map[string]any)
	if !ok {
		t.Fatalf("no result: %v", msg)
	}
	return r
}

// TestModern_SurveyAsksTwice: survey asks two questions in turn, as a task
// (input_required, answered with tasks/update) and answered at once (two
// InputRequiredResult rounds whose requestState carries the first answer).
func TestModern_SurveyAsksTwice(t *testing.T) {
	_, url := start(t, demoserver.Options{PollInterval: 50 * time.Millisecond})
	answer := func(key, field, value string) map[string]any {
		return map[string]any{key: map[string]any{"action": "accept", "content": map[string]any{field: value}}}
	}

	_, msg := modern(t, url, "tools/call", map[string]any{"name": "survey", "arguments": map[string]any{"topic": "rivers"}}, true)
	created := result(t, msg)
	if created["resultType"] != "task" {
		t.Fatalf("survey with the extension = %v", created)
	}
	id := created["taskId"].(string)
	waitInput := func(key string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			_, msg := modern(t, url, "tasks/get", map[string]any{"taskId": id}, true)
			got := result(t, msg)
			if reqs, _ := got["inputRequests"].(map[string]any); got["status"] == "input_required" && reqs[key] != nil {
				if len(reqs) != 1 {
					t.Fatalf("input requests = %v", reqs)
				}
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("task never asked for %s", key)
	}
	waitInput("region")
	_, msg = modern(t, url, "tasks/update", map[string]any{"taskId": id, "inputResponses": answer("region", "region", "north")}, true)
	if ack := result(t, msg); len(ack) != 1 || ack["resultType"] != "complete" {
		t.Fatalf("tasks/update ack = %v", ack)
	}
	waitInput("depth")
	modern(t, url, "tasks/update", map[string]any{"taskId": id, "inputResponses": answer("depth", "depth", "quick")}, true)
	var end map[string]any
	for range 200 {
		_, msg = modern(t, url, "tasks/get", map[string]any{"taskId": id}, true)
		if end = result(t, msg); end["status"] == "completed" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if text := fmt.Sprint(end["result"]); !strings.Contains(text, "region north, quick") {
		t.Fatalf("survey task ended %v", end)
	}

	// At once: round 1 asks region, round 2 (with region) asks depth, round 3 ends.
	_, msg = modern(t, url, "tools/call", map[string]any{"name": "survey", "arguments": map[string]any{"topic": "lakes"}}, false)
	r1 := result(t, msg)
	if r1["resultType"] != "input_required" || r1["inputRequests"].(map[string]any)["region"] == nil {
		t.Fatalf("round 1 = %v", r1)
	}
	_, msg = modern(t, url, "tools/call", map[string]any{"name": "survey", "arguments": map[string]any{"topic": "lakes"},
		"inputResponses": answer("region", "region", "south"), "requestState": r1["requestState"]}, false)
	r2 := result(t, msg)
	if r2["resultType"] != "input_required" || r2["inputRequests"].(map[string]any)["depth"] == nil {
		t.Fatalf("round 2 = %v", r2)
	}
	_, msg = modern(t, url, "tools/call", map[string]any{"name": "survey", "arguments": map[string]any{"topic": "lakes"},
		"inputResponses": answer("depth", "depth", "thorough"), "requestState": r2["requestState"]}, false)
	if r3 := result(t, msg); r3["resultType"] != "complete" || !strings.Contains(fmt.Sprint(r3["content"]), "region south, thorough") {
		t.Fatalf("round 3 = %v", r3)
	}
	// A changed requestState is refused.
	_, msg = modern(t, url, "tools/call", map[string]any{"name": "survey", "arguments": map[string]any{"topic": "lakes"},
		"inputResponses": answer("depth", "depth", "thorough"), "requestState": strings.Replace(r2["requestState"].(string), "A", "B", 1) + "x"}, false)
	if e, _ := msg["error"].(map[string]any); e == nil || e["code"] != float64(-32602) {
		t.Fatalf("tampered requestState = %v", msg)
	}
}

// TestModern_SignInAsksWithAURL: sign_in asks one URL-mode elicitation
// (a link, no form); accepted it reports the sign-in, declined it says so.
func TestModern_SignInAsksWithAURL(t *testing.T) {
	_, url := start(t, demoserver.Options{})
	_, msg := modern(t, url, "tools/call", map[string]any{"name": "sign_in", "arguments": map[string]any{"service": "Mail"}}, false)
	r1 := result(t, msg)
	req, _ := r1["inputRequests"].(map[string]any)["signin"].(map[string]any)
	p, _ := req["params"].(map[string]any)
	if r1["resultType"] != "input_required" || req["method"] != "elicitation/create" || p["mode"] != "url" ||
		!strings.HasPrefix(fmt.Sprint(p["url"]), "https://") || p["elicitationId"] == nil || p["requestedSchema"] != nil {
		t.Fatalf("round 1 = %v", r1)
	}
	for action, want := range map[string]string{"accept": "signed in to Mail", "decline": "sign-in to Mail not done (decline)"} {
		_, msg = modern(t, url, "tools/call", map[string]any{"name": "sign_in", "arguments": map[string]any{"service": "Mail"},
			"inputResponses": map[string]any{"signin": map[string]any{"action": action}}, "requestState": r1["requestState"]}, false)
		if r2 := result(t, msg); r2["resultType"] != "complete" || !strings.Contains(fmt.Sprint(r2["content"]), want) {
			t.Errorf("%s: %v", action, r2)
		}
	}
}

// TestModern_ListenSeesTheEnd: a subscriptions/listen stream acknowledges,
// then delivers the task's states up to the completed one with its result.
func TestModern_ListenSeesTheEnd(t *testing.T) {
	_, url := start(t, demoserver.Options{StageDuration: 100 * time.Millisecond})
	_, msg := modern(t, url, "tools/call", map[string]any{"name": "research", "arguments": map[string]any{"topic": "x", "stages": 2}}, true)
	id := result(t, msg)["taskId"].(string)

	params := map[string]any{"notifications": map[string]any{"taskIds": []string{id, "no-such-task"}},
		"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": demoserver.Modern,
			"io.modelcontextprotocol/clientCapabilities": map[string]any{"extensions": map[string]any{demoserver.TasksExtension: map[string]any{}}}}}
	req := newReq(t, url, "subscriptions/listen", params)
	req.Header.Set("MCP-Protocol-Version", demoserver.Modern)
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("listen answered %d %s", resp.StatusCode, ct)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	var methods []string
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(data), &m); err != nil {
			t.Fatal(err)
		}
		p := m["params"].(map[string]any)
		if p["_meta"].(map[string]any)["io.modelcontextprotocol/subscriptionId"] == nil {
			t.Fatalf("no subscription id: %v", m)
		}
		methods = append(methods, m["method"].(string))
		if m["method"] == "notifications/subscriptions/acknowledged" {
			if got := fmt.Sprint(p["notifications"]); got != "map[taskIds:["+id+"]]" {
				t.Fatalf("acknowledged %s", got)
			}
			continue
		}
		if p["status"] == "completed" {
			if p["result"] == nil {
				t.Fatalf("completed without its result: %v", p)
			}
			break
		}
	}
	if len(methods) < 2 || methods[0] != "notifications/subscriptions/acknowledged" || methods[len(methods)-1] != "notifications/tasks" {
		t.Fatalf("stream = %v (%v)", methods, sc.Err())
	}
}

// TestLegacy_ResumeAfterCut: a tasks/result reply cut after its priming
// event is resumed with GET and Last-Event-ID and ends with the result.
func TestLegacy_ResumeAfterCut(t *testing.T) {
	_, url := start(t, demoserver.Options{CutResultStreams: 1, StageDuration: 50 * time.Millisecond, CoreOnly: true})
	req := newReq(t, url, "initialize", map[string]any{"protocolVersion": demoserver.Legacy, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "t", "version": "1"}})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	sess := resp.Header.Get("Mcp-Session-Id")
	call := func(method string, params map[string]any) *http.Response {
		req := newReq(t, url, method, params)
		req.Header.Set("Mcp-Session-Id", sess)
		req.Header.Set("MCP-Protocol-Version", demoserver.Legacy)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp = call("tools/call", map[string]any{"name": "research", "arguments": map[string]any{"topic": "x", "stages": 1}, "task": map[string]any{"ttl": 60000}})
	var created struct {
		Result struct {
			Task struct {
				TaskID string `json:"taskId"`
			} `json:"task"`
		} `json:"result"`
	}
	json.NewDecoder(resp.Body).Decode(&created) //nolint:errcheck // checked below
	resp.Body.Close()
	if created.Result.Task.TaskID == "" {
		t.Fatal("no core task")
	}
	resp = call("tasks/result", map[string]any{"taskId": created.Result.Task.TaskID})
	first, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(first), "id: 1:0") || !strings.Contains(string(first), "retry: 500") || strings.Contains(string(first), `"result"`) {
		t.Fatalf("cut reply = %q", first)
	}
	get, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	get.Header.Set("Mcp-Session-Id", sess)
	get.Header.Set("Last-Event-ID", "1:0")
	get.Header.Set("Accept", "text/event-stream")
	resp, err = http.DefaultClient.Do(get)
	if err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(rest), `"result"`) || !strings.Contains(string(rest), "Research on x") {
		t.Fatalf("resumed reply = %q", rest)
	}
	// A GET without a session is 405 (2026-07-28 has no standalone stream).
	plain, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	resp, err = http.DefaultClient.Do(plain)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET without a session = %d", resp.StatusCode)
	}
}
