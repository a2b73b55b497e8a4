package toolapp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"workrun/nodes/toolapp"
	"workrun/remotecall"
	"workrun/workrun"
)

// shServer is a tiny legacy MCP server in sh: it answers server/discover
// with "method not found", initialize and tools/list (one tool, "boom"),
// and does what onCall says when the tool is called.
func shServer(onCall string) []string {
	return []string{"sh", "-c", `while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$line" in
    *'"method":"server/discover"'*) printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}\n' "$id";;
    *'"method":"initialize"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"sh","version":"1"}}}\n' "$id";;
    *'"method":"tools/list"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"boom","inputSchema":{"type":"object"}}]}}\n' "$id";;
    *'"method":"tools/call"'*) ` + onCall + `;;
  esac
done`}
}

// TestProgramFailuresDuringTheCall (docs/tool-app.md T2, T4): a crash
// during the call fails the node with the exit status and the end of
// stderr; a line that is not JSON-RPC is a protocol error naming it.
func TestProgramFailuresDuringTheCall(t *testing.T) {
	for _, tc := range []struct {
		name, onCall, want string
	}{
		{"crash", `echo "fatal: out of memory" >&2; exit 7`,
			"the call failed: tools/call boom: the tool program exited during the call (exit status 7); its stderr ends with: fatal: out of memory"},
		{"not JSON", `echo "Listening on stdio"`,
			`the call failed: tools/call boom: mcp: protocol error: stdout line 4 is not a JSON-RPC message: "Listening on stdio"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, "")
			wf := line(map[string]workrun.FieldType{"answer": "text"},
				appNode("app", map[string]any{"command": shServer(tc.onCall), "tool": "boom", "output": "answer", "timeout_seconds": 30}), "answer")
			r := e.run(t, wf, nil)
			msgs := e.messages(t, r.ID, "app")
			if r.Status != workrun.RunFailed || !strings.Contains(r.Reason, tc.want) {
				t.Fatalf("run = %s %q, want %q\n%q", r.Status, r.Reason, tc.want, msgs)
			}
			if c := e.call(t, r.ID); !c.Ended {
				t.Errorf("record = %+v, want ended", c)
			}
		})
	}
	// The connection test says the same of a program that prints text.
	k := toolapp.New(toolapp.Deps{})
	if _, err := k.Check(t.Context(), []byte(`{"command":["sh","-c","echo not json"]}`)); err == nil || !strings.Contains(err.Error(), "not a JSON-RPC message") {
		t.Errorf("check of a program that prints text: %v", err)
	}
}

type secrets map[string]string

func (s secrets) Credential(_ context.Context, name string) (remotecall.Credential, error) {
	v, ok := s[name]
	if !ok {
		return remotecall.Credential{}, errors.New("no such credential")
	}
	return remotecall.Credential{Kind: remotecall.CredentialBearer, Secret: v}, nil
}

// TestSecretEnvNeverEchoed (docs/tool-app.md T8): a saved credential's
// secret reaches the program's environment; when the program echoes it
// (server-everything's get-env), the output, the saved result and the
// messages carry [redacted] instead.
func TestSecretEnvNeverEchoed(t *testing.T) {
	const secret = "s3cr3t-token-value"
	e := newEnv(t, "")
	e.eng = workrun.NewEngine(e.st, e.arts, append(kinds(e.st)[:4], toolapp.New(toolapp.Deps{Calls: e.st, Credentials: secrets{"gh": secret}}))...)
	wf := line(map[string]workrun.FieldType{"answer": "text"},
		appNode("app", map[string]any{"command": everything(t), "tool": "get-env", "secret_env": map[string]string{"GH_TOKEN": "gh"}, "output": "answer"}), "answer")
	r := e.run(t, wf, nil)
	msgs := e.messages(t, r.ID, "app")
	answer, _ := r.State["answer"].(string)
	if r.Status != workrun.RunSucceeded || !strings.Contains(answer, `"GH_TOKEN": "[redacted]"`) {
		t.Fatalf("run = %s %q answer %.300q\n%q", r.Status, r.Reason, answer, msgs)
	}
	c := e.call(t, r.ID)
	for what, s := range map[string]string{"answer": answer, "record": string(c.Result) + c.StatusText + c.ContextID, "messages": strings.Join(msgs, "\n")} {
		if strings.Contains(s, secret) {
			t.Errorf("the secret is in the %s", what)
		}
	}
}
