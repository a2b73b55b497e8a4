package a2a_test

import (
	"errors"
	"strings"
	"testing"

	"workrun/a2a"
)

func TestParsePush(t *testing.T) {
	cases := []struct {
		name, body string
		task       string
		state      a2a.TaskState
		settles    bool
		bad        bool
	}{
		{name: "completed status", body: `{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}`, task: "t1", state: a2a.TaskStateCompleted, settles: true},
		{name: "working status", body: `{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}}`, task: "t1", state: a2a.TaskStateWorking},
		{name: "input required task", body: `{"task":{"id":"t2","contextId":"c","status":{"state":"TASK_STATE_INPUT_REQUIRED"}}}`, task: "t2", state: a2a.TaskStateInputRequired, settles: true},
		{name: "artifact", body: `{"artifactUpdate":{"taskId":"t3","contextId":"c","artifact":{"artifactId":"a","parts":[{"text":"x"}]}}}`, task: "t3"},
		{name: "two members", body: `{"task":{"id":"t","status":{"state":"TASK_STATE_WORKING"}},"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_COMPLETED"}}}`, bad: true},
		{name: "none", body: `{}`, bad: true},
		{name: "no task", body: `{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"hi"}]}}`, bad: true},
		{name: "trailing", body: `{"statusUpdate":{"taskId":"t1","status":{"state":"TASK_STATE_COMPLETED"}}} {}`, bad: true},
		{name: "not json", body: `state=completed`, bad: true},
		{name: "long id", body: `{"statusUpdate":{"taskId":"` + strings.Repeat("x", a2a.MaxIDBytes+1) + `","status":{"state":"TASK_STATE_COMPLETED"}}}`, bad: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u, err := a2a.ParsePush([]byte(tc.body))
			if tc.bad {
				if !errors.Is(err, a2a.ErrProtocol) {
					t.Fatalf("ParsePush(%s) = %+v, %v; want ErrProtocol", tc.name, u, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if u.TaskID != tc.task || u.State != tc.state || u.Settles() != tc.settles {
				t.Fatalf("got task %q state %q settles %v; want %q %q %v", u.TaskID, u.State, u.Settles(), tc.task, tc.state, tc.settles)
			}
		})
	}
}

// FuzzParsePush feeds arbitrary pushed bytes: ParsePush never panics, and
// what it accepts names a task and settles only on a terminal or
// interrupted state.
func FuzzParsePush(f *testing.F) {
	for _, s := range []string{
		`{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}`,
		`{"task":{"id":"t2","status":{"state":"TASK_STATE_WORKING"}}}`,
		`{"artifactUpdate":{"taskId":"t3","artifact":{"artifactId":"a","parts":[{"raw":"aGk="}]}}}`,
		`{"message":{"messageId":"m","taskId":"t","role":"ROLE_AGENT","parts":[]}}`,
		`{"statusUpdate":null}`, `[]`, `"x"`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		u, err := a2a.ParsePush(b)
		if err != nil {
			if !errors.Is(err, a2a.ErrProtocol) {
				t.Fatalf("error not ErrProtocol: %v", err)
			}
			return
		}
		if u.TaskID == "" || len(u.TaskID) > a2a.MaxIDBytes {
			t.Fatalf("accepted update with task id %q", u.TaskID)
		}
		if u.Settles() != (u.State.Terminal() || u.State.Interrupted()) {
			t.Fatal("Settles disagrees with the state")
		}
	})
}
