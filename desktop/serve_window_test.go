package desktop

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"workrun/serve"
	"workrun/serve/trigger"
	"workrun/ui"
	"workrun/workrun"
)

// mapKeyring is an in-memory keyring for the serve tokens and webhook
// secrets of one test.
type mapKeyring struct {
	mu sync.Mutex
	m  map[string]string
}

func (k *mapKeyring) Get(service, user string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	s, ok := k.m[service+"/"+user]
	if !ok {
		return "", errors.New("not in the keyring")
	}
	return s, nil
}

func (k *mapKeyring) Set(service, user, secret string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.m[service+"/"+user] = secret
	return nil
}

func (k *mapKeyring) Delete(service, user string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.m, service+"/"+user)
	return nil
}

// greetFlow is a published workflow answering "Hi NAME" under name, with
// an HMAC webhook.
func greetFlow(t *testing.T, name string) workrun.Workflow {
	t.Helper()
	var wf workrun.Workflow
	src := `{"name":"` + name + `","state":{"who":"text","reply":"text"},"publish":{"inputs":["who"],"outputs":["reply"]},
 "nodes":[{"id":"start","type":"start","config":{"triggers":[{"type":"webhook","auth":"hmac"}]}},
  {"id":"say","type":"set","config":{"values":{"reply":"Hi"}}}],
 "edges":[{"from":"start","to":"say"}]}`
	if err := json.Unmarshal([]byte(src), &wf); err != nil {
		t.Fatal(err)
	}
	return wf
}

// lineWith is the URL of the first line starting with kind ("a2a ").
func lineWith(t *testing.T, lines []string, kind, contains string) string {
	t.Helper()
	for _, l := range lines {
		if strings.HasPrefix(l, kind+" ") && strings.Contains(l, contains) {
			return strings.TrimPrefix(l, kind+" ")
		}
	}
	t.Fatalf("no %q line with %q in %q", kind, contains, lines)
	return ""
}

// TestWindowServes: with "Serve from this window" on, the window's wiring
// (serveDeps, as Run calls it) serves the saved published workflows on
// the window's own engine and store, as `workrun serve` does: an A2A
// caller's blocking SendMessage completes with the workflow's output, a
// signed webhook starts a run (202) and a wrong signature starts none
// (401); saving another published workflow serves it too; a second
// server on the same address is refused with EADDRINUSE, which the window
// says in its words; turning it off closes the address (docs/serve.md
// "Serving from the window").
func TestWindowServes(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	p, err := openParts(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Store.Close()
	defer p.Engine.Close(context.WithoutCancel(ctx))
	if _, err := p.Store.SaveWorkflow(ctx, "", greetFlow(t, "Window greeter")); err != nil {
		t.Fatal(err)
	}
	kr := &mapKeyring{m: map[string]string{}}
	kr.Set(trigger.SecretService, "window-greeter", "s3cret") //nolint:errcheck // a map
	svc := p.Services(dir)
	svc.ServeTokens = &serve.Tokens{Store: p.Store, Keyring: kr}
	var d ui.Deps
	ws, stop := serveDeps(&d, svc, io.Discard)
	defer stop()
	lines, err := d.ServeHere(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	agent := lineWith(t, lines, "a2a", "window-greeter")
	lineWith(t, lines, "mcp", "/mcp")
	hook := lineWith(t, lines, "webhook", "window-greeter")

	// An A2A caller's run is the window's run.
	body := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"data":{"who":"Ann"}}]}}}`
	req, _ := http.NewRequestWithContext(ctx, "POST", agent, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "1.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(raw), "TASK_STATE_COMPLETED") || !strings.Contains(string(raw), "Hi") {
		t.Fatalf("SendMessage: %s", raw)
	}
	runs, err := p.Store.ListRuns(ctx, workrun.RunFilter{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].Status != workrun.RunSucceeded {
		t.Fatalf("runs after one SendMessage: %+v", runs)
	}
	if _, err := p.Store.ServedTaskForRun(ctx, runs[0].ID); err != nil {
		t.Fatalf("the run has no served task: %v", err)
	}

	// A signed webhook starts a run; a wrong signature none.
	hookPost := func(secret string) int {
		b := []byte(`{"who":"Bo"}`)
		req, _ := http.NewRequestWithContext(ctx, "POST", hook, strings.NewReader(string(b)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(trigger.SignatureHeader, trigger.SignatureValue(secret, time.Now(), b))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body) //nolint:errcheck // the status says it
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := hookPost("wrong"); code != http.StatusUnauthorized {
		t.Fatalf("webhook with a wrong signature: %d, want 401", code)
	}
	if code := hookPost("s3cret"); code != http.StatusAccepted {
		t.Fatalf("signed webhook: %d, want 202", code)
	}
	waitFor(t, 30*time.Second, "the webhook's run to succeed", func() bool {
		rs, err := p.Store.ListRuns(ctx, workrun.RunFilter{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range rs {
			if r.StartedBy.Kind == workrun.StartedByWebhook && r.Status == workrun.RunSucceeded {
				n++
			}
		}
		return len(rs) == 2 && n == 1
	})

	// A workflow published and saved later is served after the rebuild a
	// save makes (rebuildingWorkflows), at the same address.
	addr := strings.TrimPrefix(agent, "http://")
	addr = addr[:strings.Index(addr, "/")]
	if lines, err = d.ServeHere(ctx, addr); err != nil { // the same port from now on
		t.Fatal(err)
	}
	if _, err := p.Store.SaveWorkflow(ctx, "", greetFlow(t, "Second greeter")); err != nil {
		t.Fatal(err)
	}
	if err := ws.rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	second := strings.Replace(agent, "window-greeter", "second-greeter", 1)
	cardOK := func(u string) bool {
		resp, err := http.Get(u + "/.well-known/agent-card.json")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}
	if !cardOK(second) {
		t.Fatalf("the workflow saved later is not served at %s (lines %q)", second, lines)
	}

	// The address is taken: another server is refused with EADDRINUSE.
	var d2 ui.Deps
	_, stop2 := serveDeps(&d2, svc, io.Discard)
	defer stop2()
	if _, err := d2.ServeHere(ctx, addr); !errors.Is(err, syscall.EADDRINUSE) {
		t.Fatalf("a second server on %s: %v, want EADDRINUSE", addr, err)
	}

	// Off: the address answers no more.
	if _, err := d.ServeHere(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if cardOK(agent) {
		t.Fatal("the agent still answers after serving was turned off")
	}
}
