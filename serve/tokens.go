package serve

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"workrun/workrun"
)

// TokenStore keeps tokens' labels and hashes; *store.Store implements it.
type TokenStore interface {
	SaveServeToken(ctx context.Context, label, hash string) error
	ServeTokens(ctx context.Context) ([]workrun.ServeToken, error)
	DeleteServeToken(ctx context.Context, label string) error
}

// SecretKeeper is the OS keyring (credentials.OSKeyring implements it).
type SecretKeeper interface {
	Set(service, user, secret string) error
	Delete(service, user string) error
}

// KeyringService is the keyring service the token secrets are kept under.
const KeyringService = "workrun-serve-token"

// ErrBadLabel: a token label must be 1–64 letters, digits, '-', '_' or '.'.
var ErrBadLabel = errors.New("a token label is 1 to 64 letters, digits, '-', '_' or '.'")

// Tokens is the book of callers' bearer tokens (S11): the secret only in
// the keyring, its SHA-256 and label in the store. It authenticates
// callers by hash, comparing in constant time.
type Tokens struct {
	Store   TokenStore
	Keyring SecretKeeper

	mu     sync.Mutex
	cached []workrun.ServeToken
	readAt time.Time
}

// Hash is the one-way hash a token is stored as.
func Hash(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}

// Create makes a token for label and returns its secret (shown once).
func (t *Tokens) Create(ctx context.Context, label string) (string, error) {
	if label == "" || len(label) > 64 || strings.Trim(label, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") != "" {
		return "", ErrBadLabel
	}
	b := make([]byte, 32)
	rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	secret := "wrs_" + base64.RawURLEncoding.EncodeToString(b)
	if err := t.Keyring.Set(KeyringService, label, secret); err != nil {
		return "", fmt.Errorf("create token %s: %w", label, err)
	}
	if err := t.Store.SaveServeToken(ctx, label, Hash(secret)); err != nil {
		// The keyring entry of a label that exists is the old token's: keep it.
		if !errors.Is(err, workrun.ErrTokenExists) {
			if kerr := t.Keyring.Delete(KeyringService, label); kerr != nil {
				err = errors.Join(err, kerr)
			}
		}
		return "", err
	}
	t.forget()
	return secret, nil
}

// List returns the tokens' labels and hashes.
func (t *Tokens) List(ctx context.Context) ([]workrun.ServeToken, error) {
	return t.Store.ServeTokens(ctx)
}

// Revoke deletes label's token; a caller using it is refused from then on.
func (t *Tokens) Revoke(ctx context.Context, label string) error {
	if err := t.Store.DeleteServeToken(ctx, label); err != nil {
		return err
	}
	t.forget()
	if err := t.Keyring.Delete(KeyringService, label); err != nil {
		return fmt.Errorf("revoke token %s: remove its secret from the keyring: %w", label, err)
	}
	return nil
}

func (t *Tokens) forget() {
	t.mu.Lock()
	t.cached = nil
	t.mu.Unlock()
}

// recheck is how long a read of the token list is used: a token revoked
// by `workrun serve token revoke` in another process is refused within it.
const recheck = 2 * time.Second

// Caller returns the label of the token secret, comparing its hash with
// every saved one in constant time.
func (t *Tokens) Caller(ctx context.Context, secret string) (string, bool) {
	t.mu.Lock()
	if t.cached == nil || time.Since(t.readAt) > recheck {
		list, err := t.Store.ServeTokens(ctx)
		if err != nil {
			t.mu.Unlock()
			return "", false // refused: a token cannot be checked
		}
		t.cached, t.readAt = list, time.Now()
	}
	list := t.cached
	t.mu.Unlock()
	want := []byte(Hash(secret))
	label, found := "", 0
	for _, tok := range list {
		if subtle.ConstantTimeCompare(want, []byte(tok.Hash)) == 1 {
			label, found = tok.Label, 1
		}
	}
	return label, found == 1
}
