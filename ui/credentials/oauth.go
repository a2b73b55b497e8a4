package credentials

import (
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// SchemeOAuth is a credential obtained by signing in (docs/oauth.md): its
// tokens are renewed by Workrun, so the form cannot replace its secret;
// Sign out deletes it (revoking its tokens where the server offers it).
const SchemeOAuth = "oauth"

// oauthLabel is an OAuth credential's row: its scopes and expiry.
func (v *View) oauthLabel(c Credential) string {
	s := v.l.X("cred.kind_oauth", "OAuth sign-in")
	if c.Resource != "" {
		s += " · " + c.Resource
	}
	if len(c.Scopes) > 0 {
		s += " · " + fmt.Sprintf(v.l.X("cred.oauth_scopes", "scopes %s"), strings.Join(c.Scopes, " "))
	}
	if !c.Expiry.IsZero() {
		s += " · " + fmt.Sprintf(v.l.X("cred.oauth_expires", "token until %s"), c.Expiry.Local().Format("2006-01-02 15:04"))
	}
	return s
}

// signInButton opens the Sign in dialog (OnSignIn).
func (v *View) signInButton() *widget.Button {
	return widget.NewButtonWithIcon(v.l.X("cred.sign_in", "Sign in…"), theme.LoginIcon(), func() {
		if v.OnSignIn == nil {
			v.show(errors.New(v.l.X("signin.missing", "signing in is not available in this build")).Error())
			return
		}
		v.OnSignIn()
	})
}

// pickedOAuth adapts the form to the credential chosen: an OAuth one has
// no secret to type; its Delete is Sign out.
func (v *View) pickedOAuth(c Credential) {
	if c.Kind != SchemeOAuth {
		v.delB.SetText(v.l.X("cred.delete", "Delete"))
		v.secret.Enable()
		v.scheme.Enable()
		v.saveB.Enable()
		return
	}
	v.secret.Disable()
	v.scheme.Disable()
	v.header.Disable()
	v.saveB.Disable()
	v.delB.SetText(v.l.X("cred.sign_out", "Sign out"))
	v.show(v.oauthLabel(c))
}
