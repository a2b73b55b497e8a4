package credentials

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/zalando/go-keyring"

	"workrun/remotecall"
	"workrun/workrun"
)

// Service is the keyring service name under which secrets are kept.
const Service = "workrun"

// Kinds of credential. The HTTP clients (packages a2a and mcp) put the
// secret in its header; this package keeps it and hands it out.
const (
	KindBearer = "bearer" // sent as "Authorization: Bearer <secret>"
	KindAPIKey = "apikey" // sent as "<Header>: <secret>"
)

var (
	// ErrNoKeyring means the OS keyring cannot be used; the error text
	// starts "no OS keyring available: " and names the cause.
	ErrNoKeyring = errors.New("no OS keyring available")
	// ErrSecretMissing means the metadata exists but the keyring has no
	// secret for it (removed outside Workrun); set the credential again.
	ErrSecretMissing = errors.New("secret missing from the OS keyring")
	// ErrInvalid is returned for a credential or secret that cannot be saved.
	ErrInvalid = errors.New("invalid credential")
	// ErrOriginMismatch is returned by Resolve for a URL of another origin.
	ErrOriginMismatch = errors.New("credential is bound to another origin")
)

// Credential describes a secret without holding it.
type Credential struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`   // KindBearer or KindAPIKey
	Origin string `json:"origin"` // normalized scheme://host:port
	Header string `json:"header"` // "Authorization" for bearer; the API key header otherwise
}

// Metadata keeps what is known about a credential besides its secret;
// *store.Store implements it (main.go wires it).
type Metadata interface {
	SaveCredentialMeta(ctx context.Context, c workrun.CredentialMeta) error
	GetCredentialMeta(ctx context.Context, name string) (workrun.CredentialMeta, error)
	ListCredentialMeta(ctx context.Context) ([]workrun.CredentialMeta, error)
	DeleteCredentialMeta(ctx context.Context, name string) error
}

// Keyring stores secrets; OSKeyring is the real one.
type Keyring interface {
	Set(service, user, secret string) error
	Get(service, user string) (string, error)
	Delete(service, user string) error
}

// OSKeyring is the OS keyring through go-keyring (Secret Service on Linux,
// Keychain on macOS, Credential Manager on Windows). Its errors are
// keyring.ErrNotFound or wrap ErrNoKeyring.
type OSKeyring struct{}

func (OSKeyring) Set(service, user, secret string) error {
	return keyringErr(keyring.Set(service, user, secret))
}

func (OSKeyring) Get(service, user string) (string, error) {
	s, err := keyring.Get(service, user)
	return s, keyringErr(err)
}

func (OSKeyring) Delete(service, user string) error {
	return keyringErr(keyring.Delete(service, user))
}

// keyringErr keeps ErrNotFound and ErrSetDataTooBig and reports anything
// else (no session bus, no Secret Service, a refused unlock) as ErrNoKeyring.
func keyringErr(err error) error {
	if err == nil || errors.Is(err, keyring.ErrNotFound) || errors.Is(err, keyring.ErrSetDataTooBig) {
		return err
	}
	return fmt.Errorf("%w: %v", ErrNoKeyring, err)
}

// Manager keeps credential metadata in SQLite and secrets in the keyring.
type Manager struct {
	meta    Metadata
	keyring Keyring
	// sessions: the OAuth credentials' token sessions (oauth.go).
	sessions oauthSessions
}

// NewManager returns a manager; a nil keyring means OSKeyring.
func NewManager(meta Metadata, kr Keyring) *Manager {
	if kr == nil {
		kr = OSKeyring{}
	}
	return &Manager{meta: meta, keyring: kr}
}

// Set validates c, stores the secret in the keyring and then the metadata.
// The origin is normalized. A credential with the same name is replaced.
// If the metadata cannot be saved for a new name, the secret just stored is
// removed again.
func (m *Manager) Set(ctx context.Context, c Credential, secret string) error {
	c, err := validate(c, secret)
	if err != nil {
		return err
	}
	_, getErr := m.meta.GetCredentialMeta(ctx, c.Name)
	existed := getErr == nil
	if err := m.keyring.Set(Service, c.Name, secret); err != nil {
		if errors.Is(err, keyring.ErrSetDataTooBig) {
			return fmt.Errorf("set credential %s: %w: secret too long for the OS keyring", c.Name, ErrInvalid)
		}
		return fmt.Errorf("set credential %s: %w", c.Name, err)
	}
	err = m.meta.SaveCredentialMeta(ctx, workrun.CredentialMeta{Name: c.Name, Kind: c.Kind, Origin: c.Origin, Header: c.Header})
	if err != nil {
		if !existed {
			// Leave no secret behind that no listed credential owns.
			_ = m.keyring.Delete(Service, c.Name)
		}
		return fmt.Errorf("set credential %s: %w", c.Name, err)
	}
	return nil
}

// Get returns a credential and its secret. workrun.ErrNotFound for an
// unknown name, ErrSecretMissing when the keyring lost the secret,
// ErrNoKeyring when there is no keyring.
func (m *Manager) Get(ctx context.Context, name string) (Credential, string, error) {
	meta, err := m.meta.GetCredentialMeta(ctx, name)
	if err != nil {
		return Credential{}, "", fmt.Errorf("get credential %s: %w", name, err)
	}
	c := fromMeta(meta)
	secret, err := m.keyring.Get(Service, name)
	if errors.Is(err, keyring.ErrNotFound) {
		return c, "", fmt.Errorf("get credential %s: %w; set it again", name, ErrSecretMissing)
	}
	if err != nil {
		return c, "", fmt.Errorf("get credential %s: %w", name, err)
	}
	return c, secret, nil
}

// Resolve returns the credential named name and its secret for a request
// to targetURL, refusing (ErrOriginMismatch) when targetURL's origin is not
// the one the credential is bound to.
func (m *Manager) Resolve(ctx context.Context, name, targetURL string) (Credential, string, error) {
	origin, err := NormalizeOrigin(targetURL)
	if err != nil {
		return Credential{}, "", fmt.Errorf("resolve credential %s: %w", name, err)
	}
	meta, err := m.meta.GetCredentialMeta(ctx, name)
	if err != nil {
		return Credential{}, "", fmt.Errorf("resolve credential %s: %w", name, err)
	}
	if meta.Origin != origin {
		return Credential{}, "", fmt.Errorf("resolve credential %s for %s: %w %s", name, origin, ErrOriginMismatch, meta.Origin)
	}
	return m.Get(ctx, name)
}

// List returns every credential's metadata, by name; no secrets.
func (m *Manager) List(ctx context.Context) ([]Credential, error) {
	metas, err := m.meta.ListCredentialMeta(ctx)
	if err != nil {
		return nil, fmt.Errorf("list credentials: %w", err)
	}
	out := make([]Credential, 0, len(metas))
	for _, meta := range metas {
		out = append(out, fromMeta(meta))
	}
	return out, nil
}

// Delete removes the secret from the keyring, then the metadata. A secret
// already gone from the keyring is not an error; an unknown name gives
// workrun.ErrNotFound.
func (m *Manager) Delete(ctx context.Context, name string) error {
	if _, err := m.meta.GetCredentialMeta(ctx, name); err != nil {
		return fmt.Errorf("delete credential %s: %w", name, err)
	}
	if err := m.keyring.Delete(Service, name); err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return fmt.Errorf("delete credential %s: %w", name, err)
	}
	if err := m.meta.DeleteCredentialMeta(ctx, name); err != nil && !errors.Is(err, workrun.ErrNotFound) {
		return fmt.Errorf("delete credential %s: %w", name, err)
	}
	return nil
}

func fromMeta(m workrun.CredentialMeta) Credential {
	return Credential{Name: m.Name, Kind: m.Kind, Origin: m.Origin, Header: m.Header}
}

// validate checks c and secret and returns c with its origin normalized
// and its header set.
func validate(c Credential, secret string) (Credential, error) {
	c.Name = strings.TrimSpace(c.Name)
	if c.Name == "" || len(c.Name) > 100 || strings.IndexFunc(c.Name, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return Credential{}, fmt.Errorf("%w: name must be 1–100 printable characters", ErrInvalid)
	}
	origin, err := NormalizeOrigin(c.Origin)
	if err != nil {
		return Credential{}, fmt.Errorf("credential %s: %w: %w", c.Name, ErrInvalid, err)
	}
	c.Origin = origin
	switch c.Kind {
	case KindBearer:
		if c.Header != "" && !strings.EqualFold(c.Header, "Authorization") {
			return Credential{}, fmt.Errorf("credential %s: %w: a bearer token goes in the Authorization header", c.Name, ErrInvalid)
		}
		c.Header = "Authorization"
	case KindAPIKey:
	default:
		return Credential{}, fmt.Errorf("credential %s: %w: kind must be %q or %q", c.Name, ErrInvalid, KindBearer, KindAPIKey)
	}
	// The header and secret rules are the transport's (remotecall), so a
	// credential that is saved is one that can be sent.
	if _, err := remotecall.NewStaticAuth(ForRemote(c, secret)); err != nil {
		return Credential{}, fmt.Errorf("credential %s: %w: %w", c.Name, ErrInvalid, err)
	}
	return c, nil
}
