package remotemcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"workrun/mcp/demoserver"
	"workrun/nodes/output"
	"workrun/nodes/process"
	"workrun/nodes/remotemcp"
	"workrun/nodes/start"
	"workrun/store"
	"workrun/store/storetest"
	"workrun/workrun"
)

// Set-up shared by the tests that kill a real process and resume in
// another (crash_test.go, input_test.go, tsinterop_test.go,
// everything_crash_test.go) — the test binary as the runner or as a
// person's answering process, the resume in a new engine over the same
// data directory — and the small 2026-07-28 servers of input_test.go.

// TestMain lets the test binary act as a child process: with
// WORKRUN_MCP_CHILD_DIR set it starts a run in that data directory (or,
// with WORKRUN_MCP_CHILD_DECIDE, answers one) and waits to be killed.
func TestMain(m *testing.M) {
	storetest.ChildMain(m, "WORKRUN_MCP_CHILD_DIR", func(dir string) int {
		if os.Getenv("WORKRUN_MCP_CHILD_DECIDE") != "" {
			return decideChild(dir)
		}
		wf := crashWorkflow(os.Getenv("WORKRUN_MCP_CHILD_URL"))
		if tool := os.Getenv("WORKRUN_MCP_CHILD_TOOL"); tool != "" {
			// WORKRUN_MCP_CHILD_CFG: more config keys, e.g. `,"arguments":{…}`.
			wf = flow(state, []workrun.NodeSpec{mcpNode("m", os.Getenv("WORKRUN_MCP_CHILD_URL"), tool, os.Getenv("WORKRUN_MCP_CHILD_CFG")+`,"output":"answer"`)})
		}
		return storetest.StartRun(dir, wf, workrun.Values{"q": "tides"}, childKinds)
	})
}

// childKinds are the kinds a child process's engine runs.
func childKinds(st *store.Store) []workrun.Kind {
	return []workrun.Kind{start.Kind{}, process.Kind{}, output.Kind{}, remotemcp.New(remotemcp.Deps{Calls: st})}
}

func crashWorkflow(url string) workrun.Workflow {
	return flow(state, []workrun.NodeSpec{mcpNode("m", url, "research", `,"arguments":{"topic":"{{q}}","stages":12},"output":"answer"`)})
}

// decideChild is the test binary as a person's answering process: it
// gives the answer in WORKRUN_MCP_CHILD_DECIDE (round 1, form content) to
// node m of run WORKRUN_MCP_CHILD_RUN — the run goes on in this process —
// prints the run id and waits to be killed.
func decideChild(dir string) int {
	ctx := context.Background()
	eng, err := storetest.OpenEngine(ctx, dir, childKinds)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	id := os.Getenv("WORKRUN_MCP_CHILD_RUN")
	if _, err := eng.RecoverInterrupted(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := eng.Decide(ctx, workrun.Decision{RunID: id, NodeID: "m", Round: 1, Content: json.RawMessage(os.Getenv("WORKRUN_MCP_CHILD_DECIDE"))}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("run", id)
	select {} // killed by the parent
}

// startKilledRun runs the workflow in a child process and SIGKILLs it right
// after the task id is committed. It returns the data directory, the run id
// and the saved task id.
func startKilledRun(t *testing.T, url string, env ...string) (string, string, string) {
	t.Helper()
	dir := t.TempDir()
	cmd, runID := storetest.StartChild(t, append([]string{"WORKRUN_MCP_CHILD_DIR=" + dir, "WORKRUN_MCP_CHILD_URL=" + url}, env...)...)
	st, err := store.Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var taskID string
	waitUntil(t, 30*time.Second, func() bool {
		c, err := st.GetRemoteCall(t.Context(), runID, "m", "call")
		taskID = c.TaskID
		return err == nil && c.TaskID != ""
	})
	st.Close()
	storetest.Kill(t, cmd)
	return dir, runID, taskID
}

// resumeRun opens the data directory of a run whose process was killed in
// a new engine, as a restarted Workrun would, and resumes the run
// (env.resume).
func resumeRun(t *testing.T, dir, runID string) (*env, workrun.Run) {
	t.Helper()
	e := newEnv(t, dir)
	return e, e.resume(t, runID)
}

// resumeKilled is resumeRun for a run killed during node m's task
// (startKilledRun): it fails the test if m's call had already ended before
// the kill (the test would prove nothing).
func resumeKilled(t *testing.T, dir, runID string) (*env, workrun.Run) {
	t.Helper()
	e := newEnv(t, dir)
	if c := e.call(t, runID, "m"); c.Ended {
		t.Fatalf("the task ended before the kill; the test proves nothing: %+v", c)
	}
	return e, e.resume(t, runID)
}

// resume recovers the runs left running, resumes runID and waits for it.
func (e *env) resume(t *testing.T, runID string) workrun.Run {
	t.Helper()
	if _, err := e.eng.RecoverInterrupted(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := e.eng.Resume(t.Context(), runID); err != nil {
		t.Fatal(err)
	}
	return e.wait(t, runID)
}

// answersTo counts the requests d got that carry an answer to its input
// request key (an MRTR retry's inputResponses).
func answersTo(d *demoserver.Server, key string) int {
	n := 0
	for _, r := range d.Requests() {
		if strings.Contains(string(r.Params), `"inputResponses":{"`+key+`"`) {
			n++
		}
	}
	return n
}

// callServer is a 2026-07-28 server (serverInfo name) with one tool: each
// tools/call's params go to call, which returns the result object.
func callServer(t *testing.T, name, tool string, call func(params json.RawMessage) string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		json.NewDecoder(r.Body).Decode(&m) //nolint:errcheck // the client sends JSON
		result := `{"resultType":"complete"}`
		switch m.Method {
		case "server/discover":
			result = `{"resultType":"complete","ttlMs":0,"cacheScope":"private","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":{"name":` + strconv.Quote(name) + `,"version":"1"}}`
		case "tools/list":
			result = `{"resultType":"complete","tools":[{"name":` + strconv.Quote(tool) + `,"inputSchema":{"type":"object"}}]}`
		case "tools/call":
			result = call(m.Params)
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":`+result+`}`) //nolint:errcheck // test server
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}
