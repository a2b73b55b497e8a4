package credentials

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/remotecall"
	"workrun/workrun"
)

// TestSources: a saved bearer token and API key reach each protocol client
// in its form, with the origin they are bound to; an unknown name is
// workrun.ErrNotFound.
func TestSources(t *testing.T) {
	m, _, _ := newManager(t)
	ctx := t.Context()
	if err := m.Set(ctx, Credential{Name: "b", Kind: KindBearer, Origin: "https://a.example/x"}, "tok"); err != nil {
		t.Fatal(err)
	}
	if err := m.Set(ctx, Credential{Name: "k", Kind: KindAPIKey, Origin: "http://127.0.0.1:8080", Header: "X-API-Key"}, "key"); err != nil {
		t.Fatal(err)
	}
	ab, err := (RemoteSource{m}).Credential(ctx, "b")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(remotecall.Credential{Kind: remotecall.CredentialBearer, Header: "Authorization", Secret: "tok", Origin: "https://a.example:443"}, ab); d != "" {
		t.Errorf("remote bearer (-want +got):\n%s", d)
	}
	rk, err := (RemoteSource{m}).Credential(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(remotecall.Credential{Kind: remotecall.CredentialAPIKey, Header: "X-API-Key", Secret: "key", Origin: "http://127.0.0.1:8080"}, rk); d != "" {
		t.Errorf("API key (-want +got):\n%s", d)
	}
	if _, err := (RemoteSource{m}).Credential(ctx, "nope"); !errors.Is(err, workrun.ErrNotFound) {
		t.Errorf("remote unknown name: %v, want ErrNotFound", err)
	}
}
