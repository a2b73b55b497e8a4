package remoteagent_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"workrun/workrun/workruntest"

	"github.com/google/go-cmp/cmp"

	"workrun/a2a"
	"workrun/a2a/demoagent"
	"workrun/nodes/remoteagent"
	"workrun/remotecall"
	"workrun/workrun"
)

// TestCheckAgent is the connection test (docs/remote-agent.md R3.4): discovery plus one
// authenticated call that submits no task.
func TestCheckAgent(t *testing.T) {
	a := demoagent.New(demoagent.Options{BearerToken: "tok-1", APIKey: "key-1"})
	ts := httptest.NewServer(a.Handler())
	t.Cleanup(func() { a.Close(); ts.Close() })
	open := goServer(t, demoagent.Options{DisableStreaming: true})

	t.Run("bearer accepted", func(t *testing.T) {
		rep, err := remoteagent.CheckAgent(t.Context(), ts.URL, &remotecall.Credential{Kind: remotecall.CredentialBearer, Secret: "tok-1"})
		if err != nil {
			t.Fatal(err)
		}
		want := remoteagent.Report{Name: "Workrun demo agent", Endpoint: ts.URL + demoagent.JSONRPCPath, Streaming: true,
			SecuritySchemes: []string{`apiKey: API key in header "X-API-Key"`, "bearer: HTTP Bearer"}, CredentialUsed: true, CredentialHeader: "Authorization", Accepted: true}
		if diff := cmp.Diff(want, rep); diff != "" {
			t.Errorf("report (-want +got):\n%s", diff)
		}
	})
	t.Run("api key accepted", func(t *testing.T) {
		rep, err := remoteagent.CheckAgent(t.Context(), ts.URL, &remotecall.Credential{Kind: remotecall.CredentialAPIKey, Header: "X-API-Key", Secret: "key-1"})
		if err != nil || !rep.Accepted {
			t.Fatalf("rep %+v err %v", rep, err)
		}
	})
	t.Run("wrong secret refused", func(t *testing.T) {
		_, err := remoteagent.CheckAgent(t.Context(), ts.URL, &remotecall.Credential{Kind: remotecall.CredentialBearer, Secret: "nope"})
		if !errors.Is(err, remoteagent.ErrCredentialRefused) || strings.Contains(err.Error(), "nope") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("credential required", func(t *testing.T) {
		_, err := remoteagent.CheckAgent(t.Context(), ts.URL, nil)
		if !errors.Is(err, remoteagent.ErrCredentialRequired) || !strings.Contains(err.Error(), "bearer: HTTP Bearer") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("open agent, no streaming", func(t *testing.T) {
		rep, err := remoteagent.CheckAgent(t.Context(), open.base, nil)
		if err != nil || !rep.Accepted || rep.Streaming || rep.CredentialUsed {
			t.Fatalf("rep %+v err %v", rep, err)
		}
	})
	t.Run("plain chat API refused", func(t *testing.T) {
		chat := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/v1/chat/completions" {
				w.Write([]byte(`{"choices":[]}`)) //nolint:errcheck
				return
			}
			http.NotFound(w, r)
		}))
		t.Cleanup(chat.Close)
		_, err := remoteagent.CheckAgent(t.Context(), chat.URL+"/v1/chat/completions", nil)
		if !errors.Is(err, a2a.ErrNotA2A) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("credential of another origin refused before any request", func(t *testing.T) {
		_, err := remoteagent.CheckAgent(t.Context(), ts.URL, &remotecall.Credential{Kind: remotecall.CredentialBearer, Secret: "tok-1", Origin: "https://elsewhere.example"})
		if !errors.Is(err, remotecall.ErrOtherOrigin) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("credential over plain http to a remote host refused", func(t *testing.T) {
		_, err := remoteagent.CheckAgent(t.Context(), "http://agent.example/", &remotecall.Credential{Kind: remotecall.CredentialBearer, Secret: "x"})
		if err == nil || !strings.Contains(err.Error(), "use https") {
			t.Fatalf("err = %v", err)
		}
	})
	// No test submitted a task.
	for _, s := range []demoagent.Stats{a.Stats()} {
		if s.Methods["SendMessage"]+s.Methods["SendStreamingMessage"] != 0 || len(s.Submissions) != 0 {
			t.Errorf("the connection test submitted work: %+v", s)
		}
		if s.Methods["GetTask"] == 0 {
			t.Errorf("no authenticated call reached the agent: %+v", s)
		}
	}
	if s := open.stats(t); len(s.Submissions) != 0 {
		t.Errorf("the connection test submitted work: %+v", s)
	}
}

func TestLanguageTags(t *testing.T) {
	for tag, want := range map[string]string{"zh-Hans": "远程任务：已取消", "zh_CN.UTF-8": "远程任务：已取消", "en_US.UTF-8": "Remote task: canceled", "C.UTF-8": "Remote task: canceled"} {
		workruntest.InLanguage(t, tag)
		if got := remoteagent.CanceledText(workrun.Language()); got != want {
			t.Errorf("%s: %q, want %q", tag, got, want)
		}
	}
}
