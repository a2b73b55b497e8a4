package mcpserve

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"sync"

	"workrun/mcp"
	"workrun/serve"
)

// maxListenTasks bounds the task ids one subscriptions/listen follows.
const maxListenTasks = 100

// listen serves 2026-07-28 subscriptions/listen for task status
// (docs/serve.md M10): an SSE stream that acknowledges those of the asked
// task ids that are the caller's own, then sends notifications/tasks with
// each one's state at once and again at every status change, the result
// inlined once it is final. It ends when the client goes away.
func (s *Server) listen(w http.ResponseWriter, r *http.Request, msg *message, meta mcp.RequestMeta, caller string) {
	var p struct {
		Notifications *struct {
			TaskIDs []string `json:"taskIds"`
		} `json:"notifications"`
	}
	if json.Unmarshal(msg.Params, &p) != nil || p.Notifications == nil {
		writeError(w, http.StatusBadRequest, msg.ID, &mcp.WireError{Code: mcp.CodeInvalidParams, Message: "Invalid params: subscriptions/listen needs params.notifications"})
		return
	}
	ids := slices.Compact(slices.Sorted(slices.Values(p.Notifications.TaskIDs)))
	if len(ids) > 0 && !meta.DeclaresExtension(mcp.TasksExtension) {
		writeError(w, http.StatusBadRequest, msg.ID, &mcp.WireError{Code: mcp.CodeMissingCapability,
			Message: "Missing required client capability: task notifications need the " + mcp.TasksExtension + " extension in _meta clientCapabilities",
			Data:    map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{mcp.TasksExtension: map[string]any{}}}}})
		return
	}
	if len(ids) > maxListenTasks {
		writeError(w, http.StatusBadRequest, msg.ID, &mcp.WireError{Code: mcp.CodeInvalidParams, Message: "Invalid params: at most 100 taskIds per subscription"})
		return
	}
	ctx := r.Context()
	var accepted []string
	for _, id := range ids {
		// Another caller's task, or none: left out of the acknowledgement,
		// as the spec asks, never named as existing.
		if _, err := s.svc.Get(ctx, caller, id); err == nil {
			accepted = append(accepted, id)
		}
	}
	sub := map[string]any{"io.modelcontextprotocol/subscriptionId": msg.ID}
	out := newSSE(w, nil)
	defer out.close()
	filter := map[string]any{}
	if len(accepted) > 0 {
		filter["taskIds"] = accepted
	}
	out.send("", map[string]any{"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
		"params": map[string]any{"notifications": filter, "_meta": sub}})
	states := make(chan map[string]any)
	var wg sync.WaitGroup
	for _, id := range accepted {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.followTask(ctx, caller, id, func(snap map[string]any) bool {
				select {
				case states <- snap:
					return true
				case <-ctx.Done():
					return false
				}
			})
		}()
	}
	defer wg.Wait()
	for {
		select {
		case snap := <-states:
			params := maps.Clone(snap)
			params["_meta"] = sub
			out.send("", map[string]any{"jsonrpc": "2.0", "method": "notifications/tasks", "params": params})
		case <-ctx.Done():
			return
		}
	}
}

// followTask hands send the task's state (as tasks/get shows it) now and
// after every status change, until the task is final or ctx ends. While it
// waits for an answer it reads the task once a second (waitOther).
func (s *Server) followTask(ctx context.Context, caller, id string, send func(map[string]any) bool) {
	last := ""
	for {
		var cur serve.Task
		for ev, err := range s.svc.Events(ctx, caller, id) {
			if err != nil {
				if ctx.Err() == nil {
					s.opts.Logger.Error("mcp subscriptions/listen", "task", id, "err", err)
				}
				return
			}
			if ev.Task == nil {
				continue
			}
			cur = *ev.Task
			key := statusOf(cur, false)
			if cur.Question != nil {
				key += "/" + questionKey(*cur.Question)
			}
			if key == last {
				continue
			}
			last = key
			res, werr := s.modernTask(ctx, caller, "tasks/get", json.RawMessage(`{"taskId":`+string(mustJSON(id))+`}`))
			if werr != nil {
				if ctx.Err() == nil {
					s.opts.Logger.Error("mcp subscriptions/listen", "task", id, "err", werr.Message)
				}
				return
			}
			snap, _ := res.(map[string]any)
			delete(snap, "resultType")
			if !send(snap) {
				return
			}
		}
		if cur.State != serve.StateInputRequired || cur.Question == nil {
			return // final (or gone): nothing more to say
		}
		if err := waitOther(ctx, s, caller, cur); err != nil {
			if ctx.Err() == nil {
				s.opts.Logger.Error("mcp subscriptions/listen", "task", id, "err", err)
			}
			return
		}
	}
}

func mustJSON(v string) []byte {
	b, _ := json.Marshal(v) // a string always marshals
	return b
}
