package inspector

import (
	"slices"

	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// Sign-in kinds: what the server a Sign in is for is (OnSignIn's kind).
const (
	SignInAgent = "agent" // an A2A agent, signed in with its card's scheme
	SignInMCP   = "mcp"   // an MCP server, signed in on its 401
)

// wants reads what a failed connection test asks of the person (nothing
// for no error).
func (in *Inspector) wants(err error) Want {
	if err == nil || in.words.Wants == nil {
		return WantNothing
	}
	return in.words.Wants(err)
}

// signInButton is the inspector's Sign in button for the server at url():
// shown when a connection test says the server wants a sign-in; after it,
// the new credential is chosen for the node and the test runs again.
func (in *Inspector) signInButton(kind string, url func() string) *widget.Button {
	b := widget.NewButtonWithIcon(in.loc.X("insp.sign_in", "Sign in…"), theme.LoginIcon(), func() {
		if in.OnSignIn == nil {
			return
		}
		in.OnSignIn(url(), kind, func(name string) {
			in.useCredential(name)
			if w, ok := in.widgets["test"].(*widget.Button); ok && w.OnTapped != nil && kind == SignInMCP {
				w.OnTapped()
			} else if kind == SignInAgent {
				in.testConnection()
			}
		})
	})
	b.Importance = widget.HighImportance
	b.Hide()
	return b
}

// useCredential chooses the credential name in the form's pickers, as a
// person picking it would (the node's config changes).
func (in *Inspector) useCredential(name string) {
	for _, f := range in.info.Fields {
		if f.Value != workrun.ValueCredential {
			continue
		}
		if s, ok := in.widgets[f.Key].(*widget.Select); ok {
			if !slices.Contains(s.Options, name) {
				s.Options = append(s.Options, name)
			}
			s.SetSelected(name)
		}
	}
}

// signInNeededText says that the server wants a sign-in, and how.
func signInNeededText(loc Localizer, _ error) string {
	return loc.X("insp.needs_sign_in", "This server wants you to sign in (OAuth): press Sign in… above.")
}
