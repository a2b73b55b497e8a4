package ui

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/inspector"
	"workrun/workrun"
)

// ErrNeedsSignIn is what a connection test returns (wrapped) when the
// server wants an OAuth sign-in (an MCP server's 401 with a Bearer
// challenge, an agent whose card declares OAuth): the inspector then offers
// Sign in.
var ErrNeedsSignIn = errors.New("the server wants you to sign in")

// SignIn kinds: what the URL is (SignInRequest.Kind); the inspector's own
// names, which its Sign in buttons ask with.
const (
	SignInAgent = inspector.SignInAgent
	SignInMCP   = inspector.SignInMCP
)

// OAuth signs in to remote servers (docs/oauth.md); main.go adapts the
// credentials manager. Nil disables Sign in.
type OAuth interface {
	// SignIn signs in to req.URL in the system browser and saves the OAuth
	// credential req.Name; it returns when the browser came back, the
	// context ended (Cancel) or the time limit passed.
	SignIn(ctx context.Context, req SignInRequest) (SignedIn, error)
}

// SignInRequest is one sign-in the person asked for.
type SignInRequest struct {
	URL, Name string
	Kind      string // SignInAgent, SignInMCP or "" (the server decides)
	// ClientID is a client the person registered beforehand ("" lets the
	// server register Workrun).
	ClientID string
	// Opened is called (off the UI thread) when the sign-in page was
	// handed to the browser.
	Opened func(authURL string)
}

// SignedIn is what a sign-in produced, without its secrets.
type SignedIn struct {
	Origin  string
	Subject string
	Scopes  []string
	Expiry  time.Time
	// ProbeErr: signed in, but the connection test then failed.
	ProbeErr error
}

// signInLimit bounds a sign-in: the browser has this long to come back.
const signInLimit = 3 * time.Minute

// signInView is the Sign in dialog's form; the app layer runs the sign-in.
type signInView struct {
	url, name, client *widget.Entry
	status            *widget.Label
	start, cancel     *widget.Button
	root              fyne.CanvasObject
}

func newSignInView(loc workrun.Localizer, u, name string) *signInView {
	v := &signInView{url: widget.NewEntry(), name: widget.NewEntry(), client: widget.NewEntry(), status: widget.NewLabel("")}
	v.url.SetPlaceHolder(loc.X("signin.url_example", "for example: https://mcp.example.com/mcp"))
	v.url.SetText(u)
	v.name.SetText(name)
	v.client.SetPlaceHolder(loc.X("signin.client_hint", "optional: a client id registered for Workrun"))
	v.status.Wrapping = fyne.TextWrapWord
	v.start = widget.NewButton(loc.X("signin.start", "Sign in"), nil)
	v.start.Importance = widget.HighImportance
	v.cancel = widget.NewButton(loc.X("signin.cancel", "Cancel sign-in"), nil)
	v.cancel.Disable()
	form := widget.NewForm(
		widget.NewFormItem(loc.X("signin.url", "Server URL"), v.url),
		widget.NewFormItem(loc.X("cred.name", "Name"), v.name),
		widget.NewFormItem(loc.X("signin.client", "Client id"), v.client),
	)
	intro := widget.NewLabel(loc.X("signin.intro", "Workrun opens the sign-in page in your browser and waits for it to come back to this computer (127.0.0.1). The tokens are kept only in the OS keyring."))
	intro.Wrapping = fyne.TextWrapWord
	v.root = container.NewVBox(intro, form, container.NewHBox(v.start, v.cancel), v.status)
	return v
}

// defaultCredentialName is a credential name for a server: its host.
func defaultCredentialName(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Hostname() == "" {
		return ""
	}
	return u.Host
}

// signedInText is "Signed in to ORIGIN as … with scopes …".
func signedInText(loc workrun.Localizer, r SignedIn) string {
	s := fmt.Sprintf(loc.X("signin.done", "Signed in to %s"), r.Origin)
	if r.Subject != "" {
		s += " " + fmt.Sprintf(loc.X("signin.as", "as %s"), r.Subject)
	}
	if len(r.Scopes) > 0 {
		s += " " + fmt.Sprintf(loc.X("signin.scopes", "with scopes %s"), strings.Join(r.Scopes, " "))
	}
	if !r.Expiry.IsZero() {
		s += fmt.Sprintf(loc.X("signin.expires2", "; the token expires %s (renewed by itself)"), r.Expiry.Local().Format("2006-01-02 15:04"))
	}
	return "✓ " + s + loc.X("signin.end", ".")
}

// signInErrorText says why a sign-in did not complete.
func signInErrorText(loc workrun.Localizer, err error) string {
	switch {
	case errors.Is(err, context.Canceled):
		return loc.X("signin.cancelled", "Sign-in cancelled.")
	case strings.Contains(err.Error(), "sign-in denied"):
		return "✗ " + loc.X("signin.denied", "The sign-in was denied at the server.") + " (" + err.Error() + ")"
	case strings.Contains(err.Error(), "sign-in timed out"):
		return "✗ " + loc.X("signin.timeout", "The browser did not come back in time; try again.")
	}
	return "✗ " + err.Error()
}

// showSignIn opens the Sign in dialog for u (a node's URL; may be empty)
// and kind; after a sign-in, signedIn gets the credential's name (the
// inspector then chooses it for the node).
func (w *Window) showSignIn(u, kind string, signedIn func(name string)) {
	w.showSignInAs(u, "", kind, signedIn)
}

// showSignInAs is showSignIn saving under name ("" for the server's
// host); it returns the dialog's view (nil when signing in is not
// available).
func (w *Window) showSignInAs(u, name, kind string, signedIn func(name string)) *signInView {
	if w.deps.OAuth == nil {
		w.showError(errors.New(w.loc.X("signin.missing", "signing in is not available in this build")))
		return nil
	}
	if name == "" {
		name = defaultCredentialName(u)
	}
	v := newSignInView(w.loc, u, name)
	v.url.OnChanged = func(s string) {
		if v.name.Text == "" {
			v.name.SetText(defaultCredentialName(s))
		}
	}
	d := dialog.NewCustom(w.loc.X("signin.title", "Sign in"), w.loc.X("close", "Close"), v.root, w.win)
	d.Resize(w.fitDialog(fyne.NewSize(560, 380)))
	var stop context.CancelFunc
	v.cancel.OnTapped = func() {
		if stop != nil {
			stop()
		}
	}
	d.SetOnClosed(func() {
		if stop != nil {
			stop()
		}
	})
	v.start.OnTapped = func() {
		req := SignInRequest{URL: strings.TrimSpace(v.url.Text), Name: strings.TrimSpace(v.name.Text), Kind: kind, ClientID: strings.TrimSpace(v.client.Text)}
		if req.URL == "" || req.Name == "" {
			v.status.SetText("✗ " + w.loc.X("signin.need_url", "enter the server's URL and a name for the credential"))
			return
		}
		ctx, cancel := context.WithTimeout(w.ctx, signInLimit)
		stop = cancel
		v.start.Disable()
		v.cancel.Enable()
		v.status.SetText(w.loc.X("signin.opening", "Opening the sign-in page in your browser…"))
		req.Opened = func(string) {
			w.do(func() {
				v.status.SetText(fmt.Sprintf(w.loc.X("signin.waiting", "Waiting for the browser to come back (up to %d minutes)… Cancel stops waiting."), int(signInLimit/time.Minute)))
			})
		}
		var res SignedIn
		var err error
		w.background(func() {
			defer cancel()
			res, err = w.deps.OAuth.SignIn(ctx, req)
		}, func() {
			stop = nil
			v.start.Enable()
			v.cancel.Disable()
			if err != nil {
				v.status.SetText(signInErrorText(w.loc, err))
				return
			}
			text := signedInText(w.loc, res)
			if res.ProbeErr != nil {
				text += "\n✗ " + w.loc.X("signin.probe_failed", "The connection test after signing in failed:") + " " + res.ProbeErr.Error()
			}
			v.status.SetText(text)
			w.setStatus(text)
			w.loadCredentials()
			if signedIn != nil {
				signedIn(req.Name)
			}
		})
	}
	// Enter in a field signs in, and the cursor starts in the URL.
	submit := func(string) {
		if !v.start.Disabled() {
			v.start.OnTapped()
		}
	}
	v.url.OnSubmitted, v.name.OnSubmitted, v.client.OnSubmitted = submit, submit, submit
	d.Show()
	w.win.Canvas().Focus(v.url)
	return v
}
