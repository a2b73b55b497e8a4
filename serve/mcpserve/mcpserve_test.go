package mcpserve_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"workrun/nodes/askhuman"
	"workrun/nodes/humanreview"
	"workrun/nodes/output"
	"workrun/nodes/process"
	"workrun/nodes/set"
	"workrun/nodes/start"
	"workrun/serve"
	"workrun/serve/mcpserve"
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

const failJSON = `{"name":"Fail","state":{"out":"text"},"publish":{"outputs":["out"]},
 "nodes":[{"id":"start","type":"start"},{"id":"bad","type":"process","config":{"command":["sh","-c","exit 3"],"stdout":"out"}}],
 "edges":[{"from":"start","to":"bad"}]}`

const reviewJSON = `{"name":"Review","state":{"draft":"text","published":"text"},
 "publish":{"inputs":["draft"],"outputs":["published"]},
 "nodes":[{"id":"start","type":"start"},{"id":"review","type":"human_review","config":{"prompt":"Publish this draft?","fields":["draft"]}},
  {"id":"publish","type":"set","config":{"values":{"published":"Published: {{draft}}"}}}],
 "edges":[{"from":"start","to":"review"},{"from":"review","to":"publish"}]}`

type tokens map[string]string // secret → label

func (t tokens) Caller(_ context.Context, tok string) (string, bool) {
	l, ok := t[tok]
	return l, ok
}

type fixture struct {
	url   string
	store interface {
		ListRuns(context.Context, workrun.RunFilter) ([]workrun.Run, error)
	}
}

func newServer(t testing.TB, auth mcpserve.Authenticator) fixture {
	t.Helper()
	_, st, arts := storetest.Open(t, "")
	eng := workrun.NewEngine(st, arts, start.Kind{}, set.Kind{}, output.Kind{}, humanreview.Kind{}, askhuman.Kind{}, process.Kind{})
	t.Cleanup(func() { eng.Close(context.WithoutCancel(t.Context())) })
	var pubs []serve.Publication
	for _, f := range []string{helloJSON, slowJSON, failJSON, reviewJSON} {
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
	s := mcpserve.New(svc, mcpserve.Options{BaseURL: srv.URL, Tokens: auth, SyncBound: 500 * time.Millisecond, MaxBodyBytes: 1 << 20, PollInterval: 100 * time.Millisecond})
	srv.Config.Handler = s.Handler()
	t.Cleanup(srv.Close)
	return fixture{url: s.URL(), store: st}
}

type reply struct {
	status int
	header http.Header
	msgs   []map[string]any // the JSON-RPC messages (one, or an SSE stream's)
}

func (r reply) last() map[string]any {
	if len(r.msgs) == 0 {
		return nil
	}
	return r.msgs[len(r.msgs)-1]
}

func (r reply) result() map[string]any {
	m, _ := r.last()["result"].(map[string]any)
	return m
}

func (r reply) errCode() float64 {
	e, _ := r.last()["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

func post(t testing.TB, url string, h map[string]string, body any) reply {
	t.Helper()
	var b []byte
	switch v := body.(type) {
	case string:
		b = []byte(v)
	default:
		var err error
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range h {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	rep := reply{status: resp.StatusCode, header: resp.Header}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok && strings.TrimSpace(d) != "" {
				var m map[string]any
				if err := json.Unmarshal([]byte(d), &m); err != nil {
					t.Fatalf("event %q: %v", d, err)
				}
				rep.msgs = append(rep.msgs, m)
			}
		}
		return rep
	}
	data, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if len(bytes.TrimSpace(data)) > 0 && json.Unmarshal(data, &m) == nil {
		rep.msgs = append(rep.msgs, m)
	}
	return rep
}

// modern builds a 2026-07-28 request and its headers.
func modern(method string, params map[string]any, tasks, elicit bool) (map[string]string, map[string]any) {
	caps := map[string]any{}
	if tasks {
		caps["extensions"] = map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}
	}
	if elicit {
		caps["elicitation"] = map[string]any{}
	}
	if params == nil {
		params = map[string]any{}
	}
	params["_meta"] = map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": caps}
	h := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method}
	for _, k := range []string{"name", "taskId"} {
		if v, ok := params[k].(string); ok {
			h["Mcp-Name"] = v
		}
	}
	return h, map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
}

func text(res map[string]any) string {
	c, _ := res["content"].([]any)
	if len(c) == 0 {
		return ""
	}
	m, _ := c[0].(map[string]any)
	s, _ := m["text"].(string)
	return s
}

func TestModernDiscoverListCall(t *testing.T) {
	f := newServer(t, nil)
	h, body := modern("server/discover", nil, false, false)
	res := post(t, f.url, h, body).result()
	if v, _ := res["supportedVersions"].([]any); len(v) != 1 || v[0] != "2026-07-28" {
		t.Fatalf("discover %v", res)
	}
	h, body = modern("tools/list", nil, false, false)
	res = post(t, f.url, h, body).result()
	tools, _ := res["tools"].([]any)
	if len(tools) != 4 {
		t.Fatalf("tools %v", res)
	}
	hello := tools[0].(map[string]any)
	in := hello["inputSchema"].(map[string]any)["properties"].(map[string]any)
	out := hello["outputSchema"].(map[string]any)["properties"].(map[string]any)
	if hello["name"] != "hello" || in["name"].(map[string]any)["type"] != "string" || in["n"].(map[string]any)["type"] != "number" || out["message"] == nil {
		t.Fatalf("hello tool %v", hello)
	}
	h, body = modern("tools/call", map[string]any{"name": "hello", "arguments": map[string]any{"name": "Ada"}}, false, false)
	res = post(t, f.url, h, body).result()
	sc, _ := res["structuredContent"].(map[string]any)
	if res["isError"] != false || text(res) != "Hello, Ada!" || sc["message"] != "Hello, Ada!" || res["resultType"] != "complete" {
		t.Fatalf("call %v", res)
	}
	// A wrong type names the field; no run starts.
	h, body = modern("tools/call", map[string]any{"name": "hello", "arguments": map[string]any{"n": "x"}}, false, false)
	rep := post(t, f.url, h, body)
	if rep.errCode() != -32602 || !strings.Contains(rep.last()["error"].(map[string]any)["message"].(string), `"n"`) {
		t.Fatalf("bad input %v", rep.last())
	}
	// A failing workflow is isError with its reason.
	h, body = modern("tools/call", map[string]any{"name": "fail"}, false, false)
	res = post(t, f.url, h, body).result()
	if res["isError"] != true || !strings.Contains(text(res), "failed") {
		t.Fatalf("fail %v", res)
	}
}

func TestModernHeaderChecks(t *testing.T) {
	f := newServer(t, nil)
	h, body := modern("tools/call", map[string]any{"name": "hello"}, false, false)
	for _, c := range []struct {
		name string
		edit func(map[string]string)
		code float64
	}{
		{"method mismatch", func(h map[string]string) { h["Mcp-Method"] = "tools/list" }, -32020},
		{"no method header", func(h map[string]string) { delete(h, "Mcp-Method") }, -32020},
		{"name mismatch", func(h map[string]string) { h["Mcp-Name"] = "slow" }, -32020},
		{"no name", func(h map[string]string) { delete(h, "Mcp-Name") }, -32020},
		{"version mismatch", func(h map[string]string) { h["MCP-Protocol-Version"] = "2025-11-25" }, -32020},
	} {
		hh := map[string]string{}
		for k, v := range h {
			hh[k] = v
		}
		c.edit(hh)
		rep := post(t, f.url, hh, body)
		if rep.status != 400 || rep.errCode() != c.code {
			t.Errorf("%s: %d %v", c.name, rep.status, rep.last())
		}
	}
	// Unsupported version: -32022 with data.supported.
	h2, body2 := modern("tools/list", nil, false, false)
	body2["params"].(map[string]any)["_meta"].(map[string]any)["io.modelcontextprotocol/protocolVersion"] = "2099-01-01"
	h2["MCP-Protocol-Version"] = "2099-01-01"
	rep := post(t, f.url, h2, body2)
	if rep.errCode() != -32022 || rep.last()["error"].(map[string]any)["data"] == nil {
		t.Errorf("unsupported version %v", rep.last())
	}
	// tasks/get without the extension: -32021.
	h3, body3 := modern("tasks/get", map[string]any{"taskId": "x"}, false, false)
	if rep := post(t, f.url, h3, body3); rep.errCode() != -32021 {
		t.Errorf("missing capability %v", rep.last())
	}
	// Base64 header form is decoded.
	h4, body4 := modern("tools/call", map[string]any{"name": "hello", "arguments": map[string]any{"name": "B"}}, false, false)
	h4["Mcp-Name"] = "=?base64?aGVsbG8=?="
	if res := post(t, f.url, h4, body4).result(); text(res) != "Hello, B!" {
		t.Errorf("base64 name %v", res)
	}
}

func TestModernTaskCancelAndIdempotency(t *testing.T) {
	f := newServer(t, nil)
	h, body := modern("tools/call", map[string]any{"name": "slow"}, true, false)
	h["Idempotency-Key"] = "k1"
	res := post(t, f.url, h, body).result()
	if res["resultType"] != "task" || res["status"] != "working" {
		t.Fatalf("slow call %v", res)
	}
	id := res["taskId"].(string)
	again := post(t, f.url, h, body).result()
	if again["taskId"] != id {
		t.Fatalf("same key, another task: %v vs %s", again, id)
	}
	hg, bg := modern("tasks/get", map[string]any{"taskId": id}, true, false)
	if got := post(t, f.url, hg, bg).result(); got["status"] != "working" {
		t.Fatalf("get %v", got)
	}
	hc, bc := modern("tasks/cancel", map[string]any{"taskId": id}, true, false)
	if got := post(t, f.url, hc, bc).result(); got == nil || got["resultType"] != "complete" {
		t.Fatalf("cancel %v", got)
	}
	if got := post(t, f.url, hg, bg).result(); got["status"] != "cancelled" {
		t.Fatalf("after cancel %v", got)
	}
	runs, err := f.store.ListRuns(t.Context(), workrun.RunFilter{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].Status != workrun.RunStopped {
		t.Fatalf("runs %+v", runs)
	}
}

func TestModernReviewMRTR(t *testing.T) {
	f := newServer(t, nil)
	// Without elicitation: an error naming the question.
	h, body := modern("tools/call", map[string]any{"name": "review", "arguments": map[string]any{"draft": "D"}}, false, false)
	res := post(t, f.url, h, body).result()
	if res["isError"] != true || !strings.Contains(text(res), "Publish this draft?") {
		t.Fatalf("no elicitation %v", res)
	}
	h, body = modern("tools/call", map[string]any{"name": "review", "arguments": map[string]any{"draft": "D"}}, false, true)
	res = post(t, f.url, h, body).result()
	if res["resultType"] != "input_required" {
		t.Fatalf("review %v", res)
	}
	reqs := res["inputRequests"].(map[string]any)
	r := reqs["review"].(map[string]any)
	if r["method"] != "elicitation/create" || r["params"].(map[string]any)["message"] != "Publish this draft?" {
		t.Fatalf("input request %v", r)
	}
	h, body = modern("tools/call", map[string]any{"name": "review", "arguments": map[string]any{"draft": "D"},
		"requestState": res["requestState"], "inputResponses": map[string]any{"review": map[string]any{"action": "accept", "content": map[string]any{"approved": true}}}}, false, true)
	res = post(t, f.url, h, body).result()
	if res["isError"] != false || text(res) != "Published: D" {
		t.Fatalf("answered %v", res)
	}
}

// legacySession opens a 2025-11-25 session.
func legacySession(t *testing.T, url string, caps map[string]any) map[string]string {
	t.Helper()
	rep := post(t, url, nil, map[string]any{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-11-25", "capabilities": caps, "clientInfo": map[string]any{"name": "t", "version": "1"}}})
	sid := rep.header.Get("Mcp-Session-Id")
	if sid == "" || rep.result()["protocolVersion"] != "2025-11-25" {
		t.Fatalf("initialize %d %v", rep.status, rep.last())
	}
	h := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
	post(t, url, h, map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return h
}

func TestLegacyCallTasksElicitation(t *testing.T) {
	f := newServer(t, nil)
	h := legacySession(t, f.url, map[string]any{"elicitation": map[string]any{}, "tasks": map[string]any{}})
	rep := post(t, f.url, h, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
	tools := rep.result()["tools"].([]any)
	if len(tools) != 4 || tools[0].(map[string]any)["execution"].(map[string]any)["taskSupport"] != "optional" {
		t.Fatalf("tools %v", rep.last())
	}
	rep = post(t, f.url, h, map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{"name": "hello", "arguments": map[string]any{"name": "Bo"}}})
	if text(rep.result()) != "Hello, Bo!" {
		t.Fatalf("call %v", rep.msgs)
	}
	// A task: tasks/get, tasks/cancel.
	rep = post(t, f.url, h, map[string]any{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": map[string]any{"name": "slow", "task": map[string]any{"ttl": 60000}}})
	task, _ := rep.result()["task"].(map[string]any)
	if task == nil || task["status"] != "working" {
		t.Fatalf("task %v", rep.last())
	}
	id := task["taskId"].(string)
	rep = post(t, f.url, h, map[string]any{"jsonrpc": "2.0", "id": 4, "method": "tasks/cancel", "params": map[string]any{"taskId": id}})
	if rep.result()["status"] != "cancelled" {
		t.Fatalf("cancel %v", rep.last())
	}
	// Elicitation on the stream: answered with a POST while the call waits.
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": map[string]any{"name": "review", "arguments": map[string]any{"draft": "E"}}})
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, f.url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range h {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	var final map[string]any
	ids := 0
	for sc.Scan() && final == nil {
		if strings.HasPrefix(sc.Text(), "id: ") {
			ids++
		}
		d, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || strings.TrimSpace(d) == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(d), &m); err != nil {
			t.Fatal(err)
		}
		switch {
		case m["method"] == "elicitation/create":
			if m["params"].(map[string]any)["message"] != "Publish this draft?" {
				t.Fatalf("elicitation %v", m)
			}
			if rep := post(t, f.url, h, map[string]any{"jsonrpc": "2.0", "id": m["id"], "result": map[string]any{"action": "accept", "content": map[string]any{"approved": true}}}); rep.status != 202 {
				t.Fatalf("response posted: %d", rep.status)
			}
		case m["id"] == float64(5):
			final = m
		}
	}
	res, _ := final["result"].(map[string]any)
	if text(res) != "Published: E" || ids < 3 {
		t.Fatalf("final %v (%d event ids)", final, ids)
	}
}

func TestLegacyNoElicitationNamesQuestion(t *testing.T) {
	f := newServer(t, nil)
	h := legacySession(t, f.url, map[string]any{})
	rep := post(t, f.url, h, map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{"name": "review", "arguments": map[string]any{"draft": "E"}}})
	if rep.result()["isError"] != true || !strings.Contains(text(rep.result()), "Publish this draft?") {
		t.Fatalf("%v", rep.msgs)
	}
	// An unknown session is 404; GET without a session 405.
	if rep := post(t, f.url, map[string]string{"Mcp-Session-Id": "nope"}, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}); rep.status != 404 {
		t.Fatalf("unknown session %d", rep.status)
	}
}

func TestSafety(t *testing.T) {
	f := newServer(t, tokens{"s3cret": "ci"})
	h, body := modern("tools/list", nil, false, false)
	if rep := post(t, f.url, h, body); rep.status != 401 || !strings.HasPrefix(rep.header.Get("WWW-Authenticate"), "Bearer") {
		t.Fatalf("no token: %d", rep.status)
	}
	h["Authorization"] = "Bearer s3cret"
	if rep := post(t, f.url, h, body); rep.status != 200 || rep.result()["tools"] == nil {
		t.Fatalf("token: %d %v", rep.status, rep.last())
	}
	for name, hdr := range map[string][2]string{
		"origin": {"Origin", "http://evil.example"},
		"host":   {"Host", "evil.example"},
	} {
		hh := map[string]string{hdr[0]: hdr[1]}
		for k, v := range h {
			hh[k] = v
		}
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, f.url, strings.NewReader(`{}`))
		for k, v := range hh {
			req.Header.Set(k, v)
		}
		if hdr[0] == "Host" {
			req.Host = hdr[1]
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 403 {
			t.Errorf("%s: %d", name, resp.StatusCode)
		}
	}
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"` + strings.Repeat("a", 2<<20) + `"}}`
	if rep := post(t, f.url, h, big); rep.status != 413 {
		t.Fatalf("big body: %d", rep.status)
	}
	if rep := post(t, f.url, h, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`); rep.status != 400 || rep.errCode() != -32600 {
		t.Fatalf("batch: %d %v", rep.status, rep.last())
	}
}
