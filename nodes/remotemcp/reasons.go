package remotemcp

import (
	"context"
	"errors"

	"workrun/mcp"
	"workrun/remotecall"
)

// A node's failure reason is saved as text, written now in the current
// language (workrun.Language) from this kind's catalogue, as the Remote
// Agent does. Its English is byte-identical to the fmt texts it replaces;
// the Chinese leaves only the server's own words untranslated.

// reason is message id with args in the current language, wrapping the
// given errors (nil ones left out).
func reason(wrapped []error, id msgID, args ...any) error {
	return remotecall.Reason(texts.Text(id, args...), wrapped...)
}

// why is err as the detail of a reason in the current language
// (remotecall.Why), with this kind's words for MCP's errors.
func why(err error) string { return remotecall.Why(err, wireWhy) }

// wireWhy names, in the catalogue's words, the wire errors an MCP call
// meets ("" for any other error; the server's own message is kept).
func wireWhy(err error) string {
	var (
		h   *mcp.HTTPError
		rpc *mcp.RPCError
	)
	switch {
	case errors.Is(err, mcp.ErrStreamBroken):
		return texts.Text(msgWhyStreamBroken)
	case errors.Is(err, context.DeadlineExceeded):
		return texts.Text(msgWhyNoAnswer)
	case errors.As(err, &h):
		if h.RPC != nil {
			return texts.Text(msgWhyHTTPRPC, h.StatusCode, h.RPC.Code, h.RPC.Message)
		}
		return texts.Text(msgWhyHTTP, h.StatusCode)
	case errors.As(err, &rpc):
		return texts.Text(msgWhyRPC, rpc.Code, rpc.Message)
	case errors.Is(err, mcp.ErrSessionNotFound):
		return texts.Text(msgWhySession)
	case errors.Is(err, mcp.ErrReplyTooLarge), errors.Is(err, mcp.ErrEventTooLarge):
		return texts.Text(msgWhyTooLarge)
	case errors.Is(err, mcp.ErrProtocol):
		return texts.Text(msgWhyProtocol)
	}
	return ""
}
