package ui

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// CredentialsView lists credentials and adds, replaces and deletes them
// (docs/product.md W8). Secrets are typed into password fields and handed
// straight to OnSave; the view never shows or keeps them after saving. It
// makes no keyring call itself: it reports what the person asked for
// (OnSave, OnDelete) and the app layer hands back the outcome (setList,
// saved, deleted, failed).
type CredentialsView struct {
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
	// CheckOrigin normalises a typed origin or refuses it (Deps.CheckOrigin).
	CheckOrigin func(raw string) (string, error)
	// OnSave asks to add c (or replace its secret); it is called only for
	// a form that passed its checks.
	OnSave func(c Credential, secret string)
	// OnDelete asks to remove the credential named name (after the person
	// confirmed it).
	OnDelete func(name string)
	// OnSignIn asks for the Sign in dialog (ui/signin.go); nil hides it.
	OnSignIn func()
}

const (
	schemeBearer = "bearer"
	schemeAPIKey = "apikey"
)

// NewCredentialsView builds the view; win is where it asks for
// confirmation. The app layer fills it with setList.
func NewCredentialsView(win fyne.Window) *CredentialsView {
	v := &CredentialsView{win: win, sel: -1}
	v.list = widget.NewList(func() int { return len(v.creds) },
		func() fyne.CanvasObject { return widget.NewLabel("credential") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			c := v.creds[i]
			kind := schemeLabel(schemeBearer)
			if c.Kind == schemeAPIKey {
				kind = schemeLabel(schemeAPIKey) + " (" + c.Header + ")"
			} else if c.Kind == schemeOAuth {
				kind = oauthLabel(c)
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
	v.scheme = newSelect(processWords(), []string{schemeLabel(schemeBearer), schemeLabel(schemeAPIKey)}, func(string) {
		if v.kind() == schemeAPIKey {
			v.header.Enable()
		} else {
			v.header.Disable()
		}
	})
	v.scheme.SetSelectedIndex(0)
	v.secret = widget.NewPasswordEntry()
	v.secret.SetPlaceHolder(lang.X("cred.secret_hint", "secret (kept only in the OS keyring)"))
	v.saveB = widget.NewButton(lang.X("cred.save", "Save"), v.save)
	v.delB = widget.NewButton(lang.X("cred.delete", "Delete"), v.confirmDelete)
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
	buttons := container.NewHBox(widget.NewButton(lang.X("cred.new", "New"), v.clearForm), v.saveB, v.delB, v.signInButton())
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

// fill types into the form, as a person would.
func (v *CredentialsView) fill(c Credential, secret string) {
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
	v.fill(c, "")
	v.name.Disable()
	v.secret.SetPlaceHolder(lang.X("cred.replace_hint", "type a new secret to replace it"))
	v.saveB.SetText(lang.X("cred.replace", "Replace secret"))
	v.delB.Enable()
	v.pickedOAuth(c)
}

func (v *CredentialsView) clearForm() {
	v.sel = -1
	v.list.UnselectAll()
	v.fill(Credential{Kind: schemeBearer}, "")
	v.name.Enable()
	v.secret.SetPlaceHolder(lang.X("cred.secret_hint", "secret (kept only in the OS keyring)"))
	v.saveB.SetText(lang.X("cred.save", "Save"))
	v.delB.Disable()
	v.pickedOAuth(Credential{})
}

// setList shows the credentials as read from the keyring's index.
func (v *CredentialsView) setList(cs []Credential) {
	v.creds = cs
	v.list.Refresh()
}

// checkOrigin normalizes an origin to scheme://host:port by the remote
// layer's one origin rule (Deps.CheckOrigin; docs/product.md W8): the window
// keeps no rule of its own, so IPv6 hosts, default ports and the plain-http
// rule read exactly as the credential store and the transport read them.
func (v *CredentialsView) checkOrigin(s string) (string, error) {
	if v.CheckOrigin == nil {
		return "", errors.New(lang.X("cred.no_origin_check", "the origin cannot be checked here"))
	}
	origin, err := v.CheckOrigin(s)
	var te *workrun.TextError
	if errors.As(err, &te) {
		return "", errors.New(te.Text.In(msgLang()))
	}
	return origin, err
}

// save checks the form and asks for a credential to be added or its secret
// replaced.
func (v *CredentialsView) save() {
	c := Credential{Name: strings.TrimSpace(v.name.Text), Kind: v.kind(), Header: strings.TrimSpace(v.header.Text)}
	origin, err := v.checkOrigin(v.origin.Text)
	switch {
	case c.Name == "":
		err = errors.New(lang.X("cred.need_name", "enter a name"))
	case err != nil:
	case c.Kind == schemeAPIKey && c.Header == "":
		err = errors.New(lang.X("cred.need_header", "an API key needs its header name"))
	case v.secret.Text == "":
		err = errors.New(lang.X("cred.need_secret", "enter the secret"))
	}
	if err != nil || v.OnSave == nil {
		if err != nil {
			v.show(err.Error())
		}
		v.finished()
		return
	}
	if c.Kind != schemeAPIKey {
		c.Header = ""
	}
	c.Origin = origin
	v.OnSave(c, v.secret.Text)
}

// saved shows that c was saved; cs is the list read after it.
func (v *CredentialsView) saved(name string, cs []Credential) {
	v.secret.SetText("")
	v.creds = cs
	v.list.Refresh()
	// The saved credential is the one selected now: Delete and Replace
	// secret apply to it at once.
	if i := slices.IndexFunc(cs, func(c Credential) bool { return c.Name == name }); i >= 0 {
		v.list.Select(i)
	}
	v.show(fmt.Sprintf(lang.X("cred.saved", "Saved %q in the OS keyring."), name))
}

// confirmDelete asks before deleting the selected credential.
func (v *CredentialsView) confirmDelete() {
	if v.sel < 0 || v.sel >= len(v.creds) {
		return
	}
	name := v.creds[v.sel].Name
	dialog.ShowConfirm(lang.X("cred.delete", "Delete"), fmt.Sprintf(lang.X("cred.delete_q", "Delete the credential %q?"), name), func(ok bool) {
		if ok && v.OnDelete != nil {
			v.OnDelete(name)
		}
	}, v.win)
}

// deleted shows that name was deleted; cs is the list read after it.
func (v *CredentialsView) deleted(name string, cs []Credential) {
	v.creds = cs
	v.list.Refresh()
	v.clearForm()
	v.show(fmt.Sprintf(lang.X("cred.deleted", "Deleted %q."), name))
}

// failed shows why a keyring call failed.
func (v *CredentialsView) failed(err error) { v.show(KeyringErrorText(err)) }

func (v *CredentialsView) show(text string) { v.msg.SetText(text) }

// finished ends an operation the person started (tests wait on done).
func (v *CredentialsView) finished() {
	if v.done != nil {
		v.done()
	}
}

// KeyringErrorText says plainly what went wrong with the keyring.
func KeyringErrorText(err error) string {
	if errors.Is(err, ErrNoKeyring) {
		return lang.X("cred.no_keyring", "No OS keyring is available, so secrets cannot be saved. Start a Secret Service (for example gnome-keyring) and try again.")
	}
	return err.Error()
}
