package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"slices"
	"strconv"
)

// ErrNotSubscribed: the server acknowledged subscriptions/listen without
// the task asked for (it sends no status notifications for it).
var ErrNotSubscribed = errors.New("mcp: the server does not send status notifications for this task")

// WatchTask opens a subscriptions/listen stream for one task's status
// notifications (notifications/tasks, Tasks extension declared) and yields
// each task state it reports. It ends when the server closes the stream
// (its graceful response ends it without an error), when ctx ends, or with
// an error: the refusal of the request, ErrNotSubscribed when the
// acknowledgement leaves the task out, or a broken stream. 2026-07-28 only.
func (c *Client) WatchTask(ctx context.Context, taskID string) iter.Seq2[*Task, error] {
	return func(yield func(*Task, error) bool) {
		version := c.Version()
		if !IsModern(version) {
			yield(nil, fmt.Errorf("subscriptions/listen: %w: needs 2026-07-28, the server speaks %s", ErrMethodNotFound, display(version)))
			return
		}
		if len(taskID) > MaxTaskIDBytes {
			yield(nil, fmt.Errorf("subscriptions/listen: %w (%d bytes)", ErrTaskIDTooLong, len(taskID)))
			return
		}
		id := c.nextID.Add(1)
		params := map[string]any{
			"notifications": map[string]any{"taskIds": []string{taskID}},
			"_meta": map[string]any{
				MetaProtocolVersion:    version,
				MetaClientCapabilities: c.clientCapabilities(true),
				MetaClientInfo:         c.opts.ClientInfo,
			},
		}
		b, err := json.Marshal(request{JSONRPC: "2.0", ID: &id, Method: "subscriptions/listen", Params: params})
		if err != nil {
			yield(nil, err)
			return
		}
		h := http.Header{"Mcp-Method": {"subscriptions/listen"}, "MCP-Protocol-Version": {version}}
		rep, err := c.t.Send(ctx, &Message{ID: id, Method: "subscriptions/listen", Body: b, Header: h})
		if err != nil {
			yield(nil, fmt.Errorf("subscriptions/listen: %w", err))
			return
		}
		if rep.Messages == nil {
			yield(nil, fmt.Errorf("subscriptions/listen: %w: no reply", ErrStreamBroken))
			return
		}
		wantID := strconv.AppendInt(nil, id, 10)
		acked := false
		for data, err := range rep.Messages {
			if err != nil {
				yield(nil, fmt.Errorf("subscriptions/listen: %w", err))
				return
			}
			var env envelope
			if err := json.Unmarshal(data, &env); err != nil {
				yield(nil, fmt.Errorf("subscriptions/listen: %w: %v", ErrProtocol, err))
				return
			}
			switch env.Method {
			case "":
				if _, err := checkResponse(&env, wantID); err != nil {
					yield(nil, fmt.Errorf("subscriptions/listen: %w", err))
				}
				return // the server ended the subscription
			case "notifications/subscriptions/acknowledged":
				var ack struct {
					Notifications struct {
						TaskIDs []string `json:"taskIds"`
					} `json:"notifications"`
				}
				if json.Unmarshal(env.Params, &ack) != nil || !slices.Contains(ack.Notifications.TaskIDs, taskID) {
					yield(nil, ErrNotSubscribed)
					return
				}
				acked = true
			case "notifications/tasks":
				var t Task
				if !acked || json.Unmarshal(env.Params, &t) != nil || t.TaskID != taskID {
					continue
				}
				if !yield(&t, nil) {
					return
				}
			}
		}
		yield(nil, fmt.Errorf("subscriptions/listen: %w", ErrStreamBroken))
	}
}
