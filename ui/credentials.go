package ui

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"
)

// CredentialsView lists credentials and adds, replaces and deletes them
// (docs/product.md W8). Secrets are typed into password fields and handed straight to
// the manager; the view never shows or keeps them after saving.
type CredentialsView struct {
	mgr   CredentialManager
	win   fyne.Window
	creds []Credential
	sel   int

	list   *widget.List
	name   *widget.Entry
	origin *widget.Entry
	scheme *widget.Select
	header *widget.Entry
	secret *widget.Entry
	saveB  *widget.Button
	delB   *widget.Button
	msg    *widget.Label
	root   fyne.CanvasObject

	// done is called after every finished operation (tests wait on it).
	done func()
	// Background runs work off the Fyne thread and then on it; the app
	// layer sets it (the view runs no goroutine of its own). Nil: a plain
	// goroutine and fyne.Do.
	Background func(work, then func())
	// OnChanged is called after a credential was saved or deleted, with
	// the new list (the window refreshes every Remote Agent's picker).
	OnChanged func([]Credential)
}

const (
	schemeBearer = "bearer"
	schemeAPIKey = "apikey"
)

// NewCredentialsView builds the view; call Reload to fill it.
func NewCredentialsView(mgr CredentialManager, win fyne.Window) *CredentialsView {
	v := &CredentialsView{mgr: mgr, win: win, sel: -1}
	v.list = widget.NewList(func() int { return len(v.creds) },
		func() fyne.CanvasObject { return widget.NewLabel("credential") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			c := v.creds[i]
			kind := schemeLabel(schemeBearer)
			if c.Kind == schemeAPIKey {
				kind = schemeLabel(schemeAPIKey) + " (" + c.Header + ")"
			}
			o.(*widget.Label).SetText(fmt.Sprintf("%s — %s — %s", c.Name, c.Origin, kind))
		})
	v.list.OnSelected = v.pick
	v.name = widget.NewEntry()
	v.name.SetPlaceHolder(lang.X("cred.name_example", "for example: my-agent"))
	v.origin = widget.NewEntry()
	v.origin.SetPlaceHolder(lang.X("cred.origin_example", "for example: https://agent.example.com"))
	v.header = widget.NewEntry()
	v.header.SetPlaceHolder(lang.X("cred.header_example", "for example: X-API-Key"))
	v.scheme = newSelect([]string{schemeLabel(schemeBearer), schemeLabel(schemeAPIKey)}, func(string) {
		if v.kind() == schemeAPIKey {
			v.header.Enable()
		} else {
			v.header.Disable()
		}
	})
	v.scheme.SetSelectedIndex(0)
	v.secret = widget.NewPasswordEntry()
	v.secret.SetPlaceHolder(lang.X("cred.secret_hint", "secret (kept only in the OS keyring)"))
	v.saveB = widget.NewButton(lang.X("cred.save", "Save"), v.Save)
	v.delB = widget.NewButton(lang.X("cred.delete", "Delete"), v.Delete)
	v.delB.Disable()
	v.msg = widget.NewLabel("")
	v.msg.Wrapping = fyne.TextWrapWord
	form := widget.NewForm(
		widget.NewFormItem(lang.X("cred.name", "Name"), v.name),
		widget.NewFormItem(lang.X("cred.origin", "Service origin"), v.origin),
		widget.NewFormItem(lang.X("cred.scheme", "Type"), v.scheme),
		widget.NewFormItem(lang.X("cred.header", "Header name"), v.header),
		widget.NewFormItem(lang.X("cred.secret", "Secret"), v.secret),
	)
	buttons := container.NewHBox(widget.NewButton(lang.X("cred.new", "New"), v.clearForm), v.saveB, v.delB)
	// The list takes what the form leaves: several rows in the dialog.
	v.root = container.NewBorder(nil, container.NewVBox(widget.NewSeparator(), form, buttons, v.msg), nil, nil, v.list)
	return v
}

// kind is the scheme chosen: schemeBearer or schemeAPIKey.
func (v *CredentialsView) kind() string {
	if v.scheme.SelectedIndex() == 1 {
		return schemeAPIKey
	}
	return schemeBearer
}

// schemeLabel names a credential scheme for people.
func schemeLabel(kind string) string {
	if kind == schemeAPIKey {
		return lang.X("cred.kind_apikey", "API key")
	}
	return lang.X("cred.kind_bearer", "Bearer token")
}

// Object is the view's widget tree.
func (v *CredentialsView) Object() fyne.CanvasObject { return v.root }

// Credentials returns the credentials listed.
func (v *CredentialsView) Credentials() []Credential { return v.creds }

// Message returns the last message shown.
func (v *CredentialsView) Message() string { return v.msg.Text }

// Fill types into the form (tests use it like a person would).
func (v *CredentialsView) Fill(c Credential, secret string) {
	v.name.SetText(c.Name)
	v.origin.SetText(c.Origin)
	if c.Kind == schemeAPIKey {
		v.scheme.SetSelectedIndex(1)
	} else {
		v.scheme.SetSelectedIndex(0)
	}
	v.header.SetText(c.Header)
	v.secret.SetText(secret)
}

func (v *CredentialsView) pick(i widget.ListItemID) {
	if i >= len(v.creds) {
		return
	}
	v.sel = i
	c := v.creds[i]
	v.Fill(c, "")
	v.name.Disable()
	v.secret.SetPlaceHolder(lang.X("cred.replace_hint", "type a new secret to replace it"))
	v.saveB.SetText(lang.X("cred.replace", "Replace secret"))
	v.delB.Enable()
}

func (v *CredentialsView) clearForm() {
	v.sel = -1
	v.list.UnselectAll()
	v.Fill(Credential{Kind: schemeBearer}, "")
	v.name.Enable()
	v.secret.SetPlaceHolder(lang.X("cred.secret_hint", "secret (kept only in the OS keyring)"))
	v.saveB.SetText(lang.X("cred.save", "Save"))
	v.delB.Disable()
}

// Reload lists the credentials again.
func (v *CredentialsView) Reload() {
	v.async(func(ctx context.Context) (func(), error) {
		cs, err := v.mgr.List(ctx)
		return func() {
			v.creds = cs
			v.list.Refresh()
		}, err
	})
}

// CheckOrigin normalizes an origin to scheme://host:port (docs/product.md W8).
func CheckOrigin(s string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return "", errors.New(lang.X("cred.bad_origin", "the origin must look like https://host or http://host:port"))
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	if u.Scheme == "http" && !isLoopback(u.Hostname()) {
		// A secret sent over plain http to another machine can be read on
		// the way; Workrun sends none there, so it keeps none for it.
		return "", errors.New(lang.X("cred.plain_http", "a secret is sent only over https, or over plain http to this machine (127.0.0.1, ::1, localhost)"))
	}
	return u.Scheme + "://" + u.Hostname() + ":" + port, nil
}

// isLoopback reports whether host names this machine.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Save adds a credential or replaces a secret.
func (v *CredentialsView) Save() {
	c := Credential{Name: strings.TrimSpace(v.name.Text), Kind: v.kind(), Header: strings.TrimSpace(v.header.Text)}
	origin, err := CheckOrigin(v.origin.Text)
	switch {
	case c.Name == "":
		err = errors.New(lang.X("cred.need_name", "enter a name"))
	case err != nil:
	case c.Kind == schemeAPIKey && c.Header == "":
		err = errors.New(lang.X("cred.need_header", "an API key needs its header name"))
	case v.secret.Text == "":
		err = errors.New(lang.X("cred.need_secret", "enter the secret"))
	}
	if err != nil {
		v.show(err.Error())
		if v.done != nil {
			v.done()
		}
		return
	}
	if c.Kind != schemeAPIKey {
		c.Header = ""
	}
	c.Origin = origin
	secret := v.secret.Text
	v.async(func(ctx context.Context) (func(), error) {
		if err := v.mgr.Set(ctx, c, secret); err != nil {
			return nil, err
		}
		cs, err := v.mgr.List(ctx)
		return func() {
			v.secret.SetText("")
			v.creds = cs
			v.list.Refresh()
			if v.OnChanged != nil {
				v.OnChanged(cs)
			}
			v.show(fmt.Sprintf(lang.X("cred.saved", "Saved %q in the OS keyring."), c.Name))
		}, err
	})
}

// Delete removes the selected credential.
func (v *CredentialsView) Delete() {
	if v.sel < 0 || v.sel >= len(v.creds) {
		return
	}
	name := v.creds[v.sel].Name
	dialog.ShowConfirm(lang.X("cred.delete", "Delete"), fmt.Sprintf(lang.X("cred.delete_q", "Delete the credential %q?"), name), func(ok bool) {
		if ok {
			v.DeleteNow(name)
		}
	}, v.win)
}

// DeleteNow removes a credential without asking.
func (v *CredentialsView) DeleteNow(name string) {
	v.async(func(ctx context.Context) (func(), error) {
		if err := v.mgr.Delete(ctx, name); err != nil {
			return nil, err
		}
		cs, err := v.mgr.List(ctx)
		return func() {
			v.creds = cs
			v.list.Refresh()
			if v.OnChanged != nil {
				v.OnChanged(cs)
			}
			v.clearForm()
			v.show(fmt.Sprintf(lang.X("cred.deleted", "Deleted %q."), name))
		}, err
	})
}

func (v *CredentialsView) show(text string) { v.msg.SetText(text) }

// async runs a keyring call off the Fyne thread (a keyring may block on
// D-Bus) and shows its result on it.
func (v *CredentialsView) async(call func(ctx context.Context) (func(), error)) {
	var apply func()
	var err error
	work := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		apply, err = call(ctx)
	}
	then := func() {
		if apply != nil {
			apply()
		}
		if err != nil {
			v.show(KeyringErrorText(err))
		}
		if v.done != nil {
			v.done()
		}
	}
	if v.Background != nil {
		v.Background(work, then)
		return
	}
	go func() {
		work()
		fyne.Do(then)
	}()
}

// KeyringErrorText says plainly what went wrong with the keyring.
func KeyringErrorText(err error) string {
	if errors.Is(err, ErrNoKeyring) {
		return lang.X("cred.no_keyring", "No OS keyring is available, so secrets cannot be saved. Start a Secret Service (for example gnome-keyring) and try again.")
	}
	return err.Error()
}
