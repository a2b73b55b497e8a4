package remoteagent_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"workrun/a2a/demoagent"
	"workrun/nodes/remoteagent"
	"workrun/nodes/start"
	"workrun/remotecall"
	"workrun/store/storetest"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

const (
	enRequesting  = "Remote task: requesting cancellation…"
	enCanceled    = "Remote task: canceled"
	enUnconfirmed = "Cancel result unconfirmed: the request failed or timed out; it will not be retried automatically."
	enUnknown     = "Remote task: submission result unknown"
)

func TestServers_EchoStreamingAndBlocking(t *testing.T) {
	for _, streaming := range []bool{true, false} {
		for _, srv := range bothServers(t, streaming) {
			t.Run(fmt.Sprintf("%s/streaming=%v", srv.name, streaming), func(t *testing.T) {
				e := newEnv(t, "", "en")
				r := e.run(t, flow([]workrun.NodeSpec{raNode("ra", srv.base, "")}), workrun.Values{"prompt_ra": "echo hello there"})
				if r.Status != workrun.RunSucceeded {
					t.Fatalf("run %s: %s %s", r.Status, r.Reason, e.messages(t, r.ID, "ra"))
				}
				if got := r.State["answer_ra"]; !strings.Contains(fmt.Sprint(got), "hello there") {
					t.Errorf("answer = %q", got)
				}
				if n := srv.stats(t).Submissions[remoteagent.MessageID(r.ID, "ra", "send")]; n != 1 {
					t.Errorf("submissions for the messageId = %d, want 1", n)
				}
				c := e.call(t, r.ID, "ra")
				if c.TaskID == "" || !c.Ended || c.RemoteState != "TASK_STATE_COMPLETED" {
					t.Errorf("record = %+v", c)
				}
				// The completed state is shown once, and no line repeats the
				// one before it.
				msgs := e.messages(t, r.ID, "ra")
				n := 0
				for i, m := range msgs {
					if strings.HasPrefix(m, "Remote task: completed") {
						n++
					}
					if i > 0 && m == msgs[i-1] {
						t.Errorf("line %d repeats the one before: %q", i, m)
					}
				}
				if n != 1 {
					t.Errorf("%d \"completed\" lines, want 1: %q", n, msgs)
				}
			})
		}
	}
}

// TestServers_R9ParallelFailure: a process branch fails while one Remote
// Agent hangs, one has completed, one got no taskId yet and one was never
// started. Exactly one CancelTask goes out, for the hanging task; the run
// keeps the process node's failure (docs/remote-agent.md R2, R9–R11).
func TestServers_R9ParallelFailure(t *testing.T) {
	for _, srv := range bothServers(t, true) {
		t.Run(srv.name, func(t *testing.T) {
			e := newEnv(t, "", "en")
			// The process fails once hang has its taskId, done has completed
			// and pending's request is held.
			held := make(chan struct{})
			var heldOnce sync.Once
			pendingURL := startProxy(t, &proxy{target: blackhole(t, srv.base), fault: func(http.ResponseWriter, *http.Request, string, []byte, func() (*http.Response, error)) bool {
				heldOnce.Do(func() { close(held) })
				return false // on to the blackhole
			}})
			fail := workruntest.FailWhenRun(t, e.st, func(ctx context.Context, runID string) bool {
				if !taskIDSaved(ctx, e, runID, "hang") {
					return false
				}
				select {
				case <-held:
				default:
					return false
				}
				nodes, _ := e.st.NodeRuns(ctx, runID)
				for _, n := range nodes {
					if n.NodeID == "done" {
						return n.Status == workrun.NodeSucceeded
					}
				}
				return false
			})
			wf := flow([]workrun.NodeSpec{
				raNode("hang", srv.base, ""),
				raNode("done", srv.base, ""),
				raNode("pending", pendingURL, ""),
				{ID: "fail", Type: "process", Config: fail},
				raNode("later", srv.base, ""),
			}, workrun.Edge{From: "fail", To: "later"})
			r := e.run(t, wf, workrun.Values{"prompt_hang": "hang", "prompt_done": "echo ok", "prompt_pending": "echo never", "prompt_later": "echo later"})
			if r.Status != workrun.RunFailed || r.FailedNode != "fail" {
				t.Fatalf("run = %s failed at %q: %s", r.Status, r.FailedNode, r.Reason)
			}
			nodes, _ := e.st.NodeRuns(t.Context(), r.ID)
			for _, n := range nodes {
				if n.NodeID == "fail" && r.Reason != n.Error {
					t.Errorf("run reason %q, want the process node's %q", r.Reason, n.Error)
				}
			}
			hang := e.call(t, r.ID, "hang")
			stats := srv.stats(t)
			if stats.totalCancels() != 1 || stats.Cancels[hang.TaskID] != 1 {
				t.Errorf("cancels = %v, want exactly one for %s", stats.Cancels, hang.TaskID)
			}
			if stats.Methods["GetTask"] != 0 {
				t.Errorf("GetTask sent %d times: the cancel needs no status query", stats.Methods["GetTask"])
			}
			if got := e.messages(t, r.ID, "hang"); !contains(got, enRequesting) || !contains(got, enCanceled) {
				t.Errorf("hang messages = %q", got)
			}
			if hang.CancelOutcome != remotecall.CancelCanceled {
				t.Errorf("hang outcome = %q", hang.CancelOutcome)
			}
			if got := e.messages(t, r.ID, "pending"); !contains(got, enUnknown) || contains(got, enRequesting) {
				t.Errorf("pending messages = %q", got)
			}
			if got := e.messages(t, r.ID, "done"); contains(got, enRequesting) || contains(got, enUnknown) {
				t.Errorf("done messages = %q", got)
			}
			if _, err := e.st.GetRemoteCall(t.Context(), r.ID, "later", "send"); !errors.Is(err, workrun.ErrNotFound) {
				t.Errorf("later node made a call: %v", err)
			}
		})
	}
}

// taskIDSaved: node's call in runID has its taskId committed.
func taskIDSaved(ctx context.Context, e *env, runID, node string) bool {
	c, err := e.st.GetRemoteCall(ctx, runID, node, "send")
	return err == nil && c.TaskID != ""
}

// TestServers_CancelUnconfirmed: the cancel reaches the agent but its answer
// is lost (HTTP 502) or late (past timeout_seconds): "cancel result
// unconfirmed", and the agent saw exactly one cancel (no retry).
func TestServers_CancelUnconfirmed(t *testing.T) {
	for _, mode := range []string{"error", "timeout"} {
		for _, srv := range bothServers(t, true) {
			t.Run(srv.name+"/"+mode, func(t *testing.T) {
				url := startProxy(t, &proxy{target: srv.base, fault: func(w http.ResponseWriter, r *http.Request, method string, _ []byte, forward func() (*http.Response, error)) bool {
					if method != "CancelTask" {
						return false
					}
					resp, err := forward()
					if err == nil {
						resp.Body.Close()
					}
					if mode == "timeout" {
						<-r.Context().Done()
						return true
					}
					http.Error(w, "bad gateway", http.StatusBadGateway)
					return true
				}})
				e := newEnv(t, "", "en")
				fail := workruntest.FailWhenRun(t, e.st, func(ctx context.Context, runID string) bool { return taskIDSaved(ctx, e, runID, "hang") })
				wf := flow([]workrun.NodeSpec{
					raNode("hang", url, `,"timeout_seconds":2`),
					{ID: "fail", Type: "process", Config: fail},
				})
				r := e.run(t, wf, workrun.Values{"prompt_hang": "hang"})
				if r.Status != workrun.RunFailed || r.FailedNode != "fail" {
					t.Fatalf("run = %s at %q: %s", r.Status, r.FailedNode, r.Reason)
				}
				if got := e.messages(t, r.ID, "hang"); !contains(got, enRequesting) || !contains(got, enUnconfirmed) {
					t.Errorf("messages = %q", got)
				}
				if got := srv.stats(t).totalCancels(); got != 1 {
					t.Errorf("agent saw %d cancels, want exactly 1", got)
				}
				if c := e.call(t, r.ID, "hang"); c.CancelOutcome != remotecall.CancelUnconfirmed {
					t.Errorf("outcome = %q", c.CancelOutcome)
				}
			})
		}
	}
}

// TestServers_StreamFaults breaks the submit stream through a proxy; the node
// recovers with GetTask / SubscribeToTask and the agent saw the business
// message exactly once (docs/remote-agent.md R6, R7).
func TestServers_StreamFaults(t *testing.T) {
	faults := []struct {
		name   string
		cut    cut
		wantOK bool
	}{
		{"right after the taskId", cut{after: 1}, true},
		{"after a progress update", cut{after: 3}, true},
		{"in the middle of an artifact", cut{after: -1, midContaining: "artifactUpdate"}, true},
		{"before any event", cut{after: 0}, false},
	}
	for _, srv := range bothServers(t, true) {
		for _, f := range faults {
			t.Run(srv.name+"/"+f.name, func(t *testing.T) {
				cutOnce := make(chan struct{}, 1)
				cutOnce <- struct{}{}
				url := startProxy(t, &proxy{target: srv.base, fault: func(w http.ResponseWriter, r *http.Request, method string, _ []byte, forward func() (*http.Response, error)) bool {
					if method != "SendStreamingMessage" {
						return false
					}
					select {
					case <-cutOnce:
					default:
						return false
					}
					resp, err := forward()
					if err != nil {
						http.Error(w, err.Error(), http.StatusBadGateway)
						return true
					}
					defer resp.Body.Close()
					copyResponse(w, resp, f.cut)
					return true
				}})
				e := newEnv(t, "", "en")
				r := e.run(t, flow([]workrun.NodeSpec{raNode("ra", url, "")}), workrun.Values{"prompt_ra": "slow 4 100"})
				msgID := remoteagent.MessageID(r.ID, "ra", "send")
				stats := srv.stats(t)
				if n := stats.Submissions[msgID]; n != 1 {
					t.Errorf("submissions for %s = %d, want exactly 1", msgID, n)
				}
				if !f.wantOK {
					if r.Status != workrun.RunFailed || !strings.Contains(r.Reason, "submission result unknown") {
						t.Fatalf("run = %s: %s", r.Status, r.Reason)
					}
					return
				}
				if r.Status != workrun.RunSucceeded {
					t.Fatalf("run = %s: %s\n%q", r.Status, r.Reason, e.messages(t, r.ID, "ra"))
				}
				if got := fmt.Sprint(r.State["answer_ra"]); got != "done after 4 steps" {
					t.Errorf("answer = %q", got)
				}
				if stats.Methods["GetTask"] < 1 {
					t.Errorf("methods = %v: recovery must read the task", stats.Methods)
				}
			})
		}
	}
}

// TestServers_AskedWaitsForYou: a task in INPUT_REQUIRED makes the run
// wait for the person (docs/remote-agent.md R8), with the agent's words in
// the reason and the node's messages.
func TestServers_AskedWaitsForYou(t *testing.T) {
	for _, srv := range bothServers(t, true) {
		t.Run(srv.name, func(t *testing.T) {
			e := newEnv(t, "", "en")
			r := e.run(t, flow([]workrun.NodeSpec{raNode("ra", srv.base, "")}), workrun.Values{"prompt_ra": "input"})
			if r.Status != workrun.RunInterrupted || r.Interruption != workrun.InterruptedByHuman {
				t.Fatalf("run = %s (%s): %s", r.Status, r.Interruption, r.Reason)
			}
			if !strings.Contains(r.Reason, demoagent.InputText) {
				t.Errorf("reason %q does not show the agent's status message", r.Reason)
			}
			if got := e.messages(t, r.ID, "ra"); !contains(got, demoagent.InputText) {
				t.Errorf("messages = %q", got)
			}
		})
	}
}

// TestServers_Files sends attachments inline and keeps the returned file
// (docs/remote-agent.md R14, R15): 10 files of 20 MiB in total go through; 11 files, or
// 20 MiB + 1 byte, are refused before any request.
func TestServers_Files(t *testing.T) {
	cfg := `,"attachments":["docs"],"output_files":"outfiles","timeout_seconds":600`
	node := func(url string) workrun.Workflow {
		wf := flow([]workrun.NodeSpec{raNode("ra", url, cfg)})
		wf.State["docs"], wf.State["outfiles"] = workrun.FieldFiles, workrun.FieldFiles
		return wf
	}
	put := func(t *testing.T, e *env, sizes []int) []any {
		var ids []any
		for i, n := range sizes {
			b := bytes.Repeat([]byte{byte('a' + i)}, n)
			info, err := e.arts.Put(t.Context(), fmt.Sprintf("doc%d.txt", i), "text/plain", bytes.NewReader(b), "", "")
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, info.ID)
		}
		return ids
	}
	split := func(n, total int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = total / n
		}
		s[n-1] += total - total/n*n
		return s
	}
	for _, srv := range bothServers(t, true) {
		t.Run(srv.name+"/10 files 20 MiB", func(t *testing.T) {
			e := newEnv(t, "", "en")
			ids := put(t, e, split(10, remoteagent.MaxFileBytes))
			r := e.run(t, node(srv.base), workrun.Values{"prompt_ra": "file", "docs": ids})
			if r.Status != workrun.RunSucceeded {
				t.Fatalf("run = %s: %s", r.Status, r.Reason)
			}
			report := fmt.Sprint(r.State["answer_ra"])
			if !strings.HasPrefix(report, "files: 10\ndoc0.txt 2097152 text/plain") {
				t.Errorf("agent report = %q", report)
			}
			for _, id := range ids {
				if strings.Contains(report, id.(string)) {
					t.Errorf("artifact id %s left the machine", id)
				}
			}
			out, _ := r.State["outfiles"].([]any)
			if len(out) != 1 {
				t.Fatalf("outfiles = %v", r.State["outfiles"])
			}
			rc, info, err := e.arts.Open(t.Context(), out[0].(string))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(rc)
			rc.Close()
			if info.Name != "demo.txt" || !strings.HasPrefix(info.MediaType, "text/plain") || string(b) != "hello from the workrun demo agent\n" {
				t.Errorf("saved file %+v %q", info, b)
			}
		})
		for _, tc := range []struct {
			name  string
			sizes []int
			want  string
		}{
			{"11 files", split(11, 1100), "11 files; at most 10"},
			{"20 MiB + 1 byte", split(3, remoteagent.MaxFileBytes+1), "20971521 bytes"},
		} {
			t.Run(srv.name+"/"+tc.name, func(t *testing.T) {
				e := newEnv(t, "", "en")
				before := srv.stats(t).Methods
				r := e.run(t, node(srv.base), workrun.Values{"prompt_ra": "file", "docs": put(t, e, tc.sizes)})
				if r.Status != workrun.RunFailed || !strings.Contains(r.Reason, tc.want) {
					t.Fatalf("run = %s: %s", r.Status, r.Reason)
				}
				if after := srv.stats(t).Methods; fmt.Sprint(after) != fmt.Sprint(before) {
					t.Errorf("requests were sent: %v → %v", before, after)
				}
				if _, err := e.st.GetRemoteCall(t.Context(), r.ID, "ra", "send"); !errors.Is(err, workrun.ErrNotFound) {
					t.Errorf("a call was recorded: %v", err)
				}
			})
		}
	}
}

// fakeAgentServer is a minimal A2A 1.0 JSON-RPC agent without streaming
// that answers every request with result().
func fakeAgentServer(t *testing.T, result func() any) string {
	t.Helper()
	return startProxy(t, &proxy{
		card: func(base string) any {
			return map[string]any{"name": "fake", "version": "1",
				"supportedInterfaces": []any{map[string]any{"url": base + "/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}},
				"capabilities":        map[string]any{"streaming": false},
				"defaultInputModes":   []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"}, "skills": []any{}}
		},
		fault: func(w http.ResponseWriter, r *http.Request, method string, body []byte, _ func() (*http.Response, error)) bool {
			var req struct {
				ID json.RawMessage `json:"id"`
			}
			json.Unmarshal(body, &req) //nolint:errcheck
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result()}) //nolint:errcheck
			return true
		},
	})
}

func TestFakeServer_HostileFileNameAndUnfinished(t *testing.T) {
	raw := []byte("%PDF-1.4\n%fake\n")
	completed := func() any {
		return map[string]any{"task": map[string]any{"id": "t1", "contextId": "c1",
			"status": map[string]any{"state": "TASK_STATE_COMPLETED"},
			"artifacts": []any{map[string]any{"artifactId": "a", "parts": []any{
				map[string]any{"raw": raw, "filename": "../../etc/pass\x00wd\r\n.pdf", "mediaType": "text/html"},
				map[string]any{"url": "https://files.example/big.bin?sig=abc", "filename": "big.bin"},
			}}}}}
	}
	working := func() any {
		return map[string]any{"task": map[string]any{"id": "t2", "status": map[string]any{"state": "TASK_STATE_WORKING"}}}
	}
	t.Run("hostile output name is cleaned", func(t *testing.T) {
		url := fakeAgentServer(t, completed)
		e := newEnv(t, "", "en")
		wf := flow([]workrun.NodeSpec{raNode("ra", url, `,"output_files":"outfiles"`)})
		wf.State["outfiles"] = workrun.FieldFiles
		r := e.run(t, wf, workrun.Values{"prompt_ra": "x"})
		if r.Status != workrun.RunSucceeded {
			t.Fatalf("run = %s: %s", r.Status, r.Reason)
		}
		out, _ := r.State["outfiles"].([]any)
		if len(out) != 1 {
			t.Fatalf("outfiles = %v", r.State["outfiles"])
		}
		info, err := e.arts.Stat(t.Context(), out[0].(string))
		if err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(info.Name, "/\\\x00\r\n") || strings.Contains(info.Name, "..") || info.Name == "" {
			t.Errorf("name not cleaned: %q", info.Name)
		}
		if info.MediaType == "text/html" {
			t.Errorf("declared MIME type taken although the bytes are a PDF")
		}
		if got := e.messages(t, r.ID, "ra"); !contains(got, "File link not downloaded: https://files.example/big.bin") || contains(got, "sig=abc") {
			t.Errorf("messages = %q", got)
		}
	})
	t.Run("blocking send answered with an unfinished task", func(t *testing.T) {
		url := fakeAgentServer(t, working)
		e := newEnv(t, "", "en")
		r := e.run(t, flow([]workrun.NodeSpec{raNode("ra", url, "")}), workrun.Values{"prompt_ra": "x"})
		if r.Status != workrun.RunFailed || !strings.Contains(r.Reason, "unfinished task") || !strings.Contains(r.Reason, "t2 is working") {
			t.Fatalf("run = %s: %s", r.Status, r.Reason)
		}
	})
}

// exitWhileWorking starts a hanging Remote Agent call on the agent at base
// and closes the engine (the application exits) once the task is saved
// working; it returns the run id.
func exitWhileWorking(t *testing.T, e *env, base string) string {
	t.Helper()
	id, err := e.eng.Start(t.Context(), "", flow([]workrun.NodeSpec{raNode("ra", base, "")}), workrun.Values{"prompt_ra": "hang"})
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, 20*time.Second, func() bool {
		c, err := e.st.GetRemoteCall(t.Context(), id, "ra", "send")
		return err == nil && c.RemoteState == "TASK_STATE_WORKING"
	})
	if err := e.eng.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	return id
}

func waitUntil(t *testing.T, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in time")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestExampleWorkflow runs examples/remote-agent.json against the demo agent
// (its URL swapped for the test server's), once with a file and once without.
func TestExampleWorkflow(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "examples", "remote-agent.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := goServer(t, demoagent.Options{})
	var wf workrun.Workflow
	if err := json.Unmarshal(bytes.ReplaceAll(raw, []byte("http://127.0.0.1:41241"), []byte(srv.base)), &wf); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, "", "en")
	r := e.run(t, wf, workrun.Values{"question": "echo hello from the example"})
	if r.Status != workrun.RunSucceeded || r.State["answer"] != "echo hello from the example" {
		t.Fatalf("run = %s %q: %v", r.Status, r.Reason, r.State)
	}
	doc, err := e.arts.Put(t.Context(), "notes.txt", "text/plain", strings.NewReader("some notes\n"), "", "")
	if err != nil {
		t.Fatal(err)
	}
	r = e.run(t, wf, workrun.Values{"question": "file", "document": doc.ID})
	if r.Status != workrun.RunSucceeded || !strings.HasPrefix(fmt.Sprint(r.State["answer"]), "files: 1\nnotes.txt 11 text/plain") {
		t.Fatalf("run = %s %q: %v", r.Status, r.Reason, r.State)
	}
	if files, _ := r.State["returned"].([]any); len(files) != 1 {
		t.Errorf("returned = %v", r.State["returned"])
	}
}

// TestServers_Stop: Stop is handled like a failure: one cancel per unfinished
// call, the R11 lines, and the run ends stopped. A run interrupted by the
// agent (INPUT_REQUIRED) and then stopped gets its cancel too (R9 row 1).
func TestServers_Stop(t *testing.T) {
	for _, srv := range bothServers(t, true) {
		t.Run(srv.name+"/working", func(t *testing.T) {
			e := newEnv(t, "", "zh")
			id, err := e.eng.Start(t.Context(), "", flow([]workrun.NodeSpec{raNode("ra", srv.base, "")}), workrun.Values{"prompt_ra": "hang"})
			if err != nil {
				t.Fatal(err)
			}
			var taskID string
			waitUntil(t, 20*time.Second, func() bool {
				c, err := e.st.GetRemoteCall(t.Context(), id, "ra", "send")
				taskID = c.TaskID
				return err == nil && c.RemoteState == "TASK_STATE_WORKING"
			})
			if err := e.eng.Stop(t.Context(), id); err != nil {
				t.Fatal(err)
			}
			r, err := e.eng.Wait(t.Context(), id)
			if err != nil || r.Status != workrun.RunStopped {
				t.Fatalf("run = %s %v", r.Status, err)
			}
			if got := srv.stats(t).Cancels; got[taskID] != 1 || len(got) != 1 {
				t.Errorf("cancels = %v", got)
			}
			if got := e.messages(t, id, "ra"); !contains(got, "远程任务：正在请求取消…") || !contains(got, "远程任务：已取消") {
				t.Errorf("messages = %q", got)
			}
		})
		t.Run(srv.name+"/interrupted by the agent, then stopped", func(t *testing.T) {
			e := newEnv(t, "", "en")
			r := e.run(t, flow([]workrun.NodeSpec{raNode("ra", srv.base, "")}), workrun.Values{"prompt_ra": "input"})
			if r.Status != workrun.RunInterrupted {
				t.Fatalf("run = %s: %s", r.Status, r.Reason)
			}
			c := e.call(t, r.ID, "ra")
			if err := e.eng.Stop(t.Context(), r.ID); err != nil {
				t.Fatal(err)
			}
			r, err := e.eng.Wait(t.Context(), r.ID)
			if err != nil || r.Status != workrun.RunStopped {
				t.Fatalf("run = %s %v", r.Status, err)
			}
			if got := srv.stats(t).Cancels[c.TaskID]; got != 1 {
				t.Errorf("cancels for the input-required task = %d, want 1", got)
			}
			if got := e.messages(t, r.ID, "ra"); !contains(got, enRequesting) {
				t.Errorf("messages = %q", got)
			}
		})
	}
}

// TestServers_Credential: a saved bearer credential is sent to its origin and
// accepted; a wrong one is refused and its secret appears nowhere.
func TestServers_Credential(t *testing.T) {
	targets := []server{goServer(t, demoagent.Options{BearerToken: "tok-9"})}
	if js, ok := jsServer(t, "--bearer", "tok-9"); ok {
		targets = append(targets, js)
	}
	for _, srv := range targets {
		for _, secret := range []string{"tok-9", "wrong-secret-77"} {
			t.Run(srv.name+"/"+secret, func(t *testing.T) {
				e := newEnv(t, "", "en")
				creds := credSource(func(context.Context, string) (remotecall.Credential, error) {
					return remotecall.Credential{Kind: remotecall.CredentialBearer, Secret: secret, Origin: srv.base}, nil
				})
				ra := remoteagent.New(remoteagent.Deps{Calls: e.st, Credentials: creds})
				eng := workrun.NewEngine(e.st, e.arts, start.Kind{}, ra)
				id, err := eng.Start(t.Context(), "", flow([]workrun.NodeSpec{raNode("ra", srv.base, `,"credential":"demo"`)}), workrun.Values{"prompt_ra": "echo secret-free"})
				if err != nil {
					t.Fatal(err)
				}
				r, err := eng.Wait(t.Context(), id)
				if err != nil {
					t.Fatal(err)
				}
				msgs := e.messages(t, id, "ra")
				if secret == "tok-9" {
					if r.Status != workrun.RunSucceeded {
						t.Fatalf("run = %s: %s", r.Status, r.Reason)
					}
					return
				}
				if r.Status != workrun.RunFailed || !strings.Contains(r.Reason, "401") {
					t.Fatalf("run = %s: %s", r.Status, r.Reason)
				}
				if strings.Contains(r.Reason+strings.Join(msgs, "\n"), secret) {
					t.Error("the secret leaked into the run record")
				}
			})
		}
	}
}

type credSource func(context.Context, string) (remotecall.Credential, error)

func (f credSource) Credential(ctx context.Context, n string) (remotecall.Credential, error) {
	return f(ctx, n)
}

// TestServers_ExitSendsNothing: the application exiting interrupts the run
// and sends no CancelTask; after a restart the run resumes the original task
// (no second submission), and a later Stop sends its one cancel (docs/remote-agent.md R12, R13).
func TestServers_ExitSendsNothing(t *testing.T) {
	for _, srv := range bothServers(t, true) {
		t.Run(srv.name, func(t *testing.T) {
			dir := t.TempDir()
			e := newEnv(t, dir, "en")
			id := exitWhileWorking(t, e, srv.base)
			r, err := e.st.GetRun(t.Context(), id)
			if err != nil || r.Status != workrun.RunInterrupted || r.Interruption != workrun.InterruptedByExit {
				t.Fatalf("after exit: %s (%s) %v", r.Status, r.Interruption, err)
			}
			if got := srv.stats(t).totalCancels(); got != 0 {
				t.Fatalf("exiting sent %d cancels", got)
			}
			taskID := e.call(t, id, "ra").TaskID

			// Restart: a new engine on the same data directory.
			e2 := newEnv(t, dir, "en")
			if err := e2.eng.Resume(t.Context(), id); err != nil {
				t.Fatal(err)
			}
			waitUntil(t, 20*time.Second, func() bool { return contains(e2.messages(t, id, "ra"), "following its updates") })
			if err := e2.eng.Stop(t.Context(), id); err != nil {
				t.Fatal(err)
			}
			r, err = e2.eng.Wait(t.Context(), id)
			if err != nil || r.Status != workrun.RunStopped {
				t.Fatalf("after stop: %s %v", r.Status, err)
			}
			stats := srv.stats(t)
			if stats.Submissions[remoteagent.MessageID(id, "ra", "send")] != 1 || stats.Cancels[taskID] != 1 || stats.totalCancels() != 1 {
				t.Errorf("submissions %v cancels %v", stats.Submissions, stats.Cancels)
			}
		})
	}
}

// TestServers_QuietTaskSucceeds: with timeout_seconds 1 a task that is
// quiet for 10 s (ten times the timeout) while a proxy in front of the SDK
// server sends SSE keep-alive comments every 0.5 s is followed on its one
// stream: zero GetTask, zero re-subscriptions, one submission, and it
// succeeds. (Before issue 25 each silent timeout_seconds led to a GetTask
// and a new SubscribeToTask, keep-alives or not.)
func TestServers_QuietTaskSucceeds(t *testing.T) {
	for _, srv := range bothServers(t, true) {
		t.Run(srv.name, func(t *testing.T) {
			var comments atomic.Int32
			url := startProxy(t, &proxy{target: srv.base, fault: func(w http.ResponseWriter, r *http.Request, method string, _ []byte, forward func() (*http.Response, error)) bool {
				if method != "SendStreamingMessage" {
					return false
				}
				resp, err := forward()
				if err != nil {
					http.Error(w, err.Error(), http.StatusBadGateway)
					return true
				}
				defer resp.Body.Close()
				copyWithKeepAlives(w, resp, 500*time.Millisecond, &comments)
				return true
			}})
			e := newEnv(t, "", "en")
			r := e.run(t, flow([]workrun.NodeSpec{raNode("ra", url, `,"timeout_seconds":1`)}), workrun.Values{"prompt_ra": "slow 2 10000"})
			if r.Status != workrun.RunSucceeded {
				t.Fatalf("run = %s: %s\n%q", r.Status, r.Reason, e.messages(t, r.ID, "ra"))
			}
			if got := fmt.Sprint(r.State["answer_ra"]); got != "done after 2 steps" {
				t.Errorf("answer = %q", got)
			}
			stats := srv.stats(t)
			if n := stats.Submissions[remoteagent.MessageID(r.ID, "ra", "send")]; n != 1 {
				t.Errorf("submissions = %d, want exactly 1", n)
			}
			if stats.totalCancels() != 0 || stats.Methods["GetTask"] != 0 || stats.Methods["SubscribeToTask"] != 0 {
				t.Errorf("methods = %v cancels = %v; want no GetTask, no SubscribeToTask, no cancel", stats.Methods, stats.Cancels)
			}
			if comments.Load() < 10 {
				t.Errorf("only %d keep-alive comments were sent", comments.Load())
			}
		})
	}
}

// TestServers_UnreachableAgent, against both SDK servers through the
// fault proxy, after the submission stream broke once the task was known:
//   - one HTTP 502 on the first GetTask, then answers: the node goes on to
//     the result, nothing is cancelled;
//   - the agent gone for longer than the bound: the run is interrupted
//     ("the agent has not answered since …"), nothing is cancelled; once
//     it is back, Resume follows the same task to its result, with the one
//     submission.
func TestServers_UnreachableAgent(t *testing.T) {
	policy := remotecall.FollowPolicy{BackoffMin: 20 * time.Millisecond, BackoffMax: 100 * time.Millisecond, UnreachableFor: 700 * time.Millisecond}
	for _, srv := range bothServers(t, true) {
		t.Run(srv.name, func(t *testing.T) {
			for _, tc := range []struct {
				name  string
				fails int32 // reads answered 502 before the agent is back; -1: until told
			}{{"502 once", 1}, {"gone past the bound", -1}} {
				t.Run(tc.name, func(t *testing.T) {
					var reads, down atomic.Int32
					down.Store(1)
					url := startProxy(t, &proxy{target: srv.base, fault: func(w http.ResponseWriter, r *http.Request, method string, _ []byte, forward func() (*http.Response, error)) bool {
						switch {
						case method == "SendStreamingMessage":
							resp, err := forward()
							if err != nil {
								http.Error(w, err.Error(), http.StatusBadGateway)
								return true
							}
							defer resp.Body.Close()
							copyResponse(w, resp, cut{after: 1}) // the task is known, then the stream breaks
							return true
						case method == "GetTask" && down.Load() == 1:
							if n := reads.Add(1); tc.fails > 0 && n >= tc.fails {
								down.Store(0)
							}
							http.Error(w, "bad gateway", http.StatusBadGateway)
							return true
						}
						return false
					}})
					e := newEnvFollow(t, "", "en", policy)
					wf := flow([]workrun.NodeSpec{raNode("ra", url, `,"timeout_seconds":5`)})
					r := e.run(t, wf, workrun.Values{"prompt_ra": "slow 3 300"})
					if tc.fails < 0 {
						if r.Status != workrun.RunInterrupted || !strings.Contains(r.Reason, "the agent has not answered since") {
							t.Fatalf("run = %s (%s): %s\n%q", r.Status, r.Interruption, r.Reason, e.messages(t, r.ID, "ra"))
						}
						if !contains(e.messages(t, r.ID, "ra"), "unreachable since") {
							t.Errorf("no \"unreachable since … retrying\" line: %q", e.messages(t, r.ID, "ra"))
						}
						down.Store(0) // the agent is back
						if err := e.eng.Resume(t.Context(), r.ID); err != nil {
							t.Fatal(err)
						}
						r = storetest.Wait(t, e.eng, r.ID, time.Minute)
					}
					if r.Status != workrun.RunSucceeded || fmt.Sprint(r.State["answer_ra"]) != "done after 3 steps" {
						t.Fatalf("run = %s: %s\n%q", r.Status, r.Reason, e.messages(t, r.ID, "ra"))
					}
					stats := srv.stats(t)
					if n := stats.Submissions[remoteagent.MessageID(r.ID, "ra", "send")]; n != 1 {
						t.Errorf("submissions = %d, want exactly 1", n)
					}
					if stats.totalCancels() != 0 {
						t.Errorf("cancels = %v, want none", stats.Cancels)
					}
				})
			}
		})
	}
}

// copyWithKeepAlives copies an SSE reply and writes a keep-alive comment
// between events whenever every passes without one.
func copyWithKeepAlives(w http.ResponseWriter, resp *http.Response, every time.Duration, sent *atomic.Int32) {
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	fl, _ := w.(http.Flusher)
	lines := make(chan []byte)
	go func() {
		defer close(lines)
		br := bufio.NewReader(resp.Body)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	tick := time.NewTicker(every)
	defer tick.Stop()
	boundary := true
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				return
			}
			w.Write(line) //nolint:errcheck
			fl.Flush()
			boundary = len(bytes.TrimRight(line, "\r\n")) == 0
		case <-tick.C:
			if boundary {
				io.WriteString(w, ": keep-alive\n\n") //nolint:errcheck
				fl.Flush()
				sent.Add(1)
			}
		}
	}
}

// TestServers_CancelOutlivesEngineBound: the engine's own abort bound (here
// 300 ms, plus its 1 s grace) is shorter than the cancel's answer (2.5 s) and the node's timeout
// (10 s). The hook keeps the node's bound, so the run ends only after the
// answer, with the outcome saved.
func TestServers_CancelOutlivesEngineBound(t *testing.T) {
	srv := goServer(t, demoagent.Options{CancelDelay: 2500 * time.Millisecond})
	e := newEnv(t, "", "en")
	e.eng.AbortTimeout = 300 * time.Millisecond
	fail := workruntest.FailWhenRun(t, e.st, func(ctx context.Context, runID string) bool { return taskIDSaved(ctx, e, runID, "hang") })
	wf := flow([]workrun.NodeSpec{
		raNode("hang", srv.base, ""),
		{ID: "fail", Type: "process", Config: fail},
	})
	r := e.run(t, wf, workrun.Values{"prompt_hang": "hang"})
	if r.Status != workrun.RunFailed || r.FailedNode != "fail" {
		t.Fatalf("run = %s at %q: %s", r.Status, r.FailedNode, r.Reason)
	}
	if c := e.call(t, r.ID, "hang"); c.CancelOutcome != remotecall.CancelCanceled {
		t.Errorf("outcome when the run ended = %q, want %q (messages %q)", c.CancelOutcome, remotecall.CancelCanceled, e.messages(t, r.ID, "hang"))
	}
	if got := e.messages(t, r.ID, "hang"); !contains(got, enCanceled) || contains(got, "save remote call") {
		t.Errorf("messages = %q", got)
	}
}
