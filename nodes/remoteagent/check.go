package remoteagent

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"workrun/a2a"
)

// Report is the outcome of a connection test (docs/remote-agent.md R3.4).
type Report struct {
	Name            string   `json:"name"`
	Endpoint        string   `json:"endpoint"` // the JSON-RPC interface URL used
	Streaming       bool     `json:"streaming"`
	SecuritySchemes []string `json:"security_schemes,omitempty"` // e.g. "bearer: HTTP Bearer"
	// CredentialUsed: a credential was sent with the test call.
	CredentialUsed bool `json:"credential_used"`
	// Accepted: the authenticated call reached the agent's JSON-RPC handler
	// (it answered TaskNotFound for a random id, or another JSON-RPC answer).
	Accepted bool `json:"accepted"`
}

// ErrCredentialRefused: the agent answered the test call with 401/403.
var ErrCredentialRefused = errors.New("the agent refused the credential")

// ErrCredentialRequired: no credential was given and the agent requires one.
var ErrCredentialRequired = errors.New("the agent requires a credential")

// CheckAgent is the connection test of the window's Test connection and
// `workrun check-agent`: it discovers the Agent Card at rawURL and makes the
// one call a2a.Client.CheckAccess makes, which submits no task and never
// sends a message (docs/remote-agent.md R3.4). The report and the error are
// redacted: an agent may echo the credential's secret back.
func CheckAgent(ctx context.Context, rawURL string, cred *a2a.Credential) (Report, error) {
	var rd redactor
	if cred != nil {
		rd.secret = cred.Secret
	}
	rep, err := checkAgentAt(ctx, rawURL, cred)
	rep.Name = rd.string(rep.Name)
	rep.Endpoint = rd.string(rep.Endpoint)
	for i, s := range rep.SecuritySchemes {
		rep.SecuritySchemes[i] = rd.string(s)
	}
	return rep, rd.err(err)
}

func checkAgentAt(ctx context.Context, rawURL string, cred *a2a.Credential) (Report, error) {
	if err := checkURL(rawURL, cred != nil); err != nil {
		return Report{}, err
	}
	if cred != nil {
		if err := checkCredentialFor(*cred, rawURL); err != nil {
			return Report{}, err
		}
	}
	c, err := a2a.Discover(ctx, rawURL, a2a.Options{Credential: cred})
	if err != nil {
		return Report{}, fmt.Errorf("discover %s: %w", rawURL, err)
	}
	rep := Report{Endpoint: c.Endpoint(), Streaming: c.Streaming(), CredentialUsed: cred != nil}
	if card := c.Card(); card != nil {
		rep.Name = card.Name
		rep.SecuritySchemes = describeSchemes(card.SecuritySchemes)
	}
	switch err := c.CheckAccess(ctx); {
	case err == nil:
		rep.Accepted = true
		return rep, nil
	case errors.Is(err, a2a.ErrUnauthorized):
		if cred != nil {
			return rep, fmt.Errorf("%w: %v", ErrCredentialRefused, err)
		}
		return rep, fmt.Errorf("%w (declared: %s): %v", ErrCredentialRequired, strings.Join(rep.SecuritySchemes, "; "), err)
	default:
		return rep, fmt.Errorf("test call to %s: %w", rep.Endpoint, err)
	}
}

func describeSchemes(m map[string]a2a.SecurityScheme) []string {
	var out []string
	for name, s := range m {
		var d string
		switch {
		case s.HTTPAuth != nil:
			d = "HTTP " + s.HTTPAuth.Scheme
		case s.APIKey != nil:
			d = fmt.Sprintf("API key in %s %q", s.APIKey.Location, s.APIKey.Name)
		case s.OAuth2 != nil:
			d = "OAuth 2.0 (not supported by Workrun)"
		case s.OpenIDConnect != nil:
			d = "OpenID Connect (not supported by Workrun)"
		case s.MTLS != nil:
			d = "mutual TLS (not supported by Workrun)"
		default:
			d = "unknown"
		}
		out = append(out, name+": "+d)
	}
	sort.Strings(out)
	return out
}
