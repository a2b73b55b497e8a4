package remotemcp_test

import (
	"errors"
	"testing"
	"time"

	"workrun/mcp/demoserver"
	"workrun/remotecall"
	"workrun/workrun"
)

// restart closes e's store and opens the same data directory again, as a
// new process would, recovering runs left "running".
func restart(t *testing.T, e *env) *env {
	t.Helper()
	e.st.Close()
	e2 := newEnv(t, e.dir)
	if _, err := e2.eng.RecoverInterrupted(t.Context()); err != nil {
		t.Fatal(err)
	}
	return e2
}

// TestStopAfterRestart: a run interrupted by the server (input_required) or
// by the application's exit, then stopped after a restart without being
// resumed, still gets exactly one tasks/cancel, in the saved session, with
// no status read first. Exiting sent nothing; a second restart and Stop
// sends nothing more.
func TestStopAfterRestart(t *testing.T) {
	cases := []struct {
		name      string
		interrupt func(t *testing.T, e *env, url string) string
	}{
		{"interrupted by the server", func(t *testing.T, e *env, url string) string {
			r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "ask", "")}), nil)
			if r.Status != workrun.RunInterrupted || r.Interruption != workrun.InterruptedByRemote {
				t.Fatalf("run = %s (%s): %s", r.Status, r.Interruption, r.Reason)
			}
			return r.ID
		}},
		{"interrupted by exit", func(t *testing.T, e *env, url string) string {
			id := e.start(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "hang", "")}), nil)
			waitUntil(t, 20*time.Second, func() bool {
				c, err := e.st.GetRemoteCall(t.Context(), id, "m", "call")
				return err == nil && c.TaskID != ""
			})
			if err := e.eng.Close(t.Context()); err != nil {
				t.Fatal(err)
			}
			return id
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, url := demo(t, demoserver.Options{CoreOnly: true})
			e := newEnv(t, t.TempDir())
			id := tc.interrupt(t, e, url)
			taskID := e.call(t, id, "m").TaskID
			if n := count(d, "tasks/cancel", ""); n != 0 {
				t.Fatalf("%d cancels before Stop (exiting must send nothing)", n)
			}
			gets := count(d, "tasks/get", "")

			e2 := restart(t, e)
			if err := e2.eng.Stop(t.Context(), id); err != nil {
				t.Fatal(err)
			}
			r, err := e2.st.GetRun(t.Context(), id)
			if err != nil || r.Status != workrun.RunStopped {
				t.Fatalf("after Stop: %s %v", r.Status, err)
			}
			var cancels []demoserver.Request
			for _, q := range d.Requests() {
				if q.Method == "tasks/cancel" {
					cancels = append(cancels, q)
				}
			}
			c := e2.call(t, id, "m")
			if len(cancels) != 1 || cancels[0].TaskID != taskID || cancels[0].Session == "" {
				t.Errorf("cancels = %+v, want one for %s in the saved session", cancels, taskID)
			}
			if count(d, "tasks/get", "") != gets || count(d, "initialize", "") != 1 {
				t.Errorf("Stop read the task or opened a new session (tasks/get %d→%d, initialize %d)", gets, count(d, "tasks/get", ""), count(d, "initialize", ""))
			}
			if c.CancelOutcome != remotecall.CancelCanceled {
				t.Errorf("record = %+v; messages %q", c, e2.messages(t, id, "m"))
			}

			e3 := restart(t, e2)
			if err := e3.eng.Stop(t.Context(), id); err != nil {
				t.Fatal(err)
			}
			if err := e3.eng.Resume(t.Context(), id); !errors.Is(err, workrun.ErrNotResumable) {
				t.Errorf("Resume of the stopped run: %v", err)
			}
			if n := count(d, "tasks/cancel", ""); n != 1 {
				t.Errorf("after a second restart and Stop: %d cancels, want 1", n)
			}
		})
	}
}
