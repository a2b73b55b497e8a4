package remoteagent

import (
	"context"
	"fmt"
	"net/http"

	"workrun/remotecall"
)

// Connecting to the agent: the credential is resolved and bound to the
// agent's origin by the remote layer before anything is sent
// (docs/remote-agent.md R3), then the agent is discovered through the
// call's credential-bound transport.

// connect builds the call's transport (its redactor is the call's) and
// discovers the agent.
func (c *call) connect(ctx context.Context) (AgentClient, error) {
	hc, card, err := c.s.transport(ctx, c.red)
	if err != nil {
		return nil, c.red.Err(err)
	}
	agent, err := c.s.dial(ctx, hc, card)
	return agent, c.red.Err(err)
}

// dial discovers the agent (docs/remote-agent.md R3).
func (s *step) dial(ctx context.Context, hc, card *http.Client) (AgentClient, error) {
	dctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	agent, err := s.kind.deps.Connect(dctx, s.cfg.URL, Clients{RPC: hc, Card: card})
	if err != nil {
		return nil, fmt.Errorf("connect to remote agent %s: %w", s.cfg.URL, err)
	}
	return agent, nil
}

// transport resolves the node's credential and builds the call's
// transports: rpc carries the credential, bound to its origin; card (for the
// Agent Card, which never carries it) has none.
func (s *step) transport(ctx context.Context, red *remotecall.Redactor) (rpc, card *http.Client, err error) {
	b, err := remotecall.BindNamed(ctx, s.kind.deps.Credentials, s.cfg.Credential, s.cfg.URL)
	if err != nil {
		return nil, nil, err
	}
	b.Redactor, b.Base = red, s.kind.base()
	b.MaxCallBytes = s.kind.deps.MaxCallBytes
	tr, err := remotecall.NewTransport(b)
	if err != nil {
		return nil, nil, fmt.Errorf("credential %q: %w", s.cfg.Credential, err)
	}
	plain, err := remotecall.NewTransport(remotecall.Binding{Redactor: red, Base: s.kind.base(), MaxCallBytes: s.kind.deps.MaxCallBytes})
	if err != nil {
		return nil, nil, err
	}
	return tr.Client(), plain.Client(), nil
}
