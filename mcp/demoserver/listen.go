package demoserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Mux serves the demo server at Path and a short note at /.
func (s *Server) Mux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle(Path, s)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("Workrun demo MCP server: POST MCP requests to " + Path + "\n")) //nolint:errcheck // the client went away
	})
	return mux
}

// Serve serves on l until ctx ends, then shuts down within 5 s.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	hs := &http.Server{Handler: s.Mux(), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(l) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	s.Close()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	err := hs.Shutdown(sctx)
	if e := <-done; e != nil && !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}

// sseWriter writes one SSE response (2026-07-28 streams are not resumable,
// so events carry no ids).
type sseWriter struct {
	mu sync.Mutex
	w  http.ResponseWriter
	fl http.Flusher
}

func newSSEWriter(w http.ResponseWriter) *sseWriter {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	if fl != nil {
		fl.Flush()
	}
	return &sseWriter{w: w, fl: fl}
}

// send writes one event; id and retry are left out when empty.
func (s *sseWriter) send(id, retry string, v any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	if id != "" {
		fmt.Fprintf(&b, "id: %s\n", id)
	}
	if retry != "" {
		fmt.Fprintf(&b, "retry: %s\n", retry)
	}
	if v == nil {
		b.WriteString("data: \n\n")
	} else {
		data, _ := json.Marshal(v)
		fmt.Fprintf(&b, "event: message\ndata: %s\n\n", data)
	}
	io.WriteString(s.w, b.String()) //nolint:errcheck // the client went away; the request context ends
	if s.fl != nil {
		s.fl.Flush()
	}
}

// listener is one open subscriptions/listen stream.
type listener struct {
	id      json.RawMessage
	taskIDs map[string]bool
	events  chan map[string]any
	done    chan struct{}
	once    sync.Once
}

func (l *listener) wants(taskID string) bool { return l.taskIDs[taskID] }

func (l *listener) close() { l.once.Do(func() { close(l.done) }) }

// push queues a task's state; a listener that cannot keep up loses the
// oldest queued state (the next one supersedes it anyway).
func (l *listener) push(snap map[string]any) {
	for {
		select {
		case l.events <- snap:
			return
		case <-l.done:
			return
		default:
			select {
			case <-l.events:
			default:
			}
		}
	}
}

// listen serves subscriptions/listen: an SSE stream that opens with
// notifications/subscriptions/acknowledged and then carries
// notifications/tasks for the task ids asked for (docs/demo-mcp.md).
func (s *Server) listen(w http.ResponseWriter, r *http.Request, msg *rpcMessage, env envelope) {
	var p struct {
		Notifications *struct {
			TaskIDs []string `json:"taskIds"`
		} `json:"notifications"`
	}
	if json.Unmarshal(msg.Params, &p) != nil || p.Notifications == nil {
		e := errorf(codeInvalidParams, "Invalid params: subscriptions/listen needs params.notifications")
		writeRPCError(w, http.StatusBadRequest, msg.ID, e)
		return
	}
	if len(p.Notifications.TaskIDs) > 0 && !env.DeclaresExtension(TasksExtension) {
		e := missingTasks("task notifications")
		writeRPCError(w, e.status(), msg.ID, e)
		return
	}
	l := &listener{id: msg.ID, taskIDs: map[string]bool{}, events: make(chan map[string]any, 64), done: make(chan struct{})}
	var accepted []string
	var current []*task
	for _, id := range p.Notifications.TaskIDs {
		if t, ok := s.lookup("", id); ok && !l.taskIDs[id] {
			l.taskIDs[id] = true
			accepted = append(accepted, id)
			current = append(current, t)
		}
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		writeStatusError(w, http.StatusServiceUnavailable, msg.ID, codeInternal, "the server is closing")
		return
	}
	s.listeners[l] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.listeners, l)
		s.mu.Unlock()
		l.close()
	}()
	sub := map[string]any{metaSubscription: msg.ID}
	out := newSSEWriter(w)
	filter := map[string]any{}
	if len(accepted) > 0 {
		filter["taskIds"] = accepted
	}
	out.send("", "", map[string]any{"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
		"params": map[string]any{"notifications": filter, "_meta": sub}})
	// The state at subscription time first, so a task that ended between
	// its creation and the subscription is not missed.
	for _, t := range current {
		snap, _ := t.snapshot(s.opts.PollInterval.Milliseconds(), true)
		l.push(snap)
	}
	for {
		select {
		case snap := <-l.events:
			params := maps.Clone(snap)
			params["_meta"] = sub
			out.send("", "", map[string]any{"jsonrpc": "2.0", "method": "notifications/tasks", "params": params})
		case <-l.done:
			// The server is closing: end the subscription gracefully.
			out.send("", "", map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": map[string]any{"resultType": "complete", "_meta": sub}})
			return
		case <-r.Context().Done():
			return
		}
	}
}
