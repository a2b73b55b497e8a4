package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"workrun/a2a/demoagent"
	"workrun/mcp/demoserver"
	"workrun/oauth/oauthtest"
)

// oauthAgent is the official a2a-go server (the demo agent) behind an OAuth
// token check of the tests' own authorization server (oauthtest): its card
// declares an oauth2SecurityScheme (authorization code + PKCE), a second one
// with the client credentials flow, or an openIdConnectSecurityScheme, and
// every JSON-RPC request needs a live access token for the agent. The token
// check echoes the token it got, and turns {{bearer-token}} in a message
// into the token, so the agent's echo skill sends it back in its answer.
type oauthAgent struct {
	url   string
	as    *oauthtest.Server
	agent *demoagent.Server
}

// Card variants: the scheme's endpoints in its flows, an OpenID Connect
// discovery URL, or an RFC 8414 metadata URL (with dynamic registration).
const (
	cardFlows    = "flows"
	cardOpenID   = "openid"
	cardMetadata = "metadata"
)

func startOAuthAgent(t *testing.T, variant string) *oauthAgent {
	t.Helper()
	as := oauthtest.New(t, oauthtest.Options{})
	a := demoagent.New(demoagent.Options{Name: "OAuth agent", SlowInterval: 200 * time.Millisecond})
	t.Cleanup(a.Close)
	oa := &oauthAgent{as: as, agent: a}
	var cardOnce sync.Once
	var card []byte
	mux := http.NewServeMux()
	cardHandler := func(w http.ResponseWriter, r *http.Request) {
		cardOnce.Do(func() {
			rec := httptest.NewRecorder()
			a.Handler().ServeHTTP(rec, r)
			var c map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &c); err != nil {
				t.Errorf("demo agent card: %v", err)
				return
			}
			schemes := map[string]any{
				"machine": map[string]any{"oauth2SecurityScheme": map[string]any{"flows": map[string]any{
					"clientCredentials": map[string]any{"tokenUrl": as.TokenURL(), "scopes": map[string]string{"agent:run": "run tasks"}}}}},
				"device": map[string]any{"oauth2SecurityScheme": map[string]any{"flows": map[string]any{
					"deviceCode": map[string]any{"deviceAuthorizationUrl": as.DeviceURL(), "tokenUrl": as.TokenURL(), "scopes": map[string]string{"agent:run": "run tasks"}}}}},
			}
			first := "signin"
			switch variant {
			case cardOpenID:
				first = "oidc"
				schemes["oidc"] = map[string]any{"openIdConnectSecurityScheme": map[string]any{"openIdConnectUrl": as.OpenIDConfigurationURL()}}
			case cardMetadata:
				schemes["signin"] = map[string]any{"oauth2SecurityScheme": map[string]any{"oauth2MetadataUrl": as.MetadataURL(),
					"flows": map[string]any{"authorizationCode": map[string]any{"authorizationUrl": as.AuthorizationURL(), "tokenUrl": as.TokenURL(),
						"scopes": map[string]string{"agent:run": "run tasks"}}}}}
			default:
				schemes["signin"] = map[string]any{"oauth2SecurityScheme": map[string]any{"flows": map[string]any{
					"authorizationCode": map[string]any{"authorizationUrl": as.AuthorizationURL(), "tokenUrl": as.TokenURL(),
						"scopes": map[string]string{"agent:run": "run tasks"}, "pkceRequired": true}}}}
			}
			c["securitySchemes"] = schemes
			c["securityRequirements"] = []any{
				map[string]any{"schemes": map[string]any{first: map[string]any{"list": []string{"agent:run"}}}},
				map[string]any{"schemes": map[string]any{"machine": map[string]any{"list": []string{"agent:run"}}}},
				map[string]any{"schemes": map[string]any{"device": map[string]any{"list": []string{"agent:run"}}}},
			}
			card, _ = json.Marshal(c)
		})
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(card)
	}
	ts := httptest.NewUnstartedServer(mux)
	ts.Start()
	t.Cleanup(ts.Close)
	oa.url = ts.URL
	mux.HandleFunc("GET /.well-known/agent-card.json", cardHandler)
	mux.Handle("/", as.Protect(a.Handler(), ts.URL, nil))
	return oa
}

// workrunCLI runs the real binary against one data directory and keeps
// every byte it printed, for the secrets grep.
type workrunCLI struct {
	t       *testing.T
	bin     string
	data    string
	env     []string
	printed bytes.Buffer
}

func (w *workrunCLI) cmd(ctx context.Context, stdin string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, w.bin, append([]string{"--data-dir", w.data}, args...)...)
	cmd.Env = w.env
	cmd.Stdin = strings.NewReader(stdin)
	return cmd
}

// run runs workrun args and returns its exit code and output.
func (w *workrunCLI) run(stdin string, args ...string) (int, string) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out, err := w.cmd(ctx, stdin, args...).CombinedOutput()
	w.printed.Write(out)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		w.t.Fatalf("workrun %s: %v", strings.Join(args, " "), err)
	}
	return code, string(out)
}

func (w *workrunCLI) must(want int, stdin string, args ...string) string {
	w.t.Helper()
	code, out := w.run(stdin, args...)
	if code != want {
		w.t.Fatalf("workrun %s: exit %d, want %d\n%s", strings.Join(args, " "), code, want, out)
	}
	return out
}

func newWorkrunCLI(t *testing.T) *workrunCLI {
	t.Helper()
	probe := "workrun-oauth-probe-" + filepath.Base(t.TempDir())
	if err := keyring.Set("workrun-test", probe, "x"); err != nil {
		missing(t, fmt.Sprintf("no Secret Service reachable for the OAuth credentials: %v", err))
	}
	_ = keyring.Delete("workrun-test", probe)
	curl := lookTool(t, "curl")
	dir := t.TempDir()
	// The "system browser" fetches the authorization URL and follows the
	// server's 302 to Workrun's loopback listener, as a person's would.
	env := append(os.Environ(), "BROWSER="+curl+" -s -o /dev/null -L", "LANG=C")
	return &workrunCLI{t: t, bin: buildWorkrun(t), data: filepath.Join(dir, "data"), env: env}
}

func writeAgentFlow(t *testing.T, dir, url, credential string) string {
	t.Helper()
	flow := map[string]any{
		"name": "oauth agent", "state": map[string]string{"question": "text", "answer": "text"},
		"nodes": []any{
			map[string]any{"id": "start", "type": "start", "position": map[string]int{"x": 0, "y": 0}},
			map[string]any{"id": "ask", "type": "remote_agent", "position": map[string]int{"x": 200, "y": 0},
				"config": map[string]any{"url": url, "inputs": []string{"question"}, "output": "answer", "credential": credential, "timeout_seconds": 60}},
			map[string]any{"id": "end", "type": "output", "config": map[string]any{"fields": []string{"answer"}}, "position": map[string]int{"x": 400, "y": 0}},
		},
		"edges": []any{map[string]string{"from": "start", "to": "ask"}, map[string]string{"from": "ask", "to": "end"}},
	}
	b, _ := json.Marshal(flow)
	p := filepath.Join(dir, "flow-"+credential+".json")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOAuthAgent_SignInRunRefreshResume is issue 21's A2A proof against the
// a2a-go SDK server with a token check and an authorization server of the
// tests' own, through the real binary: `workrun credential login` with the
// card's authorization code flow (PKCE, resource) → run → the server
// expires the token → the run refreshes after the 401 → a short-lived token
// is refreshed before it is sent → a run whose task was accepted is killed,
// the sign-in is revoked, and `workrun resume` is interrupted (sign_in),
// keeping the task; after signing in again the resume finishes the same
// task, with one submission in total. The machine flow (client
// credentials, secret on stdin) runs too. Then every file of the data
// directory and every byte printed is searched for the real tokens, the
// refresh tokens, the codes and the client secret — which the server
// echoed back all along.
func TestOAuthAgent_SignInRunRefreshResume(t *testing.T) {
	for _, v := range []string{cardFlows, cardOpenID} {
		t.Run(v, func(t *testing.T) { oauthAgentScenario(t, v) })
	}
}

func oauthAgentScenario(t *testing.T, variant string) {
	oa := startOAuthAgent(t, variant)
	w := newWorkrunCLI(t)
	cred := "ag-" + filepath.Base(t.TempDir())
	t.Cleanup(func() { w.run("", "credential", "delete", cred) })

	out := w.must(0, "", "credential", "login", oa.url, "--name", cred, "--client-id", oa.as.ClientID(), "--timeout", "60")
	if !strings.Contains(out, "Signed in to "+oa.url) || !strings.Contains(out, "agent:run") {
		t.Fatalf("login output:\n%s", out)
	}
	st := oa.as.Stats()
	if st.Authorizations != 1 || st.CodeExchanges != 1 || len(st.Resources) != 1 || st.Resources[0] != oa.url {
		t.Fatalf("after login the authorization server saw %+v (want one PKCE code exchange for resource %s)", st, oa.url)
	}
	if out := w.must(0, "", "credential", "list"); !strings.Contains(out, cred) || !strings.Contains(out, "agent:run") || !strings.Contains(out, "expires") {
		t.Errorf("credential list:\n%s", out)
	}
	flow := writeAgentFlow(t, t.TempDir(), oa.url, cred)
	echo := "question=echo my token is " + oauthtest.EchoPlaceholder

	// 1. A run with the saved token; the agent echoes the token.
	out = w.must(0, "", "run", flow, "--input", echo)
	if !strings.Contains(out, "my token is") {
		t.Fatalf("run 1:\n%s", out)
	}
	// 2. The server expires the token: 401, refresh, the same request again.
	oa.as.SetAccessTTL(30 * time.Second) // shorter than the refresh margin
	oa.as.ExpireAccessTokens()
	t.Logf("after run 1: %+v", oa.as.Stats())
	w.must(0, "", "run", flow, "--input", echo)
	st = oa.as.Stats()
	t.Logf("after run 2: %+v", st)
	if st.Refreshes < 1 || st.Rejected < 1 {
		t.Fatalf("after run 2: %+v, want a refresh after a 401", st)
	}
	// 3. The refreshed token expires within the margin: refreshed before
	// it is sent, no 401 this time.
	rejected, refreshes := st.Rejected, st.Refreshes
	oa.as.SetAccessTTL(time.Hour)
	w.must(0, "", "run", flow, "--input", echo)
	st = oa.as.Stats()
	t.Logf("after run 3: %+v", st)
	if st.Refreshes != refreshes+1 || st.Rejected != rejected {
		t.Fatalf("after run 3: %+v, want a second refresh before sending and no new 401", st)
	}

	// 4. A task is accepted, then the process dies; the sign-in is revoked.
	runID, taskID := w.runUntilTask(t, "run", flow, "--input", "question=slow 40 250")
	oa.as.RefuseRefresh(true)
	oa.as.ExpireAccessTokens()
	code, out := w.run("", "resume", runID)
	if code != 3 || !strings.Contains(out, "sign in to "+oa.url+" again") || !strings.Contains(out, taskID) || !strings.Contains(out, "workrun resume "+runID) {
		t.Fatalf("resume without a usable token: exit %d, want 3 (interrupted) naming the sign-in and task %s:\n%s", code, taskID, out)
	}
	if show := w.must(0, "", "show", runID, "--json"); !strings.Contains(show, `"sign_in"`) || !strings.Contains(show, taskID) {
		t.Fatalf("show after the sign-in interruption:\n%s", show)
	}
	// A new run now fails before anything is sent: sign in first.
	before := len(oa.agent.Stats().Submissions)
	code, out = w.run("", "run", flow, "--input", echo)
	if code != 1 || !strings.Contains(out, "sign in to "+oa.url+" again") {
		t.Fatalf("run without a usable token: exit %d, want 1 with \"sign in to %s again\":\n%s", code, oa.url, out)
	}
	if n := len(oa.agent.Stats().Submissions); n != before {
		t.Fatalf("a run that could not sign in submitted a message (%d → %d)", before, n)
	}
	// 5. Sign in again; resume follows the same task to its end.
	oa.as.RefuseRefresh(false)
	w.must(0, "", "credential", "login", oa.url, "--name", cred, "--client-id", oa.as.ClientID(), "--timeout", "60")
	out = w.must(0, "", "resume", runID)
	if !strings.Contains(out, "succeeded") {
		t.Fatalf("resume after signing in again:\n%s", out)
	}
	subs := oa.agent.Stats().Submissions
	if len(subs) != 4 {
		t.Errorf("submissions per messageId = %v, want 4 messages (three runs and the resumed one)", subs)
	}
	for id, n := range subs {
		if n != 1 {
			t.Errorf("message %s was submitted %d times, want once", id, n)
		}
	}

	// 6. A machine client: client credentials, the secret read from stdin.
	mid, msecret := oa.as.MachineClient()
	machine := cred + "-m"
	t.Cleanup(func() { w.run("", "credential", "delete", machine) })
	w.must(0, msecret+"\n", "credential", "login", oa.url, "--name", machine, "--agent", "--client-credentials", "--client-id", mid, "--client-secret-stdin")
	if oa.as.Stats().ClientCredentials != 1 {
		t.Errorf("client credentials grants = %d, want 1", oa.as.Stats().ClientCredentials)
	}
	w.must(0, "", "run", writeAgentFlow(t, t.TempDir(), oa.url, machine), "--input", echo)
	w.must(0, "", "check-agent", oa.url, "--credential", machine)

	// 7. Headless sign-in with the device code flow.
	dev := cred + "-d"
	t.Cleanup(func() { w.run("", "credential", "delete", dev) })
	out = w.must(0, "", "credential", "login", oa.url, "--name", dev, "--agent", "--device", "--client-id", oa.as.ClientID(), "--timeout", "60")
	if !strings.Contains(out, "enter the code WDJB-MJHT") || oa.as.Stats().DeviceGrants != 1 {
		t.Errorf("device code login (%d device grants):\n%s", oa.as.Stats().DeviceGrants, out)
	}
	w.must(0, "", "run", writeAgentFlow(t, t.TempDir(), oa.url, dev), "--input", echo)
	w.must(0, "", "check-agent", oa.url, "--credential", cred)
	w.must(0, "", "runs")
	w.must(0, "", "show", runID)
	w.must(0, "", "tasks")

	secretsNowhere(t, w, oa.as.Issued(), "my token is")
}

// runUntilTask starts workrun args, waits until its remote task is
// accepted (waitOpenTask) and kills the process (SIGKILL): the task goes
// on at the server, the run is left to be resumed.
func (w *workrunCLI) runUntilTask(t *testing.T, args ...string) (runID, taskID string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	bg := w.cmd(ctx, "", args...)
	var out bytes.Buffer
	bg.Stdout, bg.Stderr = &out, &out
	if err := bg.Start(); err != nil {
		t.Fatal(err)
	}
	runID, taskID = waitOpenTask(t, w)
	_ = bg.Process.Kill()
	_ = bg.Wait()
	w.printed.Write(out.Bytes())
	return runID, taskID
}

// waitOpenTask waits until `workrun tasks --json` lists the run's accepted
// task (its id committed to the store).
func waitOpenTask(t *testing.T, w *workrunCLI) (runID, taskID string) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		_, out := w.run("", "tasks", "--json")
		var rows []struct {
			RunID  string `json:"run_id"`
			TaskID string `json:"task_id"`
		}
		if json.Unmarshal([]byte(out), &rows) == nil {
			for _, r := range rows {
				if r.TaskID != "" {
					return r.RunID, r.TaskID
				}
			}
		}
		time.Sleep(300 * time.Millisecond)
	}
	t.Fatal("no open remote task appeared within 90 s")
	return "", ""
}

// secretsNowhere greps every file under the data directory (SQLite and its
// WAL, artifacts, logs) and everything the binary printed for each secret.
func secretsNowhere(t *testing.T, w *workrunCLI, secrets []string, marker string) {
	t.Helper()
	if len(secrets) < 6 {
		t.Fatalf("only %d secrets issued; the grep would prove little", len(secrets))
	}
	var files int
	var all []byte
	err := filepath.Walk(w.data, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		all = append(all, b...)
		for _, s := range secrets {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("secret %.6s… found in %s", s, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secrets {
		if bytes.Contains(w.printed.Bytes(), []byte(s)) {
			t.Errorf("secret %.6s… found in the terminal output", s)
		}
	}
	// The grep proves something only if the data is there to search.
	if !bytes.Contains(all, []byte(marker)) {
		t.Errorf("the echoed answers are not in the %d data files; the grep proves nothing", files)
	}
	t.Logf("%d secrets searched in %d data files and %d bytes of output: none found", len(secrets), files, w.printed.Len())
}

// TestOAuthMCP_SignInRunResume is the same proof for the Remote MCP Tool:
// the demo MCP server behind the test authorization server, found through
// the 401's resource_metadata (Protected Resource Metadata) and signed in
// with dynamic registration and PKCE by `workrun credential login`; a run
// whose research task was accepted is killed, the sign-in revoked, and
// `workrun resume` is interrupted (sign_in) with the task id; a new run
// fails "sign in to … again" without calling the tool; after signing in
// again the resume finishes the task with one tools/call in total. Then the
// secrets grep, as for the agent.
func TestOAuthMCP_SignInRunResume(t *testing.T) {
	as := oauthtest.New(t, oauthtest.Options{})
	d := demoserver.New(demoserver.Options{StageDuration: 500 * time.Millisecond})
	t.Cleanup(d.Close)
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	resource := ts.URL + demoserver.Path
	as.ResourceMetadataURL = ts.URL + "/.well-known/oauth-protected-resource" + demoserver.Path
	mux.Handle("GET /.well-known/oauth-protected-resource/", as.ResourceMetadata(resource))
	mux.Handle("/", as.Protect(d.Mux(), resource, nil))

	w := newWorkrunCLI(t)
	cred := "mcp-" + filepath.Base(t.TempDir())
	t.Cleanup(func() { w.run("", "credential", "delete", cred) })
	out := w.must(0, "", "credential", "login", resource, "--name", cred, "--timeout", "60")
	if !strings.Contains(out, "Signed in to "+ts.URL) {
		t.Fatalf("login:\n%s", out)
	}
	w.must(0, "", "check-mcp", resource, "--credential", cred)
	flow := map[string]any{
		"name": "oauth mcp", "state": map[string]string{"topic": "text", "report": "text"},
		"nodes": []any{
			map[string]any{"id": "start", "type": "start", "position": map[string]int{"x": 0, "y": 0}},
			map[string]any{"id": "call", "type": "remote_mcp", "position": map[string]int{"x": 200, "y": 0},
				"config": map[string]any{"url": resource, "tool": "research", "arguments": map[string]any{"topic": "{{topic}}", "stages": 12},
					"output": "report", "credential": cred, "timeout_seconds": 60}},
			map[string]any{"id": "end", "type": "output", "config": map[string]any{"fields": []string{"report"}}, "position": map[string]int{"x": 400, "y": 0}},
		},
		"edges": []any{map[string]string{"from": "start", "to": "call"}, map[string]string{"from": "call", "to": "end"}},
	}
	b, _ := json.Marshal(flow)
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	runID, taskID := w.runUntilTask(t, "run", path, "--input", "topic=echoed-"+oauthtest.EchoPlaceholder)
	as.RefuseRefresh(true)
	as.ExpireAccessTokens()
	code, out := w.run("", "resume", runID)
	if code != 3 || !strings.Contains(out, "sign in to "+ts.URL+" again") || !strings.Contains(out, taskID) {
		t.Fatalf("resume without a usable token: exit %d, want 3 naming the sign-in and task %s:\n%s", code, taskID, out)
	}
	calls := func() int {
		n := 0
		for _, r := range d.Requests() {
			if r.Method == "tools/call" && r.Tool == "research" {
				n++
			}
		}
		return n
	}
	before := calls()
	code, out = w.run("", "run", path, "--input", "topic=again")
	if code != 1 || !strings.Contains(out, "sign in to "+ts.URL+" again") || calls() != before {
		t.Fatalf("run without a usable token: exit %d, %d → %d research calls, want 1 and none:\n%s", code, before, calls(), out)
	}
	as.RefuseRefresh(false)
	w.must(0, "", "credential", "login", resource, "--name", cred, "--timeout", "60")
	out = w.must(0, "", "resume", runID)
	if !strings.Contains(out, "succeeded") {
		t.Fatalf("resume after signing in again:\n%s", out)
	}
	if n := calls(); n != 1 {
		t.Errorf("research was called %d times, want once", n)
	}
	w.must(0, "", "show", runID)
	secretsNowhere(t, w, as.Issued(), "echoed-")
}
