package toolapp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"workrun/artifacts"
	"workrun/mcptool"
	"workrun/nodes/join"
	"workrun/nodes/output"
	"workrun/nodes/process"
	"workrun/nodes/start"
	"workrun/nodes/toolapp"
	"workrun/store"
	"workrun/store/storetest"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// The reference servers' npm projects (package-lock.json pins each at
// 2026.8.31); scripts/test.sh runs npm ci there.
var (
	everythingJS = filepath.Join("..", "..", "mcp", "testdata", "everything", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	filesystemJS = filepath.Join("..", "..", "mcp", "testdata", "filesystem", "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js")
)

// server is the argv that starts a reference server over stdio. Without
// node or the npm install it skips, except under CI=true, where it must run.
func server(t *testing.T, js string, args ...string) []string {
	t.Helper()
	node, err := exec.LookPath("node")
	abs, aerr := filepath.Abs(js)
	if _, serr := os.Stat(js); err != nil || serr != nil || aerr != nil {
		msg := fmt.Sprintf("the MCP reference server cannot run (node: %v; %s: %v); run `npm ci` in its mcp/testdata folder", err, js, serr)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return append([]string{node, abs}, args...)
}

func everything(t *testing.T) []string { return server(t, everythingJS, "stdio") }

// env is a real data directory with an engine over the kinds a Tool App
// workflow uses.
type env struct {
	st   *store.Store
	arts *artifacts.Store
	eng  *workrun.Engine
	kind *toolapp.Kind
}

func newEnv(t *testing.T, dir string) *env {
	t.Helper()
	_, st, arts := storetest.Open(t, dir)
	k := toolapp.New(toolapp.Deps{Calls: st})
	return &env{st: st, arts: arts, kind: k, eng: workrun.NewEngine(st, arts, kinds(st)...)}
}

func kinds(st *store.Store) []workrun.Kind {
	return []workrun.Kind{start.Kind{}, join.Kind{}, output.Kind{}, process.Kind{}, toolapp.New(toolapp.Deps{Calls: st})}
}

func (e *env) run(t *testing.T, wf workrun.Workflow, in workrun.Values) workrun.Run {
	t.Helper()
	return storetest.Run(t, e.eng, wf, in, 2*time.Minute)
}

func (e *env) messages(t *testing.T, runID, node string) []string {
	t.Helper()
	return workruntest.NodeMessages(t, e.st, runID, node, "en")
}

func appNode(id string, cfg map[string]any) workrun.NodeSpec {
	b, err := json.Marshal(cfg)
	if err != nil {
		panic(err)
	}
	return workrun.NodeSpec{ID: id, Type: toolapp.Type, Config: b}
}

// line is a one-node workflow: start → app → end.
func line(state map[string]workrun.FieldType, app workrun.NodeSpec, outs ...string) workrun.Workflow {
	outCfg, _ := json.Marshal(map[string]any{"fields": outs})
	return workrun.Workflow{Name: "tool app", State: state, Nodes: []workrun.NodeSpec{
		{ID: "start", Type: "start"}, app, {ID: "end", Type: "output", Config: outCfg},
	}, Edges: []workrun.Edge{{From: "start", To: app.ID}, {From: app.ID, To: "end"}}}
}

func (e *env) call(t *testing.T, runID string) workrun.RemoteCall {
	t.Helper()
	return storetest.Call(t, e.st, runID, "app", "call")
}

var pidLine = regexp.MustCompile(`running \(pid (\d+),`)

// programPID is the pid the node's "running (pid N" line names.
func programPID(t *testing.T, msgs []string) int {
	t.Helper()
	for _, m := range msgs {
		if g := pidLine.FindStringSubmatch(m); g != nil {
			pid, _ := strconv.Atoi(g[1])
			return pid
		}
	}
	t.Fatalf("no pid in %q", msgs)
	return 0
}

// waitGone waits until no process has pid (a zombie counts as gone).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		s := string(b)
		if i := strings.LastIndexByte(s, ')'); err != nil || (i >= 0 && i+2 < len(s) && (s[i+2] == 'Z' || s[i+2] == 'X')) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tool program %d is still running: %s", pid, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func has(msgs []string, part string) bool {
	return slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, part) })
}

func count(msgs []string, part string) int {
	n := 0
	for _, m := range msgs {
		if strings.Contains(m, part) {
			n++
		}
	}
	return n
}

// TestInteropToolApp runs the Tool App against the official reference
// servers started over stdio from npm: @modelcontextprotocol/server-everything
// 2026.8.31 (stdio mode) and @modelcontextprotocol/server-filesystem
// 2026.8.31 on a temporary directory.
func TestInteropToolApp(t *testing.T) {
	t.Run("everything/list", func(t *testing.T) {
		e := newEnv(t, "")
		cfg, _ := json.Marshal(map[string]any{"command": everything(t)})
		rep, err := e.kind.Check(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		support := map[string]string{}
		for _, tl := range rep.Tools {
			support[tl.Name] = tl.TaskSupport()
		}
		if support["echo"] != "forbidden" || support["simulate-research-query"] != "required" || support["get-tiny-image"] != "forbidden" {
			t.Errorf("tools = %v", support)
		}
		if !strings.HasPrefix(rep.Server, "mcp-servers/everything") || rep.Version == "" {
			t.Errorf("report = %+v", rep)
		}
		waitGone(t, rep.PID)
	})

	t.Run("everything/sync", func(t *testing.T) {
		e := newEnv(t, "")
		wf := line(map[string]workrun.FieldType{"q": "text", "answer": "text"},
			appNode("app", map[string]any{"command": everything(t), "tool": "echo", "arguments": map[string]any{"message": "{{q}}"}, "output": "answer"}), "answer")
		r := e.run(t, wf, workrun.Values{"q": "hello over stdio"})
		msgs := e.messages(t, r.ID, "app")
		if r.Status != workrun.RunSucceeded || r.State["answer"] != "Echo: hello over stdio" {
			t.Fatalf("run = %s %q answer %q\n%q", r.Status, r.Reason, r.State["answer"], msgs)
		}
		for _, want := range []string{"Starting the tool program ", "Calling tool echo (plain call): 1 arguments", "Tool echo: completed"} {
			if !has(msgs, want) {
				t.Errorf("no %q in %q", want, msgs)
			}
		}
		// The program was stopped when the call ended.
		waitGone(t, programPID(t, msgs))
	})

	t.Run("everything/task", func(t *testing.T) {
		e := newEnv(t, "")
		wf := line(map[string]workrun.FieldType{"q": "text", "answer": "text"},
			appNode("app", map[string]any{"command": everything(t), "tool": "simulate-research-query",
				"arguments": map[string]any{"topic": "{{q}}"}, "output": "answer"}), "answer")
		r := e.run(t, wf, workrun.Values{"q": "tides"})
		msgs := e.messages(t, r.ID, "app")
		if r.Status != workrun.RunSucceeded || !strings.Contains(fmt.Sprint(r.State["answer"]), "tides") {
			t.Fatalf("run = %s %q answer %q\n%q", r.Status, r.Reason, r.State["answer"], msgs)
		}
		if !has(msgs, "Calling tool simulate-research-query (task)") || !has(msgs, "accepted by the tool program") {
			t.Errorf("messages = %q", msgs)
		}
		c := storetest.Call(t, e.st, r.ID, "app", "call")
		if c.TaskID == "" || c.RemoteState != "completed" || !c.Ended || len(c.Result) == 0 {
			t.Errorf("record = %+v", c)
		}
	})

	t.Run("everything/file", func(t *testing.T) {
		e := newEnv(t, "")
		wf := line(map[string]workrun.FieldType{"files": "files", "text": "text"},
			appNode("app", map[string]any{"command": everything(t), "tool": "get-tiny-image", "output": "text", "output_files": "files"}), "files")
		r := e.run(t, wf, nil)
		msgs := e.messages(t, r.ID, "app")
		ids, _ := r.State["files"].([]any)
		if r.Status != workrun.RunSucceeded || len(ids) != 1 {
			t.Fatalf("run = %s %q files %v\n%q", r.Status, r.Reason, r.State["files"], msgs)
		}
		info, err := e.arts.Stat(t.Context(), ids[0].(string))
		if err != nil || info.MediaType != "image/png" || info.Size == 0 {
			t.Errorf("artifact = %+v, %v", info, err)
		}
		if !has(msgs, "Saved file image-1.png (image/png") {
			t.Errorf("messages = %q", msgs)
		}
	})

	t.Run("filesystem/cleanup", func(t *testing.T) {
		e := newEnv(t, "")
		dir := t.TempDir()
		note, aside := filepath.Join(dir, "note.txt"), filepath.Join(dir, "note.txt.aside")
		state := map[string]workrun.FieldType{"dir": "text", "written": "text"}
		app := appNode("write", map[string]any{"command": server(t, filesystemJS, dir), "tool": "write_file",
			"arguments": map[string]any{"path": "{{dir}}/note.txt", "content": "hello from the Tool App"}, "output": "written",
			"cleanup_tool":      "move_file",
			"cleanup_arguments": map[string]any{"source": "{{dir}}/note.txt", "destination": "{{dir}}/note.txt.aside"}})
		// The other branch fails only once the Tool App node has finished.
		fail := workrun.NodeSpec{ID: "fail", Type: "process", Config: workruntest.FailWhenRun(t, e.st, func(ctx context.Context, runID string) bool {
			rec, err := e.st.GetRemoteCall(ctx, runID, "write", "call")
			return err == nil && rec.Ended && len(rec.Result) > 0
		})}
		wf := workrun.Workflow{Name: "cleanup", State: state, Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, app, fail, {ID: "join", Type: "join"}},
			Edges: []workrun.Edge{{From: "start", To: "write"}, {From: "start", To: "fail"}, {From: "write", To: "join"}, {From: "fail", To: "join"}}}
		r := e.run(t, wf, workrun.Values{"dir": dir})
		msgs := e.messages(t, r.ID, "write")
		if r.Status != workrun.RunFailed || !strings.Contains(r.Reason, "disk full") {
			t.Fatalf("run = %s %q\n%q", r.Status, r.Reason, msgs)
		}
		if _, err := os.Stat(note); !os.IsNotExist(err) {
			t.Errorf("note.txt is still there (%v): the cleanup did not move it", err)
		}
		if b, err := os.ReadFile(aside); err != nil || string(b) != "hello from the Tool App" {
			t.Errorf("note.txt.aside = %q, %v", b, err)
		}
		if count(msgs, "Cleanup: calling tool move_file…") != 1 || count(msgs, "Cleanup: tool move_file finished: ") != 1 {
			t.Errorf("messages = %q", msgs)
		}
		rec := storetest.Call(t, e.st, r.ID, "write", mcptool.CleanupKey)
		if rec.CancelOutcome != mcptool.CleanupDone {
			t.Errorf("cleanup record = %+v", rec)
		}
		// Never again: a process that rearms the node after a restart finds
		// the record and calls nothing.
		st, err := e.kind.Compile(app, wf)
		if err != nil {
			t.Fatal(err)
		}
		nc := &workruntest.NodeContext{Run: r.ID, Node: "write"}
		st.(workrun.RearmableStep).Rearm(nc, workrun.NodeRun{Status: workrun.NodeSucceeded, Inputs: workrun.Values{"dir": dir}})
		for _, h := range nc.Hooks() {
			h(t.Context())
		}
		if logs := nc.Logs(); len(logs) != 1 || !strings.Contains(logs[0], "Cleanup: tool move_file was already called") {
			t.Errorf("rearmed hook said %q", logs)
		}
		if _, err := os.Stat(aside); err != nil {
			t.Errorf("after the rearmed hook: %v", err)
		}
	})
}
