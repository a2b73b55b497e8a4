package credentials

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"workrun/oauth"
	"workrun/remotecall"
	"workrun/store"
)

func sampleGrant(origin string) oauth.Grant {
	return oauth.Grant{Origin: origin, Resource: origin + "/mcp", ResourceURL: origin + "/mcp", Issuer: "https://as.example",
		TokenURL: "https://as.example/token", Flow: oauth.FlowAuthorizationCode,
		Client:      oauth.Client{ID: "cid", Secret: "client-secret-77", AuthMethod: oauth.AuthClientSecretPost, Source: oauth.ClientDynamic, Issuer: "https://as.example"},
		AccessToken: "access-token-5150", RefreshToken: "refresh-token-4242", Scopes: []string{"mcp:read", "offline_access"},
		Expiry: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func TestOAuthCredential_SaveListSourceRemove(t *testing.T) {
	ctx := t.Context()
	m, db, dir := newManager(t)
	var mu sync.Mutex
	var revoked []string
	as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		mu.Lock()
		revoked = append(revoked, r.Form.Get("token_type_hint")+"="+r.Form.Get("token"))
		mu.Unlock()
	}))
	defer as.Close()
	g := sampleGrant("https://mcp.example:443")
	g.RevocationURL = as.URL + "/revoke"
	if err := m.SaveOAuth(ctx, "srv", g); err != nil {
		t.Fatal(err)
	}
	infos, err := m.ListOAuth(ctx)
	if err != nil || len(infos) != 1 {
		t.Fatalf("ListOAuth = %+v, %v", infos, err)
	}
	if in := infos[0]; in.Origin != g.Origin || in.Resource != g.Resource || in.Issuer != g.Issuer ||
		!slices.Equal(in.Scopes, g.Scopes) || !in.Expiry.Equal(g.Expiry) || !in.Refreshable {
		t.Fatalf("info = %+v", in)
	}
	got, err := m.OAuthGrant(ctx, "srv")
	if err != nil || got.RefreshToken != g.RefreshToken || got.Client.Secret != g.Client.Secret {
		t.Fatalf("OAuthGrant = %+v, %v", got, err)
	}
	// Both remote kinds get the OAuth form, bound to the grant's origin.
	mc, err := RemoteSource{Manager: m}.Credential(ctx, "srv")
	if err != nil || mc.Kind != remotecall.CredentialOAuth || mc.Wrap == nil || mc.Origin != g.Origin || mc.Secret != "" {
		t.Fatalf("RemoteSource = %+v, %v", mc, err)
	}
	// Nothing secret reaches SQLite.
	files, _ := filepath.Glob(filepath.Join(dir, store.FileName+"*"))
	var all []byte
	for _, f := range files {
		b, _ := os.ReadFile(f)
		all = append(all, b...)
	}
	for _, s := range []string{g.AccessToken, g.RefreshToken, g.Client.Secret} {
		if bytes.Contains(all, []byte(s)) {
			t.Errorf("%s found in the database files", s)
		}
	}
	if !bytes.Contains(all, []byte("mcp.example:443")) {
		t.Error("the metadata is not in the database files either; the grep proves nothing")
	}
	if err := m.RemoveOAuth(ctx, "srv"); err != nil {
		t.Fatal(err)
	}
	if want := []string{"refresh_token=" + g.RefreshToken, "access_token=" + g.AccessToken}; !slices.Equal(revoked, want) {
		t.Errorf("revoked %q, want %q", revoked, want)
	}
	if _, err := keyring.Get(Service, "srv"); !errors.Is(err, keyring.ErrNotFound) {
		t.Errorf("grant still in the keyring: %v", err)
	}
	if cs, _ := m.List(ctx); len(cs) != 0 {
		t.Errorf("still listed: %+v", cs)
	}
	db.Close()
}

// TestOAuthKeyringRoundTrip_RealSecretService keeps an OAuth grant in the
// real OS keyring and reads it back whole, in a child process (the other
// tests install go-keyring's process-wide mock). Under CI=true a missing
// Secret Service fails it.
func TestOAuthKeyringRoundTrip_RealSecretService(t *testing.T) {
	inRealKeyring(t, realOAuthRoundTrip)
}

func realOAuthRoundTrip(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := NewManager(db, nil)
	name := "workrun-test-oauth-" + filepath.Base(t.TempDir())
	g := sampleGrant("https://mcp.example:443")
	err = m.SaveOAuth(ctx, name, g)
	if errors.Is(err, ErrNoKeyring) {
		t.Logf("REAL-KEYRING-UNAVAILABLE: %v", err)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	defer m.Delete(ctx, name)
	got, err := m.OAuthGrant(ctx, name)
	if err != nil || got.AccessToken != g.AccessToken || got.RefreshToken != g.RefreshToken || got.Client != g.Client ||
		!got.Expiry.Equal(g.Expiry) || !slices.Equal(got.Scopes, g.Scopes) || got.Issuer != g.Issuer || got.Resource != g.Resource {
		t.Fatalf("read back %+v, %v", got, err)
	}
	if err := m.RemoveOAuth(ctx, name); err != nil {
		t.Fatal(err)
	}
	if _, err := keyring.Get(Service, name); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("grant still in the real keyring after removal: %v", err)
	}
	t.Log("REAL-KEYRING-OK")
}
