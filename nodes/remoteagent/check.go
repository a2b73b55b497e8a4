package remoteagent

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"workrun/a2a"
	"workrun/remotecall"
)

// Report is the outcome of a connection test (docs/remote-agent.md R3.4).
type Report struct {
	Name            string   `json:"name"`
	Endpoint        string   `json:"endpoint"` // the JSON-RPC interface URL used
	Streaming       bool     `json:"streaming"`
	SecuritySchemes []string `json:"security_schemes,omitempty"` // e.g. "bearer: HTTP Bearer"
	// CredentialUsed: a credential was sent with the test call.
	CredentialUsed bool `json:"credential_used"`
	// CredentialHeader is the header the credential travelled in
	// ("Authorization" for a bearer token); "" when none was sent.
	CredentialHeader string `json:"credential_header,omitempty"`
	// Accepted: the test call reached the agent's JSON-RPC handler (it
	// answered TaskNotFound for a random id, or another JSON-RPC answer);
	// authenticated only when CredentialUsed.
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
func CheckAgent(ctx context.Context, rawURL string, cred *remotecall.Credential) (Report, error) {
	red := remotecall.NewRedactor()
	if cred != nil {
		red.Add(cred.Secret)
	}
	rep, err := checkAgentAt(ctx, rawURL, cred, red)
	rep.Name = red.String(rep.Name)
	rep.Endpoint = red.String(rep.Endpoint)
	for i, s := range rep.SecuritySchemes {
		rep.SecuritySchemes[i] = red.String(s)
	}
	return rep, red.Err(err)
}

func checkAgentAt(ctx context.Context, rawURL string, cred *remotecall.Credential, red *remotecall.Redactor) (Report, error) {
	if err := checkURL(rawURL, cred != nil); err != nil {
		return Report{}, err
	}
	b, err := remotecall.BindCredential(cred, rawURL)
	if err != nil {
		return Report{}, err
	}
	b.Redactor = red
	header := b.CredentialHeader()
	tr, err := remotecall.NewTransport(b)
	if err != nil {
		return Report{}, err
	}
	plain, err := remotecall.NewTransport(remotecall.Binding{Redactor: red})
	if err != nil {
		return Report{}, err
	}
	c, err := a2a.Discover(ctx, rawURL, a2a.Options{HTTPClient: tr.Client(), CardHTTPClient: plain.Client()})
	if err != nil {
		return Report{}, fmt.Errorf("discover %s: %w", rawURL, err)
	}
	rep := Report{Endpoint: c.Endpoint(), Streaming: c.Streaming(), CredentialUsed: cred != nil, CredentialHeader: header}
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
			d = "OAuth 2.0 (sign in to use it)"
		case s.OpenIDConnect != nil:
			d = "OpenID Connect (sign in to use it)"
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
