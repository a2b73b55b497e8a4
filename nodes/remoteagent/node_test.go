package remoteagent

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/a2a"
	"workrun/remotecall"
	"workrun/workrun"
)

const baseCfg = `{"url":"http://127.0.0.1:1/","inputs":["prompt","n","flag","obj"],"output":"answer","output_files":"outfiles","timeout_seconds":5}`

func TestParseConfig(t *testing.T) {
	tests := []struct {
		name        string
		cfg         string
		wantTimeout time.Duration
		wantErr     string
	}{
		{"defaults", `{"url":"https://agent.example/","inputs":["prompt"]}`, 120 * time.Second, ""},
		{"all keys", `{"url":"https://a.example/","inputs":["prompt","n","flag","obj"],"attachments":["doc","docs"],"output":"answer","output_files":"outfiles","credential":"k","timeout_seconds":600}`, 600 * time.Second, ""},
		{"timeout 1", `{"url":"https://a.example/","inputs":["prompt"],"timeout_seconds":1}`, time.Second, ""},
		{"timeout 0", `{"url":"https://a.example/","inputs":["prompt"],"timeout_seconds":0}`, 0, "timeout_seconds: 0 is out of range"},
		{"timeout 601", `{"url":"https://a.example/","inputs":["prompt"],"timeout_seconds":601}`, 0, "timeout_seconds: 601 is out of range"},
		{"timeout fraction", `{"url":"https://a.example/","inputs":["prompt"],"timeout_seconds":1.5}`, 0, "timeout_seconds: 1.5 is out of range"},
		{"no url", `{"inputs":["prompt"]}`, 0, "url is required"},
		{"relative url", `{"url":"/a2a","inputs":["prompt"]}`, 0, "not an absolute http(s) URL"},
		{"ftp url", `{"url":"ftp://x/","inputs":["prompt"]}`, 0, "not an absolute http(s) URL"},
		{"no inputs", `{"url":"https://a.example/"}`, 0, "write a message or list at least one"},
		{"blank message, no inputs", `{"url":"https://a.example/","message":"  \n"}`, 0, "write a message or list at least one"},
		{"message only", `{"url":"https://a.example/","message":"Summarise {{prompt}} in {{n}} lines"}`, 120 * time.Second, ""},
		{"message over a missing field", `{"url":"https://a.example/","message":"Summarise {{promt}}"}`, 0, `message: {{promt}} is not a State field`},
		{"message over a file field", `{"url":"https://a.example/","message":"Read {{doc}}"}`, 0, `message: {{doc}} is a file field`},
		{"unknown key", `{"url":"https://a.example/","inputs":["prompt"],"prompt":"x"}`, 0, `unknown field "prompt"`},
		{"missing field", `{"url":"https://a.example/","inputs":["nope"]}`, 0, `inputs: State has no field "nope"`},
		{"file as input", `{"url":"https://a.example/","inputs":["doc"]}`, 0, `inputs: field "doc" is file`},
		{"text as attachment", `{"url":"https://a.example/","inputs":["prompt"],"attachments":["prompt"]}`, 0, `attachments: field "prompt" is text`},
		{"output not text", `{"url":"https://a.example/","inputs":["prompt"],"output":"n"}`, 0, `output: field "n" is number`},
		{"output_files not files", `{"url":"https://a.example/","inputs":["prompt"],"output_files":"doc"}`, 0, `output_files: field "doc" is file`},
		{"credential over http", `{"url":"http://agent.example/","inputs":["prompt"],"credential":"k"}`, 0, "use https"},
		{"credential over loopback http", `{"url":"http://127.0.0.1:9/","inputs":["prompt"],"credential":"k"}`, 120 * time.Second, ""},
		{"credential over localhost http", `{"url":"http://localhost:9/","inputs":["prompt"],"credential":"k"}`, 120 * time.Second, ""},
		{"url with password", `{"url":"https://u:p@a.example/","inputs":["prompt"]}`, 0, "user name or password"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, timeout, err := ParseConfig([]byte(tt.cfg), testWorkflow)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, ErrConfig) {
					t.Fatalf("err = %v, want ErrConfig containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if timeout != tt.wantTimeout {
				t.Errorf("timeout = %v, want %v", timeout, tt.wantTimeout)
			}
		})
	}
}

// TestRun_MessageTemplate (docs/remote-agent.md R3.2): the message is
// filled in from the node's reads and sent as the first text part, before
// the input fields.
func TestRun_MessageTemplate(t *testing.T) {
	for _, c := range []struct {
		name string
		in   workrun.Values
		want []a2a.Part
	}{
		{"filled in", workrun.Values{"prompt": "the report", "n": 3.0, "obj": map[string]any{"k": "v"}},
			[]a2a.Part{{Text: "Summarise the report in 3 lines"}, {Data: []byte(`{"k":"v"}`)}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var sent a2a.SendMessageRequest
			agent := &fakeAgent{card: &a2a.AgentCard{Name: "Demo"}}
			agent.SendMessageFunc = func(ctx context.Context, req a2a.SendMessageRequest) (*a2a.SendResult, error) {
				sent = req
				return &a2a.SendResult{Message: &a2a.Message{MessageID: "m", Role: a2a.RoleAgent, Parts: []a2a.Part{{Text: "ok"}}}}, nil
			}
			st := compile(t, Deps{Calls: newMemCalls(), Connect: connectTo(agent)},
				`{"url":"http://127.0.0.1:1/","message":"Summarise {{prompt}} in {{n}} lines","inputs":["obj"],"output":"answer"}`)
			if diff := cmp.Diff([]string{"obj", "prompt", "n"}, st.Reads()); diff != "" {
				t.Errorf("Reads (-want +got):\n%s", diff)
			}
			if _, err := st.Run(t.Context(), newNC("run1", "ra", c.in)); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, sent.Message.Parts); diff != "" {
				t.Errorf("parts (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStepReadsWrites(t *testing.T) {
	st := compile(t, Deps{}, `{"url":"https://a.example/","inputs":["prompt","obj"],"attachments":["doc"],"output":"answer","output_files":"outfiles"}`)
	if diff := cmp.Diff([]string{"prompt", "obj", "doc"}, st.Reads()); diff != "" {
		t.Errorf("Reads (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"answer", "outfiles"}, st.Writes()); diff != "" {
		t.Errorf("Writes (-want +got):\n%s", diff)
	}
}

func TestMessageID_DeterministicPerLogicalCall(t *testing.T) {
	a := MessageID("run1", "node1", "send")
	if a != MessageID("run1", "node1", "send") {
		t.Fatal("same call gave two messageIds")
	}
	seen := map[string]bool{a: true}
	for _, id := range []string{MessageID("run2", "node1", "send"), MessageID("run1", "node2", "send"), MessageID("run1", "node1", "other"), MessageID("run1n", "ode1", "send")} {
		if seen[id] {
			t.Fatalf("collision: %s", id)
		}
		seen[id] = true
	}
	if len(a) != 36 || a[14] != '5' {
		t.Errorf("messageId %q is not a UUIDv5", a)
	}
}

// TestRun_StreamingDurableOrder proves R5: the messageId is committed before
// the request goes out and the taskId before the next event is handled.
func TestRun_StreamingDurableOrder(t *testing.T) {
	calls := newMemCalls()
	nc := newNC("run1", "ra", workrun.Values{"prompt": "echo hi", "n": 2.5, "flag": true, "obj": map[string]any{"k": "v"}})
	var sent a2a.SendMessageRequest
	agent := &fakeAgent{streaming: true, card: &a2a.AgentCard{Name: "Demo"}}
	agent.SendStreamingMessageFunc = func(ctx context.Context, req a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
		sent = req
		rec, ok := calls.get("run1", "ra")
		if !ok || rec.MessageID != req.Message.MessageID {
			t.Errorf("messageId not committed before the request: %+v", rec)
		}
		return func(yield func(a2a.StreamEvent, error) bool) {
			if !yield(taskEv("t1", a2a.TaskStateSubmitted, ""), nil) {
				return
			}
			if rec, _ := calls.get("run1", "ra"); rec.TaskID != "t1" || rec.ContextID != "ctx-t1" {
				t.Errorf("taskId not committed before the next event: %+v", rec)
			}
			for _, ev := range []a2a.StreamEvent{
				statusEv("t1", a2a.TaskStateWorking, "thinking"),
				artifactEv("t1", "a1", "Hello, ", false),
				artifactEv("t1", "a1", "world", true),
				artifactEv("t1", "a2", "second", false),
				statusEv("t1", a2a.TaskStateCompleted, ""),
			} {
				if !yield(ev, nil) {
					return
				}
			}
		}
	}
	st := compile(t, Deps{Calls: calls, Connect: connectTo(agent)}, baseCfg)
	out, err := st.Run(t.Context(), nc)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(workrun.Values{"answer": "Hello, world\nsecond", "outfiles": []any{}}, out); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
	wantParts := []a2a.Part{{Text: "echo hi"}, {Text: "2.5"}, {Text: "true"}, {Data: []byte(`{"k":"v"}`)}}
	if diff := cmp.Diff(wantParts, sent.Message.Parts); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
	if sent.Message.MessageID != MessageID("run1", "ra", callKey) || sent.Message.Role != a2a.RoleUser {
		t.Errorf("message = %+v", sent.Message)
	}
	rec, _ := calls.get("run1", "ra")
	if !rec.Ended || rec.RemoteState != string(a2a.TaskStateCompleted) || len(rec.Result) == 0 {
		t.Errorf("final record = %+v", rec)
	}
	if rec.AgentName != "Demo" {
		t.Errorf("the record names the agent %q, want its card's name %q", rec.AgentName, "Demo")
	}
	msgs := msgsOf(nc)
	for _, want := range []string{"Remote task t1 accepted (context ctx-t1)", "Remote task: working — thinking", "Remote task: completed"} {
		if !hasMsg(msgs, want) {
			t.Errorf("missing message %q in %q", want, msgs)
		}
	}
	// Chunks that follow within progressEvery are held, one per artifact,
	// and shown before the closing line.
	if diff := cmp.Diff([]string{"Result a1: Hello, ", "Result a1: world", "Result a2: second"}, progressIn(nc, "en")); diff != "" {
		t.Errorf("progress lines (-want +got):\n%s", diff)
	}
	if agent.Calls("GetTask")+agent.Calls("SubscribeToTask") != 0 {
		t.Error("an unbroken stream needs no GetTask or SubscribeToTask")
	}
}

// TestRun_StreamRecovery covers R6/R7: a broken stream with a known taskId
// is followed by GetTask then SubscribeToTask, never by a second send.
func TestRun_StreamRecovery(t *testing.T) {
	tests := []struct {
		name      string
		submit    iter.Seq2[a2a.StreamEvent, error]
		getTask   []*a2a.Task // answers in order
		subscribe []iter.Seq2[a2a.StreamEvent, error]
		wantGet   int
		wantSub   int
		wantText  string
	}{
		{
			name:      "cut after first event",
			submit:    events(a2a.ErrStreamBroken, taskEv("t1", a2a.TaskStateSubmitted, "")),
			getTask:   []*a2a.Task{task("t1", a2a.TaskStateWorking, "")},
			subscribe: []iter.Seq2[a2a.StreamEvent, error]{events(nil, taskEv("t1", a2a.TaskStateWorking, ""), artifactEv("t1", "a", "done", false), statusEv("t1", a2a.TaskStateCompleted, ""))},
			wantGet:   1, wantSub: 1, wantText: "done",
		},
		{
			name:     "ended before GetTask",
			submit:   events(a2a.ErrStreamBroken, taskEv("t1", a2a.TaskStateWorking, "")),
			getTask:  []*a2a.Task{task("t1", a2a.TaskStateCompleted, "", a2a.Artifact{ArtifactID: "a", Parts: []a2a.Part{{Text: "snap"}}})},
			wantGet:  1,
			wantText: "snap",
		},
		{
			name:      "ended just before the subscription",
			submit:    events(a2a.ErrStreamBroken, taskEv("t1", a2a.TaskStateWorking, "")),
			getTask:   []*a2a.Task{task("t1", a2a.TaskStateWorking, ""), task("t1", a2a.TaskStateCompleted, "", a2a.Artifact{ArtifactID: "a", Parts: []a2a.Part{{Text: "final"}}})},
			subscribe: []iter.Seq2[a2a.StreamEvent, error]{errSeq(&a2a.RPCError{Code: -32001, Message: "task not found"})},
			wantGet:   2, wantSub: 1, wantText: "final",
		},
		{
			name:    "mid-artifact cut; snapshot replaces partial chunks",
			submit:  events(a2a.ErrStreamBroken, taskEv("t1", a2a.TaskStateWorking, ""), artifactEv("t1", "a", "par", false)),
			getTask: []*a2a.Task{task("t1", a2a.TaskStateWorking, "", a2a.Artifact{ArtifactID: "a", Parts: []a2a.Part{{Text: "part"}}})},
			subscribe: []iter.Seq2[a2a.StreamEvent, error]{events(nil,
				taskEv("t1", a2a.TaskStateWorking, "", a2a.Artifact{ArtifactID: "a", Parts: []a2a.Part{{Text: "part"}}}),
				artifactEv("t1", "a", "ial", true), statusEv("t1", a2a.TaskStateCompleted, ""))},
			wantGet: 1, wantSub: 1, wantText: "partial",
		},
		{
			name:      "subscription breaks too",
			submit:    events(a2a.ErrStreamBroken, taskEv("t1", a2a.TaskStateWorking, "")),
			getTask:   []*a2a.Task{task("t1", a2a.TaskStateWorking, ""), task("t1", a2a.TaskStateWorking, "")},
			subscribe: []iter.Seq2[a2a.StreamEvent, error]{events(a2a.ErrStreamBroken, taskEv("t1", a2a.TaskStateWorking, "")), events(nil, taskEv("t1", a2a.TaskStateWorking, ""), artifactEv("t1", "a", "x", false), statusEv("t1", a2a.TaskStateCompleted, ""))},
			wantGet:   2, wantSub: 2, wantText: "x",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := newMemCalls()
			var gets, subs atomic.Int32
			agent := &fakeAgent{streaming: true}
			agent.SendStreamingMessageFunc = func(context.Context, a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] { return tt.submit }
			agent.GetTaskFunc = func(_ context.Context, id string) (*a2a.Task, error) {
				if id != "t1" {
					t.Errorf("GetTask(%q)", id)
				}
				return tt.getTask[gets.Add(1)-1], nil
			}
			agent.SubscribeToTaskFunc = func(context.Context, string) iter.Seq2[a2a.StreamEvent, error] {
				return tt.subscribe[subs.Add(1)-1]
			}
			st := compile(t, Deps{Calls: calls, Connect: connectTo(agent)}, baseCfg)
			out, err := st.Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "slow 3"}))
			if err != nil {
				t.Fatal(err)
			}
			if out["answer"] != tt.wantText {
				t.Errorf("answer = %q, want %q", out["answer"], tt.wantText)
			}
			if got := agent.Calls("SendStreamingMessage") + agent.Calls("SendMessage"); got != 1 {
				t.Errorf("submissions = %d, want exactly 1", got)
			}
			if int(gets.Load()) != tt.wantGet || int(subs.Load()) != tt.wantSub {
				t.Errorf("GetTask %d SubscribeToTask %d, want %d %d", gets.Load(), subs.Load(), tt.wantGet, tt.wantSub)
			}
		})
	}
}

func TestRun_BreakBeforeTaskIDIsNotResubmitted(t *testing.T) {
	agent := &fakeAgent{streaming: true}
	agent.SendStreamingMessageFunc = func(context.Context, a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
		return errSeq(a2a.ErrStreamBroken)
	}
	nc := newNC("r", "ra", workrun.Values{"prompt": "x"})
	_, err := compile(t, Deps{Calls: newMemCalls(), Connect: connectTo(agent)}, baseCfg).Run(t.Context(), nc)
	if !errors.Is(err, ErrSubmissionUnknown) {
		t.Fatalf("err = %v, want ErrSubmissionUnknown", err)
	}
	if agent.Calls("SendStreamingMessage") != 1 || agent.Calls("GetTask") != 0 {
		t.Errorf("calls = %v", agent.calls)
	}
	// R9 row "no taskId received": the abort shows it and sends nothing.
	abortNC(t.Context(), nc)
	if !hasMsg(msgsOf(nc), "Remote task: submission result unknown (no taskId was received); no cancel sent, nothing resubmitted") {
		t.Errorf("messages = %q", msgsOf(nc))
	}
	if agent.Calls("CancelTask") != 0 {
		t.Error("cancel sent without a taskId")
	}
}

func TestRun_EndStates(t *testing.T) {
	tests := []struct {
		name      string
		final     a2a.StreamEvent
		wantErr   error
		interrupt bool
		wantIn    string
	}{
		{"failed", statusEv("t1", a2a.TaskStateFailed, "boom"), ErrRemoteFailed, false, "task t1 failed: boom"},
		{"rejected", statusEv("t1", a2a.TaskStateRejected, "no"), ErrRemoteFailed, false, "rejected: no"},
		{"canceled", statusEv("t1", a2a.TaskStateCanceled, ""), ErrRemoteFailed, false, "canceled"},
		{"input required", statusEv("t1", a2a.TaskStateInputRequired, "which file?"), nil, true, "Remote task needs input: which file?"},
		{"auth required", statusEv("t1", a2a.TaskStateAuthRequired, "log in at x"), nil, true, "Remote task needs authentication: log in at x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			agent := &fakeAgent{streaming: true}
			agent.SendStreamingMessageFunc = func(context.Context, a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
				return events(nil, taskEv("t1", a2a.TaskStateSubmitted, ""), tt.final)
			}
			calls := newMemCalls()
			_, err := compile(t, Deps{Calls: calls, Connect: connectTo(agent)}, baseCfg).Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "x"}))
			if err == nil || !strings.Contains(err.Error(), tt.wantIn) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.wantIn)
			}
			var ie *workrun.InterruptError
			if tt.interrupt {
				if !errors.As(err, &ie) || ie.Cause != workrun.InterruptedByHuman || ie.Question == nil || ie.Question.Round != 1 {
					t.Fatalf("err = %#v, want the node waiting for the person with round 1's question (docs/remote-agent.md R8)", err)
				}
			} else if !errors.Is(err, tt.wantErr) || errors.As(err, &ie) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			rec, _ := calls.get("r", "ra")
			if rec.Ended != !tt.interrupt {
				t.Errorf("Ended = %v", rec.Ended)
			}
		})
	}
}

func TestRun_Blocking(t *testing.T) {
	t.Run("final answer", func(t *testing.T) {
		agent := &fakeAgent{}
		agent.SendMessageFunc = func(context.Context, a2a.SendMessageRequest) (*a2a.SendResult, error) {
			return &a2a.SendResult{Task: task("t1", a2a.TaskStateCompleted, "", a2a.Artifact{ArtifactID: "a", Parts: []a2a.Part{{Text: "ok"}}})}, nil
		}
		out, err := compile(t, Deps{Calls: newMemCalls(), Connect: connectTo(agent)}, baseCfg).Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "echo"}))
		if err != nil || out["answer"] != "ok" {
			t.Fatalf("out %v err %v", out, err)
		}
	})
	t.Run("message answer", func(t *testing.T) {
		agent := &fakeAgent{}
		agent.SendMessageFunc = func(context.Context, a2a.SendMessageRequest) (*a2a.SendResult, error) {
			return &a2a.SendResult{Message: &a2a.Message{MessageID: "m", Role: a2a.RoleAgent, Parts: []a2a.Part{{Text: "hi"}}}}, nil
		}
		calls := newMemCalls()
		out, err := compile(t, Deps{Calls: calls, Connect: connectTo(agent)}, baseCfg).Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "message"}))
		if err != nil || out["answer"] != "hi" {
			t.Fatalf("out %v err %v", out, err)
		}
		if rec, _ := calls.get("r", "ra"); !rec.Ended {
			t.Error("a message answer ends the call")
		}
	})
	t.Run("unfinished answer fails clearly", func(t *testing.T) {
		agent := &fakeAgent{}
		agent.SendMessageFunc = func(context.Context, a2a.SendMessageRequest) (*a2a.SendResult, error) {
			return &a2a.SendResult{Task: task("t9", a2a.TaskStateWorking, "")}, nil
		}
		calls := newMemCalls()
		_, err := compile(t, Deps{Calls: calls, Connect: connectTo(agent)}, baseCfg).Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "x"}))
		if !errors.Is(err, ErrUnfinished) || !strings.Contains(err.Error(), "task t9 is working") {
			t.Fatalf("err = %v", err)
		}
		if rec, _ := calls.get("r", "ra"); rec.TaskID != "t9" || rec.Ended {
			t.Errorf("record = %+v: the task id must be saved so the abort can cancel it", rec)
		}
	})
	t.Run("timeout without answer", func(t *testing.T) {
		agent := &fakeAgent{}
		agent.SendMessageFunc = func(ctx context.Context, _ a2a.SendMessageRequest) (*a2a.SendResult, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		cfg := strings.Replace(baseCfg, `"timeout_seconds":5`, `"timeout_seconds":1`, 1)
		_, err := compile(t, Deps{Calls: newMemCalls(), Connect: connectTo(agent)}, cfg).Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "hang"}))
		if !errors.Is(err, ErrSubmissionUnknown) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestRun_Resume(t *testing.T) {
	saved := func(mut func(*workrun.RemoteCall)) *memCalls {
		m := newMemCalls()
		r := workrun.RemoteCall{RunID: "r", NodeID: "ra", CallKey: callKey, AgentURL: "http://127.0.0.1:1/", MessageID: MessageID("r", "ra", callKey)}
		mut(&r)
		m.Put(r)
		return m
	}
	t.Run("saved result is reused without the network", func(t *testing.T) {
		calls := saved(func(r *workrun.RemoteCall) {
			r.TaskID, r.RemoteState, r.Ended, r.Result = "t1", string(a2a.TaskStateCompleted), true, []byte(`{"text":"kept","files":["f1"]}`)
		})
		connect := func(context.Context, string, Clients) (AgentClient, error) {
			t.Error("connected although a result was saved")
			return nil, errors.New("no")
		}
		out, err := compile(t, Deps{Calls: calls, Connect: connect}, baseCfg).Run(t.Context(), newNC("r", "ra", nil))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(workrun.Values{"answer": "kept", "outfiles": []any{"f1"}}, out); diff != "" {
			t.Error(diff)
		}
	})
	t.Run("known task is read and followed, never resubmitted", func(t *testing.T) {
		calls := saved(func(r *workrun.RemoteCall) { r.TaskID, r.RemoteState = "t1", string(a2a.TaskStateWorking) })
		agent := &fakeAgent{streaming: true}
		agent.GetTaskFunc = func(context.Context, string) (*a2a.Task, error) { return task("t1", a2a.TaskStateWorking, ""), nil }
		agent.SubscribeToTaskFunc = func(context.Context, string) iter.Seq2[a2a.StreamEvent, error] {
			return events(nil, taskEv("t1", a2a.TaskStateWorking, ""), artifactEv("t1", "a", "resumed", false), statusEv("t1", a2a.TaskStateCompleted, ""))
		}
		out, err := compile(t, Deps{Calls: calls, Connect: connectTo(agent)}, baseCfg).Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "x"}))
		if err != nil || out["answer"] != "resumed" {
			t.Fatalf("out %v err %v", out, err)
		}
		if agent.Calls("SendStreamingMessage")+agent.Calls("SendMessage") != 0 {
			t.Error("resubmitted a call whose taskId was known")
		}
	})
	t.Run("messageId without taskId is not resubmitted", func(t *testing.T) {
		agent := &fakeAgent{streaming: true}
		_, err := compile(t, Deps{Calls: saved(func(*workrun.RemoteCall) {}), Connect: connectTo(agent)}, baseCfg).Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "x"}))
		if !errors.Is(err, ErrSubmissionUnknown) || agent.Calls("SendStreamingMessage") != 0 {
			t.Fatalf("err = %v, calls %v", err, agent.calls)
		}
	})
	t.Run("a canceled call is not continued", func(t *testing.T) {
		agent := &fakeAgent{streaming: true}
		calls := saved(func(r *workrun.RemoteCall) { r.TaskID, r.CancelOutcome = "t1", remotecall.CancelUnconfirmed })
		_, err := compile(t, Deps{Calls: calls, Connect: connectTo(agent)}, baseCfg).Run(t.Context(), newNC("r", "ra", nil))
		if !errors.Is(err, remotecall.ErrAlreadyCanceled) || len(agent.calls) != 0 {
			t.Fatalf("err = %v calls %v", err, agent.calls)
		}
	})
}

// TestRun_QuietTaskIsNotFailed: timeout_seconds bounds each request's
// wait for its answer, not the silence of a task. A stream that answered
// and then stays quiet for three times the timeout stays open: no GetTask,
// no new subscription, and the node succeeds with one submission. (Before
// issue 25 every quiet timeout_seconds led to a GetTask and a new
// SubscribeToTask.)
func TestRun_QuietTaskIsNotFailed(t *testing.T) {
	agent := &fakeAgent{streaming: true}
	agent.SendStreamingMessageFunc = func(ctx context.Context, _ a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
		return func(yield func(a2a.StreamEvent, error) bool) {
			if !yield(taskEv("t1", a2a.TaskStateWorking, ""), nil) {
				return
			}
			select {
			case <-time.After(3 * time.Second):
			case <-ctx.Done():
				yield(a2a.StreamEvent{}, ctx.Err())
				return
			}
			yield(taskEv("t1", a2a.TaskStateCompleted, "", a2a.Artifact{ArtifactID: "a", Parts: []a2a.Part{{Text: "late"}}}), nil)
		}
	}
	cfg := strings.Replace(baseCfg, `"timeout_seconds":5`, `"timeout_seconds":1`, 1)
	out, err := compile(t, Deps{Calls: newMemCalls(), Connect: connectTo(agent)}, cfg).Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "hang"}))
	if err != nil {
		t.Fatalf("a quiet task failed the node: %v", err)
	}
	if out["answer"] != "late" {
		t.Errorf("answer = %q", out["answer"])
	}
	if agent.Calls("SendStreamingMessage") != 1 || agent.Calls("GetTask") != 0 || agent.Calls("SubscribeToTask") != 0 {
		t.Errorf("calls = %v, want 1 submission, no GetTask, no SubscribeToTask", agent.calls)
	}
}

// fastFollow compresses the follow loop's bounds for tests.
var fastFollow = remotecall.FollowPolicy{BackoffMin: 5 * time.Millisecond, BackoffMax: 20 * time.Millisecond, UnreachableFor: 300 * time.Millisecond, MaxNoProgress: 4}

// brokenAfterWorking is a submission whose stream breaks after the task
// is known.
func brokenAfterWorking(context.Context, a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
	return events(a2a.ErrStreamBroken, taskEv("t1", a2a.TaskStateWorking, ""))
}

// TestRun_UnreachableIsNotFailed: after a break, reads that fail or time
// out are retried with backoff; past the bound the node is interrupted —
// not failed, so nothing is cancelled — saying since when the agent has not
// answered. One failed read (a proxy's 502) then answers: the node goes on.
// Only "task not found" ends it, as "remote task status unknown".
func TestRun_UnreachableIsNotFailed(t *testing.T) {
	cfg := strings.Replace(baseCfg, `"timeout_seconds":5`, `"timeout_seconds":1`, 1)
	t.Run("gone longer than the bound", func(t *testing.T) {
		for name, getTask := range map[string]func(context.Context, string) (*a2a.Task, error){
			"timeout": func(ctx context.Context, _ string) (*a2a.Task, error) { <-ctx.Done(); return nil, ctx.Err() },
			"502":     func(context.Context, string) (*a2a.Task, error) { return nil, &a2a.HTTPError{StatusCode: 502} },
		} {
			agent := &fakeAgent{streaming: true, GetTaskFunc: getTask, SendStreamingMessageFunc: brokenAfterWorking}
			nc := newNC("r", "ra", workrun.Values{"prompt": "x"})
			_, err := compile(t, Deps{Calls: newMemCalls(), Connect: connectTo(agent), Follow: fastFollow}, cfg).Run(t.Context(), nc)
			var ie *workrun.InterruptError
			if !errors.As(err, &ie) || ie.Cause != workrun.InterruptedByUnreachable || !strings.Contains(ie.Reason, "the agent has not answered since") || !strings.Contains(ie.Reason, "resume when it is back, or stop") {
				t.Fatalf("%s: err = %v, want interrupted: the agent has not answered since …", name, err)
			}
			if !slices.ContainsFunc(msgsIn(nc, "en"), func(m string) bool {
				return strings.Contains(m, "unreachable since") && strings.Contains(m, "retrying")
			}) {
				t.Errorf("%s: no \"unreachable since … retrying\" line in %q", name, msgsIn(nc, "en"))
			}
			if agent.Calls("GetTask") < 2 || agent.Calls("CancelTask") != 0 || agent.Calls("SubscribeToTask") != 0 {
				t.Errorf("%s: calls = %v, want GetTask retried, nothing cancelled", name, agent.calls)
			}
		}
	})
	t.Run("502 once, then answers", func(t *testing.T) {
		var gets atomic.Int32
		agent := &fakeAgent{streaming: true, SendStreamingMessageFunc: brokenAfterWorking}
		agent.GetTaskFunc = func(context.Context, string) (*a2a.Task, error) {
			if gets.Add(1) == 1 {
				return nil, &a2a.HTTPError{StatusCode: 502}
			}
			return task("t1", a2a.TaskStateCompleted, "", a2a.Artifact{ArtifactID: "a", Parts: []a2a.Part{{Text: "fine"}}}), nil
		}
		out, err := compile(t, Deps{Calls: newMemCalls(), Connect: connectTo(agent), Follow: fastFollow}, cfg).Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "x"}))
		if err != nil || out["answer"] != "fine" || agent.Calls("CancelTask") != 0 {
			t.Fatalf("out %v, err %v, calls %v", out, err, agent.calls)
		}
	})
	t.Run("task not found", func(t *testing.T) {
		agent := &fakeAgent{streaming: true, SendStreamingMessageFunc: brokenAfterWorking}
		agent.GetTaskFunc = func(context.Context, string) (*a2a.Task, error) {
			return nil, &a2a.RPCError{Code: -32001, Message: "no such task"}
		}
		_, err := compile(t, Deps{Calls: newMemCalls(), Connect: connectTo(agent), Follow: fastFollow}, cfg).Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "x"}))
		if !errors.Is(err, remotecall.ErrTaskGone) || !strings.Contains(err.Error(), "remote task status unknown") || agent.Calls("GetTask") != 1 {
			t.Fatalf("err = %v, calls %v", err, agent.calls)
		}
	})
}

// TestRun_ReconnectsWithoutProgress: a subscription that keeps ending
// without the task changing — here with an error, whatever it delivered —
// is followed with backoff, and after MaxNoProgress such reconnects the
// node is interrupted with a message naming what the agent kept doing.
func TestRun_ReconnectsWithoutProgress(t *testing.T) {
	agent := &fakeAgent{streaming: true, SendStreamingMessageFunc: brokenAfterWorking}
	agent.GetTaskFunc = func(context.Context, string) (*a2a.Task, error) { return task("t1", a2a.TaskStateWorking, ""), nil }
	agent.SubscribeToTaskFunc = func(context.Context, string) iter.Seq2[a2a.StreamEvent, error] {
		return events(a2a.ErrStreamBroken, taskEv("t1", a2a.TaskStateWorking, "")) // the snapshot, then the end
	}
	nc := newNC("r", "ra", workrun.Values{"prompt": "x"})
	_, err := compile(t, Deps{Calls: newMemCalls(), Connect: connectTo(agent), Follow: fastFollow}, baseCfg).Run(t.Context(), nc)
	var ie *workrun.InterruptError
	if !errors.As(err, &ie) || !strings.Contains(ie.Reason, "kept ending the update stream of task t1 without the task changing (4 reconnects in a row") {
		t.Fatalf("err = %v", err)
	}
	if n := agent.Calls("SubscribeToTask"); n != fastFollow.MaxNoProgress {
		t.Errorf("SubscribeToTask %d times, want %d", n, fastFollow.MaxNoProgress)
	}
}

func TestRun_Attachments(t *testing.T) {
	cfg := `{"url":"http://127.0.0.1:1/","inputs":["prompt"],"attachments":["doc","docs"],"output":"answer"}`
	run := func(t *testing.T, sizes []int64) (*fakeAgent, a2a.SendMessageRequest, error) {
		arts := newMemArtifacts()
		in := workrun.Values{"prompt": "file"}
		var many []any
		for i, n := range sizes {
			id := arts.putSized("f"+string(rune('a'+i))+".bin", n)
			if i == 0 {
				in["doc"] = id
			} else {
				many = append(many, id)
			}
		}
		in["docs"] = many
		nc := newNC("r", "ra", in)
		nc.Arts = arts
		var sent a2a.SendMessageRequest
		agent := &fakeAgent{}
		agent.SendMessageFunc = func(_ context.Context, req a2a.SendMessageRequest) (*a2a.SendResult, error) {
			sent = req
			return &a2a.SendResult{Message: &a2a.Message{MessageID: "m", Parts: []a2a.Part{{Text: "ok"}}}}, nil
		}
		connected := false
		connect := func(context.Context, string, Clients) (AgentClient, error) {
			connected = true
			return agent, nil
		}
		_, err := compile(t, Deps{Calls: newMemCalls(), Connect: connect}, cfg).Run(t.Context(), nc)
		if err != nil && connected {
			t.Errorf("connected to the agent although the attachments were refused")
		}
		return agent, sent, err
	}
	even := func(n int, total int64) []int64 {
		s := make([]int64, n)
		for i := range s {
			s[i] = total / int64(n)
		}
		s[n-1] += total - total/int64(n)*int64(n)
		return s
	}
	t.Run("10 files and 20 MiB go through", func(t *testing.T) {
		_, sent, err := run(t, even(10, MaxFileBytes))
		if err != nil {
			t.Fatal(err)
		}
		files := 0
		for _, p := range sent.Message.Parts {
			if p.Source != nil {
				files++
				if strings.Contains(p.Filename, "-") || p.Metadata != nil {
					t.Errorf("file part leaks more than a name: %+v", p)
				}
			}
		}
		if files != 10 {
			t.Errorf("file parts = %d", files)
		}
	})
	t.Run("11 files refused before any request", func(t *testing.T) {
		agent, _, err := run(t, even(11, 1100))
		if !errors.Is(err, ErrAttachments) || !strings.Contains(err.Error(), "11 files; at most 10") {
			t.Fatalf("err = %v", err)
		}
		if len(agent.calls) != 0 {
			t.Errorf("calls = %v", agent.calls)
		}
	})
	t.Run("20 MiB + 1 byte refused before any request", func(t *testing.T) {
		agent, _, err := run(t, even(3, MaxFileBytes+1))
		if !errors.Is(err, ErrAttachments) || !strings.Contains(err.Error(), "20971521 bytes") || !strings.Contains(err.Error(), "20971520 bytes") {
			t.Fatalf("err = %v", err)
		}
		if len(agent.calls) != 0 {
			t.Errorf("calls = %v", agent.calls)
		}
	})
}

func TestRun_FileOutputs(t *testing.T) {
	agent := &fakeAgent{}
	agent.SendMessageFunc = func(context.Context, a2a.SendMessageRequest) (*a2a.SendResult, error) {
		return &a2a.SendResult{Task: task("t1", a2a.TaskStateCompleted, "", a2a.Artifact{ArtifactID: "a", Parts: []a2a.Part{
			{Text: "see files"},
			{Raw: []byte("hello"), Filename: "out.txt", MediaType: "text/plain"},
			{URL: "https://files.example/x.pdf?token=secret", Filename: "x.pdf"},
		}})}, nil
	}
	nc := newNC("r", "ra", workrun.Values{"prompt": "file"})
	out, err := compile(t, Deps{Calls: newMemCalls(), Connect: connectTo(agent)}, baseCfg).Run(t.Context(), nc)
	if err != nil {
		t.Fatal(err)
	}
	ids, _ := out["outfiles"].([]any)
	if len(ids) != 1 {
		t.Fatalf("outfiles = %v", out["outfiles"])
	}
	arts := nc.Arts.(*memArtifacts)
	if got := string(arts.files[ids[0].(string)]); got != "hello" {
		t.Errorf("saved bytes = %q", got)
	}
	msgs := msgsOf(nc)
	if !hasMsg(msgs, "File link not downloaded: https://files.example/x.pdf") {
		t.Errorf("messages = %q", msgs)
	}
	for _, m := range msgs {
		if strings.Contains(m, "secret") {
			t.Errorf("message leaks a link token: %q", m)
		}
	}
}

func TestRun_CredentialOrigin(t *testing.T) {
	creds := credFunc(func(context.Context, string) (remotecall.Credential, error) {
		return remotecall.Credential{Kind: remotecall.CredentialBearer, Secret: "s3cret", Origin: "http://127.0.0.1:2"}, nil
	})
	agent := &fakeAgent{}
	connect := func(context.Context, string, Clients) (AgentClient, error) { return agent, nil }
	cfg := `{"url":"http://127.0.0.1:1/","inputs":["prompt"],"credential":"k"}`
	_, err := compile(t, Deps{Calls: newMemCalls(), Connect: connect, Credentials: creds}, cfg).Run(t.Context(), newNC("r", "ra", workrun.Values{"prompt": "x"}))
	if !errors.Is(err, remotecall.ErrOtherOrigin) || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("err = %v", err)
	}
}

type credFunc func(context.Context, string) (remotecall.Credential, error)

func (f credFunc) Credential(ctx context.Context, n string) (remotecall.Credential, error) {
	return f(ctx, n)
}

// A request the agent refused (401, 413, a JSON-RPC error) created no task:
// the call is ended and the abort has nothing to report.
func TestRun_RefusedRequestEndsTheCall(t *testing.T) {
	for _, refusal := range []error{&a2a.HTTPError{StatusCode: 401}, &a2a.HTTPError{StatusCode: 413}, &a2a.RPCError{Code: -32602, Message: "bad params"}, a2a.ErrRequestTooLarge} {
		t.Run(refusal.Error(), func(t *testing.T) {
			for _, streaming := range []bool{true, false} {
				agent := &fakeAgent{streaming: streaming}
				agent.SendMessageFunc = func(context.Context, a2a.SendMessageRequest) (*a2a.SendResult, error) { return nil, refusal }
				agent.SendStreamingMessageFunc = func(context.Context, a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
					return errSeq(refusal)
				}
				calls := newMemCalls()
				nc := newNC("r", "ra", workrun.Values{"prompt": "x"})
				_, err := compile(t, Deps{Calls: calls, Connect: connectTo(agent)}, baseCfg).Run(t.Context(), nc)
				if !errors.Is(err, refusal) || errors.Is(err, ErrSubmissionUnknown) {
					t.Fatalf("streaming=%v: err = %v", streaming, err)
				}
				if rec, _ := calls.get("r", "ra"); !rec.Ended {
					t.Errorf("record = %+v", rec)
				}
				abortNC(t.Context(), nc)
				if len(msgsOf(nc)) != 1 || agent.Calls("CancelTask") != 0 {
					t.Errorf("streaming=%v: messages after abort = %q", streaming, msgsOf(nc))
				}
			}
		})
	}
}

// TestRun_StrayMessageInTaskStream: once the task is fixed, a message
// without a taskId in its stream is a protocol error, not the final answer;
// the call reads the task and takes its real result.
func TestRun_StrayMessageInTaskStream(t *testing.T) {
	calls := newMemCalls()
	agent := &fakeAgent{streaming: true}
	stray := a2a.StreamEvent{Message: &a2a.Message{MessageID: "m2", Role: a2a.RoleAgent, Parts: []a2a.Part{{Text: "not the answer"}}}}
	agent.SendStreamingMessageFunc = func(context.Context, a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
		return events(nil, taskEv("t1", a2a.TaskStateWorking, ""), stray)
	}
	agent.GetTaskFunc = func(context.Context, string) (*a2a.Task, error) {
		return task("t1", a2a.TaskStateCompleted, "", a2a.Artifact{ArtifactID: "a", Parts: []a2a.Part{{Text: "real"}}}), nil
	}
	nc := newNC("r", "ra", workrun.Values{"prompt": "x"})
	out, err := compile(t, Deps{Calls: calls, Connect: connectTo(agent)}, baseCfg).Run(t.Context(), nc)
	if err != nil {
		t.Fatal(err)
	}
	if out["answer"] != "real" || agent.Calls("GetTask") != 1 {
		t.Errorf("answer = %q, GetTask %d; want the task's result read by GetTask", out["answer"], agent.Calls("GetTask"))
	}
	if rec, _ := calls.get("r", "ra"); rec.RemoteState != string(a2a.TaskStateCompleted) || !rec.Ended {
		t.Errorf("record = %+v", rec)
	}
	if !contains(msgsOf(nc), "protocol") {
		t.Errorf("messages = %q, want the protocol error shown", msgsOf(nc))
	}
}

func contains(msgs []string, sub string) bool {
	for _, m := range msgs {
		if strings.Contains(m, sub) {
			return true
		}
	}
	return false
}

// TestRun_UpdateCountOnItsOwnLine (issue 27 item 5): status updates and
// artifact chunks arriving together are held per stream, so "(+N updates)"
// stands on the line of the updates it counts — never on an artifact line
// for the status updates before it — and the lines keep their order.
func TestRun_UpdateCountOnItsOwnLine(t *testing.T) {
	calls := newMemCalls()
	nc := newNC("run1", "ra", workrun.Values{"prompt": "p", "n": 1.0, "flag": true, "obj": map[string]any{}})
	agent := &fakeAgent{streaming: true, card: &a2a.AgentCard{Name: "Demo"}}
	agent.SendStreamingMessageFunc = func(ctx context.Context, req a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
		return func(yield func(a2a.StreamEvent, error) bool) {
			evs := []a2a.StreamEvent{taskEv("t1", a2a.TaskStateSubmitted, ""),
				statusEv("t1", a2a.TaskStateWorking, "step 0"), // the state's first line: committed
				artifactEv("t1", "a1", "chunk 0", false)}
			for i := 1; i <= 5; i++ {
				evs = append(evs, statusEv("t1", a2a.TaskStateWorking, fmt.Sprintf("step %d", i)))
			}
			evs = append(evs, artifactEv("t1", "a1", "chunk 1", true), artifactEv("t1", "a1", "chunk 2", true),
				statusEv("t1", a2a.TaskStateCompleted, ""))
			for _, ev := range evs {
				if !yield(ev, nil) {
					return
				}
			}
		}
	}
	st := compile(t, Deps{Calls: calls, Connect: connectTo(agent)}, baseCfg)
	if _, err := st.Run(t.Context(), nc); err != nil {
		t.Fatal(err)
	}
	want := []string{"Result a1: chunk 0", "Remote task: working — step 5 (+4 updates)", "Result a1: chunk 2 (+1 update)"}
	if diff := cmp.Diff(want, progressIn(nc, "en")); diff != "" {
		t.Errorf("progress lines (-want +got):\n%s", diff)
	}
}
