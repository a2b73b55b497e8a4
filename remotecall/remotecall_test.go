package remotecall

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
)

// memStore is an in-memory Store keeping every save.
type memStore struct {
	mu    sync.Mutex
	saved []workrun.RemoteCall
}

func (m *memStore) SaveRemoteCall(_ context.Context, c workrun.RemoteCall) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.saved = append(m.saved, c)
	return nil
}

func (m *memStore) GetRemoteCall(context.Context, string, string, string) (workrun.RemoteCall, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.saved) == 0 {
		return workrun.RemoteCall{}, workrun.ErrNotFound
	}
	return m.saved[len(m.saved)-1], nil
}

func TestTimeout(t *testing.T) {
	for _, c := range []struct {
		secs *float64
		want time.Duration
		err  bool
	}{
		{nil, 120 * time.Second, false},
		{new(1.0), time.Second, false},
		{new(600.0), 600 * time.Second, false},
		{new(0.0), 0, true},
		{new(601.0), 0, true},
		{new(2.5), 0, true},
	} {
		got, err := Timeout(c.secs)
		if got != c.want || (err != nil) != c.err {
			t.Errorf("Timeout(%v) = %v, %v", c.secs, got, err)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "timeout_seconds: ") {
			t.Errorf("error %q does not name the key", err)
		}
	}
}

func TestCheckURL(t *testing.T) {
	for _, c := range []struct {
		url      string
		withCred bool
		want     string // part of the error; "" for none
	}{
		{"https://agent.example/", true, ""},
		{"http://127.0.0.1:1/", false, ""},
		{" ", false, "url is required"},
		{"ftp://x/", false, `url "ftp://x/" is not an absolute http(s) URL of a service`},
		{"https://u:p@x/", false, "must not carry a user name or password"},
		{"http://agent.example/", true, "use https for agent.example"},
	} {
		err := CheckURL(c.url, "a service", c.withCred)
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("CheckURL(%q, %v) = %v, want %q", c.url, c.withCred, err, c.want)
		}
	}
}

type credFunc func(ctx context.Context, name string) (string, error)

func (f credFunc) Credential(ctx context.Context, name string) (string, error) { return f(ctx, name) }

func TestNamedCredential(t *testing.T) {
	src := credFunc(func(_ context.Context, name string) (string, error) {
		if name == "k" {
			return "secret", nil
		}
		return "", workrun.ErrNotFound
	})
	if c, err := NamedCredential[string](t.Context(), src, ""); c != nil || err != nil {
		t.Errorf("no name: %v, %v", c, err)
	}
	if c, err := NamedCredential[string](t.Context(), src, "k"); err != nil || *c != "secret" {
		t.Errorf("k: %v, %v", c, err)
	}
	if _, err := NamedCredential[string](t.Context(), src, "x"); !errors.Is(err, workrun.ErrNotFound) || !strings.Contains(err.Error(), `credential "x"`) {
		t.Errorf("unknown: %v", err)
	}
	if _, err := NamedCredential[string](t.Context(), nil, "k"); err == nil || !strings.Contains(err.Error(), "no credential store") {
		t.Errorf("no store: %v", err)
	}
}

// TestAbortTable: the rows that send nothing, the one without a task id,
// and one cancel with its lines in order; after the snapshot nothing more
// is saved, and a second Abort does nothing.
func TestAbortTable(t *testing.T) {
	working := workrun.RemoteCall{TaskID: "t1", RemoteState: "working"}
	for _, c := range []struct {
		name        string
		rec         workrun.RemoteCall
		saved       bool
		wantCancels int
		wantLines   []string
		wantOutcome string
	}{
		{"never sent", working, false, 0, nil, ""},
		{"ended", workrun.RemoteCall{TaskID: "t1", RemoteState: "working", Ended: true}, true, 0, nil, ""},
		{"terminal state", workrun.RemoteCall{TaskID: "t1", RemoteState: "done"}, true, 0, nil, ""},
		{"cancel already sent", workrun.RemoteCall{TaskID: "t1", RemoteState: "working", CancelOutcome: CancelUnconfirmed}, true, 0, nil, CancelUnconfirmed},
		{"no task id", workrun.RemoteCall{}, true, 0, []string{"unknown"}, CancelSubmissionUnknown},
		{"working", working, true, 1, []string{"requesting", "canceled"}, CancelCanceled},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := &memStore{}
			call := &Call[string]{store: st, rec: c.rec, saved: c.saved}
			var (
				mu    sync.Mutex
				lines []string
			)
			cancels := 0
			k := Canceler[string]{
				Ended: func(s string) bool { return s == "done" },
				Cancel: func(context.Context, string, workrun.RemoteCall) Answer {
					cancels++
					return Answer{Outcome: CancelCanceled, Msg: workrun.Plain("canceled"), State: "done", Ended: true}
				},
				Timeout:           time.Second,
				Log:               func(m workrun.Text) { mu.Lock(); lines = append(lines, m.String()); mu.Unlock() },
				SubmissionUnknown: workrun.Plain("unknown"),
				Requesting:        workrun.Plain("requesting"),
				CancelError:       func(err error) workrun.Text { return workrun.Plain(err.Error()) },
				SaveFailed:        func(err error) workrun.Text { return workrun.Plain(err.Error()) },
			}
			call.Abort(t.Context(), k)
			call.Abort(t.Context(), k)
			if cancels != c.wantCancels {
				t.Errorf("cancels = %d, want %d", cancels, c.wantCancels)
			}
			if diff := cmp.Diff(c.wantLines, lines); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
			if got := call.Record().CancelOutcome; got != c.wantOutcome {
				t.Errorf("outcome = %q, want %q", got, c.wantOutcome)
			}
			if err := call.Update(t.Context(), func(*workrun.RemoteCall) {}); !errors.Is(err, ErrAborted) {
				t.Errorf("Update after the abort = %v, want ErrAborted", err)
			}
		})
	}
}

func TestOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"HTTPS://Agent.Example/a2a": "https://agent.example:443",
		"http://127.0.0.1/":         "http://127.0.0.1:80",
		"http://[::1]:8080/x":       "http://[::1]:8080",
	} {
		if got, err := ParseOrigin(in); got.String() != want || err != nil {
			t.Errorf("ParseOrigin(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseOrigin("/relative"); err == nil {
		t.Error("a relative URL has an origin")
	}
}
