package ui

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
)

// TestRunPanel_SignInActions: a run that stopped for a sign-in offers Sign
// in… — with Resume and Stop when its task was kept (interrupted), with
// Run again when the node failed before sending anything — and Sign in…
// is for the node's own URL, credential and kind.
func TestRunPanel_SignInActions(t *testing.T) {
	SetupLanguage("en")
	for _, tt := range []struct {
		name string
		run  workrun.Run
		want []string
	}{
		{"interrupted for a sign-in: Sign in, Resume, Stop", workrun.Run{Status: workrun.RunInterrupted, Interruption: workrun.InterruptedBySignIn,
			Reason: "sign in to https://mcp.example:443 again, then resume: task t-1 is kept"}, []string{"Sign in…", "Resume", "Stop"}},
		{"failed before sending: Sign in, Run again", workrun.Run{Status: workrun.RunFailed, FailedNode: "call",
			Reason: "sign in to https://mcp.example:443 again: the authorization server refused to refresh the token"}, []string{"Sign in…", "Run again"}},
		{"another failure: Run again only", workrun.Run{Status: workrun.RunFailed, Reason: "HTTP 500"}, []string{"Run again"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := newRunPanel(langNow(), false)
			p.OnStop, p.OnResume, p.OnRunAgain, p.OnSignIn = func() {}, func() {}, func() {}, func() {}
			tt.run.ID = "r"
			p.Start("r", workrun.Workflow{Name: "wf"})
			p.Apply(runEv(tt.run))
			if diff := cmp.Diff(tt.want, p.ActionLabels()); diff != "" {
				t.Errorf("actions (-want +got):\n%s", diff)
			}
		})
	}
	wf := workrun.Workflow{Nodes: []workrun.NodeSpec{
		{ID: "ask", Type: "remote_agent", Config: json.RawMessage(`{"url":"https://agent.example/a2a","credential":"ag"}`)},
		{ID: "call", Type: "remote_mcp", Config: json.RawMessage(`{"url":"https://mcp.example/mcp","credential":"m"}`)},
	}}
	u, cred, kind := signInNode(workrun.Run{Workflow: wf, FailedNode: "call"}, nil)
	if u != "https://mcp.example/mcp" || cred != "m" || kind != SignInMCP {
		t.Errorf("failed node: %q %q %q", u, cred, kind)
	}
	u, cred, kind = signInNode(workrun.Run{Workflow: wf}, map[string]workrun.NodeRun{"ask": {NodeID: "ask", Status: workrun.NodeInterrupted}})
	if u != "https://agent.example/a2a" || cred != "ag" || kind != SignInAgent {
		t.Errorf("interrupted node: %q %q %q", u, cred, kind)
	}
}
