package a2aserve_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"workrun/nodes/output"
	"workrun/nodes/remoteagent"
	"workrun/nodes/start"
	"workrun/remotecall"
	"workrun/serve"
	"workrun/serve/a2aserve"
	"workrun/store"
	"workrun/store/storetest"
	"workrun/workrun"
)

// serveFlows serves flows on a fresh store with the given engine kinds.
func serveFlows(t *testing.T, opts a2aserve.Options, kinds func(*store.Store) []workrun.Kind, flows ...string) *httptest.Server {
	t.Helper()
	_, st, arts := storetest.Open(t, "")
	eng := workrun.NewEngine(st, arts, kinds(st)...)
	t.Cleanup(func() { eng.Close(context.WithoutCancel(t.Context())) })
	var pubs []serve.Publication
	for _, f := range flows {
		wf, err := workrun.ReadWorkflow(strings.NewReader(f))
		if err != nil {
			t.Fatal(err)
		}
		p, err := serve.NewPublication("", "", wf)
		if err != nil {
			t.Fatal(err)
		}
		pubs = append(pubs, p)
	}
	svc, err := serve.New(eng, st, pubs)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	srv.Start()
	opts.BaseURL, opts.Artifacts = srv.URL, arts
	srv.Config.Handler = a2aserve.New(svc, opts).Handler()
	t.Cleanup(srv.Close)
	return srv
}

func localKinds(*store.Store) []workrun.Kind { return []workrun.Kind{start.Kind{}, output.Kind{}} }

// streamBody posts SendStreamingMessage and returns the whole SSE body.
func streamBody(t *testing.T, u, params string) string {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), "POST", u, strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"SendStreamingMessage","params":`+params+`}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "1.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const fileJSON = `{"name":"Doc","state":{"doc":"file"},"publish":{"inputs":["doc"],"outputs":["doc"]},
 "nodes":[{"id":"start","type":"start"},{"id":"end","type":"output","config":{"fields":["doc"]}}],
 "edges":[{"from":"start","to":"end"}]}`

func rawPart(b []byte, name string) string {
	return fmt.Sprintf(`{"raw":%q,"filename":%q,"mediaType":"text/plain"}`, base64.StdEncoding.EncodeToString(b), name)
}

// S4/S5: an inline file part within the cap fills the file input and comes
// back as a file artifact, byte for byte; over the cap, by URL, or as a
// data value, it is refused naming the field and nothing starts.
func TestFilePartsWithinCaps(t *testing.T) {
	srv := serveFlows(t, a2aserve.Options{MaxFileBytes: 1024}, localKinds, fileJSON)
	u := srv.URL + "/a2a/doc"
	body := []byte(strings.Repeat("file bytes\n", 50)) // 550 bytes
	r := rpc(t, u, "SendMessage", `{"message":{"messageId":"f1","role":"ROLE_USER","parts":[`+rawPart(body, "a.txt")+`]}}`, nil)
	var res struct {
		Task struct {
			Status    struct{ State string }
			Artifacts []struct {
				Name  string
				Parts []struct {
					Raw       []byte
					Filename  string
					MediaType string
				}
			}
		}
	}
	if r.Error != nil || json.Unmarshal(r.Result, &res) != nil {
		t.Fatalf("send a file: %+v %s", r.Error, r.Result)
	}
	a := res.Task.Artifacts
	if res.Task.Status.State != "TASK_STATE_COMPLETED" || len(a) != 1 || a[0].Name != "doc" || len(a[0].Parts) != 1 ||
		string(a[0].Parts[0].Raw) != string(body) || a[0].Parts[0].Filename != "a.txt" || !strings.HasPrefix(a[0].Parts[0].MediaType, "text/plain") {
		t.Fatalf("file task: %s", r.Result)
	}
	for _, c := range []struct {
		part string
		code int
	}{
		{rawPart([]byte(strings.Repeat("x", 1025)), "big.bin"), -32602},
		{`{"url":"https://example.com/a.txt","filename":"a.txt"}`, -32005},
		{`{"data":{"doc":"an-artifact-id"}}`, -32602},
	} {
		r := rpc(t, u, "SendMessage", `{"message":{"messageId":"f2","role":"ROLE_USER","parts":[`+c.part+`]}}`, nil)
		if r.Error == nil || r.Error.Code != c.code || !strings.Contains(r.Error.Message, `"doc"`) {
			t.Fatalf("%s: %+v, want %d naming \"doc\"", c.part, r.Error, c.code)
		}
	}
	if r := rpc(t, u, "ListTasks", `{}`, nil); !strings.Contains(string(r.Result), `"totalSize":1`) {
		t.Fatalf("a refused file started a run: %s", r.Result)
	}
}

type echoCredential string

func (s echoCredential) Credential(context.Context, string) (remotecall.Credential, error) {
	return remotecall.Credential{Kind: remotecall.CredentialBearer, Secret: string(s)}, nil
}

// S5/S12: a remote agent the served run calls echoes the run's credential
// in a status text and in its failure; the caller's FAILED task and its
// stream carry the agent's words with the secret redacted.
func TestFailedReasonRedactsEchoedSecret(t *testing.T) {
	const secret = "serve-echo-Z8k2"
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			rpcURL := (&url.URL{Scheme: "http", Host: r.Host, Path: "/rpc"}).String()
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"name": "echo", "version": "1", //nolint:errcheck // test server
				"supportedInterfaces": []any{map[string]any{"url": rpcURL, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}},
				"capabilities":        map[string]any{"streaming": true}, "defaultInputModes": []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"}, "skills": []any{}})
			return
		}
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		json.NewDecoder(r.Body).Decode(&req) //nolint:errcheck // test server
		w.Header().Set("Content-Type", "text/event-stream")
		status := func(state, text string) string {
			return fmt.Sprintf(`{"state":%q,"message":{"messageId":"m-%s","role":"ROLE_AGENT","parts":[{"text":%q}]}}`, state, state, text)
		}
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"task\":{\"id\":\"t1\",\"contextId\":\"c1\",\"status\":%s}}}\n\n", req.ID, status("TASK_STATE_WORKING", "checking "+secret))
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"statusUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c1\",\"status\":%s}}}\n\n", req.ID, status("TASK_STATE_FAILED", "token "+secret+" expired"))
	}))
	t.Cleanup(echo.Close)
	flow := fmt.Sprintf(`{"name":"Relay","state":{"q":"text","a":"text"},"publish":{"inputs":["q"],"outputs":["a"]},
 "nodes":[{"id":"start","type":"start"},{"id":"ra","type":"remote_agent","config":{"url":%q,"inputs":["q"],"output":"a","credential":"k","timeout_seconds":10}}],
 "edges":[{"from":"start","to":"ra"}]}`, echo.URL)
	srv := serveFlows(t, a2aserve.Options{}, func(st *store.Store) []workrun.Kind {
		return append(localKinds(st), remoteagent.New(remoteagent.Deps{Calls: st, Credentials: echoCredential(secret)}))
	}, flow)
	u := srv.URL + "/a2a/relay"

	stream := streamBody(t, u, `{"message":{"messageId":"s1","role":"ROLE_USER","parts":[{"text":"hi"}]}}`)
	r := rpc(t, u, "SendMessage", `{"message":{"messageId":"s1","role":"ROLE_USER","parts":[{"text":"hi"}]}}`, nil)
	got := string(r.Result) + stream
	if r.Error != nil || !strings.Contains(string(r.Result), "TASK_STATE_FAILED") {
		t.Fatalf("send: %+v %s", r.Error, r.Result)
	}
	if strings.Contains(got, secret) {
		t.Fatalf("the secret reached the caller:\n%s", got)
	}
	if !strings.Contains(string(r.Result), "token [redacted] expired") {
		t.Fatalf("the FAILED reason does not carry the agent's (redacted) words: %s", r.Result)
	}
}
