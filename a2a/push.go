package a2a

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Push notifications, the client side (docs/triggers.md P3): an agent
// POSTs one StreamResponse per update of a task to the webhook a client
// named in taskPushNotificationConfig. The token travels in a header whose
// name the SDKs differ on; PushTokenHeaders lists the ones accepted, and
// Authorization (Bearer) is accepted too.

// PushTokenHeaders are the headers a pushed token may come in:
// @a2a-js/sdk's and a2a-go's.
var PushTokenHeaders = []string{"X-A2A-Notification-Token", "A2A-Notification-Token"}

// MaxPushBytes caps a pushed body.
const MaxPushBytes = 8 << 20

// PushUpdate is one pushed update as a client uses it.
type PushUpdate struct {
	Event  StreamEvent
	TaskID string
	// State is the task state the update reports ("" for an artifact or a
	// message update).
	State TaskState
}

// Settles reports whether the update ends the wait: the task has ended
// or needs the client.
func (u PushUpdate) Settles() bool { return u.State.Terminal() || u.State.Interrupted() }

// ParsePush reads a pushed body: a StreamResponse with exactly one of
// task, message, statusUpdate and artifactUpdate, naming its task.
// Anything else is ErrProtocol.
func ParsePush(body []byte) (PushUpdate, error) {
	if len(body) > MaxPushBytes {
		return PushUpdate{}, fmt.Errorf("push: %w: body over %d bytes", ErrProtocol, MaxPushBytes)
	}
	var ev StreamEvent
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&ev); err != nil {
		return PushUpdate{}, fmt.Errorf("push: %w: %w", ErrProtocol, err)
	}
	if dec.More() {
		return PushUpdate{}, fmt.Errorf("push: %w: trailing data", ErrProtocol)
	}
	n := 0
	for _, set := range []bool{ev.Task != nil, ev.Message != nil, ev.StatusUpdate != nil, ev.ArtifactUpdate != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return PushUpdate{}, fmt.Errorf("push: %w: a push holds exactly one of task, message, statusUpdate and artifactUpdate (got %d)", ErrProtocol, n)
	}
	u := PushUpdate{Event: ev, TaskID: ev.TaskID()}
	switch {
	case ev.Task != nil:
		u.State = ev.Task.Status.State
	case ev.StatusUpdate != nil:
		u.State = ev.StatusUpdate.Status.State
	}
	if u.TaskID == "" {
		return PushUpdate{}, fmt.Errorf("push: %w: the update names no task", ErrProtocol)
	}
	if len(u.TaskID) > MaxIDBytes {
		return PushUpdate{}, fmt.Errorf("push: %w: task id over %d bytes", ErrProtocol, MaxIDBytes)
	}
	return u, nil
}
