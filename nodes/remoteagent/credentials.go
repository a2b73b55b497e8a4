package remoteagent

import (
	"context"

	"workrun/a2a"
	"workrun/credentials"
)

// managerSource adapts the keyring-backed credentials manager.
type managerSource struct{ m *credentials.Manager }

// FromManager returns the CredentialSource backed by m (main.go wires it).
func FromManager(m *credentials.Manager) CredentialSource { return managerSource{m} }

// Credential returns the named credential with its secret, bound to its origin.
func (s managerSource) Credential(ctx context.Context, name string) (a2a.Credential, error) {
	c, secret, err := s.m.Get(ctx, name)
	if err != nil {
		return a2a.Credential{}, err
	}
	return ToA2A(c, secret), nil
}

// ToA2A turns saved credential metadata and its secret into what the A2A
// client sends.
func ToA2A(c credentials.Credential, secret string) a2a.Credential {
	kind := a2a.CredentialAPIKey
	if c.Kind == credentials.KindBearer {
		kind = a2a.CredentialBearer
	}
	return a2a.Credential{Kind: kind, Header: c.Header, Secret: secret, Origin: c.Origin}
}
