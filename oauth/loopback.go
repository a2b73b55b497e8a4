package oauth

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"time"
)

// Redirect is what the browser brought back to the loopback listener.
type Redirect struct {
	Code string
	Iss  string
	// HasIss tells an absent iss from an empty one.
	HasIss bool
}

// Listener is the loopback redirect endpoint of one sign-in (RFC 8252
// §7.3): it binds 127.0.0.1 on a free port, accepts the first request to
// its path whose state matches, and closes at once.
type Listener struct {
	ln    net.Listener
	srv   *http.Server
	state string
	got   chan redirectResult
}

type redirectResult struct {
	r   Redirect
	err error
}

const callbackPath = "/callback"

// Listen opens the listener for a sign-in that sends state.
func Listen(state string) (*Listener, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("open the sign-in redirect listener: %w", err)
	}
	l := &Listener{ln: ln, state: state, got: make(chan redirectResult, 1)}
	l.srv = &http.Server{Handler: http.HandlerFunc(l.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = l.srv.Serve(ln) }() // Serve ends with ErrServerClosed when Close runs
	return l, nil
}

// RedirectURI is the redirect_uri to register and send.
func (l *Listener) RedirectURI() string {
	return "http://" + l.ln.Addr().String() + callbackPath
}

func (l *Listener) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != callbackPath || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	if q.Get("state") != l.state {
		// Not ours (or forged): ignored, the listener keeps waiting.
		http.Error(w, "wrong state", http.StatusBadRequest)
		return
	}
	var res redirectResult
	switch {
	case q.Get("error") != "":
		desc := q.Get("error")
		if d := q.Get("error_description"); d != "" {
			desc += ": " + d
		}
		res.err = fmt.Errorf("%w: %s", ErrDenied, clip(desc))
	case q.Get("code") == "":
		res.err = fmt.Errorf("%w: the redirect carries no code", ErrDenied)
	default:
		res.r = Redirect{Code: q.Get("code"), Iss: q.Get("iss"), HasIss: q.Has("iss")}
	}
	select {
	case l.got <- res:
	default: // a second request with the right state: the first one counts
		http.Error(w, "already answered", http.StatusGone)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	msg := "Signed in. You can close this tab and return to Workrun."
	if res.err != nil {
		msg = "Sign-in did not complete: " + res.err.Error()
	}
	fmt.Fprintf(w, "<!doctype html><title>Workrun</title><p>%s</p>", html.EscapeString(msg))
}

// Wait returns the redirect, or an error when ctx ends (cancel) or timeout
// passes first. The listener is closed when Wait returns.
func (l *Listener) Wait(ctx context.Context, timeout time.Duration) (Redirect, error) {
	defer l.Close()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case res := <-l.got:
		return res.r, res.err
	case <-t.C:
		return Redirect{}, fmt.Errorf("%w after %s", ErrSignInTimeout, timeout)
	case <-ctx.Done():
		return Redirect{}, fmt.Errorf("sign-in: %w", context.Cause(ctx))
	}
}

// Close stops listening; safe to call more than once.
func (l *Listener) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := l.srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		_ = l.srv.Close()
	}
}

// checkIss applies RFC 9207 to a redirect: a present iss must equal the
// issuer exactly; an absent one is refused when the server says it sends it.
func checkIss(r Redirect, m ServerMetadata) error {
	if r.HasIss {
		if r.Iss != m.Issuer {
			return fmt.Errorf("%w: the redirect says %q, expected %q", ErrIssuerMismatch, clip(r.Iss), m.Issuer)
		}
		return nil
	}
	if m.IssParameterSupported {
		return fmt.Errorf("%w: the server promised iss in the redirect and sent none", ErrIssuerMismatch)
	}
	return nil
}
