package push

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"workrun/a2a"
	"workrun/remotecall"
	"workrun/workrun"
)

// Path is where the receiver is mounted under serve's base URL.
const Path = "/push/"

// Side record names, as nodes/remoteagent writes them (PushSide,
// PushWaiting); repeated here because serve never imports a node kind.
const (
	sideSuffix   = "push"
	stateWaiting = "waiting"
)

// Errors of SetPublicURL.
var ErrBadPublicURL = errors.New("the public URL must be an absolute http or https URL without query or fragment")

// Store reads the call records; *store.Store implements it.
type Store interface {
	GetRemoteCall(ctx context.Context, runID, nodeID, callKey string) (workrun.RemoteCall, error)
	GetRun(ctx context.Context, id string) (workrun.Run, error)
}

// Engine resumes a run; *workrun.Engine implements it.
type Engine interface {
	Wait(ctx context.Context, runID string) (workrun.Run, error)
	Resume(ctx context.Context, runID string) error
}

// Receiver hands out push URLs and takes the pushes.
type Receiver struct {
	store Store

	mu     sync.Mutex
	base   string
	engine Engine
	log    *slog.Logger
	// resumes counts the resumes in flight; Close ends them (stop) and
	// waits for them.
	resumes sync.WaitGroup
	stopCtx context.Context
	stop    context.CancelFunc
	// ResumeTimeout bounds one resume after a settling push (waiting for
	// the run to leave this process, then Resume); 0 means 2 minutes.
	ResumeTimeout time.Duration
}

// New returns a receiver with no public URL: Endpoint answers nothing.
func New(st Store) *Receiver {
	ctx, stop := context.WithCancel(context.Background())
	return &Receiver{store: st, log: slog.New(slog.DiscardHandler), stopCtx: ctx, stop: stop}
}

// SetPublicURL makes the receiver reachable at base (serve's URL as the
// agents see it) and returns the receiver's own URL.
func (r *Receiver) SetPublicURL(base string) (string, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("public url %q: %w", base, ErrBadPublicURL)
	}
	r.mu.Lock()
	r.base = strings.TrimSuffix(u.String(), "/")
	r.mu.Unlock()
	return r.base + strings.TrimSuffix(Path, "/"), nil
}

// Endpoint implements nodes/remoteagent.PushEndpoints: the URL an agent
// pushes one call's updates to; ok is false without a public URL.
func (r *Receiver) Endpoint(runID, nodeID, callKey string) (string, bool) {
	r.mu.Lock()
	base := r.base
	r.mu.Unlock()
	if base == "" {
		return "", false
	}
	u, err := url.JoinPath(base, strings.Trim(Path, "/"), url.PathEscape(runID), url.PathEscape(nodeID), url.PathEscape(callKey))
	if err != nil {
		return "", false
	}
	return u, true
}

// Handler serves the pushes; e resumes the runs they settle, log gets
// the failures a pusher is not told.
func (r *Receiver) Handler(e Engine, log *slog.Logger) http.Handler {
	r.mu.Lock()
	r.engine = e
	if log != nil {
		r.log = log
	}
	r.mu.Unlock()
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+Path+"{run}/{node}/{key}", r.receive)
	mux.HandleFunc(Path, func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		http.NotFound(w, req)
	})
	return mux
}

// Close ends the resumes in flight (a run not resumed yet is resumed by
// the next start, P5) and waits for them; call it after the HTTP server
// stopped and before the engine closes.
func (r *Receiver) Close() {
	r.stop()
	r.resumes.Wait()
}

// presentedToken is the token a push carries: an SDK token header, or
// Authorization: Bearer.
func presentedToken(h http.Header) string {
	for _, name := range a2a.PushTokenHeaders {
		if v := h.Get(name); v != "" {
			return v
		}
	}
	if v, ok := remotecall.RequestBearer(&http.Request{Header: h}); ok {
		return v
	}
	return ""
}

// receive takes one push (P3).
func (r *Receiver) receive(w http.ResponseWriter, req *http.Request) {
	ctx := req.Context()
	runID, nodeID, key := req.PathValue("run"), req.PathValue("node"), req.PathValue("key")
	side, err := r.store.GetRemoteCall(ctx, runID, nodeID, remotecall.SideKey(key, sideSuffix))
	switch {
	case errors.Is(err, workrun.ErrNotFound):
		http.NotFound(w, req)
		return
	case err != nil:
		r.log.Error("push: read wait", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	if !tokenMatches(side.Result, presentedToken(req.Header)) {
		w.Header().Set("WWW-Authenticate", "Bearer")
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, a2a.MaxPushBytes))
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "unreadable body", http.StatusBadRequest)
		return
	}
	u, err := a2a.ParsePush(body)
	if err != nil {
		http.Error(w, "not an A2A StreamResponse naming a task", http.StatusBadRequest)
		return
	}
	main, err := r.store.GetRemoteCall(ctx, runID, nodeID, key)
	if err != nil {
		r.log.Error("push: read call", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	if main.TaskID != "" && main.TaskID != u.TaskID {
		http.Error(w, "the push names another task", http.StatusBadRequest)
		return
	}
	w.WriteHeader(http.StatusNoContent)
	if !u.Settles() || side.RemoteState != stateWaiting {
		return // progress, or a wait already settled: nothing to do
	}
	r.resumes.Add(1)
	go r.resume(r.stopCtx, runID)
}

// resume resumes the run a settling push names, once it is no longer
// going on here (the node may still be returning its wait).
func (r *Receiver) resume(ctx context.Context, runID string) {
	defer r.resumes.Done()
	r.mu.Lock()
	e := r.engine
	r.mu.Unlock()
	if e == nil {
		return
	}
	bound := r.ResumeTimeout
	if bound <= 0 {
		bound = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	run, err := e.Wait(ctx, runID)
	if err != nil {
		r.log.Error("push: wait for run", "run", runID, "err", err)
		return
	}
	if run.Status != workrun.RunInterrupted || run.Interruption != workrun.InterruptedByPush {
		return // settled already, or another process has it
	}
	err = e.Resume(ctx, runID)
	var ce *workrun.ClaimError
	if errors.As(err, &ce) || errors.Is(err, workrun.ErrRunActive) {
		return // resumed by someone else first
	}
	if err != nil {
		r.log.Error("push: resume", "run", runID, "err", err)
	}
}

// tokenMatches compares the presented token's hash with the saved one in
// constant time.
func tokenMatches(saved []byte, token string) bool {
	want, ok := savedHash(saved)
	if !ok || token == "" {
		return false
	}
	got := tokenHash(token)
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}
