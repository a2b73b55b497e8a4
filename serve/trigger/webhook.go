package trigger

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"workrun/remotecall"

	"github.com/google/uuid"

	"workrun/serve"
	"workrun/workrun"
)

// WebhookRunner starts served runs and waits for them; *serve.Service
// implements it.
type WebhookRunner interface {
	Start(ctx context.Context, req serve.StartRequest) (serve.Task, bool, error)
	Wait(ctx context.Context, caller, id string) (serve.Task, error)
}

// SecretReader reads a webhook's secret (credentials.OSKeyring).
type SecretReader interface {
	Get(service, user string) (string, error)
}

// TokenChecker authenticates a serve token (*serve.Tokens).
type TokenChecker interface {
	Caller(ctx context.Context, secret string) (string, bool)
}

// MaxBody is the largest webhook body taken (T8); a larger one is 413.
const MaxBody = 1 << 20

// IdempotencyHeader names the sender's idempotency key (T8).
const IdempotencyHeader = "Idempotency-Key"

// WebhookOptions configure Webhooks.
type WebhookOptions struct {
	Runner    WebhookRunner
	Store     Store // SeeSignature: replays
	Secrets   SecretReader
	Tokens    TokenChecker // nil: bearer webhooks refuse every request
	Artifacts workrun.ArtifactStore
	Clock     Clock
	Logger    *slog.Logger
}

type hook struct {
	pub  serve.Publication
	trig workrun.Trigger
}

// Webhooks serves POST /webhook/{publication} for the publications with
// a webhook trigger.
type Webhooks struct {
	opts  WebhookOptions
	hooks map[string]hook
	order []string
}

// NewWebhooks reads the webhook triggers of pubs.
func NewWebhooks(opts WebhookOptions, pubs []serve.Publication) (*Webhooks, error) {
	if opts.Clock == nil {
		opts.Clock = SystemClock{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	w := &Webhooks{opts: opts, hooks: map[string]hook{}}
	for _, p := range pubs {
		ts, err := workrun.Triggers(p.Workflow)
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			if t.Type == workrun.TriggerWebhook {
				w.hooks[p.ID] = hook{pub: p, trig: t}
				w.order = append(w.order, p.ID)
			}
		}
	}
	return w, nil
}

// Prefix is the path the webhooks are under.
const Prefix = "/webhook/"

// IDs lists the publications that have a webhook, in order.
func (w *Webhooks) IDs() []string { return w.order }

// Auth is the authentication a publication's webhook takes.
func (w *Webhooks) Auth(id string) string { return w.hooks[id].trig.AuthMethod() }

// WebhookCaller is the serve caller of a webhook's runs: keys are one
// namespace per webhook.
func WebhookCaller(id string) string { return "trigger:webhook:" + id }

// Response is a webhook's JSON answer.
type Response struct {
	TaskID  string         `json:"task_id,omitempty"`
	RunID   string         `json:"run_id,omitempty"`
	State   serve.State    `json:"state,omitempty"`
	Outputs workrun.Values `json:"outputs,omitempty"`
	Reason  string         `json:"reason,omitempty"`
	Error   string         `json:"error,omitempty"`
}

func reply(rw http.ResponseWriter, code int, r Response) {
	rw.Header().Set("Content-Type", "application/json")
	rw.WriteHeader(code)
	json.NewEncoder(rw).Encode(r) //nolint:errcheck // the sender went away: nothing to tell it
}

// ServeHTTP handles POST /webhook/{id} (T5–T8).
func (w *Webhooks) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	id := strings.TrimPrefix(r.URL.Path, Prefix)
	h, ok := w.hooks[id]
	if !ok || strings.Contains(id, "/") {
		reply(rw, http.StatusNotFound, Response{Error: "no such webhook"})
		return
	}
	if r.Method != http.MethodPost {
		rw.Header().Set("Allow", http.MethodPost)
		reply(rw, http.StatusMethodNotAllowed, Response{Error: "POST only"})
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(rw, r.Body, MaxBody))
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			reply(rw, http.StatusRequestEntityTooLarge, Response{Error: "the body is larger than 1 MiB"})
			return
		}
		reply(rw, http.StatusBadRequest, Response{Error: "the body could not be read"})
		return
	}
	if !w.authenticate(r, h, body) {
		rw.Header().Set("WWW-Authenticate", `Bearer realm="workrun"`)
		reply(rw, http.StatusUnauthorized, Response{Error: "not authenticated"})
		return
	}
	in, code, msg := w.inputs(r, h, body)
	if code != 0 {
		reply(rw, code, Response{Error: msg})
		return
	}
	key := r.Header.Get(IdempotencyHeader)
	if len(key) > 200 {
		reply(rw, http.StatusBadRequest, Response{Error: "Idempotency-Key is longer than 200 characters"})
		return
	}
	if key == "" {
		key = "req:" + uuid.NewString()
	} else {
		key = "key:" + key
	}
	caller := WebhookCaller(id)
	t, _, err := w.opts.Runner.Start(r.Context(), serve.StartRequest{Caller: caller, Publication: id, Key: key, Inputs: in, Via: workrun.StartedByWebhook})
	if err != nil {
		if errors.Is(err, serve.ErrBadInput) {
			reply(rw, http.StatusBadRequest, Response{Error: err.Error()})
			return
		}
		w.opts.Logger.Warn("webhook start", "webhook", id, "err", err)
		reply(rw, http.StatusInternalServerError, Response{Error: "the run could not be started"})
		return
	}
	if d := h.trig.WaitFor(); d > 0 && !t.State.Final() {
		ctx, cancel := context.WithTimeout(r.Context(), d)
		done, err := w.opts.Runner.Wait(ctx, caller, t.ID)
		cancel()
		if err == nil {
			t = done
		}
	}
	res := Response{TaskID: t.ID, RunID: t.RunID, State: t.State}
	if h.trig.WaitFor() > 0 && t.State.Final() {
		res.Outputs, res.Reason = t.Outputs, t.Reason
		reply(rw, http.StatusOK, res)
		return
	}
	reply(rw, http.StatusAccepted, res)
}

// authenticate checks a bearer token or the HMAC signature (T6, T7).
func (w *Webhooks) authenticate(r *http.Request, h hook, body []byte) bool {
	if h.trig.AuthMethod() == workrun.WebhookBearer {
		tok, ok := remotecall.RequestBearer(r)
		if !ok || w.opts.Tokens == nil {
			return false
		}
		_, ok = w.opts.Tokens.Caller(r.Context(), tok)
		return ok
	}
	sig, err := ParseSignature(r.Header.Get(SignatureHeader))
	if err != nil {
		return false
	}
	if d := w.opts.Clock.Now().Sub(sig.Time); d > SignatureWindow || d < -SignatureWindow {
		return false
	}
	secret, err := w.opts.Secrets.Get(SecretService, h.pub.ID)
	if err != nil || secret == "" {
		w.opts.Logger.Warn("webhook secret", "webhook", h.pub.ID, "err", err)
		return false
	}
	mac, ok := sig.Verify(secret, body)
	if !ok {
		return false
	}
	fresh, err := w.opts.Store.SeeSignature(r.Context(), h.pub.ID, mac)
	if err != nil {
		w.opts.Logger.Warn("webhook signature", "webhook", h.pub.ID, "err", err)
		return false
	}
	return fresh
}

// inputs maps the body to run inputs: a JSON object's members by field
// name; any other content type is the publication's one file input (T5).
func (w *Webhooks) inputs(r *http.Request, h hook, body []byte) (workrun.Values, int, string) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		mt = "application/octet-stream"
	}
	if mt == "application/json" || strings.HasSuffix(mt, "+json") {
		in := workrun.Values{}
		if len(bytes.TrimSpace(body)) == 0 {
			return in, 0, ""
		}
		var obj map[string]any
		if err := json.Unmarshal(body, &obj); err != nil || obj == nil {
			return nil, http.StatusBadRequest, "a JSON body must be an object of input fields"
		}
		for k, v := range obj {
			in[k] = v
		}
		return in, 0, ""
	}
	var files []serve.Field
	for _, f := range h.pub.Inputs {
		if f.Type == workrun.FieldFile {
			files = append(files, f)
		}
	}
	if len(files) != 1 || w.opts.Artifacts == nil {
		return nil, http.StatusUnsupportedMediaType, "this webhook takes a JSON object (it has no single file input)"
	}
	info, err := w.opts.Artifacts.Put(r.Context(), files[0].Name, mt, bytes.NewReader(body), "", "")
	if err != nil {
		return nil, http.StatusUnsupportedMediaType, "the file was not accepted"
	}
	return workrun.Values{files[0].Name: info.ID}, 0, ""
}

// compile-time checks: the serve core is both runners.
var (
	_ Runner        = (*serve.Service)(nil)
	_ WebhookRunner = (*serve.Service)(nil)
	_ TokenChecker  = (*serve.Tokens)(nil)
)
