package remoteagent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"workrun/nodes/process"
	"workrun/nodes/remoteagent"
	"workrun/nodes/start"
	"workrun/remotecall"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

const echoedSecret = "sekrit-Zq7-token"

// hostileAgent echoes the credential's secret back wherever an agent can put
// words: the card's name, WWW-Authenticate, a JSON-RPC error message, status
// texts, artifact names and contents, a file name, a cancel refusal. The
// request's text picks the behaviour.
func hostileAgent(t *testing.T) string {
	t.Helper()
	S := echoedSecret
	return startProxy(t, &proxy{
		card: func(base string) any {
			return map[string]any{"name": "agent " + S, "version": "1",
				"supportedInterfaces": []any{map[string]any{"url": base + "/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}},
				"capabilities":        map[string]any{"streaming": true},
				"defaultInputModes":   []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"}, "skills": []any{}}
		},
		fault: func(w http.ResponseWriter, r *http.Request, method string, body []byte, _ func() (*http.Response, error)) bool {
			var req struct {
				ID json.RawMessage `json:"id"`
			}
			json.Unmarshal(body, &req) //nolint:errcheck
			reply := func(result any) map[string]any {
				return map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result}
			}
			rpcErr := func(code int, msg string) {
				w.Header().Set("Content-Type", "application/json")
				json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": code, "message": msg}}) //nolint:errcheck
			}
			sse := func(events ...any) {
				w.Header().Set("Content-Type", "text/event-stream")
				for _, ev := range events {
					b, _ := json.Marshal(reply(ev))
					fmt.Fprintf(w, "data: %s\n\n", b)
				}
				w.(http.Flusher).Flush()
			}
			status := func(id, state, text string) map[string]any {
				return map[string]any{"state": state, "message": map[string]any{"messageId": "m-" + state, "role": "ROLE_AGENT", "parts": []any{map[string]any{"text": text}}}}
			}
			switch method {
			case "CancelTask":
				rpcErr(-32002, "task cannot be canceled by "+S)
				return true
			case "GetTask":
				rpcErr(-32001, "no task "+S)
				return true
			}
			switch {
			case bytes.Contains(body, []byte("stream")):
				sse(
					map[string]any{"task": map[string]any{"id": "t-1", "contextId": "c-1", "status": status("t-1", "TASK_STATE_WORKING", "working with "+S)}},
					map[string]any{"artifactUpdate": map[string]any{"taskId": "t-1", "contextId": "c-1", "artifact": map[string]any{"artifactId": "a1", "name": S + ".txt",
						"parts": []any{map[string]any{"text": "answer " + S}, map[string]any{"raw": []byte("file " + S), "filename": S + ".bin", "mediaType": "application/octet-stream"}}}}},
					map[string]any{"statusUpdate": map[string]any{"taskId": "t-1", "contextId": "c-1", "status": status("t-1", "TASK_STATE_COMPLETED", "done "+S)}},
				)
			case bytes.Contains(body, []byte("rpcerror")):
				rpcErr(-32602, "bad token "+S)
			case bytes.Contains(body, []byte("unauthorized")):
				w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token", error_description="`+S+`"`)
				http.Error(w, "token "+S+" refused", http.StatusUnauthorized)
			case bytes.Contains(body, []byte("input")):
				sse(map[string]any{"task": map[string]any{"id": "t-2", "contextId": "c-2", "status": status("t-2", "TASK_STATE_INPUT_REQUIRED", "tell me "+S)}})
			case bytes.Contains(body, []byte("hang")):
				sse(map[string]any{"task": map[string]any{"id": "t-3", "contextId": "c-3", "status": status("t-3", "TASK_STATE_WORKING", "busy with "+S)}})
				<-r.Context().Done()
			}
			return true
		},
	})
}

// TestSecretEchoedByAgentIsRedacted: whatever the agent echoes, the secret
// reaches neither the SQLite file nor any message, reason or output; the
// echo is visible as "[redacted]".
func TestSecretEchoedByAgentIsRedacted(t *testing.T) {
	url := hostileAgent(t)
	dir := t.TempDir()
	e := newEnv(t, dir, "en")
	creds := credSource(func(context.Context, string) (remotecall.Credential, error) {
		return remotecall.Credential{Kind: remotecall.CredentialBearer, Secret: echoedSecret, Origin: url}, nil
	})
	ra := remoteagent.New(remoteagent.Deps{Calls: e.st, Credentials: creds})
	eng := workrun.NewEngine(e.st, e.arts, start.Kind{}, process.Kind{}, ra)
	var seen strings.Builder
	for _, prompt := range []string{"stream", "rpcerror", "unauthorized", "input", "hang"} {
		t.Run(prompt, func(t *testing.T) {
			nodes := []workrun.NodeSpec{raNode("ra", url, `,"credential":"k","output_files":"files"`)}
			if prompt == "hang" {
				// Fail once the hanging task's id is saved (task t-3 is this
				// subtest's own: the other prompts' runs never get it).
				fail := workruntest.FailWhen(t, func(ctx context.Context) bool {
					runs, err := e.st.ListRuns(ctx, workrun.RunFilter{})
					for _, r := range runs {
						if c, cerr := e.st.GetRemoteCall(ctx, r.ID, "ra", "send"); err == nil && cerr == nil && c.TaskID == "t-3" {
							return true
						}
					}
					return false
				})
				nodes = append(nodes, workrun.NodeSpec{ID: "fail", Type: "process", Config: fail})
			}
			wf := flow(nodes)
			wf.State["files"] = workrun.FieldFiles
			id, err := eng.Start(t.Context(), "", wf, workrun.Values{"prompt_ra": prompt})
			if err != nil {
				t.Fatal(err)
			}
			r, err := eng.Wait(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			msgs := strings.Join(e.messages(t, id, "ra"), "\n")
			c, _ := e.st.GetRemoteCall(t.Context(), id, "ra", "send")
			all := fmt.Sprintf("%s\n%s\n%v\n%+v", r.Reason, msgs, r.State, c)
			fmt.Fprintln(&seen, all)
			if strings.Contains(all, echoedSecret) {
				t.Errorf("the secret is shown:\n%s", all)
			}
			if prompt == "stream" && c.AgentName != "agent [redacted]" {
				t.Errorf("the record names the agent %q, want its card's name redacted", c.AgentName)
			}
			t.Logf("run %s: %s", r.Status, r.Reason)
		})
	}
	if !strings.Contains(seen.String(), "[redacted]") {
		t.Errorf("no echo was redacted; the test proves nothing:\n%s", seen.String())
	}
	// Every byte SQLite wrote: the database, its WAL and journal files.
	if err := e.st.Close(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	scanned := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // a directory
		}
		if bytes.HasPrefix(b, []byte("SQLite format 3")) || strings.Contains(f, ".db") {
			scanned++
		}
		if bytes.Contains(b, []byte(echoedSecret)) {
			t.Errorf("%s holds the secret", filepath.Base(f))
		}
	}
	if scanned == 0 {
		t.Errorf("no SQLite file found in %v", files)
	}
}
