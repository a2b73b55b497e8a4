package remoteagent_test

import (
	"errors"
	"testing"

	"workrun/nodes/remoteagent"
	"workrun/remotecall"
	"workrun/store"
	"workrun/workrun"
)

// restart closes e's store, as an application exit does, and opens the same
// data directory again with a new engine (start-up included).
func restart(t *testing.T, e *env) *env {
	t.Helper()
	e.st.Close()
	e2 := newEnv(t, e.dir, "en")
	if _, err := e2.eng.RecoverInterrupted(t.Context()); err != nil {
		t.Fatal(err)
	}
	return e2
}

// TestServers_StopAfterRestart: a run waiting for the person because the
// agent asked (INPUT_REQUIRED) or interrupted by the application's exit, then stopped after a
// restart without being resumed, still gets exactly one CancelTask for its
// unfinished call, with no status query first (docs/remote-agent.md R2, R9). A second restart
// and Stop sends nothing more, and a cancel requested before a restart is
// neither continued nor retried (docs/remote-agent.md R13).
func TestServers_StopAfterRestart(t *testing.T) {
	for _, srv := range bothServers(t, true) {
		// interrupt leaves a run interrupted and returns its id.
		cases := []struct {
			name      string
			interrupt func(t *testing.T, e *env) string
		}{
			{"interrupted by the agent", func(t *testing.T, e *env) string {
				r := e.run(t, flow([]workrun.NodeSpec{raNode("ra", srv.base, "")}), workrun.Values{"prompt_ra": "input"})
				if r.Status != workrun.RunInterrupted || r.Interruption != workrun.InterruptedByHuman {
					t.Fatalf("run = %s (%s): %s", r.Status, r.Interruption, r.Reason)
				}
				return r.ID
			}},
			{"interrupted by exit", func(t *testing.T, e *env) string { return exitWhileWorking(t, e, srv.base) }},
		}
		for _, tc := range cases {
			t.Run(srv.name+"/"+tc.name, func(t *testing.T) {
				e := newEnv(t, t.TempDir(), "en")
				id := tc.interrupt(t, e)
				taskID := e.call(t, id, "ra").TaskID
				// The server is shared by the subtests: counts are compared
				// with what it had seen before Stop.
				before := srv.stats(t)
				if before.Cancels[taskID] != 0 {
					t.Fatalf("cancels before Stop: %v", before.Cancels)
				}

				e2 := restart(t, e)
				if err := e2.eng.Stop(t.Context(), id); err != nil {
					t.Fatal(err)
				}
				r, err := e2.st.GetRun(t.Context(), id)
				if err != nil || r.Status != workrun.RunStopped {
					t.Fatalf("after Stop: %s %v", r.Status, err)
				}
				stats := srv.stats(t)
				if stats.Cancels[taskID] != 1 || stats.totalCancels()-before.totalCancels() != 1 {
					t.Errorf("cancels = %v, want exactly one for %s", stats.Cancels, taskID)
				}
				if stats.Methods["GetTask"] != before.Methods["GetTask"] || stats.Methods["SubscribeToTask"] != before.Methods["SubscribeToTask"] {
					t.Errorf("methods %v → %v: Stop needs no status query", before.Methods, stats.Methods)
				}
				if n := stats.Submissions[remoteagent.MessageID(id, "ra", "send")]; n != 1 {
					t.Errorf("submissions = %d, want 1", n)
				}
				msgs := e2.messages(t, id, "ra")
				if !contains(msgs, enRequesting) {
					t.Errorf("messages = %q", msgs)
				}
				c := e2.call(t, id, "ra")
				if c.CancelOutcome == "" || c.CancelOutcome == remotecall.CancelRequested {
					t.Errorf("cancel outcome %q: the answer was not saved", c.CancelOutcome)
				}

				// Another restart: the run is stopped; Stop changes nothing,
				// it cannot be resumed, and no cancel goes out again.
				e3 := restart(t, e2)
				if err := e3.eng.Stop(t.Context(), id); err != nil {
					t.Fatal(err)
				}
				if err := e3.eng.Resume(t.Context(), id); !errors.Is(err, workrun.ErrNotResumable) {
					t.Errorf("Resume of the stopped run: %v", err)
				}
				if got := srv.stats(t).totalCancels() - before.totalCancels(); got != 1 {
					t.Errorf("after a second restart and Stop: %d cancels, want 1", got)
				}
				if got := e3.messages(t, id, "ra"); len(got) != len(msgs) {
					t.Errorf("messages grew after the second Stop: %q", got[len(msgs):])
				}
			})
		}
		// A cancel requested before the restart and never answered (its
		// outcome "requested" is saved) is not continued by a later Stop.
		t.Run(srv.name+"/cancel requested before the restart", func(t *testing.T) {
			e := newEnv(t, t.TempDir(), "en")
			r := e.run(t, flow([]workrun.NodeSpec{raNode("ra", srv.base, "")}), workrun.Values{"prompt_ra": "input"})
			if r.Status != workrun.RunInterrupted {
				t.Fatalf("run = %s: %s", r.Status, r.Reason)
			}
			c := e.call(t, r.ID, "ra")
			markRequested(t, e.st, c)
			before := srv.stats(t).totalCancels()
			e2 := restart(t, e)
			if err := e2.eng.Stop(t.Context(), r.ID); err != nil {
				t.Fatal(err)
			}
			if got := srv.stats(t).totalCancels() - before; got != 0 {
				t.Errorf("a cancel requested before the restart was sent again: %d", got)
			}
			if got := e2.messages(t, r.ID, "ra"); contains(got, enRequesting) {
				t.Errorf("messages = %q", got)
			}
			if got := e2.call(t, r.ID, "ra").CancelOutcome; got != remotecall.CancelRequested {
				t.Errorf("outcome = %q, want it left as %q", got, remotecall.CancelRequested)
			}
		})
	}
}

// markRequested saves the call as a previous process would have just before
// it exited with its one cancel in flight.
func markRequested(t *testing.T, st *store.Store, c workrun.RemoteCall) {
	t.Helper()
	c.CancelOutcome, c.CancelText = remotecall.CancelRequested, enRequesting
	if err := st.SaveRemoteCall(t.Context(), c); err != nil {
		t.Fatal(err)
	}
}
