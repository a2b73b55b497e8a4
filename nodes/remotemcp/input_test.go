package remotemcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"workrun/mcp/demoserver"
	"workrun/store"
	"workrun/store/storetest"
	"workrun/workrun"
)

// question is the open question of node in run, or nil.
func (e *env) question(t *testing.T, runID, node string) *workrun.Question {
	t.Helper()
	recs, err := e.st.NodeRuns(t.Context(), runID)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range recs {
		if n.NodeID == node {
			return n.Question
		}
	}
	return nil
}

// answer gives the person's answer to round of node's question and waits
// until the run stops again.
func (e *env) answer(t *testing.T, runID, node string, round int, action workrun.AnswerAction, content string) workrun.Run {
	t.Helper()
	d := workrun.Decision{RunID: runID, NodeID: node, Round: round, Action: action}
	if content != "" {
		d.Content = json.RawMessage(content)
	}
	if err := e.eng.Decide(t.Context(), d); err != nil {
		t.Fatalf("answer round %d: %v", round, err)
	}
	return e.wait(t, runID)
}

// waitsFor checks that the run waits for the person on node with a
// question of round whose message has want.
func (e *env) waitsFor(t *testing.T, r workrun.Run, node string, round int, want string) *workrun.Question {
	t.Helper()
	q := e.question(t, r.ID, node)
	if r.Status != workrun.RunInterrupted || r.Interruption != workrun.InterruptedByHuman || q == nil {
		t.Fatalf("run %s (%s): %s; question %+v\n%q", r.Status, r.Interruption, r.Reason, q, e.messages(t, r.ID, node))
	}
	if q.Round != round || !strings.Contains(q.Message, want) {
		t.Fatalf("question = %+v, want round %d asking %q", q, round, want)
	}
	return q
}

// modernDemo is the demo server as it is: 2026-07-28 first (the node
// tests' demo() pins it to its 2025-11-25 side).
func modernDemo(t *testing.T) (*demoserver.Server, string) {
	t.Helper()
	d := demoserver.New(demoserver.Options{StageDuration: 100 * time.Millisecond, PollInterval: 50 * time.Millisecond})
	srv := httptest.NewServer(d.Mux())
	t.Cleanup(func() { d.Close(); srv.Close() })
	return d, srv.URL + demoserver.Path
}

func surveyNode(url, extra string) workrun.NodeSpec {
	return mcpNode("m", url, "survey", `,"arguments":{"topic":"{{q}}"},"output":"answer"`+extra)
}

// TestAnswer_MRTRTwoRounds: on 2026-07-28 without a task the demo's survey
// asks twice with InputRequiredResult; the node waits for the person each
// time (a form with the server's schema), and each answer re-issues the
// call once with the answers and the exact requestState.
func TestAnswer_MRTRTwoRounds(t *testing.T) {
	d, url := modernDemo(t)
	e := newEnv(t, "")
	r := e.run(t, flow(state, []workrun.NodeSpec{surveyNode(url, `,"task":"never"`)}), workrun.Values{"q": "tea"})
	q := e.waitsFor(t, r, "m", 1, "Which region should the survey of tea cover?")
	if q.Kind != workrun.QuestionForm || !strings.Contains(string(q.Schema), `"region"`) || q.RequestID != "region" {
		t.Fatalf("question = %+v", q)
	}
	r = e.answer(t, r.ID, "m", 1, workrun.AnswerAccept, `{"region":"Yunnan"}`)
	e.waitsFor(t, r, "m", 2, "How deep should the survey of Yunnan go?")
	r = e.answer(t, r.ID, "m", 2, workrun.AnswerAccept, `{"depth":"thorough"}`)
	if r.Status != workrun.RunSucceeded || r.State["answer"] != "Survey of tea: region Yunnan, thorough." {
		t.Fatalf("run %s: %s %v\n%q", r.Status, r.Reason, r.State, e.messages(t, r.ID, "m"))
	}
	if n := count(d, "tools/call", "survey"); n != 3 {
		t.Errorf("tools/call survey = %d, want 3 (the call and one retry per round)", n)
	}
	// A round answered is not taken again.
	if err := e.eng.Decide(t.Context(), workrun.Decision{RunID: r.ID, NodeID: "m", Round: 2, Content: json.RawMessage(`{"depth":"quick"}`)}); err == nil {
		t.Error("a second answer to a finished node was taken")
	}
}

// TestAnswer_PreAnsweredThenDeclined: the node's answers fill the first
// form (a template over State); the second is the person's, who declines.
func TestAnswer_PreAnsweredThenDeclined(t *testing.T) {
	d, url := modernDemo(t)
	e := newEnv(t, "")
	r := e.run(t, flow(state, []workrun.NodeSpec{surveyNode(url, `,"task":"never","answers":{"region":"{{q}} hills"}`)}), workrun.Values{"q": "tea"})
	e.waitsFor(t, r, "m", 2, "How deep should the survey of tea hills go?")
	if msgs := e.messages(t, r.ID, "m"); !contains(msgs, "answers config answers round 1") || !contains(msgs, "region: tea hills") {
		t.Errorf("messages = %q", msgs)
	}
	r = e.answer(t, r.ID, "m", 2, workrun.AnswerDecline, "")
	if r.Status != workrun.RunSucceeded || !strings.Contains(r.State["answer"].(string), "no depth (decline)") {
		t.Fatalf("run %s: %s %v", r.Status, r.Reason, r.State)
	}
	if n := count(d, "tools/call", "survey"); n != 3 {
		t.Errorf("tools/call survey = %d, want 3", n)
	}
}

// TestAnswer_TaskUpdate: as a 2026-07-28 task the survey waits in
// input_required; each answer goes out once as tasks/update and the task
// goes on; the person cancels the second request.
func TestAnswer_TaskUpdate(t *testing.T) {
	d, url := modernDemo(t)
	e := newEnv(t, "")
	r := e.run(t, flow(state, []workrun.NodeSpec{surveyNode(url, `,"task":"always"`)}), workrun.Values{"q": "tea"})
	e.waitsFor(t, r, "m", 1, "Which region")
	if c := e.call(t, r.ID, "m"); c.TaskID == "" || c.Ended {
		t.Fatalf("record while waiting = %+v", c)
	}
	r = e.answer(t, r.ID, "m", 1, workrun.AnswerAccept, `{"region":"Yunnan"}`)
	e.waitsFor(t, r, "m", 2, "How deep")
	r = e.answer(t, r.ID, "m", 2, workrun.AnswerCancel, "")
	if r.Status != workrun.RunSucceeded || !strings.Contains(r.State["answer"].(string), "no depth (cancel)") {
		t.Fatalf("run %s: %s %v\n%q", r.Status, r.Reason, r.State, e.messages(t, r.ID, "m"))
	}
	if n, u := count(d, "tools/call", "survey"), count(d, "tasks/update", ""); n != 1 || u != 2 {
		t.Errorf("tools/call %d (want 1), tasks/update %d (want 2)", n, u)
	}
	if n := count(d, "tasks/cancel", ""); n != 0 {
		t.Errorf("%d tasks/cancel", n)
	}
}

// holdProxy forwards to the demo server, except the first request that
// carries answers (inputResponses: an MRTR retry or tasks/update): that
// one it holds — before forwarding it (holdRequest) or after, holding back
// the reply — until the client goes away, and reports it on held.
type holdProxy struct {
	rp          *httputil.ReverseProxy
	holdRequest bool
	mu          sync.Mutex
	done        bool
	held        chan string
}

func startHoldProxy(t *testing.T, target string, holdRequest bool) (*holdProxy, string) {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &holdProxy{rp: httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host}), holdRequest: holdRequest, held: make(chan string, 1)}
	p.rp.FlushInterval = -1
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return p, srv.URL + u.Path
}

func (p *holdProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	p.mu.Lock()
	hold := !p.done && bytes.Contains(body, []byte(`"inputResponses"`))
	p.done = p.done || hold
	p.mu.Unlock()
	if !hold {
		p.rp.ServeHTTP(w, r)
		return
	}
	if !p.holdRequest {
		// Forward it, but never pass the reply on.
		p.rp.ServeHTTP(httptest.NewRecorder(), r.Clone(context.WithoutCancel(r.Context())))
	}
	p.held <- r.Header.Get("Mcp-Method")
	<-r.Context().Done()
}

// TestAnswer_KilledWhileSending: the runner (a real process) answers the
// first form from its answers, commits the answers as sent and sends them;
// it is SIGKILLed while they are on the way — held before the server
// (sent, not delivered) or delivered with the reply held back. After
// resume in a new process the server has had each answer at most once:
// an MRTR retry is never sent again ("submission result unknown"); a
// task's tasks/update is sent again only while the server still waits for
// that key, and the task then goes on to the person's second question.
func TestAnswer_KilledWhileSending(t *testing.T) {
	for _, tc := range []struct {
		name        string
		task        string
		holdRequest bool
	}{
		{"mrtr/held-before-the-server", "never", true},
		{"mrtr/reply-held", "never", false},
		{"task/held-before-the-server", "always", true},
		{"task/reply-held", "always", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, durl := modernDemo(t)
			p, purl := startHoldProxy(t, durl, tc.holdRequest)
			dir := t.TempDir()
			cfg := `,"arguments":{"topic":"{{q}}"},"task":"` + tc.task + `","answers":{"region":"Yunnan"}`
			cmd, runID := storetest.StartChild(t, "WORKRUN_MCP_CHILD_DIR="+dir, "WORKRUN_MCP_CHILD_URL="+purl,
				"WORKRUN_MCP_CHILD_TOOL=survey", "WORKRUN_MCP_CHILD_CFG="+cfg)
			select {
			case <-p.held:
			case <-time.After(60 * time.Second):
				t.Fatal("the runner never sent its answers")
			}
			storetest.Kill(t, cmd)
			regionAnswers := func() int { return answersTo(d, "region") }
			before := regionAnswers()
			if want := map[bool]int{true: 0, false: 1}[tc.holdRequest]; before != want {
				t.Fatalf("before the resume the server had %d answers, want %d", before, want)
			}
			e, r := resumeRun(t, dir, runID)
			if tc.task == "never" {
				if r.Status != workrun.RunFailed || !strings.Contains(r.Reason, "submission result unknown") || !strings.Contains(r.Reason, "not sent again") {
					t.Fatalf("run %s: %s", r.Status, r.Reason)
				}
				if n := regionAnswers(); n != before {
					t.Errorf("the resume sent the retry again (%d → %d)", before, n)
				}
				if n := count(d, "tools/call", "survey"); n != 1+before {
					t.Errorf("tools/call survey = %d, want %d", n, 1+before)
				}
				return
			}
			e.waitsFor(t, r, "m", 2, "How deep should the survey of Yunnan go?")
			if n := regionAnswers(); n != 1 {
				t.Errorf("the server got the first answer %d times, want exactly 1", n)
			}
			if resent := contains(e.messages(t, runID, "m"), "Sending again the answers of server round 1"); resent != tc.holdRequest {
				t.Errorf("sent again: %v, want %v", resent, tc.holdRequest)
			}
			r = e.answer(t, runID, "m", 2, workrun.AnswerAccept, `{"depth":"quick"}`)
			if r.Status != workrun.RunSucceeded || r.State["answer"] != "Survey of tides: region Yunnan, quick." {
				t.Fatalf("run %s: %s %v\n%q", r.Status, r.Reason, r.State, e.messages(t, runID, "m"))
			}
			if n := count(d, "tools/call", "survey"); n != 1 {
				t.Errorf("tools/call survey = %d, want 1", n)
			}
		})
	}
}

// getAsker is a 2025-11-25 server that asks, while a tools/call waits, on
// its GET stream (the TypeScript SDK does so for a request that belongs to
// no client request), and answers the call with what it was told.
type getAsker struct {
	mu      sync.Mutex
	stream  chan string          // SSE events for the open GET stream
	answers chan json.RawMessage // the client's answer to g1
	gets    int
}

func (g *getAsker) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		g.mu.Lock()
		g.gets++
		g.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		for {
			select {
			case ev := <-g.stream:
				io.WriteString(w, ev) //nolint:errcheck // test server
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	}
	if r.Method == http.MethodDelete {
		return
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
	}
	json.NewDecoder(r.Body).Decode(&m) //nolint:errcheck // the client sends JSON
	w.Header().Set("Mcp-Session-Id", "s1")
	answer := func(result string) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":`+result+`}`) //nolint:errcheck // test server
	}
	switch m.Method {
	case "server/discover":
		w.WriteHeader(http.StatusBadRequest) // a legacy server
	case "initialize":
		answer(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"get-asker","version":"1"}}`)
	case "notifications/initialized":
		w.WriteHeader(http.StatusAccepted)
	case "tools/list":
		answer(`{"tools":[{"name":"greet","inputSchema":{"type":"object"}}]}`)
	case "tools/call":
		g.stream <- "data: {\"jsonrpc\":\"2.0\",\"id\":\"g1\",\"method\":\"elicitation/create\",\"params\":{\"message\":\"Your name?\",\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}},\"required\":[\"name\"]}}}\n\n"
		select {
		case a := <-g.answers:
			var res struct {
				Content struct {
					Name string `json:"name"`
				} `json:"content"`
			}
			json.Unmarshal(a, &res) //nolint:errcheck // checked by the result text
			answer(`{"content":[{"type":"text","text":"hello ` + res.Content.Name + `"}]}`)
		case <-r.Context().Done():
		}
	case "":
		if string(m.ID) == `"g1"` {
			g.answers <- m.Result
		}
		w.WriteHeader(http.StatusAccepted)
	default:
		answer(`{}`)
	}
}

// TestAnswer_LegacyGETStream: a 2025-11-25 server asks on its GET stream
// while the call waits; the node keeps that stream open during the call
// and answers from its answers, or waits for the person.
func TestAnswer_LegacyGETStream(t *testing.T) {
	t.Run("pre-answered", func(t *testing.T) {
		g := &getAsker{stream: make(chan string, 1), answers: make(chan json.RawMessage, 1)}
		srv := httptest.NewServer(g)
		t.Cleanup(srv.Close)
		e := newEnv(t, "")
		r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", srv.URL+"/mcp", "greet", `,"output":"answer","answers":{"name":"{{q}}"}`)}), workrun.Values{"q": "Ada"})
		if r.Status != workrun.RunSucceeded || r.State["answer"] != "hello Ada" {
			t.Fatalf("run %s: %s %v\n%q", r.Status, r.Reason, r.State, e.messages(t, r.ID, "m"))
		}
	})
	t.Run("the person", func(t *testing.T) {
		g := &getAsker{stream: make(chan string, 1), answers: make(chan json.RawMessage, 1)}
		srv := httptest.NewServer(g)
		t.Cleanup(srv.Close)
		e := newEnv(t, "")
		r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", srv.URL+"/mcp", "greet", `,"output":"answer"`)}), nil)
		e.waitsFor(t, r, "m", 1, "Your name?")
		r = e.answer(t, r.ID, "m", 1, workrun.AnswerAccept, `{"name":"Grace"}`)
		// The answer reached the server; the call's reply was due on the
		// stream the node closed to wait (M15).
		select {
		case a := <-g.answers:
			if !strings.Contains(string(a), `"name":"Grace"`) {
				t.Errorf("answer %s", a)
			}
		default:
			t.Error("the server got no answer")
		}
		if r.Status != workrun.RunFailed || !strings.Contains(r.Reason, "submission result unknown") {
			t.Fatalf("run %s: %s", r.Status, r.Reason)
		}
	})
}

// signInServer is a 2026-07-28 server whose tool first asks the person to
// sign in somewhere (a URL-mode elicitation, MRTR), and answers once the
// retry says it is done.
func signInServer(t *testing.T) (string, func() []string) {
	var mu sync.Mutex
	var seen []string
	url := callServer(t, "sign-in", "fetch", func(params json.RawMessage) string {
		var p struct {
			InputResponses map[string]json.RawMessage `json:"inputResponses"`
			RequestState   *string                    `json:"requestState"`
		}
		json.Unmarshal(params, &p) //nolint:errcheck // the client sends JSON
		mu.Lock()
		seen = append(seen, string(p.InputResponses["auth"]))
		mu.Unlock()
		if a := p.InputResponses["auth"]; strings.Contains(string(a), `"accept"`) && p.RequestState != nil && *p.RequestState == "s-1" {
			return `{"resultType":"complete","content":[{"type":"text","text":"fetched as the signed-in user"}]}`
		}
		return `{"resultType":"input_required","requestState":"s-1","inputRequests":{"auth":{"method":"elicitation/create","params":{"mode":"url","message":"Sign in to the archive","url":"https://archive.example/login?s=1","elicitationId":"e-1"}}}}`
	})
	return url, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), seen...) }
}

// TestAnswer_SignIn: a URL-mode elicitation is a sign-in question — the
// link is shown, the answer says it is done (accept, no content) or
// declines; the node's answers never answer it.
func TestAnswer_SignIn(t *testing.T) {
	url, seen := signInServer(t)
	e := newEnv(t, "")
	r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "fetch", `,"output":"answer","answers":{"x":"y"}`)}), nil)
	q := e.waitsFor(t, r, "m", 1, "Sign in to the archive")
	if q.Kind != workrun.QuestionSignIn || q.URL != "https://archive.example/login?s=1" || len(q.Schema) != 0 {
		t.Fatalf("question = %+v", q)
	}
	r = e.answer(t, r.ID, "m", 1, workrun.AnswerAccept, "")
	if r.Status != workrun.RunSucceeded || r.State["answer"] != "fetched as the signed-in user" {
		t.Fatalf("run %s: %s\n%q", r.Status, r.Reason, e.messages(t, r.ID, "m"))
	}
	if got := seen(); len(got) != 2 || got[0] != "" || got[1] != `{"action":"accept"}` {
		t.Errorf("the server saw %q", got)
	}
}

// TestAnswer_RequestStateOnly: an input_required result with a
// requestState and nothing to answer (load shedding) is retried at once
// with that state; a server that never stops is given up after a bound,
// as a known failure (the tool never ran).
func TestAnswer_RequestStateOnly(t *testing.T) {
	for _, forever := range []bool{false, true} {
		t.Run(fmt.Sprintf("forever=%v", forever), func(t *testing.T) {
			var mu sync.Mutex
			calls := 0
			url := callServer(t, "busy", "t", func(params json.RawMessage) string {
				var p struct {
					RequestState *string `json:"requestState"`
				}
				json.Unmarshal(params, &p) //nolint:errcheck // the client sends JSON
				mu.Lock()
				calls++
				mu.Unlock()
				if !forever && p.RequestState != nil && *p.RequestState == "later" {
					return `{"resultType":"complete","content":[{"type":"text","text":"done"}]}`
				}
				return `{"resultType":"input_required","requestState":"later"}`
			})
			e := newEnv(t, "")
			r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "t", `,"output":"answer"`)}), nil)
			if !forever {
				if r.Status != workrun.RunSucceeded || r.State["answer"] != "done" || calls != 2 {
					t.Fatalf("run %s: %s; %d calls", r.Status, r.Reason, calls)
				}
				return
			}
			if r.Status != workrun.RunFailed || !strings.Contains(r.Reason, "asked again 20 times") || calls != 21 {
				t.Fatalf("run %s: %s; %d calls", r.Status, r.Reason, calls)
			}
		})
	}
}

// TestAnswer_SecretFieldNeverSaved: a form field with format password is
// sent to the server but reaches no file of the data directory (SQLite,
// its WAL, artifacts) and no node message.
func TestAnswer_SecretFieldNeverSaved(t *testing.T) {
	const pin = "s3cret-pin-4711"
	var got []string
	var mu sync.Mutex
	url := callServer(t, "vault", "open", func(params json.RawMessage) string {
		var p struct {
			InputResponses map[string]json.RawMessage `json:"inputResponses"`
		}
		json.Unmarshal(params, &p) //nolint:errcheck // the client sends JSON
		if a, ok := p.InputResponses["pin"]; ok {
			mu.Lock()
			got = append(got, string(a))
			mu.Unlock()
			return `{"resultType":"complete","content":[{"type":"text","text":"opened"}]}`
		}
		return `{"resultType":"input_required","inputRequests":{"pin":{"method":"elicitation/create","params":{"message":"PIN?","requestedSchema":{"type":"object","properties":{"user":{"type":"string"},"pin":{"type":"string","format":"password"}},"required":["pin"]}}}}}`
	})
	e := newEnv(t, "")
	r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "open", `,"output":"answer"`)}), nil)
	e.waitsFor(t, r, "m", 1, "PIN?")
	r = e.answer(t, r.ID, "m", 1, workrun.AnswerAccept, `{"user":"ada","pin":"`+pin+`"}`)
	if r.Status != workrun.RunSucceeded || r.State["answer"] != "opened" {
		t.Fatalf("run %s: %s", r.Status, r.Reason)
	}
	if len(got) != 1 || !strings.Contains(got[0], pin) || !strings.Contains(got[0], `"user":"ada"`) {
		t.Fatalf("the server got %q", got)
	}
	if msgs := e.messages(t, r.ID, "m"); slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, pin) }) {
		t.Errorf("a message holds the secret: %q", msgs)
	}
	err := filepath.WalkDir(e.dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte(pin)) {
			t.Errorf("%s holds the secret", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestAnswer_KilledAfterThePersonAnswered: the person's answer is given in
// a real process (Decide), which commits it as sent and sends it; that
// process is SIGKILLed while the answer is held before the server. A new
// process resumes: the task's tasks/update goes out once more — the server
// still waits for the key — and the server gets the answer exactly once;
// an MRTR retry is not sent again.
func TestAnswer_KilledAfterThePersonAnswered(t *testing.T) {
	for _, task := range []string{"always", "never"} {
		t.Run("task="+task, func(t *testing.T) {
			d, durl := modernDemo(t)
			p, purl := startHoldProxy(t, durl, true)
			dir := t.TempDir()
			runner, runID := storetest.StartChild(t, "WORKRUN_MCP_CHILD_DIR="+dir, "WORKRUN_MCP_CHILD_URL="+purl,
				"WORKRUN_MCP_CHILD_TOOL=survey", `WORKRUN_MCP_CHILD_CFG=,"arguments":{"topic":"{{q}}"},"task":"`+task+`"`)
			st, err := store.Open(t.Context(), dir)
			if err != nil {
				t.Fatal(err)
			}
			waitUntil(t, 60*time.Second, func() bool {
				r, err := st.GetRun(t.Context(), runID)
				return err == nil && r.Status == workrun.RunInterrupted
			})
			st.Close()
			storetest.Kill(t, runner)
			decider, _ := storetest.StartChild(t, "WORKRUN_MCP_CHILD_DIR="+dir, "WORKRUN_MCP_CHILD_RUN="+runID,
				`WORKRUN_MCP_CHILD_DECIDE={"region":"Yunnan"}`)
			select {
			case <-p.held:
			case <-time.After(60 * time.Second):
				t.Fatal("the answering process never sent the answer")
			}
			storetest.Kill(t, decider)
			regionAnswers := func() int { return answersTo(d, "region") }
			e, r := resumeRun(t, dir, runID)
			if task == "never" {
				if r.Status != workrun.RunFailed || !strings.Contains(r.Reason, "not sent again") || regionAnswers() != 0 {
					t.Fatalf("run %s: %s; the server got %d answers", r.Status, r.Reason, regionAnswers())
				}
				return
			}
			e.waitsFor(t, r, "m", 2, "How deep should the survey of Yunnan go?")
			if n := regionAnswers(); n != 1 {
				t.Errorf("the server got the answer %d times, want exactly 1", n)
			}
			r = e.answer(t, runID, "m", 2, workrun.AnswerAccept, `{"depth":"quick"}`)
			if r.Status != workrun.RunSucceeded || r.State["answer"] != "Survey of tides: region Yunnan, quick." {
				t.Fatalf("run %s: %s", r.Status, r.Reason)
			}
			if n := count(d, "tools/call", "survey"); n != 1 {
				t.Errorf("tools/call survey = %d", n)
			}
		})
	}
}

// TestAnswer_DemoSignIn: the demo's sign_in tool (a URL-mode elicitation)
// as MRTR and as a task: the node shows the link, the person says done —
// or declines.
func TestAnswer_DemoSignIn(t *testing.T) {
	for _, tc := range []struct {
		task   string
		action workrun.AnswerAction
		want   string
	}{
		{"never", workrun.AnswerAccept, "signed in to the archive"},
		{"always", workrun.AnswerAccept, "signed in to the archive"},
		{"always", workrun.AnswerDecline, "sign-in to the archive not done (decline)"},
	} {
		t.Run(tc.task+"/"+string(tc.action), func(t *testing.T) {
			_, url := modernDemo(t)
			e := newEnv(t, "")
			r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "sign_in", `,"arguments":{"service":"the archive"},"output":"answer","task":"`+tc.task+`"`)}), nil)
			q := e.waitsFor(t, r, "m", 1, "Sign in to the archive in your browser")
			if q.Kind != workrun.QuestionSignIn || !strings.Contains(q.URL, "service=the+archive") {
				t.Fatalf("question = %+v", q)
			}
			r = e.answer(t, r.ID, "m", 1, tc.action, "")
			if r.Status != workrun.RunSucceeded || r.State["answer"] != tc.want {
				t.Fatalf("run %s: %s %v", r.Status, r.Reason, r.State)
			}
		})
	}
}

// TestAnswer_StopWhileWaiting: Stop while the node waits for the person
// sends the one tasks/cancel of its task (also after a restart); an MRTR
// call that waits has no task and gets none.
func TestAnswer_StopWhileWaiting(t *testing.T) {
	for _, tc := range []struct {
		task    string
		restart bool
		cancels int
	}{
		{"always", false, 1},
		{"always", true, 1},
		{"never", false, 0},
	} {
		t.Run(fmt.Sprintf("task=%s/restart=%v", tc.task, tc.restart), func(t *testing.T) {
			d, url := modernDemo(t)
			e := newEnv(t, t.TempDir())
			r := e.run(t, flow(state, []workrun.NodeSpec{surveyNode(url, `,"task":"`+tc.task+`"`)}), workrun.Values{"q": "tea"})
			e.waitsFor(t, r, "m", 1, "Which region")
			if tc.restart {
				e = restart(t, e)
			}
			if err := e.eng.Stop(t.Context(), r.ID); err != nil {
				t.Fatal(err)
			}
			waitUntil(t, 30*time.Second, func() bool {
				got, err := e.st.GetRun(t.Context(), r.ID)
				return err == nil && got.Status == workrun.RunStopped
			})
			if n := count(d, "tasks/cancel", ""); n != tc.cancels {
				t.Errorf("%d tasks/cancel, want %d", n, tc.cancels)
			}
			if n := count(d, "tasks/update", ""); n != 0 {
				t.Errorf("%d tasks/update after Stop", n)
			}
		})
	}
}
