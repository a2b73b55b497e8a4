package push

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"workrun/workrun"
)

// fakeStore and fakeEngine are function-field fakes.
type fakeStore struct {
	GetRemoteCallFunc func(run, node, key string) (workrun.RemoteCall, error)
	GetRunFunc        func(id string) (workrun.Run, error)
}

func (f fakeStore) GetRemoteCall(_ context.Context, run, node, key string) (workrun.RemoteCall, error) {
	return f.GetRemoteCallFunc(run, node, key)
}
func (f fakeStore) GetRun(_ context.Context, id string) (workrun.Run, error) { return f.GetRunFunc(id) }

type fakeEngine struct {
	WaitFunc    func(runID string) (workrun.Run, error)
	WaitCtxFunc func(ctx context.Context, runID string) (workrun.Run, error)
	ResumeFunc  func(runID string) error
}

func (f fakeEngine) Wait(ctx context.Context, id string) (workrun.Run, error) {
	if f.WaitCtxFunc != nil {
		return f.WaitCtxFunc(ctx, id)
	}
	return f.WaitFunc(id)
}
func (f fakeEngine) Resume(_ context.Context, id string) error { return f.ResumeFunc(id) }

const testToken = "tok-0123456789abcdef"

// waitStore holds one push wait for run r, node ask, call send, task t1.
func waitStore(state string) fakeStore {
	side, _ := json.Marshal(map[string]string{"token_sha256": tokenHash(testToken)})
	return fakeStore{
		GetRemoteCallFunc: func(run, node, key string) (workrun.RemoteCall, error) {
			switch {
			case run != "r" || node != "ask":
				return workrun.RemoteCall{}, workrun.ErrNotFound
			case key == "send/push":
				return workrun.RemoteCall{RunID: run, NodeID: node, CallKey: key, RemoteState: state, Result: side, Ended: true}, nil
			case key == "send":
				return workrun.RemoteCall{RunID: run, NodeID: node, CallKey: key, TaskID: "t1"}, nil
			}
			return workrun.RemoteCall{}, workrun.ErrNotFound
		},
		GetRunFunc: func(string) (workrun.Run, error) { return workrun.Run{}, workrun.ErrNotFound },
	}
}

type resumes struct {
	mu  sync.Mutex
	ids []string
}

func (r *resumes) engine(status workrun.RunStatus, cause workrun.Interruption) fakeEngine {
	return fakeEngine{
		WaitFunc: func(id string) (workrun.Run, error) {
			return workrun.Run{ID: id, Status: status, Interruption: cause}, nil
		},
		ResumeFunc: func(id string) error {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.ids = append(r.ids, id)
			return nil
		},
	}
}

func (r *resumes) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.ids...)
}

func push(t *testing.T, h http.Handler, path, token, header, body string) int {
	t.Helper()
	req := httptest.NewRequest("POST", path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/a2a+json")
	if token != "" {
		req.Header.Set(header, token)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w.Code
}

const completed = `{"statusUpdate":{"taskId":"t1","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"}}}`

// TestReceive: the answers to pushes, and which resume the run
// (docs/triggers.md P3).
func TestReceive(t *testing.T) {
	cases := []struct {
		name, path, token, header, body string
		state                           string
		want                            int
		resumed                         bool
	}{
		{name: "settling push, js header", path: "/push/r/ask/send", token: testToken, header: "X-A2A-Notification-Token", body: completed, want: 204, resumed: true},
		{name: "settling push, go header", path: "/push/r/ask/send", token: testToken, header: "A2A-Notification-Token", body: completed, want: 204, resumed: true},
		{name: "settling push, bearer", path: "/push/r/ask/send", token: "Bearer " + testToken, header: "Authorization", body: completed, want: 204, resumed: true},
		{name: "input required settles", path: "/push/r/ask/send", token: testToken, header: "X-A2A-Notification-Token", body: `{"task":{"id":"t1","status":{"state":"TASK_STATE_INPUT_REQUIRED"}}}`, want: 204, resumed: true},
		{name: "progress resumes nothing", path: "/push/r/ask/send", token: testToken, header: "X-A2A-Notification-Token", body: `{"statusUpdate":{"taskId":"t1","status":{"state":"TASK_STATE_WORKING"}}}`, want: 204},
		{name: "settled wait resumes nothing", path: "/push/r/ask/send", token: testToken, header: "X-A2A-Notification-Token", body: completed, state: "settled", want: 204},
		{name: "no token", path: "/push/r/ask/send", body: completed, want: 401},
		{name: "wrong token", path: "/push/r/ask/send", token: testToken + "x", header: "X-A2A-Notification-Token", body: completed, want: 401},
		{name: "unknown wait", path: "/push/r/other/send", token: testToken, header: "X-A2A-Notification-Token", body: completed, want: 404},
		{name: "another task", path: "/push/r/ask/send", token: testToken, header: "X-A2A-Notification-Token", body: strings.Replace(completed, "t1", "t9", 1), want: 400},
		{name: "not a stream response", path: "/push/r/ask/send", token: testToken, header: "X-A2A-Notification-Token", body: `{"state":"done"}`, want: 400},
		{name: "too large", path: "/push/r/ask/send", token: testToken, header: "X-A2A-Notification-Token", body: `{"x":"` + strings.Repeat("a", 9<<20) + `"}`, want: 413},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			state := tc.state
			if state == "" {
				state = stateWaiting
			}
			var rs resumes
			r := New(waitStore(state))
			h := r.Handler(rs.engine(workrun.RunInterrupted, workrun.InterruptedByPush), nil)
			if got := push(t, h, tc.path, tc.token, tc.header, tc.body); got != tc.want {
				t.Fatalf("HTTP %d, want %d", got, tc.want)
			}
			r.Close()
			if got := rs.got(); (len(got) == 1 && got[0] == "r") != tc.resumed || len(got) > 1 {
				t.Fatalf("resumed %v, want resumed=%v", got, tc.resumed)
			}
		})
	}
}

// TestReceive_OnlyAPushWaitIsResumed: a run that is no longer waiting by
// push (settled by a read, or stopped) is not resumed by a late push.
func TestReceive_OnlyAPushWaitIsResumed(t *testing.T) {
	for _, st := range []struct {
		status workrun.RunStatus
		cause  workrun.Interruption
	}{{workrun.RunSucceeded, ""}, {workrun.RunInterrupted, workrun.InterruptedByExit}, {workrun.RunStopped, ""}} {
		var rs resumes
		r := New(waitStore(stateWaiting))
		h := r.Handler(rs.engine(st.status, st.cause), nil)
		if got := push(t, h, "/push/r/ask/send", testToken, "X-A2A-Notification-Token", completed); got != 204 {
			t.Fatalf("HTTP %d", got)
		}
		r.Close()
		if got := rs.got(); len(got) != 0 {
			t.Fatalf("run %s/%s resumed", st.status, st.cause)
		}
	}
}

// TestClose_EndsPendingResume: a resume still waiting for its run to
// leave the engine is ended by Close, and resumes nothing (the next start
// reads the task, P5).
func TestClose_EndsPendingResume(t *testing.T) {
	waiting := make(chan struct{})
	var resumed int
	e := fakeEngine{
		WaitCtxFunc: func(ctx context.Context, id string) (workrun.Run, error) {
			close(waiting)
			<-ctx.Done()
			return workrun.Run{}, ctx.Err()
		},
		ResumeFunc: func(string) error { resumed++; return nil },
	}
	r := New(waitStore(stateWaiting))
	h := r.Handler(e, nil)
	if got := push(t, h, "/push/r/ask/send", testToken, "X-A2A-Notification-Token", completed); got != 204 {
		t.Fatalf("HTTP %d", got)
	}
	<-waiting
	done := make(chan struct{})
	go func() { r.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not end the pending resume")
	}
	if resumed != 0 {
		t.Fatal("resumed after Close")
	}
}

// TestEndpoint: no URL without a public URL; the URL escapes each part.
func TestEndpoint(t *testing.T) {
	r := New(waitStore(stateWaiting))
	if u, ok := r.Endpoint("r", "ask", "send"); ok || u != "" {
		t.Fatalf("endpoint without a public url: %q", u)
	}
	for _, bad := range []string{"", "ftp://x", "127.0.0.1:8470", "http://h/?q=1", "http://u:p@h/"} {
		if _, err := r.SetPublicURL(bad); err == nil {
			t.Errorf("SetPublicURL(%q) accepted", bad)
		}
	}
	base, err := r.SetPublicURL("https://serve.example:8443/")
	if err != nil || base != "https://serve.example:8443/push" {
		t.Fatalf("SetPublicURL: %q %v", base, err)
	}
	u, ok := r.Endpoint("run 1", "a/b", "send#2")
	if !ok || u != "https://serve.example:8443/push/run%201/a%2Fb/send%232" {
		t.Fatalf("endpoint %q", u)
	}
	// The receiver finds the wait by the parts as they were.
	var seen []string
	st := fakeStore{GetRemoteCallFunc: func(run, node, key string) (workrun.RemoteCall, error) {
		seen = append(seen, run+"|"+node+"|"+key)
		return workrun.RemoteCall{}, workrun.ErrNotFound
	}}
	h := New(st).Handler(fakeEngine{}, nil)
	if got := push(t, h, strings.TrimPrefix(u, "https://serve.example:8443"), testToken, "X-A2A-Notification-Token", completed); got != 404 {
		t.Fatalf("HTTP %d", got)
	}
	if len(seen) != 1 || seen[0] != "run 1|a/b|send#2/push" {
		t.Fatalf("looked up %q", seen)
	}
}

// TestReceive_GetIs405: only POST is taken.
func TestReceive_GetIs405(t *testing.T) {
	h := New(waitStore(stateWaiting)).Handler(fakeEngine{}, nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/push/r/ask/send", nil))
	if w.Code != http.StatusMethodNotAllowed {
		t.Fatalf("GET: %d", w.Code)
	}
}

// FuzzReceive posts arbitrary bytes with the right token: the receiver
// never panics, answers 204 or 400 (413 only over the cap), and resumes
// the run only for a body that reports the task settled.
func FuzzReceive(f *testing.F) {
	for _, s := range []string{completed,
		`{"statusUpdate":{"taskId":"t1","status":{"state":"TASK_STATE_WORKING"}}}`,
		`{"task":{"id":"t1","status":{"state":"TASK_STATE_FAILED"}}}`,
		`{"artifactUpdate":{"taskId":"t1","artifact":{"artifactId":"a","parts":[]}}}`,
		`{"statusUpdate":{"taskId":"t1"}}`, `{"task":null}`, `null`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var rs resumes
		r := New(waitStore(stateWaiting))
		r.ResumeTimeout = time.Second
		h := r.Handler(rs.engine(workrun.RunInterrupted, workrun.InterruptedByPush), nil)
		code := push(t, h, "/push/r/ask/send", testToken, "X-A2A-Notification-Token", string(body))
		r.Close()
		if code != 204 && code != 400 && code != 413 {
			t.Fatalf("HTTP %d for %q", code, body)
		}
		if code != 204 && len(rs.got()) != 0 {
			t.Fatalf("a refused push resumed the run: %q", body)
		}
		if !json.Valid(body) && code == 204 {
			t.Fatalf("invalid JSON taken: %q", body)
		}
	})
}
