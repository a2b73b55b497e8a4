package oauth

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Revoke asks the authorization server to revoke g's refresh token and
// access token (RFC 7009), where it offers a revocation endpoint; without
// one it does nothing. x/oauth2 has no revocation call, so this is by hand.
func Revoke(ctx context.Context, hc *http.Client, g Grant) error {
	if g.RevocationURL == "" {
		return nil
	}
	if err := CheckServerURL(g.RevocationURL); err != nil {
		return fmt.Errorf("revoke: %w", err)
	}
	for _, t := range []struct{ tok, hint string }{{g.RefreshToken, "refresh_token"}, {g.AccessToken, "access_token"}} {
		if t.tok == "" {
			continue
		}
		if err := revokeOne(ctx, hc, g, t.tok, t.hint); err != nil {
			return err
		}
	}
	return nil
}

func revokeOne(ctx context.Context, hc *http.Client, g Grant, tok, hint string) error {
	form := url.Values{"token": {tok}, "token_type_hint": {hint}}
	c := g.Client
	if c.AuthMethod != AuthClientSecretBasic {
		form.Set("client_id", c.ID)
		if c.AuthMethod == AuthClientSecretPost {
			form.Set("client_secret", c.Secret)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, MaxReplyTime)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.RevocationURL, strings.NewReader(form.Encode()))
	if err != nil {
		return fmt.Errorf("revoke: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if c.AuthMethod == AuthClientSecretBasic {
		req.SetBasicAuth(url.QueryEscape(c.ID), url.QueryEscape(c.Secret))
	}
	resp, err := fetcher{hc}.client().Do(req)
	if err != nil {
		return fmt.Errorf("revoke: %w", err)
	}
	defer resp.Body.Close()
	b, _ := readCapped(resp.Body, MaxMetadataBytes)
	// RFC 7009 §2.2: 200 also for a token already invalid.
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("revoke: HTTP %d: %s", resp.StatusCode, oauthErrorText(b))
	}
	return nil
}
