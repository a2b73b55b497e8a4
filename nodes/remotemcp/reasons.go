package remotemcp

import (
	"context"
	"errors"
	"syscall"

	"workrun/mcp"
	"workrun/remotecall"
	"workrun/workrun"
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

// why is err as the detail of a reason in the current language: its own
// text in English (unchanged), and in Chinese the catalogue's words for the
// wire and network errors a call meets; the server's own message is kept.
func why(err error) string {
	if err == nil {
		return ""
	}
	if !workrun.IsChinese(workrun.Language()) {
		return err.Error()
	}
	var (
		h   *mcp.HTTPError
		rpc *mcp.RPCError
		te  *workrun.TextError
		re  *remotecall.ReasonError
	)
	switch {
	case errors.As(err, &re):
		return re.Error() // already in the current language
	case errors.As(err, &te):
		return te.Text.In("zh")
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
	case errors.Is(err, syscall.ECONNREFUSED):
		return texts.Text(msgWhyRefused)
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return texts.Text(msgWhyReset)
	}
	return err.Error()
}
