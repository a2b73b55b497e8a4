package mcp

import (
	"context"
	"encoding/json"
	"iter"
)

// StdioTransport is the Transport over a running program (Stdio): each
// message is one line on its stdin; a request's reply is what Stdio routes
// to it, ending with its response. There are no sessions and no headers:
// on stdio all request metadata is in the message body.
type StdioTransport struct{ s *Stdio }

var _ Transport = StdioTransport{}

// NewStdioTransport returns the Transport over s.
func NewStdioTransport(s *Stdio) StdioTransport { return StdioTransport{s: s} }

// Send writes m; for a request, the Reply yields what the server sends for
// it (see Stdio.Stream). A program that exited or broke the framing gives
// its error (*ExitError, ErrProtocol, ErrLineTooLarge) before any reply.
func (t StdioTransport) Send(ctx context.Context, m *Message) (*Reply, error) {
	if m.ID == 0 {
		return &Reply{}, t.s.Notify(ctx, m.Body)
	}
	msgs, err := t.s.Stream(ctx, m.Body)
	if err != nil {
		return nil, err
	}
	return &Reply{Messages: iter.Seq2[json.RawMessage, error](msgs)}, nil
}

// EndSession: stdio has no sessions; the program is stopped with Close.
func (StdioTransport) EndSession(context.Context, *Message) error { return nil }
