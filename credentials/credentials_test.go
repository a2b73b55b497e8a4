package credentials

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zalando/go-keyring"

	"workrun/store"
	"workrun/workrun"
)

func newManager(t *testing.T) (*Manager, *store.Store, string) {
	t.Helper()
	keyring.MockInit()
	dir := t.TempDir()
	db, err := store.Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return NewManager(db, nil), db, dir
}

func TestNormalizeOrigin(t *testing.T) {
	tests := []struct {
		in, want string
		wantErr  bool
	}{
		{"https://Agent.Example.com/a2a/v1?x=1#f", "https://agent.example.com:443", false},
		{"http://agent.example.com", "http://agent.example.com:80", false},
		{"HTTPS://agent.example.com:8443/", "https://agent.example.com:8443", false},
		{"https://agent.example.com.:443", "https://agent.example.com:443", false},
		{"http://127.0.0.1:0080/x", "http://127.0.0.1:80", false},
		{"http://[::1]:9000/", "http://[::1]:9000", false},
		{"https://[2001:DB8::1]", "https://[2001:db8::1]:443", false},
		{"  https://a.example  ", "https://a.example:443", false},
		{"ftp://a.example", "", true},
		{"a.example", "", true},
		{"https://user:pw@a.example", "", true},
		{"https://a.example:99999", "", true},
		{"https://a.example:0", "", true},
		{"https://", "", true},
		{"://", "", true},
	}
	for _, tt := range tests {
		got, err := NormalizeOrigin(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("NormalizeOrigin(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
		if err != nil && !errors.Is(err, ErrBadOrigin) {
			t.Errorf("NormalizeOrigin(%q) error %v is not ErrBadOrigin", tt.in, err)
		}
	}
}

func FuzzNormalizeOrigin(f *testing.F) {
	for _, s := range []string{"https://a.example/x", "http://[::1]:80", "https://u@h", "http://h:0080"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := NormalizeOrigin(s)
		if err != nil {
			return
		}
		again, err := NormalizeOrigin(got)
		if err != nil || again != got {
			t.Errorf("not idempotent: %q -> %q -> %q, %v", s, got, again, err)
		}
	})
}

func TestManager_SetGetListDelete(t *testing.T) {
	ctx := t.Context()
	m, _, _ := newManager(t)
	if err := m.Set(ctx, Credential{Name: "summarizer", Kind: KindBearer, Origin: "https://Agent.example/a2a"}, "tok-1"); err != nil {
		t.Fatal(err)
	}
	if err := m.Set(ctx, Credential{Name: "search", Kind: KindAPIKey, Origin: "http://127.0.0.1:8080", Header: "X-Api-Key"}, "key-1"); err != nil {
		t.Fatal(err)
	}
	c, secret, err := m.Get(ctx, "summarizer")
	if err != nil {
		t.Fatal(err)
	}
	want := Credential{Name: "summarizer", Kind: KindBearer, Origin: "https://agent.example:443", Header: "Authorization"}
	if d := cmp.Diff(want, c); d != "" || secret != "tok-1" {
		t.Errorf("Get = %q (-want +got):\n%s", secret, d)
	}
	list, err := m.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantList := []Credential{
		{Name: "search", Kind: KindAPIKey, Origin: "http://127.0.0.1:8080", Header: "X-Api-Key"},
		want,
	}
	if d := cmp.Diff(wantList, list); d != "" {
		t.Errorf("List (-want +got):\n%s", d)
	}
	// Replacing keeps one credential with the new secret.
	if err := m.Set(ctx, Credential{Name: "search", Kind: KindAPIKey, Origin: "http://127.0.0.1:8080", Header: "X-Key"}, "key-2"); err != nil {
		t.Fatal(err)
	}
	c, secret, err = m.Get(ctx, "search")
	if err != nil || secret != "key-2" || c.Header != "X-Key" {
		t.Errorf("after replace: %+v %q %v", c, secret, err)
	}

	if err := m.Delete(ctx, "search"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := m.Get(ctx, "search"); !errors.Is(err, workrun.ErrNotFound) {
		t.Errorf("Get after Delete = %v, want ErrNotFound", err)
	}
	if _, err := keyring.Get(Service, "search"); !errors.Is(err, keyring.ErrNotFound) {
		t.Errorf("keyring still holds the secret after Delete: %v", err)
	}
	if err := m.Delete(ctx, "search"); !errors.Is(err, workrun.ErrNotFound) {
		t.Errorf("second Delete = %v, want ErrNotFound", err)
	}
}

func TestManager_Resolve_BoundToOrigin(t *testing.T) {
	ctx := t.Context()
	m, _, _ := newManager(t)
	if err := m.Set(ctx, Credential{Name: "a", Kind: KindBearer, Origin: "https://agent.example"}, "tok"); err != nil {
		t.Fatal(err)
	}
	if _, s, err := m.Resolve(ctx, "a", "https://agent.example:443/rpc"); err != nil || s != "tok" {
		t.Errorf("Resolve same origin = %q, %v", s, err)
	}
	for _, u := range []string{"http://agent.example/rpc", "https://agent.example:8443/", "https://evil.example/", "https://agent.example.evil.example/"} {
		_, s, err := m.Resolve(ctx, "a", u)
		if !errors.Is(err, ErrOriginMismatch) || s != "" {
			t.Errorf("Resolve(%s) = %q, %v; want ErrOriginMismatch and no secret", u, s, err)
		}
	}
}

func TestManager_SetRejectsInvalid(t *testing.T) {
	m, _, _ := newManager(t)
	good := Credential{Name: "n", Kind: KindAPIKey, Origin: "https://a.example", Header: "X-Key"}
	tests := []struct {
		name   string
		c      func(Credential) Credential
		secret string
	}{
		{"empty name", func(c Credential) Credential { c.Name = " "; return c }, "s"},
		{"control char in name", func(c Credential) Credential { c.Name = "a\nb"; return c }, "s"},
		{"unknown kind", func(c Credential) Credential { c.Kind = "basic"; return c }, "s"},
		{"bad origin", func(c Credential) Credential { c.Origin = "file:///etc"; return c }, "s"},
		{"apikey without header", func(c Credential) Credential { c.Header = ""; return c }, "s"},
		{"header with colon", func(c Credential) Credential { c.Header = "X-Key: y"; return c }, "s"},
		{"bearer in another header", func(c Credential) Credential { c.Kind, c.Header = KindBearer, "X-Key"; return c }, "s"},
		{"empty secret", func(c Credential) Credential { return c }, ""},
		{"secret with newline (header injection)", func(c Credential) Credential { return c }, "a\r\nX-Evil: 1"},
	}
	for _, tt := range tests {
		err := m.Set(t.Context(), tt.c(good), tt.secret)
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Set = %v, want ErrInvalid", tt.name, err)
		}
	}
	if list, _ := m.List(t.Context()); len(list) != 0 {
		t.Errorf("invalid credentials were saved: %+v", list)
	}
}

func TestManager_NoKeyring(t *testing.T) {
	ctx := t.Context()
	m, db, _ := newManager(t)
	if err := m.Set(ctx, Credential{Name: "a", Kind: KindBearer, Origin: "https://a.example"}, "tok"); err != nil {
		t.Fatal(err)
	}
	keyring.MockInitWithError(errors.New("The name org.freedesktop.secrets was not provided by any .service files"))
	defer keyring.MockInit()
	err := m.Set(ctx, Credential{Name: "b", Kind: KindBearer, Origin: "https://a.example"}, "tok")
	if !errors.Is(err, ErrNoKeyring) || !strings.Contains(err.Error(), "no OS keyring available: The name org.freedesktop.secrets") {
		t.Errorf("Set without keyring = %v, want a plain ErrNoKeyring", err)
	}
	if _, err := db.GetCredentialMeta(ctx, "b"); !errors.Is(err, workrun.ErrNotFound) {
		t.Errorf("metadata saved although the secret was not: %v", err)
	}
	if _, _, err := m.Get(ctx, "a"); !errors.Is(err, ErrNoKeyring) {
		t.Errorf("Get without keyring = %v, want ErrNoKeyring", err)
	}
	// Metadata stays readable without a keyring.
	if list, err := m.List(ctx); err != nil || len(list) != 1 {
		t.Errorf("List without keyring = %v, %v", list, err)
	}
}

func TestManager_SecretMissingFromKeyring(t *testing.T) {
	ctx := t.Context()
	m, _, _ := newManager(t)
	if err := m.Set(ctx, Credential{Name: "a", Kind: KindBearer, Origin: "https://a.example"}, "tok"); err != nil {
		t.Fatal(err)
	}
	if err := keyring.Delete(Service, "a"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := m.Get(ctx, "a"); !errors.Is(err, ErrSecretMissing) {
		t.Errorf("Get = %v, want ErrSecretMissing", err)
	}
	if err := m.Delete(ctx, "a"); err != nil {
		t.Errorf("Delete with the secret already gone = %v", err)
	}
}

// TestSecretNeverInSQLite greps every file of the database (main file, WAL,
// shared memory) for the secret (docs/product.md W8).
func TestSecretNeverInSQLite(t *testing.T) {
	ctx := t.Context()
	m, db, dir := newManager(t)
	const secret = "sk-very-secret-0123456789abcdef"
	if err := m.Set(ctx, Credential{Name: "a", Kind: KindAPIKey, Origin: "https://a.example", Header: "X-Key"}, secret); err != nil {
		t.Fatal(err)
	}
	if err := m.Set(ctx, Credential{Name: "b", Kind: KindBearer, Origin: "https://b.example"}, secret+"-b"); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		files, _ := filepath.Glob(filepath.Join(dir, store.FileName+"*"))
		if len(files) == 0 {
			t.Fatal("no database files found")
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s: secret found in %s", when, f)
			}
		}
		// The grep is meaningful: the metadata is in there.
		var all []byte
		for _, f := range files {
			b, _ := os.ReadFile(f)
			all = append(all, b...)
		}
		if !bytes.Contains(all, []byte("https://a.example:443")) {
			t.Errorf("%s: credential metadata not found in the database files; grep proves nothing", when)
		}
	}
	check("while open")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	check("after close")
}

// realKeyringEnv marks the child process of TestKeyringRoundTrip_RealSecretService.
const realKeyringEnv = "WORKRUN_REAL_KEYRING_CHILD"

// TestKeyringRoundTrip_RealSecretService stores, reads and deletes a secret
// in the real OS keyring. go-keyring's mock is process-wide and the other
// tests install it, so the round trip runs in a fresh child process of this
// test binary. Without a reachable Secret Service it skips, except under
// CI=true, where it fails: CI provides one (dbus-run-session +
// gnome-keyring-daemon).
func TestKeyringRoundTrip_RealSecretService(t *testing.T) {
	inRealKeyring(t, realRoundTrip)
}

// inRealKeyring runs round in a child process of this test binary (the
// parent installs no mock there) and reports its REAL-KEYRING-OK /
// REAL-KEYRING-UNAVAILABLE line; under CI=true an unreachable Secret
// Service fails the test.
func inRealKeyring(t *testing.T, round func(*testing.T)) {
	if os.Getenv(realKeyringEnv) != "" {
		round(t)
		return
	}
	out, err := runChild(t)
	text := string(out)
	switch {
	case err == nil && strings.Contains(text, "REAL-KEYRING-OK"):
		t.Log("real keyring round trip passed")
	case strings.Contains(text, "REAL-KEYRING-UNAVAILABLE"):
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but no Secret Service is reachable:\n%s", text)
		}
		t.Skipf("no Secret Service reachable (set CI=true to make this fail):\n%s", lastLines(text, 3))
	default:
		t.Fatalf("real keyring round trip failed: %v\n%s", err, text)
	}
}

func realRoundTrip(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := NewManager(db, nil)
	name := "workrun-test-" + strings.ReplaceAll(t.Name(), "/", "-") + "-" + filepath.Base(t.TempDir())
	const secret = "real-secret-\u00e9-123"
	err = m.Set(ctx, Credential{Name: name, Kind: KindBearer, Origin: "https://agent.example"}, secret)
	if errors.Is(err, ErrNoKeyring) {
		t.Logf("REAL-KEYRING-UNAVAILABLE: %v", err)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	defer m.Delete(ctx, name)
	_, got, err := m.Get(ctx, name)
	if err != nil || got != secret {
		t.Fatalf("Get from the real keyring = %q, %v", got, err)
	}
	if err := m.Delete(ctx, name); err != nil {
		t.Fatal(err)
	}
	if _, err := keyring.Get(Service, name); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("secret still in the real keyring after Delete: %v", err)
	}
	t.Log("REAL-KEYRING-OK")
}

// fakeMeta is a function-field fake of Metadata.
type fakeMeta struct {
	SaveFunc   func(context.Context, workrun.CredentialMeta) error
	GetFunc    func(context.Context, string) (workrun.CredentialMeta, error)
	ListFunc   func(context.Context) ([]workrun.CredentialMeta, error)
	DeleteFunc func(context.Context, string) error
}

func (f fakeMeta) SaveCredentialMeta(ctx context.Context, c workrun.CredentialMeta) error {
	return f.SaveFunc(ctx, c)
}
func (f fakeMeta) GetCredentialMeta(ctx context.Context, n string) (workrun.CredentialMeta, error) {
	return f.GetFunc(ctx, n)
}
func (f fakeMeta) ListCredentialMeta(ctx context.Context) ([]workrun.CredentialMeta, error) {
	return f.ListFunc(ctx)
}
func (f fakeMeta) DeleteCredentialMeta(ctx context.Context, n string) error {
	return f.DeleteFunc(ctx, n)
}

func TestManager_SetMetadataFailureRemovesNewSecret(t *testing.T) {
	keyring.MockInit()
	boom := errors.New("disk I/O error")
	m := NewManager(fakeMeta{
		GetFunc: func(context.Context, string) (workrun.CredentialMeta, error) {
			return workrun.CredentialMeta{}, workrun.ErrNotFound
		},
		SaveFunc: func(context.Context, workrun.CredentialMeta) error { return boom },
	}, nil)
	err := m.Set(t.Context(), Credential{Name: "new", Kind: KindBearer, Origin: "https://a.example"}, "tok")
	if !errors.Is(err, boom) {
		t.Fatalf("Set = %v, want the metadata error", err)
	}
	if strings.Contains(err.Error(), "tok") {
		t.Errorf("error text carries the secret: %v", err)
	}
	if _, err := keyring.Get(Service, "new"); !errors.Is(err, keyring.ErrNotFound) {
		t.Errorf("secret left in the keyring: %v", err)
	}
}
