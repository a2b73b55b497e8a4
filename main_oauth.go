package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"workrun/cli"
	"workrun/credentials"
	"workrun/mcp"
	"workrun/nodes/remoteagent"
	"workrun/oauth"
	"workrun/remotecall"
	"workrun/ui"
)

// oauthAdapter is the window's Sign in (ui.OAuth) on the credentials
// manager; the connection tests are the node kinds' own.
type oauthAdapter struct{ m *credentials.Manager }

func (a oauthAdapter) SignIn(ctx context.Context, req ui.SignInRequest) (ui.SignedIn, error) {
	kind := map[string]string{ui.SignInAgent: credentials.SignInAgent, ui.SignInMCP: credentials.SignInMCP}[req.Kind]
	res, err := a.m.SignIn(ctx, credentials.SignInRequest{
		URL: req.URL, Name: req.Name, Kind: kind, Client: oauth.ClientConfig{ID: req.ClientID},
		Open: func(ctx context.Context, u string) error {
			if err := oauth.OpenBrowser(ctx, u); err != nil {
				return err
			}
			if req.Opened != nil {
				req.Opened(u)
			}
			return nil
		},
		ProbeMCP: cli.ProbeMCP, ProbeAgent: cli.ProbeAgent,
	})
	if err != nil {
		return ui.SignedIn{}, uiErr(err)
	}
	origin := res.Info.Origin
	return ui.SignedIn{Origin: origin, Subject: res.Info.Subject, Scopes: res.Info.Scopes, Expiry: res.Info.Expiry, ProbeErr: res.ProbeErr}, nil
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
