package demoserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// task is one task run by the wrapper; the SDK has no tasks.
type task struct {
	id, session, form string
	created           time.Time
	cancel            context.CancelFunc

	mu      sync.Mutex
	status  string
	message string
	updated time.Time
	result  *result
	failure string
	changed chan struct{} // closed and replaced on every change
}

func (t *task) stop() { t.cancel() }

// set changes the status unless the task already ended.
func (t *task) set(status, message string, res *result, failure string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if terminal(t.status) {
		return
	}
	t.status, t.message, t.updated = status, message, time.Now()
	if res != nil {
		t.result = res
	}
	if failure != "" {
		t.failure = failure
	}
	close(t.changed)
	t.changed = make(chan struct{})
}

func terminal(s string) bool { return s == "completed" || s == "failed" || s == "cancelled" }

// snapshot returns the task in wire form: the core Task object, and in the
// extension form a terminal task also carries its result or error.
func (t *task) snapshot(pollMs int64) (map[string]any, <-chan struct{}) {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := map[string]any{
		"taskId": t.id, "status": t.status,
		"createdAt": t.created.UTC().Format(time.RFC3339Nano), "lastUpdatedAt": t.updated.UTC().Format(time.RFC3339Nano),
		"ttl": 3600000,
	}
	if t.message != "" {
		m["statusMessage"] = t.message
	}
	if t.form == "extension" {
		m["pollIntervalMs"] = pollMs
		switch {
		case t.status == "completed" && t.result != nil:
			m["result"] = t.result
		case t.status == "failed":
			m["error"] = map[string]any{"code": -32603, "message": t.failure}
		}
	} else {
		m["pollInterval"] = pollMs
	}
	return m, t.changed
}

func (s *Server) startTask(w http.ResponseWriter, id json.RawMessage, sess, key, form string, spec toolSpec, args json.RawMessage) {
	pollMs := s.opts.PollInterval.Milliseconds()
	s.mu.Lock()
	if key != "" {
		if t, ok := s.byKey[sess+"\x00"+key]; ok {
			// A repeat of a call already started: the same task, not a new one.
			s.mu.Unlock()
			snap, _ := t.snapshot(pollMs)
			s.writeCreated(w, id, t.form, snap)
			return
		}
	}
	s.nextTask++
	ctx, cancel := context.WithCancel(context.Background())
	now := time.Now()
	t := &task{id: fmt.Sprintf("task-%d-%d", now.UnixNano()%1e6, s.nextTask), session: sess, form: form, created: now,
		cancel: cancel, status: "working", updated: now, changed: make(chan struct{})}
	s.tasks[t.id] = t
	if key != "" {
		s.byKey[sess+"\x00"+key] = t
	}
	s.mu.Unlock()
	go func() {
		defer cancel()
		r, err := spec.run(ctx, s, args, func(status, msg string) { t.set(status, msg, nil, "") })
		switch {
		case ctx.Err() != nil:
			// cancelled: tasks/cancel already set the status
		case err != nil:
			t.set("failed", err.Error(), nil, err.Error())
		default:
			t.set("completed", "", &r, "")
		}
	}()
	snap, _ := t.snapshot(pollMs)
	s.writeCreated(w, id, form, snap)
}

func (s *Server) writeCreated(w http.ResponseWriter, id json.RawMessage, form string, snap map[string]any) {
	if form == "extension" {
		out := map[string]any{"resultType": "task"}
		for k, v := range snap {
			if k != "result" && k != "error" {
				out[k] = v
			}
		}
		writeResult(w, id, out)
		return
	}
	writeResult(w, id, map[string]any{"task": snap})
}

func (s *Server) lookup(sess, id string) (*task, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tasks[id]
	if !ok || t.session != sess {
		return nil, errTaskGone
	}
	return t, nil
}

func (s *Server) taskMethod(w http.ResponseWriter, r *http.Request, msg rpcMessage, sess, taskID string) {
	pollMs := s.opts.PollInterval.Milliseconds()
	if msg.Method == "tasks/list" {
		var out []map[string]any
		s.mu.Lock()
		var ts []*task
		for _, t := range s.tasks {
			if t.session == sess {
				ts = append(ts, t)
			}
		}
		s.mu.Unlock()
		for _, t := range ts {
			snap, _ := t.snapshot(pollMs)
			out = append(out, snap)
		}
		writeResult(w, msg.ID, map[string]any{"tasks": out})
		return
	}
	t, err := s.lookup(sess, taskID)
	if err != nil {
		writeError(w, msg.ID, -32602, "Failed to retrieve task: Task not found")
		return
	}
	switch msg.Method {
	case "tasks/get":
		snap, _ := t.snapshot(pollMs)
		writeResult(w, msg.ID, snap)
	case "tasks/cancel":
		if s.opts.CancelDelay > 0 {
			select {
			case <-time.After(s.opts.CancelDelay):
			case <-r.Context().Done():
				return
			}
		}
		snap, _ := t.snapshot(pollMs)
		if terminal(snap["status"].(string)) {
			writeError(w, msg.ID, -32602, fmt.Sprintf("Cannot cancel task: already in terminal status %q", snap["status"]))
			return
		}
		t.set("cancelled", "cancelled by the client", nil, "")
		t.stop()
		snap, _ = t.snapshot(pollMs)
		writeResult(w, msg.ID, snap)
	case "tasks/result":
		s.taskResult(w, r, msg.ID, t)
	default:
		writeError(w, msg.ID, -32601, "Method not found: "+msg.Method)
	}
}

// taskResult streams (SSE) until the task ends: a priming event, a
// notifications/tasks/status per change, then the answer.
func (s *Server) taskResult(w http.ResponseWriter, r *http.Request, id json.RawMessage, t *task) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	n := 0
	send := func(v any) {
		b, _ := json.Marshal(v)
		n++
		fmt.Fprintf(w, "event: message\nid: %d\ndata: %s\n\n", n, b)
		if fl != nil {
			fl.Flush()
		}
	}
	fmt.Fprint(w, "id: 0\ndata:\n\n")
	if fl != nil {
		fl.Flush()
	}
	s.mu.Lock()
	cut := s.cuts < s.opts.CutResultStreams
	if cut {
		s.cuts++
	}
	s.mu.Unlock()
	if cut {
		return // the connection breaks before the answer
	}
	last := ""
	for {
		snap, changed := t.snapshot(s.opts.PollInterval.Milliseconds())
		status := snap["status"].(string)
		if status != last && status != "working" || (status == "working" && last != "" && last != status) {
			send(map[string]any{"jsonrpc": "2.0", "method": "notifications/tasks/status", "params": snap})
		}
		last = status
		if terminal(status) {
			t.mu.Lock()
			res, failure := t.result, t.failure
			t.mu.Unlock()
			switch {
			case status == "completed" && res != nil:
				send(map[string]any{"jsonrpc": "2.0", "id": id, "result": res})
			case status == "cancelled":
				send(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32000, "message": "Task cancelled"}})
			default:
				send(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32603, "message": "Task failed: " + failure}})
			}
			return
		}
		select {
		case <-changed:
		case <-r.Context().Done():
			return
		}
	}
}
