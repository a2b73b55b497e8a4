package trigger

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"workrun/serve"
	"workrun/workrun"
)

type secrets map[string]string

func (s secrets) Get(service, user string) (string, error) {
	if v, ok := s[service+"/"+user]; ok {
		return v, nil
	}
	return "", errors.New("no secret")
}

type tokens map[string]string

func (t tokens) Caller(_ context.Context, secret string) (string, bool) {
	l, ok := t[secret]
	return l, ok
}

// hookRunner is fakeRunner that also waits (its runs complete at once
// when done is set) and remembers inputs.
type hookRunner struct {
	*fakeRunner
	done   bool
	inputs []workrun.Values
}

func (h *hookRunner) Start(ctx context.Context, req serve.StartRequest) (serve.Task, bool, error) {
	t, created, err := h.fakeRunner.Start(ctx, req)
	if created {
		h.inputs = append(h.inputs, req.Inputs)
	}
	return t, created, err
}

func (h *hookRunner) Wait(ctx context.Context, caller, id string) (serve.Task, error) {
	if !h.done {
		<-ctx.Done()
		return serve.Task{}, ctx.Err()
	}
	return serve.Task{ServedTask: workrun.ServedTask{ID: id, RunID: "run-" + id}, State: serve.StateCompleted, Outputs: workrun.Values{"message": "hi"}}, nil
}

func hookPub(t *testing.T, trig string) serve.Publication {
	p := pubWith(t, trig)
	p.Workflow.State = map[string]workrun.FieldType{"name": workrun.FieldText, "message": workrun.FieldText}
	p.Inputs = []serve.Field{{Name: "name", Type: workrun.FieldText}}
	return p
}

func newHooks(t *testing.T, trig string, r WebhookRunner, clk Clock) *Webhooks {
	t.Helper()
	w, err := NewWebhooks(WebhookOptions{Runner: r, Store: newMemStore(), Clock: clk,
		Secrets: secrets{SecretService + "/w": "whsec_test"}, Tokens: tokens{"tok": "caller"}}, []serve.Publication{hookPub(t, trig)})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func post(t *testing.T, h http.Handler, body string, hdr map[string]string) (int, Response) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/webhook/w", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var res Response
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil {
		t.Fatalf("%d %q: %v", rec.Code, rec.Body.String(), err)
	}
	return rec.Code, res
}

// HMAC: a valid signature runs with the JSON fields as inputs; a wrong
// secret, another body, an old timestamp or a replay is 401 and no run;
// the same Idempotency-Key twice makes one run.
func TestWebhookHMAC(t *testing.T) {
	clk := &fakeClock{now: t0}
	r := &hookRunner{fakeRunner: newRunner()}
	w := newHooks(t, `{"type":"webhook"}`, r, clk)
	body := `{"name":"Ada"}`
	sign := func(secret string, at time.Time, b string) map[string]string {
		return map[string]string{SignatureHeader: SignatureValue(secret, at, []byte(b))}
	}
	code, res := post(t, w, body, sign("whsec_test", t0, body))
	if code != http.StatusAccepted || res.TaskID == "" || len(r.inputs) != 1 || r.inputs[0]["name"] != "Ada" {
		t.Fatalf("valid: %d %+v %v", code, res, r.inputs)
	}
	if len(r.vias) != 1 || r.vias[0] != workrun.StartedByWebhook {
		t.Errorf("a webhook run is started via %v, want %q (Run.StartedBy)", r.vias, workrun.StartedByWebhook)
	}
	for name, hdr := range map[string]map[string]string{
		"replay":       sign("whsec_test", t0, body),
		"wrong secret": sign("whsec_other", t0.Add(time.Second), body),
		"other body":   sign("whsec_test", t0.Add(2*time.Second), `{"name":"Bob"}`),
		"too old":      sign("whsec_test", t0.Add(-6*time.Minute), body),
		"too new":      sign("whsec_test", t0.Add(6*time.Minute), body),
		"none":         {},
		"bearer":       {"Authorization": "Bearer tok"},
	} {
		if code, _ := post(t, w, body, hdr); code != http.StatusUnauthorized {
			t.Errorf("%s: %d", name, code)
		}
	}
	if n := len(r.started()); n != 1 {
		t.Fatalf("%d runs after refused requests", n)
	}
	a := sign("whsec_test", t0.Add(10*time.Second), body)
	a[IdempotencyHeader] = "order-1"
	b := sign("whsec_test", t0.Add(11*time.Second), body)
	b[IdempotencyHeader] = "order-1"
	_, ra := post(t, w, body, a)
	code, rb := post(t, w, body, b)
	if code != http.StatusAccepted || ra.TaskID != rb.TaskID || len(r.started()) != 2 {
		t.Fatalf("same Idempotency-Key: %d %+v %+v, runs %v", code, ra, rb, r.started())
	}
	// Within ±5 minutes is accepted.
	if code, _ := post(t, w, body, sign("whsec_test", t0.Add(-4*time.Minute), body)); code != http.StatusAccepted {
		t.Fatalf("4 minutes old: %d", code)
	}
	if code, _ := post(t, w, `[1]`, sign("whsec_test", t0.Add(20*time.Second), `[1]`)); code != http.StatusBadRequest {
		t.Fatalf("array body: %d", code)
	}
	big := `{"name":"` + strings.Repeat("x", MaxBody) + `"}`
	if code, _ := post(t, w, big, sign("whsec_test", t0, big)); code != http.StatusRequestEntityTooLarge {
		t.Fatalf("big body: %d", code)
	}
	req := httptest.NewRequest(http.MethodGet, "/webhook/w", nil)
	rec := httptest.NewRecorder()
	w.ServeHTTP(rec, req)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("GET: %d", rec.Code)
	}
}

func TestWebhookBearerAndWait(t *testing.T) {
	r := &hookRunner{fakeRunner: newRunner(), done: true}
	w := newHooks(t, `{"type":"webhook","auth":"bearer","wait":true,"wait_seconds":1}`, r, &fakeClock{now: t0})
	if code, _ := post(t, w, `{}`, map[string]string{"Authorization": "Bearer nope"}); code != http.StatusUnauthorized {
		t.Fatalf("wrong token: %d", code)
	}
	code, res := post(t, w, `{"name":"Ada"}`, map[string]string{"Authorization": "Bearer tok"})
	if code != http.StatusOK || res.State != serve.StateCompleted || res.Outputs["message"] != "hi" {
		t.Fatalf("wait: %d %+v", code, res)
	}
	// A run that does not end within the bound: 202 with its id.
	r.done = false
	code, res = post(t, w, `{"name":"Bob"}`, map[string]string{"Authorization": "Bearer tok"})
	if code != http.StatusAccepted || res.TaskID == "" {
		t.Fatalf("bounded wait: %d %+v", code, res)
	}
}

type memArtifacts struct{ got []byte }

func (m *memArtifacts) Put(_ context.Context, name, typ string, r io.Reader, _, _ string) (workrun.ArtifactInfo, error) {
	b, err := io.ReadAll(r)
	m.got = b
	return workrun.ArtifactInfo{ID: "art1", Name: name, MediaType: typ}, err
}
func (m *memArtifacts) Stat(context.Context, string) (workrun.ArtifactInfo, error) {
	return workrun.ArtifactInfo{}, workrun.ErrNotFound
}
func (m *memArtifacts) Open(context.Context, string) (io.ReadCloser, workrun.ArtifactInfo, error) {
	return nil, workrun.ArtifactInfo{}, workrun.ErrNotFound
}

// A body of another content type fills the one file input.
func TestWebhookFileBody(t *testing.T) {
	r := &hookRunner{fakeRunner: newRunner()}
	arts := &memArtifacts{}
	p := pubWith(t, `{"type":"webhook","auth":"bearer"}`)
	p.Inputs = []serve.Field{{Name: "doc", Type: workrun.FieldFile}}
	w, err := NewWebhooks(WebhookOptions{Runner: r, Store: newMemStore(), Tokens: tokens{"tok": "c"}, Artifacts: arts}, []serve.Publication{p})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "/webhook/w", bytes.NewReader([]byte("a,b\n1,2\n")))
	req.Header.Set("Content-Type", "text/csv")
	req.Header.Set("Authorization", "Bearer tok")
	rec := httptest.NewRecorder()
	w.ServeHTTP(rec, req)
	if rec.Code != http.StatusAccepted || string(arts.got) != "a,b\n1,2\n" || r.inputs[0]["doc"] != "art1" {
		t.Fatalf("%d %s %v", rec.Code, rec.Body, r.inputs)
	}
}
