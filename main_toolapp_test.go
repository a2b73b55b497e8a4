package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"workrun/workrun"
)

// shownRecord is what `workrun show --json` prints, as far as these tests read it.
type shownRecord struct {
	Run   workrun.Run `json:"run"`
	Nodes []struct {
		workrun.NodeRun
		Messages []workrun.Message `json:"messages"`
	} `json:"nodes"`
	RemoteCalls []shownCall `json:"remote_calls"`
}

// showRecord runs the built binary's `show --json RUN`.
func showRecord(t *testing.T, bin, dir, runID string) shownRecord {
	t.Helper()
	out, err := exec.Command(bin, "--data-dir", dir, "show", "--json", runID).Output()
	if err != nil {
		t.Fatalf("show: %v\n%s", err, out)
	}
	var r shownRecord
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("show: %v\n%s", err, out)
	}
	return r
}

// node is a node's record.
func (r shownRecord) node(id string) workrun.NodeRun {
	for _, n := range r.Nodes {
		if n.NodeID == id {
			return n.NodeRun
		}
	}
	return workrun.NodeRun{}
}

// shownCall is one remote call record as `workrun show --json` prints it.
type shownCall struct {
	NodeID    string `json:"node_id"`
	CallKey   string `json:"call_key"`
	MessageID string `json:"message_id"`
	TaskID    string `json:"task_id"`
}

// call is the node's remote call record with this call key.
func (r shownRecord) call(node, key string) (shownCall, bool) {
	for _, c := range r.RemoteCalls {
		if c.NodeID == node && c.CallKey == key {
			return c, true
		}
	}
	return shownCall{}, false
}

// nodeLines are a node's messages in English.
func (r shownRecord) nodeLines(id string) []string {
	var out []string
	for _, n := range r.Nodes {
		if n.NodeID == id {
			for _, m := range n.Messages {
				out = append(out, m.In("en"))
			}
		}
	}
	return out
}

func countLines(lines []string, part string) int {
	n := 0
	for _, l := range lines {
		if strings.Contains(l, part) {
			n++
		}
	}
	return n
}

// runner is a `workrun run --json` of the built binary under way.
type runner struct {
	cmd   *exec.Cmd
	runID string
	lines chan string // its stdout, line by line
	log   *bytes.Buffer
}

// startRun starts `workrun --data-dir DIR run --json FLOW ARGS…` and waits
// for the run id of its first event.
func startRun(t *testing.T, bin, dir, flow string, env []string, args ...string) *runner {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--data-dir", dir, "run", "--json", flow}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{cmd: cmd, lines: make(chan string, 1024), log: &bytes.Buffer{}}
	cmd.Stderr = r.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	go func() {
		defer close(r.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			r.lines <- sc.Text()
		}
	}()
	first, ok := <-r.lines
	var ev struct {
		RunID string `json:"run_id"`
	}
	if !ok || json.Unmarshal([]byte(first), &ev) != nil || ev.RunID == "" {
		t.Fatalf("workrun run printed no run id (%q); stderr: %s", first, r.log)
	}
	r.runID = ev.RunID
	return r
}

// waitFor reads the runner's output until a line holds part.
func (r *runner) waitFor(t *testing.T, part string, limit time.Duration) {
	t.Helper()
	deadline := time.After(limit)
	for {
		select {
		case l, ok := <-r.lines:
			if !ok {
				t.Fatalf("workrun run ended before %q; stderr: %s", part, r.log)
			}
			if strings.Contains(l, part) {
				go func() { // keep the pipe drained
					for range r.lines {
					}
				}()
				return
			}
		case <-deadline:
			t.Fatalf("no %q within %s; stderr: %s", part, limit, r.log)
		}
	}
}

// kill SIGKILLs the runner: no deferred code, no signal handler runs.
func (r *runner) kill(t *testing.T) {
	t.Helper()
	if err := r.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = r.cmd.Wait()
}

// markedProcesses lists the running processes (zombies left out) whose
// environment holds name=value: every descendant of a process inherits it,
// also one that left its process group or session.
func markedProcesses(name, value string) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if i := bytes.LastIndexByte(stat, ')'); err != nil || i < 0 || i+2 >= len(stat) || stat[i+2] == 'Z' || stat[i+2] == 'X' {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err == nil && bytes.Contains(append([]byte{0}, b...), []byte("\x00"+name+"="+value+"\x00")) {
			out = append(out, pid)
		}
	}
	return out
}

// processName is /proc/PID/comm.
func processName(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	return strings.TrimSpace(string(b))
}

// everythingViaNpx returns a program that starts the MCP reference server
// the way people start MCP servers, through npx (npx → sh → node: a tree
// of processes), offline from mcp/testdata/everything (npm ci by
// scripts/test.sh), and appends a line to starts each time it is started.
// It returns the program's argv and its working directory.
func everythingViaNpx(t *testing.T, starts string) ([]string, string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("mcp", "testdata", "everything"))
	if err != nil {
		t.Fatal(err)
	}
	_, nerr := exec.LookPath("npx")
	_, serr := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything"))
	if nerr != nil || serr != nil {
		msg := fmt.Sprintf("the MCP reference server cannot run through npx (npx: %v; %v): run `npm ci` in mcp/testdata/everything", nerr, serr)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	script := filepath.Join(t.TempDir(), "everything.sh")
	body := "#!/bin/sh\necho started >> \"$1\"\nexec npx --offline -y @modelcontextprotocol/server-everything@2026.8.31 stdio\n"
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	return []string{script, starts}, dir
}

func lineCount(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

// TestToolAppKilledWithWorkrun (issue 26, docs/tool-app.md T3 and T5): the
// built `workrun run` is SIGKILLed while a Tool App node's call is under
// way; its MCP server runs through npx, a tree of processes. No process of
// that tree is left (checked by pid, and by an environment mark every one
// of them inherits). `workrun resume` then reports "the tool program was
// stopped with Workrun; result unknown" and does not start the program
// again for a tool not annotated idempotentHint; one annotated
// idempotentHint: true is called again and the run succeeds.
func TestToolAppKilledWithWorkrun(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("needs /proc (Linux)")
	}
	bin := buildPlainWorkrun(t)
	cases := []struct {
		name, tool string
		args       map[string]any
		idempotent bool
	}{
		// A task tool, idempotentHint false.
		{"not idempotent", "simulate-research-query", map[string]any{"topic": "{{q}}"}, false},
		// Annotated idempotentHint: true.
		{"idempotent", "trigger-long-running-operation", map[string]any{"duration": 4, "steps": 4}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, starts := t.TempDir(), filepath.Join(t.TempDir(), "starts")
			argv, cwd := everythingViaNpx(t, starts)
			mark := strconv.FormatInt(time.Now().UnixNano(), 36)
			cfg := map[string]any{"command": argv, "cwd": cwd, "tool": tc.tool, "arguments": tc.args, "output": "answer",
				"env": map[string]string{"WORKRUN_TEST_TREE_MARK": mark, "npm_config_offline": "true"}, "timeout_seconds": 120}
			wf := map[string]any{"name": "tool app killed", "state": map[string]string{"q": "text", "answer": "text"},
				"nodes": []map[string]any{{"id": "start", "type": "start"}, {"id": "app", "type": "tool_app", "config": cfg},
					{"id": "end", "type": "output", "config": map[string]any{"fields": []string{"answer"}}}},
				"edges": []map[string]string{{"from": "start", "to": "app"}, {"from": "app", "to": "end"}}}
			b, _ := json.Marshal(wf)
			flow := filepath.Join(t.TempDir(), "flow.json")
			if err := os.WriteFile(flow, b, 0o600); err != nil {
				t.Fatal(err)
			}

			r := startRun(t, bin, dir, flow, nil, "--input", "q=tides")
			r.waitFor(t, "Calling tool "+tc.tool, 2*time.Minute)
			tree := markedProcesses("WORKRUN_TEST_TREE_MARK", mark)
			var names []string
			for _, p := range tree {
				names = append(names, processName(p))
			}
			// The guard, the script turned npx (node), the sh npm exec
			// starts, and the server's node: at least three below Workrun.
			if len(tree) < 3 {
				t.Fatalf("the program's tree is %v (%q): too small to prove anything", tree, names)
			}
			r.kill(t)
			deadline := time.Now().Add(30 * time.Second)
			for left := markedProcesses("WORKRUN_TEST_TREE_MARK", mark); len(left) > 0; left = markedProcesses("WORKRUN_TEST_TREE_MARK", mark) {
				if time.Now().After(deadline) {
					t.Fatalf("after SIGKILL of workrun run, processes of the tool program's tree %v (%q) are still running: %v", tree, names, left)
				}
				time.Sleep(50 * time.Millisecond)
			}
			t.Logf("SIGKILL of workrun run: the tool program's tree %v (%q) is gone", tree, names)
			if n := lineCount(t, starts); n != 1 {
				t.Fatalf("the program was started %d times before the kill, want 1", n)
			}

			res := exec.Command(bin, "--data-dir", dir, "resume", r.runID)
			res.Env = os.Environ()
			out, _ := res.CombinedOutput()
			rec := showRecord(t, bin, dir, r.runID)
			msgs := rec.nodeLines("app")
			if tc.idempotent {
				if rec.Run.Status != workrun.RunSucceeded || countLines(msgs, "is annotated idempotentHint: true, so it is called again") != 1 {
					t.Fatalf("resumed: %s %q\n%s\n%q", rec.Run.Status, rec.Run.Reason, out, msgs)
				}
				if n := countLines(msgs, "Calling tool "); n != 2 {
					t.Errorf("the tool was called %d times, want twice: %q", n, msgs)
				}
				if n := lineCount(t, starts); n != 2 {
					t.Errorf("the program was started %d times in all, want 2", n)
				}
			} else {
				want := "the tool program was stopped with Workrun; result unknown"
				if rec.Run.Status != workrun.RunFailed || !strings.Contains(rec.Run.Reason, want) {
					t.Fatalf("resumed: %s %q, want failed %q\n%s\n%q", rec.Run.Status, rec.Run.Reason, want, out, msgs)
				}
				if n := countLines(msgs, "Calling tool "); n != 1 {
					t.Errorf("the tool was called %d times, want once: %q", n, msgs)
				}
				if n := lineCount(t, starts); n != 1 {
					t.Errorf("the program was started %d times in all, want 1: resume must not start it again", n)
				}
			}
			// Whatever ran for the resume is gone too.
			deadline = time.Now().Add(30 * time.Second)
			for left := markedProcesses("WORKRUN_TEST_TREE_MARK", mark); len(left) > 0; left = markedProcesses("WORKRUN_TEST_TREE_MARK", mark) {
				if time.Now().After(deadline) {
					t.Fatalf("after the resume, processes of the program's tree are running: %v", left)
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}
