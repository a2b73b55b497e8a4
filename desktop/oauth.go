package desktop

import (
	"context"

	"workrun/cli"
	"workrun/credentials"
	"workrun/oauth"
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
