package ui

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"workrun/a2a/demoagent"
	"workrun/ui/credentials"
	"workrun/workrun"
)

// TestStopRunInterruptedByAgent runs the Remote Agent sample against the demo
// agent, which answers "input required". The run panel says what the agent
// asked and offers Stop and Run again (nothing that would answer the agent);
// Stop, pressed in the panel, ends the run "stopped" and the agent's task
// gets exactly one cancel.
func TestStopRunInterruptedByAgent(t *testing.T) {
	rig := newDemoRig(t)
	w := rig.w
	w.OpenWorkflow("", SampleRemote(langNow(), rig.url))

	var reason string
	var actions []string
	var stopEnabled bool
	ended := make(chan workrun.Run, 1)
	// The test driver runs fyne.Do on the event goroutine: look at the panel
	// and press Stop from inside it, never alongside it.
	w.applied = func(ev Event) {
		if ev.Run == nil {
			return
		}
		switch {
		case ev.Run.Status == workrun.RunInterrupted && actions == nil:
			_, reason = w.panel.HeaderTexts()
			actions = w.panel.ActionLabels()
			stopEnabled = !w.stopBtn.Disabled()
			if !w.panel.TapAction("Stop") {
				t.Error("no Stop in the run panel of a run interrupted by the agent")
			}
		case ev.Run.Status.Terminal():
			select {
			case ended <- *ev.Run:
			default:
			}
		}
	}
	launchGated(w, rig.gate, workrun.Values{"question": "input"})
	r := waitEnded(t, w, ended, 30*time.Second, "the interrupted run did not end after Stop")

	if !strings.Contains(reason, demoagent.InputText) {
		t.Errorf("reason %q does not say what the agent asked (%q)", reason, demoagent.InputText)
	}
	if !slices.Equal(actions, []string{"Stop", "Run again"}) {
		t.Errorf("actions of a run interrupted by the agent %q, want [Stop Run again]", actions)
	}
	if !stopEnabled {
		t.Error("the toolbar's Stop was disabled for the interrupted run")
	}
	if r.Status != workrun.RunStopped {
		t.Fatalf("run ended %s, want stopped", r.Status)
	}
	if status, _ := w.panel.HeaderTexts(); !strings.Contains(status, "stopped") {
		t.Errorf("header %q after Stop", status)
	}
	cs, err := rig.st.RemoteCallsForRun(t.Context(), r.ID)
	// The task's call, and the record of the question the agent asked on it
	// (CallKey "send/ask", issue 22).
	cs = slices.DeleteFunc(cs, func(c workrun.RemoteCall) bool { return c.CallKey != "send" })
	if err != nil || len(cs) != 1 || cs[0].TaskID == "" {
		t.Fatalf("remote calls %+v, %v", cs, err)
	}
	if n := rig.agent.Cancels(cs[0].TaskID); n != 1 {
		t.Errorf("agent received %d cancels for %s, want exactly 1", n, cs[0].TaskID)
	}
}

// onUI runs f as the window's UI thread would: the test driver runs the
// app layer's fyne.Do calls on their own goroutines, and a test that calls
// into the window while they may run must not overlap them.
func onUI(w *Window, f func()) {
	w.rs.mu.Lock()
	defer w.rs.mu.Unlock()
	f()
}

// TestRunNamesMissingCredentialsFirst: a Remote Agent node naming a
// credential the keyring lacks is found when Run is pressed, before
// anything starts (no inputs dialog, no run); a credential saved in the
// dialog counts at once.
func TestRunNamesMissingCredentialsFirst(t *testing.T) {
	started := 0
	eng := &fakeEngine{StartFunc: func(context.Context, string, workrun.Workflow, workrun.Values) (string, error) {
		started++
		return "r1", nil
	}}
	_, creds := newMemKeyring()
	w := newTestWindow(t, Deps{Engine: eng, Credentials: creds})
	wf := SampleRemote(langNow(), "https://agent.example.com")
	for i, n := range wf.Nodes {
		if n.Type == "remote_agent" {
			c, _ := DecodeConfig(n.Config)
			c.Credential = "prod"
			wf.Nodes[i].Config = EncodeConfig(c)
		}
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for range 100 {
			var ok bool
			onUI(w, func() { ok = cond() })
			if ok {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("timed out waiting for %s", what)
	}
	waitFor("the credential list", func() bool { return w.rs.creds != nil })
	var status string
	onUI(w, func() {
		w.OpenWorkflow("", wf)
		w.runClicked()
		status = w.status.Text
	})
	if started != 0 {
		t.Fatalf("the run started without its credential")
	}
	if !strings.Contains(status, "prod") {
		t.Errorf("status %q does not name the missing credential", status)
	}
	onUI(w, func() {
		v := w.newCredentialsView()
		v.OnSave(Credential{Name: "prod", Origin: "https://agent.example.com:443", Kind: credentials.SchemeBearer}, "tok")
	})
	waitFor("the saved credential", func() bool { return len(w.rs.creds) == 1 })
	var missing []string
	onUI(w, func() { missing = w.missingCredentials(wf) })
	if len(missing) != 0 {
		t.Errorf("still missing %q after the credential was saved in the dialog", missing)
	}
}

// TestRemoteTasksFollowTheRunShown: the remote task panel shows the tasks of
// the run in the run panel, read off the UI thread, and empties when
// another workflow is opened (it never keeps the previous workflow's task).
func TestRemoteTasksFollowTheRunShown(t *testing.T) {
	calls := func(_ context.Context, runID string) ([]workrun.RemoteCall, error) {
		return []workrun.RemoteCall{{NodeID: "ask", AgentURL: "http://127.0.0.1:1", TaskID: "task-of-" + runID, RemoteState: "TASK_STATE_WORKING"}}, nil
	}
	eng := &fakeEngine{StartFunc: func(context.Context, string, workrun.Workflow, workrun.Values) (string, error) { return "r1", nil }}
	w := newTestWindow(t, Deps{Engine: eng, RemoteCalls: calls})
	shown := make(chan string, 10)
	onUI(w, func() { w.rs.tasksShown = func(id string) { shown <- id } })
	wf := SampleRemote(langNow(), "http://127.0.0.1:1")
	onUI(w, func() {
		w.OpenWorkflow("", wf)
		w.launch(wf, workrun.Values{"question": "q"})
	})
	select {
	case <-shown:
	case <-time.After(5 * time.Second):
		t.Fatal("remote tasks never read")
	}
	var ts []workrun.RemoteCall
	onUI(w, func() { ts = w.tasks.Shown() })
	if len(ts) != 1 || ts[0].TaskID != "task-of-r1" {
		t.Fatalf("remote tasks %+v, want run r1's", ts)
	}
	onUI(w, func() {
		w.OpenWorkflow("", SampleParallel(langNow(), "http://127.0.0.1:1"))
		ts = w.tasks.Shown()
	})
	if len(ts) != 0 {
		t.Errorf("after opening another workflow the panel still shows %+v", ts)
	}
}

// TestMissingCredentialsOfEveryKind: the credentials are found through the
// kinds' descriptions, so a Remote MCP Tool node's credential counts as
// much as a Remote Agent's.
func TestMissingCredentialsOfEveryKind(t *testing.T) {
	_, creds := newMemKeyring()
	w := newTestWindow(t, Deps{Engine: &fakeEngine{}, Credentials: creds})
	wf := workrun.Workflow{Name: "both", Nodes: []workrun.NodeSpec{
		{ID: "start", Type: "start"},
		{ID: "agent", Type: "remote_agent", Config: json.RawMessage(`{"url":"https://agent.example.com","credential":"agent-key"}`)},
		{ID: "tool", Type: "remote_mcp", Config: json.RawMessage(`{"url":"https://mcp.example.com/mcp","tool":"t","credential":"mcp-key"}`)},
	}}
	for range 100 {
		var ok bool
		onUI(w, func() { ok = w.rs.creds != nil })
		if ok {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	var missing []string
	onUI(w, func() { missing = w.missingCredentials(wf) })
	if !slices.Equal(missing, []string{"agent-key", "mcp-key"}) {
		t.Errorf("missing credentials = %q, want both nodes' credentials", missing)
	}
}
