package desktop

import (
	"errors"
	"fmt"
	"strings"

	"workrun/credentials"
	"workrun/mcp"
	"workrun/nodes/remoteagent"
	"workrun/remotecall"
	"workrun/ui"
)

// The window says its errors in its own words (package ui), keyed on its
// own sentinels: it may import neither credentials, nor the node kinds,
// nor the protocol clients (docs/ARCHITECTURE.md). These two functions are
// the one place where what those packages return is sorted into the
// window's sentinels; the error itself stays wrapped, for its details.

// uiErr marks errors with the sentinels the window knows: a missing
// keyring, an agent that wants a credential or refused one.
func uiErr(err error) error {
	switch {
	case errors.Is(err, credentials.ErrNoKeyring):
		return fmt.Errorf("%w: %w", ui.ErrNoKeyring, err)
	case errors.Is(err, remoteagent.ErrCredentialRequired):
		return fmt.Errorf("%w: %w", ui.ErrNeedsCredential, err)
	case errors.Is(err, remoteagent.ErrCredentialRefused):
		return fmt.Errorf("%w: %w", ui.ErrCredentialRefused, err)
	}
	return err
}

// signInErr marks a connection test's error that a sign-in would cure
// (ui.ErrNeedsSignIn): an OAuth credential that needs the person, an MCP
// server's 401 with a Bearer challenge, an agent that wants a credential
// and declares OAuth 2.0 or OpenID Connect in its card.
func signInErr(err error, schemes []string) error {
	var h *mcp.HTTPError
	switch {
	case err == nil:
		return nil
	case remotecall.SignInNeeded(err) != nil,
		errors.As(err, &h) && h.StatusCode == 401 && strings.HasPrefix(strings.ToLower(h.WWWAuthenticate), "bearer"),
		errors.Is(err, remoteagent.ErrCredentialRequired) && declaresOAuth(schemes):
		return fmt.Errorf("%w: %w", ui.ErrNeedsSignIn, err)
	}
	return err
}

func declaresOAuth(schemes []string) bool {
	for _, s := range schemes {
		if strings.Contains(s, "OAuth 2.0") || strings.Contains(s, "OpenID Connect") {
			return true
		}
	}
	return false
}
