package cli

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"workrun/artifacts"
	"workrun/mcp"
	"workrun/nodes/remotemcp"
	"workrun/remotecall"
	"workrun/store"
	"workrun/workrun"
)

type mcpSecretSource string

func (s mcpSecretSource) Credential(context.Context, string) (remotecall.Credential, error) {
	return remotecall.Credential{Kind: remotecall.CredentialBearer, Secret: string(s)}, nil
}

// echoingMCPServer is a 2026-07-28 server that repeats the bearer token it
// was sent: in a task's status message, the tool's text, a file's name,
// a tool error (isError) and a JSON-RPC error, depending on the tool.
func echoingMCPServer(t *testing.T) string {
	png := "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
	if _, err := base64.StdEncoding.DecodeString(png); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		json.NewDecoder(r.Body).Decode(&m) //nolint:errcheck // the client sends JSON
		w.Header().Set("Content-Type", "application/json")
		answer := func(result any) {
			json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result}) //nolint:errcheck // test server
		}
		switch m.Method {
		case "server/discover":
			answer(map[string]any{"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "supportedVersions": []string{"2026-07-28"}, "serverInfo": map[string]any{"name": "echo " + tok, "version": "1"},
				"capabilities": map[string]any{"tools": map[string]any{}, "extensions": map[string]any{mcp.TasksExtension: map[string]any{}}}})
		case "tools/list":
			var tools []any
			for _, n := range []string{"task", "iserror", "rpcerror"} {
				tools = append(tools, map[string]any{"name": n, "inputSchema": map[string]any{"type": "object"}})
			}
			answer(map[string]any{"resultType": "complete", "tools": tools})
		case "tools/call":
			switch m.Params.Name {
			case "task":
				answer(map[string]any{"resultType": "task", "taskId": "tk-1", "status": "working", "statusMessage": "checking " + tok, "pollIntervalMs": 10})
			case "iserror":
				answer(map[string]any{"resultType": "complete", "isError": true, "content": []any{map[string]any{"type": "text", "text": "bad token " + tok}}})
			default:
				w.WriteHeader(400)
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32602,"message":"denied for %s"}}`, m.ID, tok)
			}
		case "tasks/get":
			answer(map[string]any{"resultType": "complete", "taskId": "tk-1", "status": "completed", "statusMessage": "done with " + tok,
				"result": map[string]any{"content": []any{map[string]any{"type": "text", "text": "result for " + tok},
					map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///" + tok + ".png", "name": tok + ".png", "mimeType": "image/png", "blob": png}}},
					"structuredContent": map[string]any{"echo": tok}}})
		default:
			w.WriteHeader(404)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no %s"}}`, m.ID, tok)
		}
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// TestRunShow_MCPEchoedSecretIsRedacted (issue 25): an MCP server echoes the
// bearer token in a status message, tool text, a file name, a tool error
// and a JSON-RPC error; the token is in no SQLite file, no artifact name, and
// no output of `workrun run`, `show` or `show --json`.
func TestRunShow_MCPEchoedSecretIsRedacted(t *testing.T) {
	const secret = "mcp-echo-Z7k2"
	url := echoingMCPServer(t)
	deps := Deps{Version: "test", Open: func(ctx context.Context, dataDir string) (*Services, error) {
		st, err := store.Open(ctx, dataDir)
		if err != nil {
			return nil, err
		}
		arts, err := artifacts.New(dataDir, st)
		if err != nil {
			st.Close()
			return nil, err
		}
		rm := remotemcp.New(remotemcp.Deps{Calls: st, Credentials: mcpSecretSource(secret)})
		e := workrun.NewEngine(st, arts, append(localKinds(), rm)...)
		return &Services{DataDir: dataDir, Runs: st, Workflows: st, Artifacts: arts, Engine: e, Close: st.Close}, nil
	}}
	dir := t.TempDir()
	node := func(id, tool, extra string) string {
		return fmt.Sprintf(`{"id":%q,"type":"remote_mcp","config":{"url":%q,"tool":%q,"credential":"k","timeout_seconds":5%s}}`, id, url, tool, extra)
	}
	flows := []string{
		`{"name":"ok","state":{"a":"text","j":"json","f":"files"},"nodes":[{"id":"start","type":"start"},` +
			node("t", "task", `,"output":"a","output_json":"j","output_files":"f"`) + `],"edges":[{"from":"start","to":"t"}]}`,
		`{"name":"iserror","state":{"a":"text"},"nodes":[{"id":"start","type":"start"},` + node("e", "iserror", `,"output":"a"`) + `],"edges":[{"from":"start","to":"e"}]}`,
		`{"name":"rpcerror","state":{"a":"text"},"nodes":[{"id":"start","type":"start"},` + node("r", "rpcerror", `,"output":"a"`) + `],"edges":[{"from":"start","to":"r"}]}`,
	}
	var out string
	for i, wf := range flows {
		f := filepath.Join(t.TempDir(), fmt.Sprintf("wf%d.json", i))
		if err := os.WriteFile(f, []byte(wf), 0o600); err != nil {
			t.Fatal(err)
		}
		res := runMain(t, []string{"--data-dir", dir, "run", f}, nil, deps)
		run := res.Stdout + res.Stderr
		out += run
		if (i == 0) != (res.Code == ExitOK) {
			t.Errorf("flow %d: exit %d\n%s", i, res.Code, run)
		}
		var runID string
		for _, w := range strings.Fields(run) {
			if len(w) == 36 && strings.Count(w, "-") == 4 {
				runID = w
				break
			}
		}
		if runID == "" {
			t.Fatalf("no run id in %q", run)
		}
		for _, args := range [][]string{{"show", runID}, {"show", "--json", runID}} {
			r := runMain(t, append([]string{"--data-dir", dir}, args...), nil, deps)
			out += r.Stdout + r.Stderr
		}
	}
	if n := strings.Count(out, secret); n > 0 {
		t.Errorf("the secret was printed %d times:\n%s", n, out)
	}
	for _, want := range []string{"checking [redacted]", "bad token [redacted]", "denied for [redacted]"} {
		if !strings.Contains(out, want) {
			t.Errorf("the server's words %q are not shown (redacted):\n%s", want, out)
		}
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.Contains(d.Name(), secret) {
			t.Errorf("a file is named with the secret: %s", p)
		}
		if d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if n := bytes.Count(b, []byte(secret)); n > 0 {
			t.Errorf("%s holds the secret %d times", p, n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
