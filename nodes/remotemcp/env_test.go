package remotemcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"workrun/artifacts"
	"workrun/mcp/demoserver"
	"workrun/nodes/output"
	"workrun/nodes/process"
	"workrun/nodes/remotemcp"
	"workrun/nodes/start"
	"workrun/store"
	"workrun/store/storetest"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

type env struct {
	dir  string
	st   *store.Store
	arts *artifacts.Store
	eng  *workrun.Engine
}

func newEnv(t *testing.T, dir string) *env {
	t.Helper()
	dir, st, arts := storetest.Open(t, dir)
	eng := workrun.NewEngine(st, arts, start.Kind{}, process.Kind{}, output.Kind{}, remotemcp.New(remotemcp.Deps{Calls: st}))
	return &env{dir: dir, st: st, arts: arts, eng: eng}
}

func (e *env) start(t *testing.T, wf workrun.Workflow, in workrun.Values) string {
	t.Helper()
	id, err := e.eng.Start(t.Context(), "", wf, in)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	return id
}

func (e *env) wait(t *testing.T, id string) workrun.Run {
	t.Helper()
	return storetest.Wait(t, e.eng, id, 2*time.Minute)
}

func (e *env) run(t *testing.T, wf workrun.Workflow, in workrun.Values) workrun.Run {
	t.Helper()
	return e.wait(t, e.start(t, wf, in))
}

// messages returns the node's messages rendered in English.
func (e *env) messages(t *testing.T, runID, node string) []string {
	t.Helper()
	return workruntest.NodeMessages(t, e.st, runID, node, "en")
}

func (e *env) call(t *testing.T, runID, node string) workrun.RemoteCall {
	t.Helper()
	return storetest.Call(t, e.st, runID, node, "call")
}

// demo starts a demo server with fast stages; its URL is the MCP endpoint.
func demo(t *testing.T, opts demoserver.Options) (*demoserver.Server, string) {
	t.Helper()
	if opts.StageDuration == 0 {
		opts.StageDuration = 100 * time.Millisecond
	}
	// The node tests were written against the 2025-11-25 demo; the demo
	// now speaks 2026-07-28 too (docs/demo-mcp.md) — mcp owner: drop this
	// line where a test is meant for 2026-07-28.
	opts.LegacyOnly = true
	d := demoserver.New(opts)
	srv := httptest.NewServer(d.Mux())
	t.Cleanup(func() { d.Close(); srv.Close() })
	return d, srv.URL + demoserver.Path
}

// mcpNode is a remote_mcp node; cfg holds the keys after url and tool.
func mcpNode(id, url, tool, cfg string) workrun.NodeSpec {
	if !strings.Contains(cfg, "timeout_seconds") {
		cfg += `,"timeout_seconds":10`
	}
	c := fmt.Sprintf(`{"url":%q,"tool":%q%s}`, url, tool, cfg)
	return workrun.NodeSpec{ID: id, Type: remotemcp.Type, Config: json.RawMessage(c)}
}

// flow builds start → each node in parallel, plus extra edges.
func flow(state map[string]workrun.FieldType, nodes []workrun.NodeSpec, extra ...workrun.Edge) workrun.Workflow {
	wf := workrun.Workflow{Name: "t", State: state, Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}}}
	to := map[string]bool{}
	for _, e := range extra {
		to[e.To] = true
	}
	for _, n := range nodes {
		wf.Nodes = append(wf.Nodes, n)
		if !to[n.ID] {
			wf.Edges = append(wf.Edges, workrun.Edge{From: "start", To: n.ID})
		}
	}
	wf.Edges = append(wf.Edges, extra...)
	return wf
}

var state = map[string]workrun.FieldType{
	"q": workrun.FieldText, "n": workrun.FieldNumber, "answer": workrun.FieldText, "data": workrun.FieldJSON,
	"files": workrun.FieldFiles, "doc": workrun.FieldFile, "docs": workrun.FieldFiles,
}

func contains(msgs []string, want string) bool {
	for _, m := range msgs {
		if strings.Contains(m, want) {
			return true
		}
	}
	return false
}

func count(d *demoserver.Server, method, tool string) int {
	n := 0
	for _, r := range d.Requests() {
		if r.Method == method && (tool == "" || r.Tool == tool) {
			n++
		}
	}
	return n
}

func waitUntil(t *testing.T, d time.Duration, f func() bool) {
	t.Helper()
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if f() {
			return
		}
	}
	t.Fatalf("condition not met within %v", d)
}

// taskSaved: node's call in runID has its task or job id committed.
func taskSaved(ctx context.Context, calls remotemcp.CallStore, runID, node string) bool {
	c, err := calls.GetRemoteCall(ctx, runID, node, "call")
	return err == nil && c.TaskID != ""
}

// callEnded: node's call in runID is saved as ended.
func callEnded(ctx context.Context, calls remotemcp.CallStore, runID, node string) bool {
	c, err := calls.GetRemoteCall(ctx, runID, node, "call")
	return err == nil && c.Ended
}
