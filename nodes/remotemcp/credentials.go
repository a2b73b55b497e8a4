package remotemcp

import (
	"context"

	"workrun/credentials"
	"workrun/mcp"
)

// managerSource adapts the keyring-backed credentials manager.
type managerSource struct{ m *credentials.Manager }

// FromManager returns the CredentialSource backed by m (main.go wires it).
func FromManager(m *credentials.Manager) CredentialSource { return managerSource{m} }

// Credential returns the named credential with its secret, bound to its origin.
func (s managerSource) Credential(ctx context.Context, name string) (mcp.Credential, error) {
	c, secret, err := s.m.Get(ctx, name)
	if err != nil {
		return mcp.Credential{}, err
	}
	return ToMCP(c, secret), nil
}

// ToMCP turns saved credential metadata and its secret into what the MCP
// client sends.
func ToMCP(c credentials.Credential, secret string) mcp.Credential {
	kind := mcp.CredentialAPIKey
	if c.Kind == credentials.KindBearer {
		kind = mcp.CredentialBearer
	}
	return mcp.Credential{Kind: kind, Header: c.Header, Secret: secret, Origin: c.Origin}
}
