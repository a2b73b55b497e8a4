package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"workrun/a2a/a2atest"
	"workrun/workrun"
)

// refusingGateway stands in front of a real A2A agent like a rate limiter:
// it answers the first submission (SendMessage or SendStreamingMessage)
// with 429 Too Many Requests — refused before it was accepted, a known
// failure a retry policy may try again — and passes everything else
// through, the Agent Card rewritten to name the gateway.
type refusingGateway struct {
	target  *url.URL
	self    string
	proxy   *httputil.ReverseProxy
	mu      sync.Mutex
	refused int
}

func startRefusingGateway(t *testing.T, agentURL string) *refusingGateway {
	t.Helper()
	target, err := url.Parse(agentURL)
	if err != nil {
		t.Fatal(err)
	}
	g := &refusingGateway{target: target}
	g.proxy = httputil.NewSingleHostReverseProxy(target)
	g.proxy.FlushInterval = -1 // streams pass at once
	g.proxy.ModifyResponse = func(res *http.Response) error {
		if !strings.Contains(res.Request.URL.Path, "agent-card") {
			return nil
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return err
		}
		b = bytes.ReplaceAll(b, []byte(strings.TrimSuffix(agentURL, "/")), []byte(g.self))
		res.Body = io.NopCloser(bytes.NewReader(b))
		res.ContentLength = int64(len(b))
		res.Header.Set("Content-Length", strconv.Itoa(len(b)))
		return nil
	}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	g.self = srv.URL
	return g
}

func (g *refusingGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var m struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(body, &m)
		if m.Method == "SendMessage" || m.Method == "SendStreamingMessage" {
			g.mu.Lock()
			first := g.refused == 0
			if first {
				g.refused++
			}
			g.mu.Unlock()
			if first {
				w.Header().Set("Retry-After", "1")
				http.Error(w, "rate limited", http.StatusTooManyRequests)
				return
			}
		}
	}
	g.proxy.ServeHTTP(w, r)
}

// TestRemoteAttemptKilledResumesThatAttempt (issue 24 item 1): a Remote
// Agent node with a retry policy runs against the @a2a-js/sdk peer.
// Attempt 1 is refused before it is accepted (HTTP 429 from a gateway in
// front of the peer): a known failure, so attempt 2 is sent, with its own
// messageId. The built `workrun run` is SIGKILLed while attempt 2's task
// runs. `workrun resume` continues attempt 2 — the same task, followed, not
// sent again — and the run succeeds in attempt 2: the peer saw exactly one
// submission, attempt 2's, before and after the resume.
func TestRemoteAttemptKilledResumesThatAttempt(t *testing.T) {
	agent := a2atest.StartJSAgent(t)
	if agent == nil {
		return // no node outside CI: StartJSAgent logged the skip
	}
	bin := buildPlainWorkrun(t)
	gw := startRefusingGateway(t, agent.URL)
	wf := map[string]any{"name": "retry killed", "state": map[string]string{"question": "text", "answer": "text"},
		"nodes": []map[string]any{{"id": "start", "type": "start"},
			{"id": "ask", "type": "remote_agent", "retry": map[string]any{"max_attempts": 3, "wait_seconds": 1},
				"config": map[string]any{"url": gw.self, "inputs": []string{"question"}, "output": "answer", "timeout_seconds": 120}},
			{"id": "end", "type": "output", "config": map[string]any{"fields": []string{"answer"}}}},
		"edges": []map[string]string{{"from": "start", "to": "ask"}, {"from": "ask", "to": "end"}}}
	b, _ := json.Marshal(wf)
	flow := filepath.Join(t.TempDir(), "flow.json")
	if err := os.WriteFile(flow, b, 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	r := startRun(t, bin, dir, flow, nil, "--input", "question=slow 30 250")

	// Attempt 2's task id is saved: the kill comes during attempt 2.
	var rec shownRecord
	deadline := time.Now().Add(2 * time.Minute)
	for {
		rec = showRecord(t, bin, dir, r.runID)
		if c, ok := rec.call("ask", "send#2"); ok && c.TaskID != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("attempt 2 never got a task: %+v\nstderr: %s", rec.RemoteCalls, r.log)
		}
		time.Sleep(200 * time.Millisecond)
	}
	r.kill(t)
	rec = showRecord(t, bin, dir, r.runID)
	second, _ := rec.call("ask", "send#2")
	first, ok := rec.call("ask", "send")
	if !ok || first.MessageID == "" || first.MessageID == second.MessageID {
		t.Fatalf("attempt 1's call %+v, attempt 2's %+v: want two calls with their own messageIds", first, second)
	}
	if n := rec.node("ask"); n.Status == workrun.NodeSucceeded || n.AttemptNo() != 2 || !strings.Contains(n.LastError, "429") {
		t.Fatalf("after the kill: node %s, attempt %d, last error %q; want running attempt 2 after a 429", n.Status, n.AttemptNo(), n.LastError)
	}
	if s := agent.Stats(t); len(s.Submissions) != 1 || s.Submissions[second.MessageID] != 1 {
		t.Fatalf("before the resume the peer saw submissions %v, want only attempt 2's %s once", s.Submissions, second.MessageID)
	}

	out, err := exec.Command(bin, "--data-dir", dir, "resume", r.runID).CombinedOutput()
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	rec = showRecord(t, bin, dir, r.runID)
	n := rec.node("ask")
	if rec.Run.Status != workrun.RunSucceeded || n.AttemptNo() != 2 || !strings.Contains(rec.Run.State["answer"].(string), "done after 30 steps") {
		t.Fatalf("resumed: run %s (%q), node attempt %d, answer %v\n%s", rec.Run.Status, rec.Run.Reason, n.AttemptNo(), rec.Run.State["answer"], out)
	}
	if len(rec.RemoteCalls) != 2 {
		t.Errorf("remote calls after the resume: %+v, want attempt 1's and attempt 2's only", rec.RemoteCalls)
	}
	if again, _ := rec.call("ask", "send#2"); again.MessageID != second.MessageID || again.TaskID != second.TaskID {
		t.Errorf("attempt 2 after the resume: %+v, before: %+v", again, second)
	}
	s := agent.Stats(t)
	if len(s.Submissions) != 1 || s.Submissions[second.MessageID] != 1 || s.Methods["SendMessage"]+s.Methods["SendStreamingMessage"] != 1 {
		t.Errorf("after the resume the peer saw submissions %v (methods %v), want attempt 2's once: no extra attempt", s.Submissions, s.Methods)
	}
	if gw.refused != 1 {
		t.Errorf("the gateway refused %d submissions, want 1", gw.refused)
	}
	t.Logf("attempt 1 refused (429), attempt 2 %s killed and resumed: peer submissions %v, methods %v", second.MessageID, s.Submissions, s.Methods)
}
