package a2a

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestIDLimits (issue 27): an identifier or name over MaxIDBytes — task,
// context, message or artifact id, artifact name — is refused where the
// reply is decoded, with an error that says what was too long; one of
// exactly MaxIDBytes passes.
func TestIDLimits(t *testing.T) {
	long := strings.Repeat("x", 1<<20) // a 1 MB id
	edge := strings.Repeat("y", MaxIDBytes)
	cases := []struct {
		name, event, want string
	}{
		{"task id", fmt.Sprintf(`{"task":{"id":%q,"contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}}`, long), "a task id of 1048576 bytes"},
		{"context id", fmt.Sprintf(`{"statusUpdate":{"taskId":"t1","contextId":%q,"status":{"state":"TASK_STATE_WORKING"}}}`, long), "a context id of 1048576 bytes"},
		{"message id", fmt.Sprintf(`{"message":{"messageId":%q,"role":"ROLE_AGENT","parts":[{"text":"hi"}]}}`, long), "a message id of 1048576 bytes"},
		{"artifact id", fmt.Sprintf(`{"artifactUpdate":{"taskId":"t1","artifact":{"artifactId":%q,"parts":[{"text":"a"}]}}}`, long), "an artifact id"},
		{"artifact name", fmt.Sprintf(`{"artifactUpdate":{"taskId":"t1","artifact":{"artifactId":"a1","name":%q,"parts":[{"text":"a"}]}}}`, long), "an artifact name"},
		{"status message id", fmt.Sprintf(`{"statusUpdate":{"taskId":"t1","status":{"state":"TASK_STATE_WORKING","message":{"messageId":%q,"role":"ROLE_AGENT","parts":[]}}}}`, long), "a message id"},
		{"at the limit", fmt.Sprintf(`{"task":{"id":%q,"contextId":%q,"status":{"state":"TASK_STATE_COMPLETED"}}}`, edge, edge), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newFakeAgent(t)
			a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
				sseFrames(w, in.ID, tc.event)
			}
			var got error
			for _, err := range a.client(t, Options{}).SendStreamingMessage(t.Context(), textMessage("q")) {
				if err != nil {
					got = err
					break
				}
			}
			if tc.want == "" {
				if got != nil {
					t.Fatalf("an id of exactly %d bytes was refused: %v", MaxIDBytes, got)
				}
				return
			}
			want := tc.want
			if !errors.Is(got, ErrIDTooLong) || !errors.Is(got, ErrProtocol) || !strings.Contains(got.Error(), want) {
				t.Fatalf("err = %v, want ErrIDTooLong naming %q", clip([]byte(fmt.Sprint(got))), want)
			}
			if len(got.Error()) > 1024 {
				t.Errorf("the error carries the id: %d bytes", len(got.Error()))
			}
		})
	}

	t.Run("GetTask and SendMessage", func(t *testing.T) {
		a := newFakeAgent(t)
		a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
			var p struct{ ID string }
			_ = json.Unmarshal(in.Params, &p)
			writeJSON(w, 200, resultJSON(in.ID, fmt.Sprintf(`{"id":"t1","contextId":%q,"status":{"state":"TASK_STATE_WORKING"}}`, long)))
		}
		c := a.client(t, Options{})
		if _, err := c.GetTask(t.Context(), "t1"); !errors.Is(err, ErrIDTooLong) {
			t.Errorf("GetTask err = %.200v", err)
		}
		a.RPCFunc = func(w http.ResponseWriter, r *http.Request, in rpcIn) {
			writeJSON(w, 200, resultJSON(in.ID, fmt.Sprintf(`{"task":{"id":%q,"status":{"state":"TASK_STATE_WORKING"}}}`, long)))
		}
		if _, err := c.SendMessage(t.Context(), textMessage("q")); !errors.Is(err, ErrIDTooLong) {
			t.Errorf("SendMessage err = %.200v", err)
		}
	})
}
