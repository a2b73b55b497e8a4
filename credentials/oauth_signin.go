package credentials

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"time"

	"workrun/a2a"
	"workrun/oauth"
	"workrun/remotecall"
)

// What SignIn signs in to.
const (
	SignInAuto  = ""      // an MCP server, else an A2A agent whose card declares OAuth
	SignInMCP   = "mcp"   // an MCP server: sign in on its 401 (Protected Resource Metadata)
	SignInAgent = "agent" // an A2A agent: sign in with its card's OAuth 2.0 / OpenID Connect scheme
)

// ErrNoSignIn: the server did not ask for a sign-in (nothing was saved).
var ErrNoSignIn = errors.New("the server did not ask for a sign-in; nothing saved")

// ErrNoOAuthScheme: the agent's card declares no OAuth 2.0 or OpenID
// Connect scheme Workrun can sign in with.
var ErrNoOAuthScheme = errors.New("the agent's card declares no OAuth 2.0 or OpenID Connect scheme")

// errNoCard: no Agent Card could be read at the URL.
var errNoCard = errors.New("no A2A Agent Card")

// SignInRequest is one sign-in the person started (`workrun credential
// login`, the window's Sign in). The flows need no browser of Workrun's
// own: Open shows the authorization page (the system browser), and the
// redirect comes back to a one-shot loopback listener.
type SignInRequest struct {
	URL  string
	Name string // the credential's name
	Kind string // SignInAuto, SignInMCP, SignInAgent
	// Client is a pre-registered client (id, secret, key), if the person
	// entered one.
	Client oauth.ClientConfig
	Mode   string // oauth.ModeBrowser (default), ModeDevice, ModeClientCredentials, ModeJWTBearer, ModeEnterprise
	// Assertion is the token file (and identity provider) of ModeJWTBearer
	// and ModeEnterprise.
	Assertion oauth.AssertionConfig
	Timeout   time.Duration
	// Open shows the authorization page; ShowDevice the device code.
	Open       func(ctx context.Context, authURL string) error
	ShowDevice func(verificationURL, userCode string)
	// ProbeMCP and ProbeAgent are the connection tests (remotemcp.Check,
	// remoteagent.CheckAgent), run with cred. An MCP server's sign-in
	// happens inside its probe, on the server's 401.
	ProbeMCP   func(ctx context.Context, url string, cred *remotecall.Credential) error
	ProbeAgent func(ctx context.Context, url string, cred *remotecall.Credential) error
}

// SignInResult is a completed sign-in.
type SignInResult struct {
	Info OAuthInfo
	Kind string // SignInMCP or SignInAgent
	// ProbeErr: signed in and saved, but the connection test then failed.
	ProbeErr error
}

// SignIn signs in to req.URL and saves the OAuth credential req.Name (a
// credential of that name is replaced; its client registration is reused
// at the same issuer).
func (m *Manager) SignIn(ctx context.Context, req SignInRequest) (SignInResult, error) {
	if req.Name == "" {
		return SignInResult{}, fmt.Errorf("sign in: %w: a credential name is needed", ErrInvalid)
	}
	if err := oauth.CheckServerURL(req.URL); err != nil {
		return SignInResult{}, fmt.Errorf("sign in: %w", err)
	}
	var prev *oauth.Grant
	if g, err := m.OAuthGrant(ctx, req.Name); err == nil {
		prev = &g
	}
	defer m.ForgetOAuthSession(req.Name) // the next run reads the new grant
	if req.Kind == SignInAgent {
		return m.signInAgent(ctx, req, prev)
	}
	res, err := m.signInMCP(ctx, req, prev)
	if req.Kind == SignInAuto && err != nil {
		// Not an MCP server that signed in (signInMCP saved nothing): an
		// A2A agent's card may say how.
		if ares, aerr := m.signInAgent(ctx, req, prev); !errors.Is(aerr, ErrNoOAuthScheme) && !errors.Is(aerr, errNoCard) {
			return ares, aerr
		}
	}
	return res, err
}

func (m *Manager) interactive(req SignInRequest, prev *oauth.Grant, saved **oauth.Grant) *oauth.Interactive {
	return &oauth.Interactive{
		HTTP: HTTPForOAuth, ResourceURL: req.URL, Mode: req.Mode, Assertion: req.Assertion,
		SignIn:     oauth.SignIn{Client: req.Client, Prev: prev, Timeout: req.Timeout, Open: req.Open},
		ShowDevice: req.ShowDevice,
		Save: func(ctx context.Context, g oauth.Grant) error {
			if err := m.SaveOAuth(ctx, req.Name, g); err != nil {
				return err
			}
			*saved = &g
			return nil
		},
	}
}

// signInMCP runs the MCP connection test through an interactive OAuth
// transport, which signs in on the server's 401 and steps up on a 403
// insufficient_scope.
func (m *Manager) signInMCP(ctx context.Context, req SignInRequest, prev *oauth.Grant) (SignInResult, error) {
	if req.ProbeMCP == nil {
		return SignInResult{}, errors.New("sign in: no MCP connection test")
	}
	origin, err := NormalizeOrigin(req.URL)
	if err != nil {
		return SignInResult{}, fmt.Errorf("sign in: %w", err)
	}
	var saved *oauth.Grant
	t := &oauth.Transport{Origin: origin, SignIn: m.interactive(req, prev, &saved).Func()}
	cred := &remotecall.Credential{Kind: remotecall.CredentialOAuth, Origin: origin, Wrap: func(base http.RoundTripper) http.RoundTripper {
		if base == nil {
			base = remotecall.FanOutTransport()
		}
		t.Base = base
		return t
	}}
	perr := req.ProbeMCP(ctx, req.URL, cred)
	if saved == nil {
		if perr != nil {
			return SignInResult{}, perr
		}
		return SignInResult{Kind: SignInMCP}, ErrNoSignIn
	}
	return SignInResult{Info: infoOf(req.Name, *saved), Kind: SignInMCP, ProbeErr: perr}, nil
}

// signInAgent signs in with the OAuth 2.0 or OpenID Connect scheme the
// agent's card declares (docs/oauth.md O8), then runs the connection test
// with the saved credential, as a run would use it.
func (m *Manager) signInAgent(ctx context.Context, req SignInRequest, prev *oauth.Grant) (SignInResult, error) {
	c, err := a2a.Discover(ctx, req.URL, a2a.Options{HTTPClient: HTTPForOAuth})
	if err != nil {
		return SignInResult{}, fmt.Errorf("sign in: %w: %w", errNoCard, err)
	}
	scheme, ok := CardScheme(c.Card(), req.Mode)
	if !ok {
		return SignInResult{}, fmt.Errorf("sign in: %w", ErrNoOAuthScheme)
	}
	if req.Mode == "" && !slices.Contains(scheme.Flows, oauth.FlowAuthorizationCode) && slices.Contains(scheme.Flows, oauth.FlowDeviceCode) {
		req.Mode = oauth.ModeDevice // the card offers no browser flow
	}
	var saved *oauth.Grant
	in := m.interactive(req, prev, &saved)
	in.Discover = func(ctx context.Context, _ oauth.Challenge) (*oauth.Discovery, error) {
		return oauth.SchemeDiscovery(ctx, HTTPForOAuth, req.URL, scheme)
	}
	if _, err := in.Func()(ctx, oauth.Challenge{}, prev, nil); err != nil {
		return SignInResult{Kind: SignInAgent}, err
	}
	res := SignInResult{Info: infoOf(req.Name, *saved), Kind: SignInAgent}
	if req.ProbeAgent != nil {
		m.ForgetOAuthSession(req.Name)
		cred, err := m.oauthForRemote(ctx, req.Name)
		if err != nil {
			return res, err
		}
		res.ProbeErr = req.ProbeAgent(ctx, req.URL, &cred)
	}
	return res, nil
}

// a2aFlow is one of an oauth2SecurityScheme's flows (A2A 1.0 OAuthFlows).
type a2aFlow struct {
	AuthorizationURL       string            `json:"authorizationUrl"`
	TokenURL               string            `json:"tokenUrl"`
	DeviceAuthorizationURL string            `json:"deviceAuthorizationUrl"`
	Scopes                 map[string]string `json:"scopes"`
}

// CardScheme picks the card's OAuth 2.0 or OpenID Connect scheme to sign
// in with: the first security requirement that names one (its scopes are
// asked for), else the first such scheme by name. mode prefers the scheme
// that has the flow it needs.
func CardScheme(card *a2a.AgentCard, mode string) (oauth.Scheme, bool) {
	if card == nil {
		return oauth.Scheme{}, false
	}
	var cands []oauth.Scheme
	add := func(name string, scopes []string) {
		s, ok := schemeOf(name, card.SecuritySchemes[name])
		if !ok || slices.ContainsFunc(cands, func(c oauth.Scheme) bool { return c.Name == name }) {
			return
		}
		if len(scopes) > 0 {
			s.Scopes = scopes
		}
		cands = append(cands, s)
	}
	for _, r := range append(slices.Clone(card.SecurityRequirements), card.Security...) {
		for _, name := range mapsKeys(r.Schemes) {
			add(name, r.Schemes[name])
		}
	}
	for _, name := range mapsKeys(card.SecuritySchemes) {
		add(name, nil)
	}
	want := map[string]string{oauth.ModeDevice: oauth.FlowDeviceCode, oauth.ModeClientCredentials: oauth.FlowClientCredentials}[mode]
	for _, c := range cands {
		if c.OpenID || want == "" || slices.Contains(c.Flows, want) {
			return c, true
		}
	}
	if len(cands) > 0 {
		return cands[0], true
	}
	return oauth.Scheme{}, false
}

func mapsKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func schemeOf(name string, s a2a.SecurityScheme) (oauth.Scheme, bool) {
	switch {
	case s.OpenIDConnect != nil && s.OpenIDConnect.OpenIDConnectURL != "":
		return oauth.Scheme{Name: name, OpenID: true, MetadataURL: s.OpenIDConnect.OpenIDConnectURL,
			Flows: []string{oauth.FlowAuthorizationCode, oauth.FlowDeviceCode, oauth.FlowClientCredentials}}, true
	case s.OAuth2 != nil:
		var flows struct {
			AuthorizationCode *a2aFlow `json:"authorizationCode"`
			ClientCredentials *a2aFlow `json:"clientCredentials"`
			DeviceCode        *a2aFlow `json:"deviceCode"`
		}
		if len(s.OAuth2.Flows) > 0 && json.Unmarshal(s.OAuth2.Flows, &flows) != nil {
			return oauth.Scheme{}, false
		}
		out := oauth.Scheme{Name: name, MetadataURL: s.OAuth2.OAuth2MetadataURL}
		scopes := map[string]bool{}
		for _, f := range []struct {
			flow string
			f    *a2aFlow
		}{{oauth.FlowAuthorizationCode, flows.AuthorizationCode}, {oauth.FlowDeviceCode, flows.DeviceCode}, {oauth.FlowClientCredentials, flows.ClientCredentials}} {
			if f.f == nil {
				continue
			}
			out.Flows = append(out.Flows, f.flow)
			if out.TokenURL == "" {
				out.TokenURL = f.f.TokenURL
			}
			if f.f.AuthorizationURL != "" {
				out.AuthorizationURL = f.f.AuthorizationURL
			}
			if f.f.DeviceAuthorizationURL != "" {
				out.DeviceAuthorizationURL = f.f.DeviceAuthorizationURL
			}
			for sc := range f.f.Scopes {
				scopes[sc] = true
			}
		}
		out.Scopes = mapsKeys(scopes)
		if out.MetadataURL == "" && len(out.Flows) == 0 {
			return oauth.Scheme{}, false
		}
		return out, true
	}
	return oauth.Scheme{}, false
}
