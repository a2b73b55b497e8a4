package remotemcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"workrun/mcp"
	"workrun/mcp/demoserver"
	"workrun/remotecall"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// everythingDir holds the reference server's npm project (package-lock.json
// pins @modelcontextprotocol/server-everything 2026.8.31); scripts/test.sh
// runs npm ci there.
var everythingDir = filepath.Join("..", "..", "mcp", "testdata", "everything")

// startEverything runs the official MCP reference server with its
// streamableHttp transport on a free loopback port and returns its endpoint.
// Without node or the npm install it skips, except under CI=true, where the
// suite must run.
func startEverything(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(everythingDir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	node, err := exec.LookPath("node")
	if _, serr := os.Stat(bin); err != nil || serr != nil {
		msg := fmt.Sprintf("the MCP reference server cannot run (node: %v; %s: %v); run `npm ci` in mcp/testdata/everything", err, bin, serr)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(node, bin, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() }) //nolint:errcheck // stopping the server
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "listening on port") {
				ready <- true
			}
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatal("server-everything exited before listening")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("server-everything did not listen within 30 s")
	}
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
}

// TestInteropMCP runs the Remote MCP Tool node and the mcp client against
// the official reference server @modelcontextprotocol/server-everything
// 2026.8.31 (Tasks 2025-11-25) and against the demo server built on the
// official Go SDK (both task forms, legacy jobs).
func TestInteropMCP(t *testing.T) {
	url := startEverything(t)

	t.Run("everything/client", func(t *testing.T) {
		c, err := mcp.New(url, mcp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		// Connect tries 2026-07-28 first; server-everything is legacy, so
		// the client falls back to initialize offering 2025-11-25.
		init, err := c.Connect(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if c.Session() == "" || c.Version() != mcp.Version20251125 || init.Capabilities.TaskFormFor(c.Version()) != mcp.FormCore {
			t.Fatalf("session %q version %q form %q", c.Session(), c.Version(), init.Capabilities.TaskForm())
		}
		tools, err := c.ListTools(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		support := map[string]string{}
		for _, tl := range tools {
			support[tl.Name] = tl.TaskSupport()
		}
		if support["simulate-research-query"] != mcp.TaskRequired || support["echo"] != mcp.TaskForbidden {
			t.Errorf("task support = %v", support)
		}
		res, err := c.CallTool(t.Context(), mcp.CallParams{Name: "simulate-research-query", Arguments: json.RawMessage(`{"topic":"tides"}`), Task: mcp.FormCore, TTLMillis: 60000})
		if err != nil {
			t.Fatal(err)
		}
		if res.Task == nil || res.Task.Status != mcp.StatusWorking || res.Task.PollMillis() != 1000 {
			t.Fatalf("call = %+v", res)
		}
		got, err := c.GetTask(t.Context(), res.Task.TaskID)
		if err != nil || got.TaskID != res.Task.TaskID {
			t.Fatalf("tasks/get = %+v, %v", got, err)
		}
		if _, err := c.GetTask(t.Context(), "no-such-task"); !errors.Is(err, mcp.ErrTaskNotFound) {
			t.Errorf("unknown task: %v, want ErrTaskNotFound", err)
		}
		ct, err := c.CancelTask(t.Context(), res.Task.TaskID)
		if err != nil || ct.Status != mcp.StatusCancelled {
			t.Errorf("tasks/cancel = %+v, %v", ct, err)
		}
		if err := c.Close(t.Context()); err != nil {
			t.Fatal(err)
		}
		if _, err := c.ListTools(t.Context()); !errors.Is(err, mcp.ErrSessionNotFound) {
			t.Errorf("after DELETE: %v, want ErrSessionNotFound", err)
		}
	})

	t.Run("everything/research", func(t *testing.T) {
		e := newEnv(t, "")
		begin := time.Now()
		r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "simulate-research-query", `,"arguments":{"topic":"{{q}}"},"output":"answer","timeout_seconds":30`)}),
			workrun.Values{"q": "tides"})
		msgs := e.messages(t, r.ID, "m")
		if r.Status != workrun.RunSucceeded {
			t.Fatalf("run %s: %s %q", r.Status, r.Reason, msgs)
		}
		if got := fmt.Sprint(r.State["answer"]); !strings.Contains(got, "# Research Report: tides") {
			t.Errorf("answer = %.200q", got)
		}
		if took := time.Since(begin); took < 3*time.Second {
			t.Errorf("the four 1 s stages took %v", took)
		}
		c := e.call(t, r.ID, "m")
		if c.TaskID == "" || !c.Ended || c.RemoteState != "completed" || !strings.Contains(c.ContextID, "form=2025-11-25") {
			t.Errorf("record = %+v", c)
		}
		if !contains(msgs, "Remote task "+c.TaskID+" accepted") {
			t.Errorf("messages = %q", msgs)
		}
	})

	// An ambiguous query makes the server ask (elicitation/create on the
	// tasks/result stream, docs/remote-mcp.md M15): the person answers,
	// declines or cancels, or the node's answers do.
	ambiguous := func(t *testing.T, extra string) (*env, workrun.Run) {
		e := newEnv(t, "")
		return e, e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "simulate-research-query",
			`,"arguments":{"topic":"python","ambiguous":true},"output":"answer","timeout_seconds":30`+extra)}), nil)
	}
	t.Run("everything/ambiguous/answered", func(t *testing.T) {
		e, r := ambiguous(t, "")
		q := e.waitsFor(t, r, "m", 1, `The research query "python" could have multiple interpretations`)
		if !strings.Contains(string(q.Schema), `"const":"snake"`) {
			t.Errorf("schema %s", q.Schema)
		}
		r = e.answer(t, r.ID, "m", 1, workrun.AnswerAccept, `{"interpretation":"snake"}`)
		if r.Status != workrun.RunSucceeded || !strings.Contains(fmt.Sprint(r.State["answer"]), "**Clarification**: snake") {
			t.Fatalf("run %s: %s %.300q\n%q", r.Status, r.Reason, fmt.Sprint(r.State["answer"]), e.messages(t, r.ID, "m"))
		}
		if c := e.call(t, r.ID, "m"); !c.Ended || c.RemoteState != "completed" {
			t.Errorf("record = %+v", c)
		}
	})
	for _, action := range []workrun.AnswerAction{workrun.AnswerDecline, workrun.AnswerCancel} {
		t.Run("everything/ambiguous/"+string(action), func(t *testing.T) {
			e, r := ambiguous(t, "")
			e.waitsFor(t, r, "m", 1, "multiple interpretations")
			r = e.answer(t, r.ID, "m", 1, action, "")
			want := map[workrun.AnswerAction]string{workrun.AnswerDecline: "User declined", workrun.AnswerCancel: "User cancelled"}[action]
			if r.Status != workrun.RunSucceeded || !strings.Contains(fmt.Sprint(r.State["answer"]), want) {
				t.Fatalf("run %s: %s %.300q", r.Status, r.Reason, fmt.Sprint(r.State["answer"]))
			}
		})
	}
	t.Run("everything/ambiguous/pre-answered", func(t *testing.T) {
		e, r := ambiguous(t, `,"answers":{"interpretation":"comedy"}`)
		if r.Status != workrun.RunSucceeded || !strings.Contains(fmt.Sprint(r.State["answer"]), "**Clarification**: comedy") {
			t.Fatalf("run %s: %s\n%q", r.Status, r.Reason, e.messages(t, r.ID, "m"))
		}
		if msgs := e.messages(t, r.ID, "m"); !contains(msgs, "answers config answers round 1") {
			t.Errorf("messages = %q", msgs)
		}
	})

	t.Run("everything/cancel", func(t *testing.T) {
		e := newEnv(t, "")
		fail := workruntest.FailWhenRun(t, e.st, func(ctx context.Context, runID string) bool { return taskSaved(ctx, e.st, runID, "m") })
		wf := flow(state, []workrun.NodeSpec{
			mcpNode("m", url, "simulate-research-query", `,"arguments":{"topic":"tides"},"output":"answer","timeout_seconds":30`),
			{ID: "fail", Type: "process", Config: fail},
		})
		r := e.run(t, wf, nil)
		if r.Status != workrun.RunFailed || r.FailedNode != "fail" {
			t.Fatalf("run = %s at %q: %s", r.Status, r.FailedNode, r.Reason)
		}
		c := e.call(t, r.ID, "m")
		if c.CancelOutcome != remotecall.CancelCanceled || c.RemoteState != "cancelled" {
			t.Errorf("record = %+v; messages %q", c, e.messages(t, r.ID, "m"))
		}
		if msgs := e.messages(t, r.ID, "m"); !contains(msgs, enRequesting) || !contains(msgs, enCanceled) {
			t.Errorf("messages = %q", msgs)
		}
	})

	t.Run("everything/sync", func(t *testing.T) {
		e := newEnv(t, "")
		r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "echo", `,"arguments":{"message":"{{q}}"},"output":"answer"`)}), workrun.Values{"q": "hello"})
		if r.Status != workrun.RunSucceeded || !strings.Contains(fmt.Sprint(r.State["answer"]), "hello") {
			t.Fatalf("run %s: %s %v", r.Status, r.Reason, r.State)
		}
	})

	for _, coreOnly := range []bool{false, true} {
		t.Run(fmt.Sprintf("demo/research/coreOnly=%v", coreOnly), func(t *testing.T) {
			d, durl := demo(t, demoserver.Options{CoreOnly: coreOnly})
			e := newEnv(t, "")
			r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", durl, "research", `,"arguments":{"topic":"{{q}}","stages":3},"output":"answer","output_files":"files"`)}),
				workrun.Values{"q": "tides"})
			if r.Status != workrun.RunSucceeded || r.State["answer"] != "Research on tides: 3 stages done." {
				t.Fatalf("run %s: %s %v", r.Status, r.Reason, r.State)
			}
			if n := count(d, "tools/call", "research"); n != 1 {
				t.Errorf("research called %d times", n)
			}
		})
	}
	t.Run("demo/job", func(t *testing.T) {
		_, durl := demo(t, demoserver.Options{})
		e := newEnv(t, "")
		r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", durl, "start_job", `,"arguments":{"seconds":0.5,"label":"x"},"output":"answer"`)}), nil)
		if r.Status != workrun.RunSucceeded || !strings.Contains(fmt.Sprint(r.State["answer"]), "finished") {
			t.Fatalf("run %s: %s %v", r.Status, r.Reason, r.State)
		}
	})
}
