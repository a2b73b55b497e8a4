package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// Session hands out the access token of one grant during runs: it
// refreshes the token RefreshSkew before it expires and once after a 401,
// and writes every change back through Save. It never opens a browser: when
// no valid token can be had its errors match ErrSignInRequired.
type Session struct {
	http *http.Client
	save func(context.Context, Grant) error
	now  func() time.Time

	mu sync.Mutex
	g  Grant
	// refreshed is when this session last got a new token: a token that
	// lives less than RefreshSkew is used while it is fresh rather than
	// refreshed again on every request.
	refreshed time.Time
}

// NewSession starts a session for g; save (may be nil) keeps the grant
// after a refresh or a scope request.
func NewSession(g Grant, hc *http.Client, save func(context.Context, Grant) error) *Session {
	return &Session{http: hc, save: save, now: time.Now, g: g}
}

// Grant returns a copy of the current grant.
func (s *Session) Grant() Grant {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.g
}

// Origin is where the token may be sent.
func (s *Session) Origin() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.g.Origin
}

// Token returns a valid access token, refreshing it first when it is about
// to expire.
func (s *Session) Token(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.g.AccessToken == "" {
		return "", &SignInError{Origin: s.g.Origin, Reason: "no token saved"}
	}
	now := s.now()
	if s.g.Valid(now, RefreshSkew) || (now.Sub(s.refreshed) < RefreshSkew/2 && s.g.Valid(now, 0)) {
		return s.g.AccessToken, nil
	}
	if err := s.refreshLocked(ctx); err != nil {
		return "", err
	}
	return s.g.AccessToken, nil
}

// tokenAndKey is Token and, for a DPoP-bound token, the key its proofs
// are signed with (nil for a bearer token).
func (s *Session) tokenAndKey(ctx context.Context) (string, *dpopKey, error) {
	tok, err := s.Token(ctx)
	if err != nil {
		return "", nil, err
	}
	g := s.Grant()
	if !g.DPoPBound() {
		return tok, nil, nil
	}
	key, err := g.dpop()
	if err != nil {
		return "", nil, &SignInError{Origin: g.Origin, Reason: "the saved DPoP key cannot be read", Err: err}
	}
	return tok, key, nil
}

// Renew is called after the server refused token with a 401. If another
// request renewed it meanwhile, the new one is returned. If the resource's
// metadata now names another authorization server, the grant is of no use
// there and the person must sign in again (the new server gets a new
// registration then). Otherwise the token is refreshed.
func (s *Session) Renew(ctx context.Context, token string, ch Challenge) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.g.AccessToken != token && s.g.Valid(s.now(), 0) {
		return s.g.AccessToken, nil
	}
	if s.g.Scheme != "" {
		// An A2A card's scheme: no resource metadata to read again.
		if err := s.refreshLocked(ctx); err != nil {
			return "", err
		}
		return s.g.AccessToken, nil
	}
	d, err := Discover(ctx, s.http, s.g.ResourceURL, ch)
	switch {
	case errors.Is(err, ErrResourceMismatch) || errors.Is(err, ErrIssuerMismatch):
		return "", &SignInError{Origin: s.g.Origin, Err: err}
	case err != nil:
		return "", fmt.Errorf("renew the token for %s: %w", s.g.Origin, err)
	case d.IssuerID != s.g.Issuer:
		return "", &SignInError{Origin: s.g.Origin, Reason: "its authorization server changed to " + clip(d.IssuerID)}
	}
	if err := s.refreshLocked(ctx); err != nil {
		return "", err
	}
	return s.g.AccessToken, nil
}

// NeedScopes records scopes a server asked for (403 insufficient_scope) so
// that the next sign-in asks for them, and returns the ErrSignInRequired
// error that says so.
func (s *Session) NeedScopes(ctx context.Context, scopes []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sc := range scopes {
		if !slices.Contains(s.g.WantScopes, sc) {
			s.g.WantScopes = append(s.g.WantScopes, sc)
		}
	}
	reason := "the server needs more permissions"
	if len(scopes) > 0 {
		reason = "the server needs the scope " + clip(strings.Join(scopes, " "))
	}
	if s.save != nil {
		if err := s.save(ctx, s.g); err != nil {
			return &SignInError{Origin: s.g.Origin, Reason: reason, Err: err}
		}
	}
	return &SignInError{Origin: s.g.Origin, Reason: reason}
}

func (s *Session) refreshLocked(ctx context.Context) error {
	g := s.g
	if err := g.refresh(ctx, s.http); err != nil {
		return err
	}
	if s.save != nil {
		if err := s.save(ctx, g); err != nil {
			return fmt.Errorf("keep the refreshed token for %s: %w", g.Origin, err)
		}
	}
	s.g = g
	s.refreshed = s.now()
	return nil
}
