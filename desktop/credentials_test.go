package desktop

import (
	"errors"
	"fmt"
	"testing"

	"workrun/credentials"
	"workrun/store"
	"workrun/ui"
	"workrun/workrun"
)

// noKeyring is a keyring that is not there, as OSKeyring reports it.
type noKeyring struct{}

func (noKeyring) Set(string, string, string) error   { return errNoKeyringFake }
func (noKeyring) Get(string, string) (string, error) { return "", errNoKeyringFake }
func (noKeyring) Delete(string, string) error        { return errNoKeyringFake }

var errNoKeyringFake = fmt.Errorf("%w: The name org.freedesktop.secrets was not provided", credentials.ErrNoKeyring)

// TestCredAdapterMarksMissingKeyring: every credentials error that means "no
// keyring" reaches the window as ui.ErrNoKeyring, so it shows the plain
// explanation; other errors pass through as they are.
func TestCredAdapterMarksMissingKeyring(t *testing.T) {
	st, err := store.Open(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a := credAdapter{credentials.NewManager(st, noKeyring{})}
	err = a.Set(t.Context(), ui.Credential{Name: "k", Kind: credentials.KindBearer, Origin: "https://agent.example"}, "s")
	if !errors.Is(err, ui.ErrNoKeyring) || !errors.Is(err, credentials.ErrNoKeyring) {
		t.Errorf("Set = %v, want ui.ErrNoKeyring and credentials.ErrNoKeyring", err)
	}
	if got, want := ui.KeyringErrorText(workrun.Localizer{}, err), ui.KeyringErrorText(workrun.Localizer{}, ui.ErrNoKeyring); got != want {
		t.Errorf("KeyringErrorText = %q, want %q", got, want)
	}
	err = a.Set(t.Context(), ui.Credential{Name: "k", Kind: "password", Origin: "https://agent.example"}, "s")
	if errors.Is(err, ui.ErrNoKeyring) || !errors.Is(err, credentials.ErrInvalid) {
		t.Errorf("Set of a bad kind = %v, want ErrInvalid only", err)
	}
	// A credential whose secret the keyring cannot reach: deleting it too.
	if err := st.SaveCredentialMeta(t.Context(), workrun.CredentialMeta{Name: "k", Kind: credentials.KindBearer, Origin: "https://agent.example:443", Header: "Authorization"}); err != nil {
		t.Fatal(err)
	}
	if err := a.Delete(t.Context(), "k"); !errors.Is(err, ui.ErrNoKeyring) {
		t.Errorf("Delete = %v, want ui.ErrNoKeyring", err)
	}
	if err := uiErr(nil); err != nil {
		t.Errorf("uiErr(nil) = %v", err)
	}
}
