package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// Token endpoint authentication methods (RFC 7591 §2, RFC 7523).
const (
	AuthNone              = "none"
	AuthClientSecretBasic = "client_secret_basic"
	AuthClientSecretPost  = "client_secret_post"
	AuthPrivateKeyJWT     = "private_key_jwt"
)

// How the client id was obtained.
const (
	ClientPreRegistered = "pre-registered"
	ClientMetadataDoc   = "metadata-document"
	ClientDynamic       = "dynamic"
)

// ClientConfig is what the person (or the program) supplies about the
// client; all of it optional.
type ClientConfig struct {
	// ID and Secret of a client registered in advance with the
	// authorization server (the person enters them).
	ID, Secret string
	// PrivateKeyPEM signs private_key_jwt client assertions (client
	// credentials with a key instead of a secret).
	PrivateKeyPEM string
	// MetadataURL is an https URL of a Client ID Metadata Document that
	// describes this client; used as the client id where the server
	// supports it.
	MetadataURL string
	// Name is the client_name of a dynamic registration.
	Name string
}

// Client is the client Workrun is at one authorization server. It is bound
// to the issuer: a client of one server is never presented to another.
type Client struct {
	ID         string `json:"client_id"`
	Secret     string `json:"client_secret,omitempty"`
	AuthMethod string `json:"auth_method"`
	Source     string `json:"source"`
	Issuer     string `json:"issuer"`
	// PrivateKeyPEM is kept for private_key_jwt.
	PrivateKeyPEM string `json:"private_key_pem,omitempty"`
}

// ChooseClient picks the client for d's authorization server in the
// specification's order: a pre-registered client id, then a Client ID
// Metadata Document where the server supports it, then prev when it is a
// registration at this same issuer, then dynamic registration (RFC 7591).
// grants are the grant types the client will use.
func ChooseClient(ctx context.Context, hc *http.Client, d *Discovery, cfg ClientConfig, redirectURI string, grants []string, prev *Client) (Client, error) {
	m := d.Server
	switch {
	case cfg.ID != "":
		c := Client{ID: cfg.ID, Secret: cfg.Secret, PrivateKeyPEM: cfg.PrivateKeyPEM, Source: ClientPreRegistered, Issuer: d.IssuerID}
		c.AuthMethod = pickAuthMethod(m.authMethods(), c.Secret != "", c.PrivateKeyPEM != "")
		return c, nil
	case cfg.MetadataURL != "" && m.ClientIDMetadataDocumentSupported:
		return Client{ID: cfg.MetadataURL, AuthMethod: AuthNone, Source: ClientMetadataDoc, Issuer: d.IssuerID}, nil
	case prev != nil && prev.Issuer == d.IssuerID && prev.ID != "":
		return *prev, nil
	case m.RegistrationEndpoint != "":
		return register(ctx, hc, d, cfg, redirectURI, grants)
	}
	return Client{}, fmt.Errorf("%s: %w", d.IssuerID, ErrNoRegistration)
}

// pickAuthMethod: a public client (no secret) uses none; one with a secret
// prefers client_secret_basic, then client_secret_post, as the server lists.
func pickAuthMethod(supported []string, hasSecret, hasKey bool) string {
	if hasKey && contains(supported, AuthPrivateKeyJWT) {
		return AuthPrivateKeyJWT
	}
	if !hasSecret {
		return AuthNone
	}
	for _, m := range []string{AuthClientSecretBasic, AuthClientSecretPost} {
		if contains(supported, m) {
			return m
		}
	}
	return AuthClientSecretBasic
}

// register performs dynamic client registration as a native application.
// It asks for no secret where the server allows public clients, else for
// the first secret method it lists; the server's answer decides.
func register(ctx context.Context, hc *http.Client, d *Discovery, cfg ClientConfig, redirectURI string, grants []string) (Client, error) {
	supported := d.Server.authMethods()
	method := AuthNone
	if !contains(supported, AuthNone) {
		method = pickAuthMethod(supported, true, false)
	}
	name := cfg.Name
	if name == "" {
		name = "Workrun"
	}
	body := map[string]any{
		"client_name":                name,
		"application_type":           "native",
		"grant_types":                grants,
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": method,
	}
	if redirectURI != "" {
		body["redirect_uris"] = []string{redirectURI}
	}
	b, _ := json.Marshal(body)
	ctx, cancel := context.WithTimeout(ctx, MaxReplyTime)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.Server.RegistrationEndpoint, bytes.NewReader(b))
	if err != nil {
		return Client{}, fmt.Errorf("register client: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := fetcher{hc}.client().Do(req)
	if err != nil {
		return Client{}, fmt.Errorf("register client: %w", err)
	}
	defer resp.Body.Close()
	rb, err := readCapped(resp.Body, MaxMetadataBytes)
	if err != nil {
		return Client{}, fmt.Errorf("register client: %w", err)
	}
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated {
		return Client{}, fmt.Errorf("register client: HTTP %d: %s", resp.StatusCode, oauthErrorText(rb))
	}
	var reg struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
		AuthMethod   string `json:"token_endpoint_auth_method"`
	}
	if err := json.Unmarshal(rb, &reg); err != nil || reg.ClientID == "" {
		return Client{}, fmt.Errorf("register client: %w: no client_id in the answer", ErrBadMetadata)
	}
	c := Client{ID: reg.ClientID, Secret: reg.ClientSecret, AuthMethod: method, Source: ClientDynamic, Issuer: d.IssuerID}
	if reg.AuthMethod != "" {
		c.AuthMethod = reg.AuthMethod
	}
	if c.AuthMethod == AuthNone {
		c.Secret = ""
	}
	return c, nil
}

// oauthErrorText is the error and error_description of an OAuth error
// reply, clipped; never the whole body.
func oauthErrorText(b []byte) string {
	var e struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	if json.Unmarshal(b, &e) != nil || e.Error == "" {
		return "no OAuth error given"
	}
	s := clip(e.Error)
	if e.Description != "" {
		s += ": " + clip(e.Description)
	}
	return s
}
