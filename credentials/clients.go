package credentials

import (
	"context"

	"workrun/remotecall"
)

// The remote layer (remotecall) takes a saved credential in its own form
// and binds it to its origin; these hand one out in that form. The node
// kinds see them only as their Deps' CredentialSource interface, which
// main.go fills with RemoteSource (for both remote node kinds).

// ForRemote is c with its secret in the remote layer's form.
func ForRemote(c Credential, secret string) remotecall.Credential {
	kind := remotecall.CredentialAPIKey
	if c.Kind == KindBearer {
		kind = remotecall.CredentialBearer
	}
	return remotecall.Credential{Kind: kind, Header: c.Header, Secret: secret, Origin: c.Origin}
}

// RemoteSource hands out the manager's credentials for the remote node
// kinds (it implements remoteagent.CredentialSource and
// remotemcp.CredentialSource).
type RemoteSource struct{ Manager *Manager }

// RemoteCredential is RemoteSource{m}.Credential: the named credential in
// the remote layer's form.
func (m *Manager) RemoteCredential(ctx context.Context, name string) (remotecall.Credential, error) {
	return RemoteSource{Manager: m}.Credential(ctx, name)
}

// Credential returns the named credential with its secret, bound to its origin.
func (s RemoteSource) Credential(ctx context.Context, name string) (remotecall.Credential, error) {
	c, secret, err := s.Manager.Get(ctx, name)
	if err != nil {
		return remotecall.Credential{}, err
	}
	if c.Kind == KindOAuth {
		return s.Manager.oauthForRemote(ctx, name)
	}
	return ForRemote(c, secret), nil
}
