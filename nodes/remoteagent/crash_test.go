package remoteagent_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"workrun/nodes/output"
	"workrun/nodes/process"
	"workrun/nodes/remoteagent"
	"workrun/nodes/start"
	"workrun/store"
	"workrun/store/storetest"
	"workrun/workrun"
)

// TestMain lets the test binary act as the runner process of the crash test:
// with WORKRUN_RA_CHILD_DIR set it starts a run in that data directory and
// waits to be killed (WORKRUN_RA_CHILD_CFG: more keys of the node's config,
// starting with a comma).
func TestMain(m *testing.M) {
	storetest.ChildMain(m, "WORKRUN_RA_CHILD_DIR", func(dir string) int {
		prompt := os.Getenv("WORKRUN_RA_CHILD_PROMPT")
		if prompt == "" {
			prompt = "slow 15 100"
		}
		wf := flow([]workrun.NodeSpec{raNode("ra", os.Getenv("WORKRUN_RA_CHILD_URL"), os.Getenv("WORKRUN_RA_CHILD_CFG"))})
		return storetest.StartRun(dir, wf, workrun.Values{"prompt_ra": prompt},
			func(st *store.Store) []workrun.Kind {
				return []workrun.Kind{start.Kind{}, process.Kind{}, output.Kind{}, remoteagent.New(remoteagent.Deps{Calls: st})}
			})
	})
}

// TestServers_CrashAfterTaskIDThenResume: the runner is SIGKILLed right after
// the taskId is committed; after a restart the run resumes, follows the
// original task and finishes it with no second submission (docs/remote-agent.md R5, R6, R13).
func TestServers_CrashAfterTaskIDThenResume(t *testing.T) {
	for _, srv := range bothServers(t, true) {
		t.Run(srv.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd, runID := storetest.StartChild(t, "WORKRUN_RA_CHILD_DIR="+dir, "WORKRUN_RA_CHILD_URL="+srv.base)

			e := newEnv(t, dir, "en")
			taskID := waitTaskID(t, e, runID)
			storetest.Kill(t, cmd)
			if c := e.call(t, runID, "ra"); c.Ended {
				t.Fatalf("the task ended before the kill; the test proves nothing: %+v", c)
			}

			// Restart: the run left "running" is interrupted by exit, then resumed.
			if _, err := e.eng.RecoverInterrupted(t.Context()); err != nil {
				t.Fatal(err)
			}
			if err := e.eng.Resume(t.Context(), runID); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
			defer cancel()
			r, err := e.eng.Wait(ctx, runID)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != workrun.RunSucceeded {
				t.Fatalf("resumed run = %s: %s\n%q", r.Status, r.Reason, e.messages(t, runID, "ra"))
			}
			if got := fmt.Sprint(r.State["answer_ra"]); got != "done after 15 steps" {
				t.Errorf("answer = %q", got)
			}
			stats := srv.stats(t)
			if n := stats.Submissions[remoteagent.MessageID(runID, "ra", "send")]; n != 1 {
				t.Errorf("submissions = %d, want exactly 1", n)
			}
			if stats.totalCancels() != 0 {
				t.Errorf("exiting sent a cancel: %v", stats.Cancels)
			}
			if c := e.call(t, runID, "ra"); c.TaskID != taskID || !c.Ended {
				t.Errorf("record after resume = %+v, want the original task %s ended", c, taskID)
			}
			if got := e.messages(t, runID, "ra"); !contains(got, "Resuming remote task "+taskID) {
				t.Errorf("messages = %q", got)
			}
		})
	}
}

// TestServers_CrashDuringStatusStream: the runner is SIGKILLed at a random
// point of a 100,000-update status stream, while progress lines are being
// batched. Every round: the database passes its integrity check, the taskId
// is saved, and the resumed run finishes the original task with no second
// submission. WORKRUN_CRASH_REPEATS sets the number of rounds (default 5).
func TestServers_CrashDuringStatusStream(t *testing.T) {
	rounds := 5
	if v, err := strconv.Atoi(os.Getenv("WORKRUN_CRASH_REPEATS")); err == nil && v > 0 {
		rounds = v
	}
	midStream := 0
	for round := range rounds {
		srv, url := startStatusStream(t, 100_000, time.Millisecond)
		dir := t.TempDir()
		cmd, runID := storetest.StartChild(t, "WORKRUN_RA_CHILD_DIR="+dir, "WORKRUN_RA_CHILD_URL="+url, "WORKRUN_RA_CHILD_PROMPT=go")
		e := newEnv(t, dir, "en")
		taskID := waitTaskID(t, e, runID)
		time.Sleep(time.Duration(rand.Int64N(int64(700 * time.Millisecond))))
		storetest.Kill(t, cmd)
		if c := e.call(t, runID, "ra"); !c.Ended {
			midStream++
		}

		db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, store.FileName)+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		var check string
		if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
			t.Errorf("round %d: integrity check %q %v", round, check, err)
		}
		db.Close()
		if c := e.call(t, runID, "ra"); c.TaskID != taskID || c.MessageID != remoteagent.MessageID(runID, "ra", "send") {
			t.Fatalf("round %d: record after the kill = %+v, want task %s", round, c, taskID)
		}

		if _, err := e.eng.RecoverInterrupted(t.Context()); err != nil {
			t.Fatal(err)
		}
		r, err := e.st.GetRun(t.Context(), runID)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status == workrun.RunInterrupted {
			if err := e.eng.Resume(t.Context(), runID); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
			r, err = e.eng.Wait(ctx, runID)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
		}
		if r.Status != workrun.RunSucceeded || fmt.Sprint(r.State["answer_ra"]) != streamResult {
			t.Errorf("round %d: run %s %q: %s", round, r.Status, r.State["answer_ra"], r.Reason)
		}
		methods, subs := srv.stats()
		if n := subs[remoteagent.MessageID(runID, "ra", "send")]; n != 1 || methods["SendStreamingMessage"] != 1 {
			t.Errorf("round %d: submissions %v (methods %v), want exactly one", round, subs, methods)
		}
		if c := e.call(t, runID, "ra"); c.TaskID != taskID || !c.Ended {
			t.Errorf("round %d: record after resume = %+v", round, c)
		}
	}
	t.Logf("%d rounds, %d killed mid-stream", rounds, midStream)
	if midStream < rounds/2+1 {
		t.Errorf("only %d of %d kills landed mid-stream; the test proves little", midStream, rounds)
	}
}

// waitTaskID waits until the child run's Remote Agent call has saved its
// task id, and returns it.
func waitTaskID(t *testing.T, e *env, runID string) string {
	t.Helper()
	var taskID string
	waitUntil(t, 30*time.Second, func() bool {
		c, err := e.st.GetRemoteCall(t.Context(), runID, "ra", "send")
		taskID = c.TaskID
		return err == nil && c.TaskID != ""
	})
	return taskID
}
