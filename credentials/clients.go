package credentials

import (
	"context"

	"workrun/a2a"
	"workrun/mcp"
)

// The protocol clients (a2a, mcp) each take a credential in their own form;
// these hand a saved one out in that form, bound to its origin. The node
// kinds see them only as their Deps' CredentialSource interface, which
// main.go fills with A2ASource and MCPSource.

// ForA2A is c with its secret in the form the A2A client sends.
func ForA2A(c Credential, secret string) a2a.Credential {
	kind := a2a.CredentialAPIKey
	if c.Kind == KindBearer {
		kind = a2a.CredentialBearer
	}
	return a2a.Credential{Kind: kind, Header: c.Header, Secret: secret, Origin: c.Origin}
}

// ForMCP is c with its secret in the form the MCP client sends.
func ForMCP(c Credential, secret string) mcp.Credential {
	kind := mcp.CredentialAPIKey
	if c.Kind == KindBearer {
		kind = mcp.CredentialBearer
	}
	return mcp.Credential{Kind: kind, Header: c.Header, Secret: secret, Origin: c.Origin}
}

// A2ASource hands out the manager's credentials for the Remote Agent node
// (it implements remoteagent.CredentialSource).
type A2ASource struct{ Manager *Manager }

// Credential returns the named credential with its secret, bound to its origin.
func (s A2ASource) Credential(ctx context.Context, name string) (a2a.Credential, error) {
	c, secret, err := s.Manager.Get(ctx, name)
	if err != nil {
		return a2a.Credential{}, err
	}
	if c.Kind == KindOAuth {
		return s.Manager.oauthForA2A(ctx, name)
	}
	return ForA2A(c, secret), nil
}

// MCPSource hands out the manager's credentials for the Remote MCP Tool
// node (it implements remotemcp.CredentialSource).
type MCPSource struct{ Manager *Manager }

// Credential returns the named credential with its secret, bound to its origin.
func (s MCPSource) Credential(ctx context.Context, name string) (mcp.Credential, error) {
	c, secret, err := s.Manager.Get(ctx, name)
	if err != nil {
		return mcp.Credential{}, err
	}
	if c.Kind == KindOAuth {
		return s.Manager.oauthForMCP(ctx, name)
	}
	return ForMCP(c, secret), nil
}
