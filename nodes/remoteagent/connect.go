package remoteagent

import (
	"context"
	"fmt"
	"strings"

	"workrun/a2a"
	"workrun/remotecall"
)

// Connecting to the agent: the credential is resolved and checked against
// the agent's origin before anything is sent (docs/remote-agent.md R3), then
// the agent is discovered.

// connect resolves the credential (remembering its secret for redaction)
// and discovers the agent.
func (c *call) connect(ctx context.Context) (AgentClient, error) {
	cred, err := c.s.credential(ctx)
	if err != nil {
		return nil, err
	}
	if cred != nil {
		c.secret.Store(&cred.Secret)
	}
	agent, err := c.s.dial(ctx, cred)
	return agent, c.redactor().err(err)
}

// dial discovers the agent with the credential (docs/remote-agent.md R3).
func (s *step) dial(ctx context.Context, cred *a2a.Credential) (AgentClient, error) {
	dctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	agent, err := s.kind.deps.Connect(dctx, s.cfg.URL, cred)
	if err != nil {
		return nil, fmt.Errorf("connect to remote agent %s: %w", s.cfg.URL, err)
	}
	return agent, nil
}

func (s *step) credential(ctx context.Context) (*a2a.Credential, error) {
	cred, err := remotecall.NamedCredential(ctx, s.kind.deps.Credentials, s.cfg.Credential)
	if cred == nil || err != nil {
		return nil, err
	}
	if err := checkCredentialFor(*cred, s.cfg.URL); err != nil {
		return nil, fmt.Errorf("credential %q: %w", s.cfg.Credential, err)
	}
	return cred, nil
}

// checkCredentialFor refuses a credential for a URL outside its origin, or
// over plain http to anything but a loopback address (docs/remote-agent.md R3.3, docs/product.md W8).
func checkCredentialFor(cred a2a.Credential, rawURL string) error {
	want, err := remotecall.Origin(rawURL)
	if err != nil {
		return err
	}
	if cred.Origin != "" {
		have, err := remotecall.Origin(cred.Origin)
		if err != nil {
			return fmt.Errorf("%w: %v", a2a.ErrCrossOriginCredential, err)
		}
		if have != want {
			return fmt.Errorf("%w: it belongs to %s, not %s", a2a.ErrCrossOriginCredential, have, want)
		}
	}
	if strings.HasPrefix(want, "http://") {
		host := strings.TrimPrefix(want, "http://")
		if i := strings.LastIndex(host, ":"); i >= 0 {
			host = host[:i]
		}
		if !isLoopback(host) {
			return fmt.Errorf("%w (%s)", a2a.ErrInsecureCredential, want)
		}
	}
	return nil
}
