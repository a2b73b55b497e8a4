package credentials

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
)

// Credential names a secret kept in the OS keyring; it never holds the secret.
type Credential struct {
	Name   string
	Origin string // scheme://host:port the secret is bound to
	Kind   string // SchemeBearer, SchemeAPIKey or SchemeOAuth
	Header string // header name for an API key
	// OAuth: what a sign-in granted (Kind SchemeOAuth); no secret.
	Resource string
	Scopes   []string
	Expiry   time.Time
}

// Localizer words the view's labels in the window's language: key's
// translation, or fallback (English) where the catalogue has none.
type Localizer interface {
	X(key, fallback string) string
}

// View lists credentials and adds, replaces and deletes them
// (docs/product.md W8). Secrets are typed into password fields and handed
// straight to OnSave; the view never shows or keeps them after saving. It
// makes no keyring call itself: it reports what the person asked for
// (OnSave, OnDelete) and the app layer hands back the outcome (SetList,
// Saved, Deleted, Say) and ends the operation (Finished).
type View struct {
	win   fyne.Window
	l     Localizer
	creds []Credential
	sel   int

	list   *widget.List
	empty  *widget.Label // over the list while it has no rows
	name   *widget.Entry
	origin *widget.Entry
	scheme *widget.Select
	header *widget.Entry
	secret *widget.Entry
	saveB  *widget.Button
	delB   *widget.Button
	msg    *widget.Label
	root   fyne.CanvasObject

	// OnFinished is called after every operation the person started has
	// ended: refused by the form's checks, or Finished by the app layer.
	OnFinished func()
	// CheckOrigin normalises a typed origin or refuses it, its error
	// worded for the person (the app layer's Deps.CheckOrigin).
	CheckOrigin func(raw string) (string, error)
	// OnSave asks to add c (or replace its secret); it is called only for
	// a form that passed its checks.
	OnSave func(c Credential, secret string)
	// OnDelete asks to remove the credential named name (after the person
	// confirmed it).
	OnDelete func(name string)
	// OnSignIn asks for the Sign in dialog (the app layer's); nil: the
	// button says signing in is not available.
	OnSignIn func()
}

// The credential schemes (Credential.Kind).
const (
	SchemeBearer = "bearer"
	SchemeAPIKey = "apikey"
)

// New builds the view; win is where it asks for confirmation, l words its
// labels. The app layer fills it with SetList.
func New(win fyne.Window, l Localizer) *View {
	v := &View{win: win, l: l, sel: -1}
	v.list = widget.NewList(func() int { return len(v.creds) },
		func() fyne.CanvasObject { return widget.NewLabel("credential") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			c := v.creds[i]
			kind := v.schemeLabel(SchemeBearer)
			if c.Kind == SchemeAPIKey {
				kind = v.schemeLabel(SchemeAPIKey) + " (" + c.Header + ")"
			} else if c.Kind == SchemeOAuth {
				kind = v.oauthLabel(c)
			}
			o.(*widget.Label).SetText(fmt.Sprintf("%s — %s — %s", c.Name, c.Origin, kind))
		})
	v.list.OnSelected = v.pick
	v.name = widget.NewEntry()
	v.name.SetPlaceHolder(v.l.X("cred.name_example", "for example: my-agent"))
	v.origin = widget.NewEntry()
	v.origin.SetPlaceHolder(v.l.X("cred.origin_example", "for example: https://agent.example.com"))
	v.header = widget.NewEntry()
	v.header.SetPlaceHolder(v.l.X("cred.header_example", "for example: X-API-Key"))
	v.scheme = widget.NewSelect([]string{v.schemeLabel(SchemeBearer), v.schemeLabel(SchemeAPIKey)}, func(string) {
		if v.kind() == SchemeAPIKey {
			v.header.Enable()
		} else {
			v.header.Disable()
		}
	})
	v.scheme.SetSelectedIndex(0)
	v.secret = widget.NewPasswordEntry()
	v.secret.SetPlaceHolder(v.l.X("cred.secret_hint", "secret (kept only in the OS keyring)"))
	v.saveB = widget.NewButton(v.l.X("cred.save", "Save"), v.save)
	v.delB = widget.NewButton(v.l.X("cred.delete", "Delete"), v.confirmDelete)
	v.delB.Disable()
	v.msg = widget.NewLabel("")
	v.msg.Wrapping = fyne.TextWrapWord
	form := widget.NewForm(
		widget.NewFormItem(v.l.X("cred.name", "Name"), v.name),
		widget.NewFormItem(v.l.X("cred.origin", "Service origin"), v.origin),
		widget.NewFormItem(v.l.X("cred.scheme", "Type"), v.scheme),
		widget.NewFormItem(v.l.X("cred.header", "Header name"), v.header),
		widget.NewFormItem(v.l.X("cred.secret", "Secret"), v.secret),
	)
	buttons := container.NewHBox(widget.NewButton(v.l.X("cred.new", "New"), v.clearForm), v.saveB, v.delB, v.signInButton())
	// The list takes what the form leaves: several rows in the dialog.
	v.empty = widget.NewLabel(v.l.X("cred.none_yet", "No credentials yet: add one below."))
	v.empty.Wrapping = fyne.TextWrapWord
	v.empty.Alignment = fyne.TextAlignCenter
	// A wrapping label gets the list's width (centred in a Center
	// container it got none: one letter a line, and a dialog too tall).
	list := container.NewStack(v.list, container.NewVBox(layout.NewSpacer(), v.empty, layout.NewSpacer()))
	v.root = container.NewBorder(nil, container.NewVBox(widget.NewSeparator(), form, buttons, v.msg), nil, nil, list)
	return v
}

// kind is the scheme chosen: SchemeBearer or SchemeAPIKey.
func (v *View) kind() string {
	if v.scheme.SelectedIndex() == 1 {
		return SchemeAPIKey
	}
	return SchemeBearer
}

// schemeLabel names a credential scheme for people.
func (v *View) schemeLabel(kind string) string {
	if kind == SchemeAPIKey {
		return v.l.X("cred.kind_apikey", "API key")
	}
	return v.l.X("cred.kind_bearer", "Bearer token")
}

// Object is the view's widget tree.
func (v *View) Object() fyne.CanvasObject { return v.root }

// fill types into the form, as a person would.
func (v *View) fill(c Credential, secret string) {
	v.name.SetText(c.Name)
	v.origin.SetText(c.Origin)
	if c.Kind == SchemeAPIKey {
		v.scheme.SetSelectedIndex(1)
	} else {
		v.scheme.SetSelectedIndex(0)
	}
	v.header.SetText(c.Header)
	v.secret.SetText(secret)
}

func (v *View) pick(i widget.ListItemID) {
	if i >= len(v.creds) {
		return
	}
	v.sel = i
	c := v.creds[i]
	v.fill(c, "")
	v.name.Disable()
	v.secret.SetPlaceHolder(v.l.X("cred.replace_hint", "type a new secret to replace it"))
	v.saveB.SetText(v.l.X("cred.replace", "Replace secret"))
	v.delB.Enable()
	v.pickedOAuth(c)
}

func (v *View) clearForm() {
	v.sel = -1
	v.list.UnselectAll()
	v.fill(Credential{Kind: SchemeBearer}, "")
	v.name.Enable()
	v.secret.SetPlaceHolder(v.l.X("cred.secret_hint", "secret (kept only in the OS keyring)"))
	v.saveB.SetText(v.l.X("cred.save", "Save"))
	v.delB.Disable()
	v.pickedOAuth(Credential{})
}

// SetList shows the credentials as read from the keyring's index.
func (v *View) SetList(cs []Credential) {
	v.creds = cs
	v.list.Refresh()
	if len(cs) == 0 {
		v.empty.Show()
	} else {
		v.empty.Hide()
	}
}

// checkOrigin normalizes an origin to scheme://host:port by the remote
// layer's one origin rule (CheckOrigin; docs/product.md W8): the view
// keeps no rule of its own, so IPv6 hosts, default ports and the plain-http
// rule read exactly as the credential store and the transport read them.
func (v *View) checkOrigin(s string) (string, error) {
	if v.CheckOrigin == nil {
		return "", errors.New(v.l.X("cred.no_origin_check", "the origin cannot be checked here"))
	}
	return v.CheckOrigin(s)
}

// save checks the form and asks for a credential to be added or its secret
// replaced.
func (v *View) save() {
	c := Credential{Name: strings.TrimSpace(v.name.Text), Kind: v.kind(), Header: strings.TrimSpace(v.header.Text)}
	origin, err := v.checkOrigin(v.origin.Text)
	switch {
	case c.Name == "":
		err = errors.New(v.l.X("cred.need_name", "enter a name"))
	case err != nil:
	case c.Kind == SchemeAPIKey && c.Header == "":
		err = errors.New(v.l.X("cred.need_header", "an API key needs its header name"))
	case v.secret.Text == "":
		err = errors.New(v.l.X("cred.need_secret", "enter the secret"))
	}
	if err != nil || v.OnSave == nil {
		if err != nil {
			v.show(err.Error())
		}
		v.finished()
		return
	}
	if c.Kind != SchemeAPIKey {
		c.Header = ""
	}
	c.Origin = origin
	v.OnSave(c, v.secret.Text)
}

// Saved shows that the credential name was saved; cs is the list read
// after it.
func (v *View) Saved(name string, cs []Credential) {
	v.secret.SetText("")
	v.SetList(cs)
	// The saved credential is the one selected now: Delete and Replace
	// secret apply to it at once.
	if i := slices.IndexFunc(cs, func(c Credential) bool { return c.Name == name }); i >= 0 {
		v.list.Select(i)
	}
	v.show(fmt.Sprintf(v.l.X("cred.saved", "Saved %q in the OS keyring."), name))
}

// confirmDelete asks before deleting the selected credential.
func (v *View) confirmDelete() {
	if v.sel < 0 || v.sel >= len(v.creds) {
		return
	}
	name := v.creds[v.sel].Name
	dialog.ShowConfirm(v.l.X("cred.delete", "Delete"), fmt.Sprintf(v.l.X("cred.delete_q", "Delete the credential %q?"), name), func(ok bool) {
		if ok && v.OnDelete != nil {
			v.OnDelete(name)
		}
	}, v.win)
}

// Deleted shows that name was deleted; cs is the list read after it.
func (v *View) Deleted(name string, cs []Credential) {
	v.SetList(cs)
	v.clearForm()
	v.show(fmt.Sprintf(v.l.X("cred.deleted", "Deleted %q."), name))
}

// Say shows text under the form: why a keyring call failed, in words.
func (v *View) Say(text string) { v.show(text) }

// Message returns what the view says under the form.
func (v *View) Message() string { return v.msg.Text }

func (v *View) show(text string) { v.msg.SetText(text) }

// Finished ends the operation the person started (OnFinished reports it).
func (v *View) Finished() { v.finished() }

func (v *View) finished() {
	if v.OnFinished != nil {
		v.OnFinished()
	}
}
