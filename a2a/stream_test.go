package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// collect runs a stream and returns a compact description of what it yielded.
func collect(seq func(func(StreamEvent, error) bool)) ([]string, error) {
	var got []string
	var last error
	for ev, err := range seq {
		if err != nil {
			last = err
			continue
		}
		switch {
		case ev.Task != nil:
			got = append(got, "task "+ev.Task.ID+" "+string(ev.Task.Status.State))
		case ev.StatusUpdate != nil:
			got = append(got, "status "+ev.StatusUpdate.TaskID+" "+string(ev.StatusUpdate.Status.State))
		case ev.ArtifactUpdate != nil:
			var text []string
			for _, p := range ev.ArtifactUpdate.Artifact.Parts {
				text = append(text, p.Text)
			}
			got = append(got, "artifact "+ev.ArtifactUpdate.TaskID+" "+strings.Join(text, "|"))
		case ev.Message != nil:
			got = append(got, "message "+ev.Message.MessageID)
		}
	}
	return got, last
}

func TestStream_SSEVariants(t *testing.T) {
	task := `{"task":` + taskJSON("t1", "TASK_STATE_SUBMITTED") + `}`
	art := `{"artifactUpdate":{"taskId":"t1","contextId":"c1","artifact":{"artifactId":"a1","parts":[{"text":"line1\nline2"}]},"append":true,"lastChunk":true}}`
	done := statusJSON("t1", "TASK_STATE_COMPLETED")
	want3 := []string{"task t1 TASK_STATE_SUBMITTED", "artifact t1 line1\nline2", "status t1 TASK_STATE_COMPLETED"}
	tests := []struct {
		name    string
		body    func(id json.RawMessage) string
		ctype   string
		want    []string
		wantErr error
	}{
		{"data with space", func(id json.RawMessage) string {
			return fmt.Sprintf("data: %s\n\ndata: %s\n\ndata: %s\n\n", resultJSON(id, task), resultJSON(id, art), resultJSON(id, done))
		}, "", want3, nil},
		{"data without space, CRLF", func(id json.RawMessage) string {
			return fmt.Sprintf("data:%s\r\n\r\ndata:%s\r\n\r\ndata:%s\r\n\r\n", resultJSON(id, task), resultJSON(id, art), resultJSON(id, done))
		}, "text/event-stream; charset=utf-8", want3, nil},
		{"a2a-go id lines and keep-alives", func(id json.RawMessage) string {
			return fmt.Sprintf(": keep-alive\n\nid: 0f1\ndata: %s\n\n: keep-alive\n\nid: 0f2\ndata: %s\n\nretry: 100\nid: 0f3\nevent: message\ndata: %s\n\n", resultJSON(id, task), resultJSON(id, art), resultJSON(id, done))
		}, "", want3, nil},
		{"pretty-printed JSON over several data lines", func(id json.RawMessage) string {
			pretty := func(s string) string {
				var v any
				json.Unmarshal([]byte(s), &v)
				b, _ := json.MarshalIndent(v, "", "  ")
				return "data: " + strings.ReplaceAll(string(b), "\n", "\ndata: ") + "\n\n"
			}
			return pretty(resultJSON(id, task)) + pretty(resultJSON(id, art)) + pretty(resultJSON(id, done))
		}, "", want3, nil},
		{"message-only stream", func(id json.RawMessage) string {
			return "data: " + resultJSON(id, `{"message":{"messageId":"r1","role":"ROLE_AGENT","parts":[{"text":"hi"}]}}`) + "\n\n"
		}, "", []string{"message r1"}, nil},
		{"ends at interrupted state", func(id json.RawMessage) string {
			return "data: " + resultJSON(id, task) + "\n\ndata: " + resultJSON(id, statusJSON("t1", "TASK_STATE_INPUT_REQUIRED")) + "\n\n"
		}, "", []string{"task t1 TASK_STATE_SUBMITTED", "status t1 TASK_STATE_INPUT_REQUIRED"}, nil},
		{"a2a-js error event mid-stream", func(id json.RawMessage) string {
			return "data: " + resultJSON(id, task) + "\n\nevent: error\ndata: " + errorJSON(id, -32603, "agent crashed") + "\n\n"
		}, "", []string{"task t1 TASK_STATE_SUBMITTED"}, ErrInternal},
		{"a2a-go error as ordinary data", func(id json.RawMessage) string {
			return "data: " + errorJSON(id, -32004, "streaming not supported") + "\n\n"
		}, "", nil, ErrUnsupportedOperation},
		{"error event without error member", func(id json.RawMessage) string {
			return "event: error\ndata: " + resultJSON(id, task) + "\n\n"
		}, "", nil, ErrProtocol},
		{"plain JSON error where a stream was expected", func(id json.RawMessage) string {
			return errorJSON(id, -32004, "task ended")
		}, "application/json", nil, ErrUnsupportedOperation},
		{"plain JSON result where a stream was expected", func(id json.RawMessage) string {
			return resultJSON(id, `{"task":`+taskJSON("t1", "TASK_STATE_COMPLETED")+`}`)
		}, "application/json", []string{"task t1 TASK_STATE_COMPLETED"}, nil},
		{"plain JSON non-final result", func(id json.RawMessage) string {
			return resultJSON(id, task)
		}, "application/json", []string{"task t1 TASK_STATE_SUBMITTED"}, ErrStreamBroken},
		{"wrong id in an event", func(id json.RawMessage) string {
			return "data: " + resultJSON(id, task) + "\n\ndata: " + resultJSON(json.RawMessage(`"x"`), done) + "\n\n"
		}, "", []string{"task t1 TASK_STATE_SUBMITTED"}, ErrProtocol},
		{"wrong task in an event", func(id json.RawMessage) string {
			return "data: " + resultJSON(id, task) + "\n\ndata: " + resultJSON(id, statusJSON("t9", "TASK_STATE_COMPLETED")) + "\n\n"
		}, "", []string{"task t1 TASK_STATE_SUBMITTED"}, ErrProtocol},
		{"event without task id", func(id json.RawMessage) string {
			return "data: " + resultJSON(id, statusJSON("", "TASK_STATE_WORKING")) + "\n\n"
		}, "", nil, ErrProtocol},
		{"event with two members", func(id json.RawMessage) string {
			return "data: " + resultJSON(id, `{"task":`+taskJSON("t1", "TASK_STATE_WORKING")+`,"statusUpdate":{"taskId":"t1","status":{"state":"TASK_STATE_WORKING"}}}`) + "\n\n"
		}, "", nil, ErrProtocol},
		{"empty result", func(id json.RawMessage) string { return "data: " + resultJSON(id, `{}`) + "\n\n" }, "", nil, ErrProtocol},
		{"garbage frame", func(id json.RawMessage) string {
			return "data: " + resultJSON(id, task) + "\n\ndata: <html>502 Bad Gateway</html>\n\n"
		}, "", []string{"task t1 TASK_STATE_SUBMITTED"}, ErrProtocol},
		{"truncated mid-event", func(id json.RawMessage) string {
			return "data: " + resultJSON(id, task) + "\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":" + string(id) + ",\"res"
		}, "", []string{"task t1 TASK_STATE_SUBMITTED"}, ErrStreamBroken},
		{"truncated after a data line", func(id json.RawMessage) string {
			return "data: " + resultJSON(id, task) + "\n\ndata: " + resultJSON(id, done) + "\n"
		}, "", []string{"task t1 TASK_STATE_SUBMITTED"}, ErrStreamBroken},
		{"body ends while working", func(id json.RawMessage) string {
			return "data: " + resultJSON(id, task) + "\n\ndata: " + resultJSON(id, statusJSON("t1", "TASK_STATE_WORKING")) + "\n\n"
		}, "", []string{"task t1 TASK_STATE_SUBMITTED", "status t1 TASK_STATE_WORKING"}, ErrStreamBroken},
		{"empty body", func(json.RawMessage) string { return "" }, "", nil, ErrStreamBroken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newFakeAgent(t)
			a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
				ct := tt.ctype
				if ct == "" {
					ct = "text/event-stream"
				}
				w.Header().Set("Content-Type", ct)
				io.WriteString(w, tt.body(in.ID))
			}
			got, err := collect(a.client(t, Options{}).SendStreamingMessage(t.Context(), textMessage("hi")))
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

// A stream the server keeps open after a terminal state still ends for the
// caller, and ending it closes the connection.
func TestStream_EndsAtTerminalStateAndClosesBody(t *testing.T) {
	closed := make(chan struct{})
	a := newFakeAgent(t)
	a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
		sseFrames(w, in.ID, `{"task":`+taskJSON("t1", "TASK_STATE_WORKING")+`}`, statusJSON("t1", "TASK_STATE_CANCELED"))
		<-r.Context().Done()
		close(closed)
	}
	got, err := collect(a.client(t, Options{}).SubscribeToTask(t.Context(), "t1"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"task t1 TASK_STATE_WORKING", "status t1 TASK_STATE_CANCELED"}, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("the connection stayed open")
	}
}

func TestStream_BreakClosesBody(t *testing.T) {
	closed := make(chan struct{})
	a := newFakeAgent(t)
	a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
		sseFrames(w, in.ID, `{"task":`+taskJSON("t1", "TASK_STATE_WORKING")+`}`)
		<-r.Context().Done()
		close(closed)
	}
	for _, err := range a.client(t, Options{}).SubscribeToTask(t.Context(), "t1") {
		if err != nil {
			t.Fatal(err)
		}
		break
	}
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("breaking the loop left the connection open")
	}
}

func TestSubscribeToTask_EventsMustNameTheTask(t *testing.T) {
	a := newFakeAgent(t)
	a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
		if diff := cmp.Diff(`{"id":"t1"}`, string(in.Params)); diff != "" {
			t.Errorf("params (-want +got):\n%s", diff)
		}
		sseFrames(w, in.ID, `{"task":`+taskJSON("t2", "TASK_STATE_WORKING")+`}`)
	}
	got, err := collect(a.client(t, Options{}).SubscribeToTask(t.Context(), "t1"))
	if !errors.Is(err, ErrProtocol) || len(got) != 0 {
		t.Errorf("events %v, err %v; want no event and ErrProtocol", got, err)
	}
}

func TestSendStreamingMessage_ContinuationMustStayOnTask(t *testing.T) {
	a := newFakeAgent(t)
	a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
		sseFrames(w, in.ID, statusJSON("t2", "TASK_STATE_WORKING"))
	}
	req := textMessage("more")
	req.Message.TaskID = "t1"
	if _, err := collect(a.client(t, Options{}).SendStreamingMessage(t.Context(), req)); !errors.Is(err, ErrProtocol) {
		t.Errorf("err = %v, want ErrProtocol", err)
	}
}

func TestStream_OversizeEvent(t *testing.T) {
	for _, multiline := range []bool{false, true} {
		t.Run(fmt.Sprint("multiline=", multiline), func(t *testing.T) {
			a := newFakeAgent(t)
			a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
				sseHeader(w)
				sseWrite(w, "data: "+resultJSON(in.ID, `{"task":`+taskJSON("t1", "TASK_STATE_WORKING")+`}`)+"\n\n")
				pad := strings.Repeat("x", 100<<10)
				if multiline {
					pad = strings.Repeat("x\ndata: ", 50<<10)
				}
				sseWrite(w, "data: "+pad+"\n\n")
			}
			got, err := collect(a.client(t, Options{MaxEventBytes: 64 << 10}).SubscribeToTask(t.Context(), "t1"))
			if !errors.Is(err, ErrEventTooLarge) || len(got) != 1 {
				t.Errorf("events %v, err %v; want one event then ErrEventTooLarge", got, err)
			}
		})
	}
}

func TestStream_ContextCancelIsReported(t *testing.T) {
	a := newFakeAgent(t)
	a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
		sseFrames(w, in.ID, `{"task":`+taskJSON("t1", "TASK_STATE_WORKING")+`}`)
		<-r.Context().Done()
	}
	c := a.client(t, Options{})
	ctx, cancel := context.WithTimeout(t.Context(), 150*time.Millisecond)
	defer cancel()
	got, err := collect(c.SubscribeToTask(ctx, "t1"))
	if len(got) != 1 || !errors.Is(err, ErrStreamBroken) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("events %v, err %v; want 1 event then ErrStreamBroken and DeadlineExceeded", got, err)
	}
}

// TestStream_OneShot: ranging a stream sequence a second time sends nothing
// and yields ErrStreamReused, so a message is never submitted twice by
// accident.
func TestStream_OneShot(t *testing.T) {
	var posts atomic.Int32
	a := newFakeAgent(t)
	a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
		posts.Add(1)
		sseFrames(w, in.ID, `{"task":`+taskJSON("t1", "TASK_STATE_WORKING")+`}`, statusJSON("t1", "TASK_STATE_COMPLETED"))
	}
	c := a.client(t, Options{})
	for name, seq := range map[string]func(func(StreamEvent, error) bool){
		"SendStreamingMessage": c.SendStreamingMessage(t.Context(), SendMessageRequest{Message: Message{MessageID: "m1", Role: RoleUser, Parts: []Part{{Text: "hi"}}}}),
		"SubscribeToTask":      c.SubscribeToTask(t.Context(), "t1"),
	} {
		posts.Store(0)
		if got, err := collect(seq); err != nil || len(got) != 2 {
			t.Fatalf("%s first range: %v, %v", name, got, err)
		}
		got, err := collect(seq)
		if !errors.Is(err, ErrStreamReused) || len(got) != 0 {
			t.Errorf("%s second range: %v, %v; want no event and ErrStreamReused", name, got, err)
		}
		if n := posts.Load(); n != 1 {
			t.Errorf("%s: %d requests reached the agent, want 1", name, n)
		}
	}
}
