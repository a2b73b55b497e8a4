package credentials

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"workrun/oauth"
	"workrun/remotecall"
	"workrun/workrun"
)

// KindOAuth is a credential obtained by signing in (package oauth). Its
// keyring entry holds the whole oauth.Grant as JSON — access token, refresh
// token, client registration and secret, the resource and issuer they are
// bound to; SQLite holds only the name, kind and origin.
const KindOAuth = "oauth"

// OAuthInfo describes a saved OAuth credential without its secrets.
type OAuthInfo struct {
	Name     string    `json:"name"`
	Origin   string    `json:"origin"`
	Resource string    `json:"resource"`
	Issuer   string    `json:"issuer"`
	Flow     string    `json:"flow"`
	Scopes   []string  `json:"scopes"`
	Expiry   time.Time `json:"expiry,omitzero"`
	Subject  string    `json:"subject,omitempty"`
	// Refreshable: a refresh token (or a machine client) is saved.
	Refreshable bool `json:"refreshable"`
}

func infoOf(name string, g oauth.Grant) OAuthInfo {
	return OAuthInfo{Name: name, Origin: g.Origin, Resource: g.Resource, Issuer: g.Issuer, Flow: g.Flow,
		Scopes: g.Scopes, Expiry: g.Expiry, Subject: g.Subject,
		Refreshable: g.RefreshToken != "" || g.Flow == oauth.FlowClientCredentials || g.Flow == oauth.FlowJWTBearer || g.Flow == oauth.FlowEnterprise}
}

// oauthSessions keeps one oauth.Session per credential name in this
// process, so that parallel nodes share one refresh (a refresh token may be
// good for one use only).
type oauthSessions struct {
	mu sync.Mutex
	m  map[string]*oauth.Session
}

// HTTPForOAuth is the HTTP client used for discovery, refresh and
// revocation; its replies are capped by package oauth.
var HTTPForOAuth = &http.Client{Timeout: oauth.MaxReplyTime}

// SaveOAuth stores grant under name: the grant in the keyring, the
// metadata (kind oauth, the grant's origin) in the store. A credential of
// the same name is replaced.
func (m *Manager) SaveOAuth(ctx context.Context, name string, g oauth.Grant) error {
	if _, err := validate(Credential{Name: name, Kind: KindBearer, Origin: g.Origin}, "x"); err != nil {
		return err
	}
	origin, err := NormalizeOrigin(g.Origin)
	if err != nil {
		return fmt.Errorf("save OAuth credential %s: %w", name, err)
	}
	if prev, err := m.OAuthGrant(ctx, name); err == nil {
		// A new sign-in under the name: the old tokens stay known, so a
		// task result computed with one is still redacted.
		g.Remember(append([]string{prev.AccessToken, prev.RefreshToken}, prev.PastTokens...)...)
	}
	b, err := json.Marshal(g)
	if err != nil {
		return fmt.Errorf("save OAuth credential %s: %w", name, err)
	}
	if err := m.keyring.Set(Service, name, string(b)); err != nil {
		return fmt.Errorf("save OAuth credential %s: %w", name, err)
	}
	if err := m.meta.SaveCredentialMeta(ctx, workrun.CredentialMeta{Name: name, Kind: KindOAuth, Origin: origin, Header: "Authorization"}); err != nil {
		return fmt.Errorf("save OAuth credential %s: %w", name, err)
	}
	return nil
}

// OAuthGrant returns the saved grant of an OAuth credential.
func (m *Manager) OAuthGrant(ctx context.Context, name string) (oauth.Grant, error) {
	c, secret, err := m.Get(ctx, name)
	if err != nil {
		return oauth.Grant{}, err
	}
	if c.Kind != KindOAuth {
		return oauth.Grant{}, fmt.Errorf("credential %s: %w: it is a %s credential, not OAuth", name, ErrInvalid, c.Kind)
	}
	var g oauth.Grant
	if err := json.Unmarshal([]byte(secret), &g); err != nil {
		return oauth.Grant{}, fmt.Errorf("credential %s: the saved sign-in cannot be read; sign in again", name)
	}
	return g, nil
}

// ListOAuth lists the OAuth credentials with their scopes and expiry. One
// whose keyring entry is gone is listed with its origin only.
func (m *Manager) ListOAuth(ctx context.Context) ([]OAuthInfo, error) {
	cs, err := m.List(ctx)
	if err != nil {
		return nil, err
	}
	var out []OAuthInfo
	for _, c := range cs {
		if c.Kind != KindOAuth {
			continue
		}
		g, err := m.OAuthGrant(ctx, c.Name)
		if errors.Is(err, ErrNoKeyring) {
			return nil, err
		}
		if err != nil {
			out = append(out, OAuthInfo{Name: c.Name, Origin: c.Origin})
			continue
		}
		out = append(out, infoOf(c.Name, g))
	}
	return out, nil
}

// RemoveOAuth revokes the credential's tokens where the server offers
// revocation, then deletes it. A failed revocation is returned after the
// credential is deleted anyway (the person asked for it to be gone).
func (m *Manager) RemoveOAuth(ctx context.Context, name string) error {
	g, gerr := m.OAuthGrant(ctx, name)
	var rerr error
	if gerr == nil {
		rerr = oauth.Revoke(ctx, HTTPForOAuth, g)
	}
	m.sessions.mu.Lock()
	delete(m.sessions.m, name)
	m.sessions.mu.Unlock()
	if err := m.Delete(ctx, name); err != nil {
		return err
	}
	if rerr != nil {
		return fmt.Errorf("credential %s deleted, but %w", name, rerr)
	}
	return nil
}

// OAuthSession is this process's session of the OAuth credential name.
func (m *Manager) OAuthSession(ctx context.Context, name string) (*oauth.Session, error) {
	m.sessions.mu.Lock()
	defer m.sessions.mu.Unlock()
	if s := m.sessions.m[name]; s != nil {
		return s, nil
	}
	g, err := m.OAuthGrant(ctx, name)
	if err != nil {
		return nil, err
	}
	s := oauth.NewSession(g, HTTPForOAuth, func(ctx context.Context, g oauth.Grant) error { return m.SaveOAuth(ctx, name, g) })
	if m.sessions.m == nil {
		m.sessions.m = map[string]*oauth.Session{}
	}
	m.sessions.m[name] = s
	return s, nil
}

// ForgetOAuthSession drops the cached session (after a new sign-in saved
// another grant under the name).
func (m *Manager) ForgetOAuthSession(name string) {
	m.sessions.mu.Lock()
	delete(m.sessions.m, name)
	m.sessions.mu.Unlock()
}

// oauthWrap is the transport wrapper of an OAuth credential: the token goes
// out only to its origin, and an error that needs the person matches
// workrun.ErrSignInRequired.
func oauthWrap(s *oauth.Session) func(http.RoundTripper) http.RoundTripper {
	return func(base http.RoundTripper) http.RoundTripper {
		if base == nil {
			base = http.DefaultTransport
		}
		return signInErrors{oauth.NewTransport(base, s.Origin(), s), s.Origin()}
	}
}

type signInErrors struct {
	t      http.RoundTripper
	origin string
}

func (w signInErrors) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := w.t.RoundTrip(req)
	if err != nil && errors.Is(err, oauth.ErrSignInRequired) {
		origin := w.origin
		if se := (*oauth.SignInError)(nil); errors.As(err, &se) && se.Origin != "" {
			origin = se.Origin
		}
		return nil, remotecall.NewSignInError(origin, err)
	}
	return resp, err
}

// oauthForRemote is the remote layer's form of an OAuth credential: its
// wrapper sits under the call's remotecall.Transport, which keeps the
// origin, caps and redaction.
func (m *Manager) oauthForRemote(ctx context.Context, name string) (remotecall.Credential, error) {
	s, err := m.OAuthSession(ctx, name)
	if err != nil {
		return remotecall.Credential{}, err
	}
	return remotecall.Credential{Kind: remotecall.CredentialOAuth, Origin: s.Origin(), Wrap: oauthWrap(s), Known: s.Grant().Secrets()}, nil
}
