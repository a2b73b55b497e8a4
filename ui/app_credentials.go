package ui

import (
	"context"
	"errors"
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"workrun/ui/credentials"
	"workrun/ui/document"
	"workrun/workrun"
)

// keyringTimeout bounds one keyring call: a Secret Service may block on
// D-Bus (an unlock prompt nobody answers).
const keyringTimeout = 30 * time.Second

// showCredentials opens Settings → Credentials.
func (w *Window) showCredentials() {
	if w.deps.Credentials == nil {
		w.showError(errors.New(w.loc.X("cred.missing", "credentials are not available in this build")))
		return
	}
	v := w.newCredentialsView()
	d := dialog.NewCustom(credentialsTitle(w.loc), w.loc.X("close", "Close"), v.Object(), w.win)
	d.Resize(w.fitDialog(fyne.NewSize(680, 620)))
	d.Show()
	w.credView = v
	w.reloadCredentials(v)
	// The list is the data directory's index and reads without a keyring:
	// whether there is one to save into is said before Save, not after.
	if check := w.deps.About.CheckKeyring; check != nil {
		var err error
		w.background(func() { err = check() }, func() {
			if err != nil {
				v.Say(KeyringErrorText(w.loc, err))
			}
		})
	}
}

// newCredentialsView makes the credentials dialog's view with its events
// wired to the keyring. A saved or deleted credential counts at once: in
// the list Run checks, and in the Remote Agent picker of the node shown.
func (w *Window) newCredentialsView() *credentials.View {
	v := credentials.New(w.win, w.loc)
	if check := w.deps.CheckOrigin; check != nil {
		v.CheckOrigin = func(raw string) (string, error) { return checkOriginWords(w.loc, check, raw) }
	}
	if w.deps.OAuth != nil {
		v.OnSignIn = func() { w.showSignIn("", "", func(string) { w.reloadCredentials(v); w.insp.RefreshCredentials() }) }
	}
	changed := func(cs []Credential) {
		w.rs.creds = cs
		w.insp.Show()
		w.insp.RefreshCredentials()
	}
	v.OnSave = func(c Credential, secret string) {
		w.keyring(func(ctx context.Context) (func(), error) {
			if err := w.deps.Credentials.Set(ctx, c, secret); err != nil {
				return nil, err
			}
			cs, err := w.deps.Credentials.List(ctx)
			return func() { v.Saved(c.Name, cs); changed(cs) }, err
		}, v)
	}
	v.OnDelete = func(name string) {
		w.keyring(func(ctx context.Context) (func(), error) {
			if err := w.deps.Credentials.Delete(ctx, name); err != nil {
				return nil, err
			}
			cs, err := w.deps.Credentials.List(ctx)
			return func() { v.Deleted(name, cs); changed(cs) }, err
		}, v)
	}
	return v
}

// reloadCredentials lists the credentials in v again.
func (w *Window) reloadCredentials(v *credentials.View) {
	w.keyring(func(ctx context.Context) (func(), error) {
		cs, err := w.deps.Credentials.List(ctx)
		return func() { v.SetList(cs) }, err
	}, v)
}

// keyring runs a keyring call off the UI thread, bounded and ended with
// the window, then applies what it returned on the UI thread; a failure is
// shown in v (after what the call managed to apply).
func (w *Window) keyring(call func(ctx context.Context) (func(), error), v *credentials.View) {
	var apply func()
	var err error
	w.background(func() {
		ctx, cancel := context.WithTimeout(w.ctx, keyringTimeout)
		defer cancel()
		apply, err = call(ctx)
	}, func() {
		if apply != nil {
			apply()
		}
		if err != nil {
			v.Say(KeyringErrorText(w.loc, err))
		}
		v.Finished()
	})
}

// KeyringErrorText says plainly what went wrong with the keyring.
func KeyringErrorText(loc workrun.Localizer, err error) string {
	if errors.Is(err, ErrNoKeyring) {
		return loc.X("cred.no_keyring", "No OS keyring is available, so secrets cannot be saved. Start a Secret Service (for example gnome-keyring) and try again.")
	}
	return err.Error()
}

// checkOriginWords checks a typed origin with the remote layer's rule
// (Deps.CheckOrigin) and words a refusal that carries its own sentence
// (workrun.TextError) in the window's language.
func checkOriginWords(loc workrun.Localizer, check func(string) (string, error), raw string) (string, error) {
	origin, err := check(raw)
	var te *workrun.TextError
	if errors.As(err, &te) {
		return "", errors.New(te.Text.In(loc.Messages()))
	}
	return origin, err
}

// loadCredentials reads the credential list off the UI thread, so Run can
// name missing credentials before anything starts.
func (w *Window) loadCredentials() {
	if w.deps.Credentials == nil {
		return
	}
	var cs []Credential
	var err error
	w.background(func() {
		ctx, cancel := context.WithTimeout(w.ctx, keyringTimeout)
		defer cancel()
		cs, err = w.deps.Credentials.List(ctx)
	}, func() {
		if err != nil {
			w.setStatus(KeyringErrorText(w.loc, err))
			return
		}
		if cs == nil {
			cs = []Credential{}
		}
		w.rs.creds = cs
	})
}

// missingCredentials names the credentials the workflow's nodes use (the
// config keys their kinds describe as credentials) that the credential list
// (as last read) lacks.
func (w *Window) missingCredentials(wf workrun.Workflow) []string {
	if w.deps.Credentials == nil || w.rs.creds == nil {
		return nil
	}
	var out []string
	for _, n := range wf.Nodes {
		for _, key := range keysOf(n.Type, workrun.ValueCredential, "") {
			cred := document.ConfigString(n.Config, key)
			if cred == "" {
				continue
			}
			if !slices.ContainsFunc(w.rs.creds, func(x Credential) bool { return x.Name == cred }) && !slices.Contains(out, cred) {
				out = append(out, cred)
			}
		}
	}
	return out
}
