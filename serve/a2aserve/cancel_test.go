package a2aserve_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/a2aproject/a2a-go/v2/a2a"

	"workrun/a2a/demoagent"
	"workrun/nodes/output"
	"workrun/nodes/remoteagent"
	"workrun/nodes/start"
	"workrun/serve"
	"workrun/serve/a2aserve"
	"workrun/store/storetest"
	"workrun/workrun"
)

// S6: CancelTask of a served task stops its run like the Stop button, so
// the remote agent the run's Remote Agent node called gets exactly one
// CancelTask.
func TestCancelReachesRemoteAgentOnce(t *testing.T) {
	agent := demoagent.New(demoagent.Options{})
	agentURL, stop, err := agent.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	_, st, arts := storetest.Open(t, "")
	eng := workrun.NewEngine(st, arts, start.Kind{}, output.Kind{}, remoteagent.New(remoteagent.Deps{Calls: st}))
	eng.AbortTimeout = 10 * time.Second
	t.Cleanup(func() { eng.Close(context.WithoutCancel(t.Context())) })
	wf, err := workrun.ReadWorkflow(strings.NewReader(`{"name":"Relay","state":{"q":"text","a":"text"},
 "publish":{"inputs":["q"],"outputs":["a"]},
 "nodes":[{"id":"start","type":"start"},{"id":"ask","type":"remote_agent","config":{"url":"` + agentURL + `","inputs":["q"],"output":"a","timeout_seconds":60}}],
 "edges":[{"from":"start","to":"ask"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	p, err := serve.NewPublication("", "", wf)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := serve.New(eng, st, []serve.Publication{p})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	srv.Start()
	srv.Config.Handler = a2aserve.New(svc, a2aserve.Options{BaseURL: srv.URL, Artifacts: arts}).Handler()
	t.Cleanup(srv.Close)

	c := sdkClient(t, srv.URL+"/a2a/relay")
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	var id sdk.TaskID
	for ev, err := range c.SendStreamingMessage(ctx, &sdk.SendMessageRequest{Message: sdk.NewMessage(sdk.MessageRoleUser, sdk.NewTextPart("hang"))}) {
		if err != nil {
			t.Fatal(err)
		}
		if tk, ok := ev.(*sdk.Task); ok {
			id = tk.ID
		}
		if u, ok := ev.(*sdk.TaskStatusUpdateEvent); ok && u.Status.Message != nil && strings.Contains(u.Status.Message.Parts[0].Text(), "hanging") {
			break
		}
	}
	got, err := c.CancelTask(ctx, &sdk.CancelTaskRequest{ID: id})
	if err != nil || got.Status.State != sdk.TaskStateCanceled {
		t.Fatalf("cancel: %+v %v", got, err)
	}
	n := 0
	for _, k := range agent.Stats().Cancels {
		n += k
	}
	if n != 1 {
		t.Fatalf("the agent got %d CancelTask, want 1 (%v)", n, agent.Stats().Cancels)
	}
}
