package remoteagent

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"testing"

	"workrun/a2a"
	"workrun/workrun"
)

// FuzzParseConfig: any config either compiles into a timeout within 1–600 s
// or fails with ErrConfig; it never panics.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(baseCfg))
	f.Add([]byte(`{"url":"https://a.example/","inputs":["prompt"],"timeout_seconds":600}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		_, timeout, err := ParseConfig(raw, testWorkflow)
		if err != nil {
			if !errors.Is(err, ErrConfig) {
				t.Fatalf("error without ErrConfig: %v", err)
			}
			return
		}
		if timeout < workrun.RemoteTimeoutMinSeconds*1e9 || timeout > workrun.RemoteTimeoutMaxSeconds*1e9 {
			t.Fatalf("timeout %v out of range", timeout)
		}
	})
}

// FuzzEventSequence feeds any sequence of stream events (as an agent could
// send them) to a call: it never panics, never submits twice, and whatever
// the events, every GetTask / SubscribeToTask names the first task seen.
func FuzzEventSequence(f *testing.F) {
	f.Add([]byte(`[{"task":{"id":"t1","status":{"state":"TASK_STATE_WORKING"}}},{"statusUpdate":{"taskId":"t1","status":{"state":"TASK_STATE_COMPLETED"}}}]`))
	f.Add([]byte(`[{"task":{"id":"t1","status":{"state":"TASK_STATE_SUBMITTED"}}},{"artifactUpdate":{"taskId":"t1","artifact":{"artifactId":"a","parts":[{"text":"x"}]},"append":true}}]`))
	f.Add([]byte(`[{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"raw":"aGk=","filename":"../x"}]}}]`))
	f.Add([]byte(`[{"statusUpdate":{"taskId":"t2","status":{"state":"TASK_STATE_INPUT_REQUIRED"}}}]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var evs []a2a.StreamEvent
		if json.Unmarshal(raw, &evs) != nil || len(evs) > 50 {
			return
		}
		first := ""
		for _, ev := range evs {
			if id := ev.TaskID(); id != "" {
				first = id
				break
			}
		}
		agent := &fakeAgent{streaming: true}
		agent.SendStreamingMessageFunc = func(context.Context, a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
			return events(a2a.ErrStreamBroken, evs...)
		}
		check := func(id string) {
			if id != first {
				t.Fatalf("followed task %q, want %q", id, first)
			}
		}
		agent.GetTaskFunc = func(_ context.Context, id string) (*a2a.Task, error) {
			check(id)
			return task(id, a2a.TaskStateCompleted, ""), nil
		}
		agent.SubscribeToTaskFunc = func(_ context.Context, id string) iter.Seq2[a2a.StreamEvent, error] {
			check(id)
			return events(nil, taskEv(id, a2a.TaskStateCompleted, ""))
		}
		nc := newNC("r", "ra", workrun.Values{"prompt": "x"})
		compile(t, Deps{Calls: newMemCalls(), Connect: connectTo(agent)}, baseCfg).Run(t.Context(), nc) //nolint:errcheck
		if agent.Calls("SendStreamingMessage")+agent.Calls("SendMessage") != 1 {
			t.Fatal("submitted more than once")
		}
	})
}
