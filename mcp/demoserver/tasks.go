package demoserver

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sync"
	"time"
)

// Task forms: how a task is spoken about on the wire.
const (
	// formCore is 2025-11-25 core Tasks: {task: …}, ttl, pollInterval,
	// tasks/result, tasks/list, tasks/cancel answering the task.
	formCore = "core"
	// formExtension is the io.modelcontextprotocol/tasks extension:
	// resultType "task", ttlMs, pollIntervalMs, results inlined in
	// tasks/get, tasks/update, tasks/cancel answering an empty result.
	formExtension = "extension"
)

// taskTTL is how long a task is kept; tasks are never expired earlier.
const taskTTL = time.Hour

// task is one task; both eras share the store.
type task struct {
	id      string
	owner   string // the 2025-11-25 session that made it; "" for 2026-07-28
	form    string
	created time.Time
	cancel  context.CancelFunc
	// changedHook tells the server's listeners; called without t.mu held.
	changedHook func(*task)

	mu      sync.Mutex
	status  string
	message string
	updated time.Time
	result  *result
	failure *rpcError
	pending map[string]inputRequest    // input_required: unanswered requests
	answers map[string]json.RawMessage // answers not yet taken by ask
	changed chan struct{}              // closed and replaced on every change
}

func (t *task) stop() { t.cancel() }

func terminal(s string) bool { return s == "completed" || s == "failed" || s == "cancelled" }

// change applies edit unless the task already ended, then wakes waiters.
func (t *task) change(edit func()) bool {
	t.mu.Lock()
	if terminal(t.status) {
		t.mu.Unlock()
		return false
	}
	edit()
	t.updated = time.Now()
	close(t.changed)
	t.changed = make(chan struct{})
	t.mu.Unlock()
	if t.changedHook != nil {
		t.changedHook(t)
	}
	return true
}

func (t *task) setMessage(msg string) {
	t.change(func() { t.message = msg })
}

func (t *task) finish(res *result, failure *rpcError) {
	t.change(func() {
		t.pending = nil
		if failure != nil {
			t.status, t.failure, t.message = "failed", failure, failure.Message
			return
		}
		t.status, t.result, t.message = "completed", res, ""
	})
}

func (t *task) markCancelled() bool {
	return t.change(func() { t.status, t.message, t.pending = "cancelled", "cancelled by the client", nil })
}

// ask parks the task in input_required until every request is answered
// (tasks/update) or the task is cancelled. A 2025-11-25 core task has no way
// to be answered here (that era asks over a stream), so it waits until
// cancelled.
func (t *task) ask(ctx context.Context, requests map[string]inputRequest) (map[string]json.RawMessage, error) {
	first := ""
	for _, k := range slices.Sorted(maps.Keys(requests)) {
		if m, ok := requests[k].Params["message"].(string); ok {
			first = m
			break
		}
	}
	t.change(func() {
		t.status, t.message = "input_required", first
		if t.form == formExtension {
			t.pending = maps.Clone(requests)
		}
	})
	for {
		t.mu.Lock()
		done := t.form == formExtension && len(t.pending) == 0
		var got map[string]json.RawMessage
		if done {
			got = map[string]json.RawMessage{}
			for k := range requests {
				got[k] = t.answers[k]
				delete(t.answers, k)
			}
		}
		changed := t.changed
		t.mu.Unlock()
		if done {
			t.change(func() { t.status, t.message = "working", "" })
			return got, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-changed:
		}
	}
}

// update delivers tasks/update answers; keys not outstanding are ignored.
func (t *task) update(responses map[string]json.RawMessage) {
	t.change(func() {
		for k, v := range responses {
			if _, ok := t.pending[k]; ok {
				if t.answers == nil {
					t.answers = map[string]json.RawMessage{}
				}
				t.answers[k] = v
				delete(t.pending, k)
			}
		}
	})
}

// snapshot is the task in its form's wire shape. detailed adds what
// tasks/get inlines in the extension form (result, error, inputRequests).
func (t *task) snapshot(pollMs int64, detailed bool) (map[string]any, <-chan struct{}) {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := map[string]any{
		"taskId": t.id, "status": t.status,
		"createdAt": t.created.UTC().Format(time.RFC3339Nano), "lastUpdatedAt": t.updated.UTC().Format(time.RFC3339Nano),
	}
	if t.message != "" {
		m["statusMessage"] = t.message
	}
	if t.form == formCore {
		m["ttl"] = taskTTL.Milliseconds()
		m["pollInterval"] = pollMs
		return m, t.changed
	}
	m["ttlMs"] = taskTTL.Milliseconds()
	m["pollIntervalMs"] = pollMs
	if detailed {
		switch {
		case t.status == "completed" && t.result != nil:
			m["result"] = withResultType(toMap(t.result))
		case t.status == "failed" && t.failure != nil:
			m["error"] = t.failure
		case t.status == "input_required" && len(t.pending) > 0:
			m["inputRequests"] = maps.Clone(t.pending)
		}
	}
	return m, t.changed
}

func (t *task) state() (status string, res *result, failure *rpcError) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.status, t.result, t.failure
}

func toMap(v any) map[string]any {
	b, _ := json.Marshal(v)
	var m map[string]any
	json.Unmarshal(b, &m) //nolint:errcheck // round trip of our own value
	return m
}

// startTask creates a task and starts the tool in it. A repeat of a call
// with the same Idempotency-Key by the same owner gets the task already
// started instead of a new one.
func (s *Server) startTask(owner, key, form string, spec toolSpec, c *call) *task {
	s.mu.Lock()
	if key != "" {
		if t, ok := s.byKey[owner+"\x00"+key]; ok {
			s.mu.Unlock()
			return t
		}
	}
	s.nextTask++
	var parent context.Context = context.Background()
	if sess := s.sessions[owner]; owner != "" && sess != nil {
		parent = sess.ctx
	}
	ctx, cancel := context.WithCancel(parent)
	now := time.Now()
	t := &task{id: fmt.Sprintf("task-%s-%d", randomID()[:8], s.nextTask), owner: owner, form: form, created: now,
		cancel: cancel, status: "working", updated: now, changed: make(chan struct{}), changedHook: s.taskChanged}
	s.tasks[t.id] = t
	if key != "" {
		s.byKey[owner+"\x00"+key] = t
	}
	s.mu.Unlock()
	c.status = t.setMessage
	c.ask = t.ask
	c.notify = func(float64, float64, string) {} // progress is not sent for tasks
	go func() {
		defer cancel()
		r, err := spec.run(ctx, s, c)
		switch {
		case ctx.Err() != nil:
			// cancelled: tasks/cancel (or the session's end) decided the status
			t.markCancelled()
		case err != nil:
			t.finish(nil, toRPCError(err))
		default:
			t.finish(&r, nil)
		}
	}()
	return t
}

// created is the answer to a tools/call that made a task.
func (s *Server) created(t *task) map[string]any {
	snap, _ := t.snapshot(s.opts.PollInterval.Milliseconds(), false)
	if t.form == formCore {
		return map[string]any{"task": snap}
	}
	snap["resultType"] = "task"
	return snap
}

func (s *Server) lookup(owner, id string) (*task, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tasks[id]
	if !ok || t.owner != owner {
		return nil, false
	}
	return t, true
}

type taskParams struct {
	TaskID         string                     `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
}

var errTaskNotFound = errorf(codeInvalidParams, "Invalid params: task not found")

// taskMethod answers tasks/get, tasks/update and tasks/cancel in the
// extension form, and tasks/result, tasks/list in the 2025-11-25 core form.
// The answer is either a result or an error; tasks/result streams itself.
func (s *Server) taskMethod(ctx context.Context, owner, method string, params json.RawMessage) (any, error) {
	pollMs := s.opts.PollInterval.Milliseconds()
	var p taskParams
	if len(params) > 0 {
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, errorf(codeInvalidParams, "Invalid params: %v", err)
		}
	}
	if method == "tasks/list" {
		s.mu.Lock()
		var ts []*task
		for _, t := range s.tasks {
			if t.owner == owner {
				ts = append(ts, t)
			}
		}
		s.mu.Unlock()
		slices.SortFunc(ts, func(a, b *task) int { return a.created.Compare(b.created) })
		out := []map[string]any{}
		for _, t := range ts {
			snap, _ := t.snapshot(pollMs, false)
			out = append(out, snap)
		}
		return map[string]any{"tasks": out}, nil
	}
	if p.TaskID == "" {
		return nil, errorf(codeInvalidParams, "Invalid params: taskId is required")
	}
	t, ok := s.lookup(owner, p.TaskID)
	if !ok {
		return nil, errTaskNotFound
	}
	switch method {
	case "tasks/get":
		snap, _ := t.snapshot(pollMs, true)
		if t.form == formExtension {
			snap["resultType"] = "complete"
		}
		return snap, nil
	case "tasks/update":
		if t.form != formExtension {
			return nil, errorf(codeNoMethod, "Method not found: tasks/update is not part of 2025-11-25 core Tasks")
		}
		t.update(p.InputResponses)
		return map[string]any{"resultType": "complete"}, nil
	case "tasks/cancel":
		if s.opts.CancelDelay > 0 {
			select {
			case <-time.After(s.opts.CancelDelay):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		cancelled := t.markCancelled()
		t.stop()
		if owner == "" {
			// 2026-07-28: an empty acknowledgement, also for a task already
			// ended. (A 2025-11-25 session answers the task, in either form.)
			return map[string]any{"resultType": "complete"}, nil
		}
		if !cancelled {
			status, _, _ := t.state()
			return nil, errorf(codeInvalidParams, "Cannot cancel task: already in terminal status %q", status)
		}
		snap, _ := t.snapshot(pollMs, false)
		return snap, nil
	}
	return nil, errorf(codeNoMethod, "Method not found: %s", method)
}

// coreTaskAnswer is the final message of a tasks/result stream.
func coreTaskAnswer(id json.RawMessage, t *task) map[string]any {
	status, res, failure := t.state()
	switch {
	case status == "completed" && res != nil:
		return map[string]any{"jsonrpc": "2.0", "id": id, "result": res}
	case status == "cancelled":
		return map[string]any{"jsonrpc": "2.0", "id": id, "error": errorf(-32000, "Task cancelled")}
	case failure != nil:
		return map[string]any{"jsonrpc": "2.0", "id": id, "error": errorf(codeInternal, "Task failed: %s", failure.Message)}
	}
	return map[string]any{"jsonrpc": "2.0", "id": id, "error": errorf(codeInternal, "Task failed")}
}

// taskChanged pushes the task's new state to every subscriptions/listen
// stream that asked for it.
func (s *Server) taskChanged(t *task) {
	s.mu.Lock()
	var ls []*listener
	for l := range s.listeners {
		if l.wants(t.id) {
			ls = append(ls, l)
		}
	}
	s.mu.Unlock()
	if len(ls) == 0 {
		return
	}
	snap, _ := t.snapshot(s.opts.PollInterval.Milliseconds(), true)
	for _, l := range ls {
		l.push(snap)
	}
}

// writeTaskAnswer writes a taskMethod answer in the era's HTTP form.
func writeTaskAnswer(w http.ResponseWriter, id json.RawMessage, res any, err error, modern bool) {
	if err != nil {
		e := toRPCError(err)
		status := http.StatusOK
		if modern {
			status = e.status()
		}
		writeRPCError(w, status, id, e)
		return
	}
	writeResult(w, id, res)
}
