package remotecall

import (
	"context"
	"fmt"
)

// CredentialSource resolves a saved credential by name, secret included; T
// is the protocol client's credential type.
type CredentialSource[T any] interface {
	Credential(ctx context.Context, name string) (T, error)
}

// NamedCredential is the credential a node names: nil for "", and an error
// naming it when there is no credential store or the store cannot give it.
func NamedCredential[T any](ctx context.Context, src CredentialSource[T], name string) (*T, error) {
	if name == "" {
		return nil, nil
	}
	if src == nil {
		return nil, fmt.Errorf("credential %q: no credential store is available", name)
	}
	cred, err := src.Credential(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("credential %q: %w", name, err)
	}
	return &cred, nil
}
