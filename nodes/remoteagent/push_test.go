package remoteagent

import (
	"context"
	"errors"
	"iter"
	"strings"
	"testing"

	"workrun/a2a"
	"workrun/remotecall"
	"workrun/workrun"
)

// fakePush is a function-field fake of PushEndpoints.
type fakePush struct {
	EndpointFunc func(run, node, key string) (string, bool)
}

func (f fakePush) Endpoint(run, node, key string) (string, bool) {
	return f.EndpointFunc(run, node, key)
}

func pushAt(url string) fakePush {
	return fakePush{EndpointFunc: func(run, node, key string) (string, bool) {
		return url + "/" + run + "/" + node + "/" + key, true
	}}
}

func pushCard() *a2a.AgentCard {
	return &a2a.AgentCard{Name: "pusher", Capabilities: a2a.AgentCapabilities{Streaming: true, PushNotifications: true}}
}

// TestPush_WaitsHoldingNothing: with a push URL and a card that pushes,
// the node sends once with returnImmediately and a push config (a URL for
// this call and a fresh token), commits the token's hash only, and is
// interrupted by push without streaming or reading (docs/triggers.md P1,
// P2). A resume (the push came, or the next start) reads the task once:
// still working → waits again, no subscription; completed → the result,
// and the wait is settled.
func TestPush_WaitsHoldingNothing(t *testing.T) {
	var sent a2a.SendMessageRequest
	agent := &fakeAgent{card: pushCard(), streaming: true}
	agent.SendMessageFunc = func(_ context.Context, r a2a.SendMessageRequest) (*a2a.SendResult, error) {
		sent = r
		return &a2a.SendResult{Task: task("t1", a2a.TaskStateSubmitted, "")}, nil
	}
	calls := newMemCalls()
	step := compile(t, Deps{Calls: calls, Connect: connectTo(agent), Follow: fastFollow, Push: pushAt("https://serve.example/push")}, baseCfg)
	_, err := step.Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "x"}))
	var ie *workrun.InterruptError
	if !errors.As(err, &ie) || ie.Cause != workrun.InterruptedByPush || !strings.Contains(ie.Reason, "t1") {
		t.Fatalf("first run: %v", err)
	}
	cfg := sent.Configuration
	if cfg == nil || !cfg.ReturnImmediately || cfg.TaskPushNotificationConfig == nil ||
		cfg.TaskPushNotificationConfig.URL != "https://serve.example/push/r/ra/send" || len(cfg.TaskPushNotificationConfig.Token) < 40 {
		t.Fatalf("send configuration %+v", cfg)
	}
	token := cfg.TaskPushNotificationConfig.Token
	for _, m := range []string{"SendStreamingMessage", "SubscribeToTask", "GetTask"} {
		if n := agent.Calls(m); n != 0 {
			t.Errorf("%s called %d times while waiting by push", m, n)
		}
	}
	side, ok := calls.Get("r", "ra", remotecall.SideKey(callKey, PushSide))
	if !ok || side.RemoteState != PushWaiting || !strings.Contains(string(side.Result), PushTokenHash(token)) {
		t.Fatalf("push record %+v %s", side, side.Result)
	}
	for _, key := range []string{callKey, remotecall.SideKey(callKey, PushSide)} {
		rec, _ := calls.Get("r", "ra", key)
		if strings.Contains(rec.StatusText+string(rec.Result)+rec.AgentURL, token) {
			t.Fatalf("the token was saved: %+v", rec)
		}
	}
	if main, _ := calls.get("r", "ra"); main.TaskID != "t1" || main.Ended {
		t.Fatalf("call record %+v", main)
	}

	// A resume while the task still works: one GetTask, then wait again.
	agent.GetTaskFunc = func(context.Context, string) (*a2a.Task, error) {
		return task("t1", a2a.TaskStateWorking, "busy"), nil
	}
	nc := newNC("r", "ra", workrun.Values{"prompt": "x"})
	nc.IsResumed = true
	_, err = step.Run(t.Context(), nc)
	if !errors.As(err, &ie) || ie.Cause != workrun.InterruptedByPush {
		t.Fatalf("resume while working: %v", err)
	}
	if agent.Calls("GetTask") != 1 || agent.Calls("SubscribeToTask") != 0 || agent.Calls("SendMessage") != 1 {
		t.Fatalf("resume while working: GetTask %d, SubscribeToTask %d, SendMessage %d", agent.Calls("GetTask"), agent.Calls("SubscribeToTask"), agent.Calls("SendMessage"))
	}

	// The push came: the resume reads the ended task and takes its result.
	agent.GetTaskFunc = func(context.Context, string) (*a2a.Task, error) {
		return task("t1", a2a.TaskStateCompleted, "", a2a.Artifact{ArtifactID: "a", Parts: []a2a.Part{{Text: "pushed result"}}}), nil
	}
	nc = newNC("r", "ra", workrun.Values{"prompt": "x"})
	nc.IsResumed = true
	out, err := step.Run(t.Context(), nc)
	if err != nil || out["answer"] != "pushed result" {
		t.Fatalf("resume after the push: %v %v\n%q", out, err, msgsOf(nc))
	}
	if agent.Calls("GetTask") != 2 || agent.Calls("SubscribeToTask") != 0 || agent.Calls("SendMessage") != 1 {
		t.Fatalf("after the push: GetTask %d, SubscribeToTask %d, SendMessage %d", agent.Calls("GetTask"), agent.Calls("SubscribeToTask"), agent.Calls("SendMessage"))
	}
	if side, _ := calls.Get("r", "ra", remotecall.SideKey(callKey, PushSide)); side.RemoteState != PushSettled {
		t.Fatalf("push record after settling: %q", side.RemoteState)
	}
	if !hasMsg(msgsIn(nc, "zh"), "读取一次远程任务 t1（该任务通过推送等待）") {
		t.Errorf("no Chinese read line: %q", msgsIn(nc, "zh"))
	}
}

// TestPush_StreamsWithoutPush: no push URL, or a card without
// pushNotifications, is today's streaming: no push config is sent.
func TestPush_StreamsWithoutPush(t *testing.T) {
	noURL := fakePush{EndpointFunc: func(string, string, string) (string, bool) { return "", false }}
	for name, tc := range map[string]struct {
		push PushEndpoints
		card *a2a.AgentCard
	}{
		"no receiver":       {nil, pushCard()},
		"no public url":     {noURL, pushCard()},
		"card without push": {pushAt("https://serve.example/push"), &a2a.AgentCard{Name: "plain", Capabilities: a2a.AgentCapabilities{Streaming: true}}},
	} {
		t.Run(name, func(t *testing.T) {
			agent := &fakeAgent{card: tc.card, streaming: true}
			agent.SendStreamingMessageFunc = func(_ context.Context, r a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
				if r.Configuration != nil && r.Configuration.TaskPushNotificationConfig != nil {
					t.Errorf("push config sent: %+v", r.Configuration)
				}
				return events(nil, taskEv("t1", a2a.TaskStateWorking, ""), artifactEv("t1", "a", "streamed", false), statusEv("t1", a2a.TaskStateCompleted, ""))
			}
			calls := newMemCalls()
			step := compile(t, Deps{Calls: calls, Connect: connectTo(agent), Follow: fastFollow, Push: tc.push}, baseCfg)
			out, err := step.Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "x"}))
			if err != nil || out["answer"] != "streamed" || agent.Calls("SendMessage") != 0 {
				t.Fatalf("%v %v (SendMessage %d)", out, err, agent.Calls("SendMessage"))
			}
			if _, ok := calls.Get("r", "ra", remotecall.SideKey(callKey, PushSide)); ok {
				t.Fatal("a push record without a push wait")
			}
		})
	}
}

// TestPush_EndedAtOnce: a task that has ended in the send's own answer is
// settled at once: no wait, no read.
func TestPush_EndedAtOnce(t *testing.T) {
	agent := &fakeAgent{card: pushCard(), streaming: true}
	agent.SendMessageFunc = func(context.Context, a2a.SendMessageRequest) (*a2a.SendResult, error) {
		return &a2a.SendResult{Task: task("t1", a2a.TaskStateCompleted, "", a2a.Artifact{ArtifactID: "a", Parts: []a2a.Part{{Text: "quick"}}})}, nil
	}
	calls := newMemCalls()
	step := compile(t, Deps{Calls: calls, Connect: connectTo(agent), Follow: fastFollow, Push: pushAt("https://serve.example/push")}, baseCfg)
	out, err := step.Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "x"}))
	if err != nil || out["answer"] != "quick" || agent.Calls("GetTask") != 0 {
		t.Fatalf("%v %v", out, err)
	}
	if side, _ := calls.Get("r", "ra", remotecall.SideKey(callKey, PushSide)); side.RemoteState != PushSettled {
		t.Fatalf("push record: %q", side.RemoteState)
	}
}

// TestPush_FailedSendIsNotAWait: an agent that refuses the send leaves no
// wait to resume: the node fails as any refused submission.
func TestPush_FailedSendIsNotAWait(t *testing.T) {
	agent := &fakeAgent{card: pushCard(), streaming: true}
	agent.SendMessageFunc = func(context.Context, a2a.SendMessageRequest) (*a2a.SendResult, error) {
		return nil, &a2a.RPCError{Code: -32003, Message: "push notifications not supported"}
	}
	step := compile(t, Deps{Calls: newMemCalls(), Connect: connectTo(agent), Follow: fastFollow, Push: pushAt("https://serve.example/push")}, baseCfg)
	_, err := step.Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "x"}))
	var ie *workrun.InterruptError
	if !errors.Is(err, ErrNotSubmitted) || errors.As(err, &ie) {
		t.Fatalf("refused send: %v", err)
	}
}

// TestPushTexts: the push lines exist in English and Chinese.
func TestPushTexts(t *testing.T) {
	for _, id := range []msgID{msgPushAsked, msgPushWaiting, msgPushChecking} {
		en, zh := texts.Msg(id, "X"), texts.Msg(id, "X")
		m := workrun.Message{Key: en.Key, Args: en.Args}
		if m.In("en") == m.In("zh") || !strings.Contains(m.In("en"), "X") || !strings.Contains(workrun.Message{Key: zh.Key, Args: zh.Args}.In("zh"), "X") {
			t.Errorf("%s: en %q zh %q", id, m.In("en"), m.In("zh"))
		}
	}
}
