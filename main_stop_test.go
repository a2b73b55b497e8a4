package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	sdk "github.com/a2aproject/a2a-go/v2/a2a"

	"workrun/a2a/demoagent"
	"workrun/workrun"
)

// relayFlow is a published workflow whose Remote Agent node sends the
// caller's text to the agent at url and returns the answer.
func relayFlow(name, url string) string {
	return `{"name":"` + name + `","state":{"q":"text","a":"text"},"publish":{"inputs":["q"],"outputs":["a"]},
 "nodes":[{"id":"start","type":"start","position":{"x":20,"y":40}},
  {"id":"ask","type":"remote_agent","title":"Ask the agent","position":{"x":220,"y":40},
   "config":{"url":"` + url + `","inputs":["q"],"output":"a","timeout_seconds":120}}],
 "edges":[{"from":"start","to":"ask"}]}`
}

// servedRunning waits for the one run of data dir data to be running
// with its Remote Agent node at work, and returns it.
func servedRunning(t *testing.T, data string) workrun.Run {
	t.Helper()
	var run workrun.Run
	waitFor(t, 60*time.Second, "the served run", func() bool {
		rs := runsIn(t, data)
		if len(rs) == 1 && rs[0].Status == workrun.RunRunning {
			run = rs[0]
			return true
		}
		return false
	})
	return run
}

// TestStopServedRunFromTerminal (docs/serve.md S6, docs/engine.md "Stop
// across processes"): a caller's task runs in `workrun serve`, whose
// Remote Agent node works on a slow task of the demo agent; `workrun stop
// RUN`, a separate process, asks serve to stop it and waits. Serve stops
// the run as its own Stop: the demo agent receives exactly one
// CancelTask, the run ends stopped, and the caller's task is CANCELED.
// Stopping it again is refused (it has ended).
func TestStopServedRunFromTerminal(t *testing.T) {
	bin := buildWorkrun(t)
	agent := demoagent.New(demoagent.Options{})
	agentURL, stopAgent, err := agent.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stopAgent)
	data := t.TempDir()
	s := startServe(t, bin, data, writeFlow(t, t.TempDir(), "relay.json", relayFlow("Relay", agentURL)))

	c := sdkFor(t, s.urls["relay"])
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	res, err := c.SendMessage(ctx, &sdk.SendMessageRequest{Message: sdk.NewMessage(sdk.MessageRoleUser, sdk.NewTextPart("slow 1000 200")),
		Config: &sdk.SendMessageConfig{ReturnImmediately: true}})
	if err != nil {
		t.Fatal(err)
	}
	task := res.(*sdk.Task)
	waitFor(t, 60*time.Second, "the demo agent to get the message", func() bool { return len(agent.Stats().Submissions) == 1 })
	run := servedRunning(t, data)

	stop := func() (string, string, int) {
		cmd := exec.Command(bin, "--data-dir", data, "stop", run.ID)
		cmd.Env = append(os.Environ(), "LANGUAGE=en")
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errOut.String(), code
	}
	began := time.Now()
	out, errOut, code := stop()
	t.Logf("workrun stop took %v", time.Since(began))
	if code != 0 || !strings.Contains(out, "run "+run.ID+" stopped") || !strings.Contains(errOut, "asked it to stop the run") {
		t.Fatalf("workrun stop: exit %d\nstdout:\n%s\nstderr:\n%s\nserve stderr:\n%s", code, out, errOut, s.err.String())
	}
	// The run ended before the command returned: the record says so.
	if rs := runsIn(t, data); len(rs) != 1 || rs[0].Status != workrun.RunStopped || rs[0].Reason != "stopped by the user" {
		t.Fatalf("runs after stop: %+v", rs)
	}
	waitFor(t, 30*time.Second, "the CancelTask to reach the demo agent", func() bool { return demoCancels(agent) > 0 })
	got, err := c.GetTask(ctx, &sdk.GetTaskRequest{ID: task.ID})
	if err != nil || got.Status.State != sdk.TaskStateCanceled {
		t.Fatalf("the caller's task: %+v %v", got, err)
	}
	// Again: refused, and no second cancel goes out.
	out, errOut, code = stop()
	if code != 2 || !strings.Contains(errOut, "has already ended (stopped)") {
		t.Errorf("second workrun stop: exit %d\n%s%s", code, out, errOut)
	}
	if n := demoCancels(agent); n != 1 {
		t.Errorf("the demo agent got %d CancelTask, want 1 (%v)", n, agent.Stats().Cancels)
	}
	if n := len(agent.Stats().Submissions); n != 1 {
		t.Errorf("the demo agent got %d messages, want 1", n)
	}
}
