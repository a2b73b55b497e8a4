package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"workrun/artifacts"
	"workrun/nodes/remoteagent"
	"workrun/nodes/remotemcp"
	"workrun/remotecall"
	"workrun/store"
	"workrun/workrun"
)

type secretSource string

func (s secretSource) Credential(context.Context, string) (remotecall.Credential, error) {
	return remotecall.Credential{Kind: remotecall.CredentialBearer, Secret: string(s)}, nil
}

// TestRunShow_EchoedSecretIsRedacted: an agent echoes the credential's
// secret in its card name, a status text and its failure message; neither
// `workrun run` nor `workrun show` (text or JSON) prints it.
func TestRunShow_EchoedSecretIsRedacted(t *testing.T) {
	const secret = "cli-echo-Q4w9"
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"name": "agent " + secret, "version": "1", //nolint:errcheck
				"supportedInterfaces": []any{map[string]any{"url": "http://" + r.Host + "/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}},
				"capabilities":        map[string]any{"streaming": true}, "defaultInputModes": []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"}, "skills": []any{}})
			return
		}
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		json.NewDecoder(r.Body).Decode(&req) //nolint:errcheck
		w.Header().Set("Content-Type", "text/event-stream")
		status := func(state, text string) string {
			return fmt.Sprintf(`{"state":%q,"message":{"messageId":"m-%s","role":"ROLE_AGENT","parts":[{"text":%q}]}}`, state, state, text)
		}
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"task\":{\"id\":\"t1\",\"contextId\":\"c1\",\"status\":%s}}}\n\n", req.ID, status("TASK_STATE_WORKING", "checking "+secret))
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"statusUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c1\",\"status\":%s}}}\n\n", req.ID, status("TASK_STATE_FAILED", "token "+secret+" expired"))
	}))
	t.Cleanup(ts.Close)
	wf := fmt.Sprintf(`{"name":"s","state":{"q":"text","a":"text"},"nodes":[{"id":"start","type":"start"},
		{"id":"ra","type":"remote_agent","config":{"url":%q,"inputs":["q"],"output":"a","credential":"k","timeout_seconds":5}}],
		"edges":[{"from":"start","to":"ra"}]}`, ts.URL)
	f := filepath.Join(t.TempDir(), "wf.json")
	if err := os.WriteFile(f, []byte(wf), 0o600); err != nil {
		t.Fatal(err)
	}
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
		ra := remoteagent.New(remoteagent.Deps{Calls: st, Credentials: secretSource(secret)})
		e := workrun.NewEngine(st, arts, append(localKinds(), ra, remotemcp.New(remotemcp.Deps{Calls: st}))...)
		return &Services{DataDir: dataDir, Runs: st, Workflows: st, Artifacts: arts, Engine: e, Close: st.Close}, nil
	}}
	dir := t.TempDir()
	res := runMain(t, []string{"--data-dir", dir, "run", f, "--input", "q=hi"}, nil, deps)
	if res.Code != ExitFailed || !strings.Contains(res.Stdout+res.Stderr, "[redacted]") {
		t.Fatalf("run: exit %d\nstdout:\n%s\nstderr:\n%s", res.Code, res.Stdout, res.Stderr)
	}
	out := res.Stdout + res.Stderr
	var runID string
	for _, line := range strings.Fields(out) {
		if len(line) == 36 && strings.Count(line, "-") == 4 {
			runID = line
			break
		}
	}
	if runID == "" {
		t.Fatalf("no run id in %q", out)
	}
	for _, args := range [][]string{{"show", runID}, {"show", "--json", runID}} {
		r := runMain(t, append([]string{"--data-dir", dir}, args...), nil, deps)
		out += r.Stdout + r.Stderr
		if r.Code != ExitOK && r.Code != ExitFailed {
			t.Errorf("%v: exit %d %s", args, r.Code, r.Stderr)
		}
	}
	if strings.Contains(out, secret) {
		t.Errorf("the secret was printed:\n%s", out)
	}
	if !strings.Contains(out, "checking [redacted]") || !strings.Contains(out, "token [redacted] expired") {
		t.Errorf("the agent's words are not shown (redacted):\n%s", out)
	}
}
