package remotemcp

import (
	"context"
	"errors"
	"syscall"

	"workrun/mcp"
	"workrun/workrun"
)

// A node's failure reason is saved as text, written now in the current
// language (workrun.Language) from this kind's catalogue, as the Remote
// Agent does. Its English is byte-identical to the fmt texts it replaces;
// the Chinese leaves only the server's own words untranslated.

// reasonError is a failure reason from the catalogue that still wraps its
// sentinel and its cause, so errors.Is and errors.As see both.
type reasonError struct {
	msg     string
	wrapped []error
}

func (e *reasonError) Error() string   { return e.msg }
func (e *reasonError) Unwrap() []error { return e.wrapped }

// reason is message id with args in the current language, wrapping the
// given errors (nil ones left out).
func reason(wrapped []error, id msgID, args ...any) error {
	e := &reasonError{msg: texts.Text(id, args...)}
	for _, w := range wrapped {
		if w != nil {
			e.wrapped = append(e.wrapped, w)
		}
	}
	return e
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
		re  *reasonError
	)
	switch {
	case errors.As(err, &re):
		return re.msg // already in the current language
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
