package desktop

import (
	"context"
	"slices"

	"workrun/credentials"
	"workrun/ui"
)

// credAdapter shows the credentials manager to the window.
type credAdapter struct{ m *credentials.Manager }

func (a credAdapter) List(ctx context.Context) ([]ui.Credential, error) {
	cs, err := a.m.List(ctx)
	out := make([]ui.Credential, 0, len(cs))
	for _, c := range cs {
		out = append(out, ui.Credential{Name: c.Name, Origin: c.Origin, Kind: c.Kind, Header: c.Header})
	}
	if err == nil && slices.ContainsFunc(cs, func(c credentials.Credential) bool { return c.Kind == credentials.KindOAuth }) {
		// An OAuth credential's scopes and expiry (no secret).
		infos, ierr := a.m.ListOAuth(ctx)
		for _, in := range infos {
			for i := range out {
				if out[i].Name == in.Name {
					out[i].Resource, out[i].Scopes, out[i].Expiry = in.Resource, in.Scopes, in.Expiry
				}
			}
		}
		err = ierr
	}
	return out, uiErr(err)
}

func (a credAdapter) Set(ctx context.Context, c ui.Credential, secret string) error {
	return uiErr(a.m.Set(ctx, credentials.Credential{Name: c.Name, Kind: c.Kind, Origin: c.Origin, Header: c.Header}, secret))
}

func (a credAdapter) Delete(ctx context.Context, name string) error {
	if c, _, err := a.m.Get(ctx, name); err == nil && c.Kind == credentials.KindOAuth {
		return uiErr(a.m.RemoveOAuth(ctx, name)) // signs out: revokes where the server offers it
	}
	return uiErr(a.m.Delete(ctx, name))
}
