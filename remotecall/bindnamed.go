package remotecall

import (
	"context"
	"fmt"
)

// BindNamed resolves the named credential ("" for none) from src and binds
// it to the origin of url (BindCredential): the binding both remote node
// kinds build their Transport from.
func BindNamed(ctx context.Context, src CredentialSource[Credential], name, url string) (Binding, error) {
	cred, err := NamedCredential(ctx, src, name)
	if err != nil {
		return Binding{}, err
	}
	b, err := BindCredential(cred, url)
	if err != nil {
		return Binding{}, fmt.Errorf("credential %q: %w", name, err)
	}
	return b, nil
}
