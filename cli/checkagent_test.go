package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"workrun/a2a/demoagent"
)

func TestCheckAgentCommand(t *testing.T) {
	keyring.MockInit()
	a := demoagent.New(demoagent.Options{BearerToken: "tok-1"})
	ts := httptest.NewServer(a.Handler())
	t.Cleanup(func() { a.Close(); ts.Close() })
	dd := "--data-dir=" + t.TempDir()

	r := runWithStdin(t, "", dd, "check-agent", ts.URL)
	if r.Code != ExitFailed || !strings.Contains(r.Stderr, "requires a credential") || !strings.Contains(r.Stdout, "Security:    bearer: HTTP Bearer") {
		t.Fatalf("without credential: %+v", r)
	}

	if r := runWithStdin(t, "tok-1\n", dd, "credential", "set", "demo", "--kind", "bearer", "--origin", ts.URL); r.Code != ExitOK {
		t.Fatalf("set: %+v", r)
	}
	r = runWithStdin(t, "", dd, "check-agent", ts.URL, "--credential", "demo")
	want := "Agent:       Workrun demo agent\nInterface:   " + ts.URL + "/a2a\nStreaming:   yes\nSecurity:    bearer: HTTP Bearer\nCredential:  demo (sent in the Authorization header; accepted)\n" +
		"OK: the agent was discovered and accepted a call authenticated with credential \"demo\"; no task was submitted\n"
	if r.Code != ExitOK || r.Stdout != want {
		t.Fatalf("with credential: %+v", r)
	}

	r = runWithStdin(t, "", dd, "check-agent", "--json", "--credential", "demo", ts.URL)
	var got struct {
		Name     string `json:"name"`
		Accepted bool   `json:"accepted"`
		OK       bool   `json:"ok"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &got); err != nil || !got.OK || !got.Accepted || got.Name != "Workrun demo agent" {
		t.Fatalf("--json: %+v (%v)", r, err)
	}

	// A credential bound to another origin is refused before anything is sent.
	if r := runWithStdin(t, "x\n", dd, "credential", "set", "other", "--kind", "bearer", "--origin", "https://elsewhere.example"); r.Code != ExitOK {
		t.Fatalf("set: %+v", r)
	}
	r = runWithStdin(t, "", dd, "check-agent", ts.URL, "--credential", "other")
	if r.Code != ExitFailed || !strings.Contains(r.Stderr, "another origin") {
		t.Errorf("other origin: %+v", r)
	}
	if s := a.Stats(); len(s.Submissions) != 0 || s.Methods["GetTask"] != 2 {
		t.Errorf("agent stats %+v: want two GetTask probes and no submission", s)
	}

	// An open agent without a credential: nothing was authenticated, and
	// the report says so instead of claiming it.
	open := demoagent.New(demoagent.Options{})
	ots := httptest.NewServer(open.Handler())
	t.Cleanup(func() { open.Close(); ots.Close() })
	r = runWithStdin(t, "", dd, "check-agent", ots.URL)
	if r.Code != ExitOK || strings.Contains(r.Stdout, "authenticated") ||
		!strings.Contains(r.Stdout, "Credential:  none (the test call carried no credential)") ||
		!strings.Contains(r.Stdout, "answered a test call sent without a credential") {
		t.Errorf("open agent without a credential: %+v", r)
	}
}

// TestCheckAgentCommand_SecretEchoed: an agent that echoes the credential's
// secret in its card and in WWW-Authenticate and the error body gets it
// printed nowhere, in text or JSON output.
func TestCheckAgentCommand_SecretEchoed(t *testing.T) {
	keyring.MockInit()
	const secret = "echo-me-Kx81"
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"name": "agent " + secret, "version": "1", //nolint:errcheck
				"supportedInterfaces": []any{map[string]any{"url": "http://" + r.Host + "/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}},
				"capabilities":        map[string]any{}, "defaultInputModes": []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"}, "skills": []any{}})
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token", error_description="`+secret+`"`)
		http.Error(w, "token "+secret+" refused", http.StatusUnauthorized)
	}))
	t.Cleanup(ts.Close)
	dd := "--data-dir=" + t.TempDir()
	if r := runWithStdin(t, secret+"\n", dd, "credential", "set", "k", "--kind", "bearer", "--origin", ts.URL); r.Code != ExitOK {
		t.Fatalf("set: %+v", r)
	}
	for _, args := range [][]string{{"check-agent", ts.URL, "--credential", "k"}, {"check-agent", "--json", ts.URL, "--credential", "k"}} {
		r := runWithStdin(t, "", append([]string{dd}, args...)...)
		if r.Code != ExitFailed || !strings.Contains(r.Stdout+r.Stderr, "[redacted]") {
			t.Errorf("%v: %+v, want a failure showing the echo redacted", args, r)
		}
		if strings.Contains(r.Stdout+r.Stderr, secret) {
			t.Errorf("%v printed the secret: %+v", args, r)
		}
	}
}
