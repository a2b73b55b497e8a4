package remoteagent

import (
	"context"
	"errors"
	"syscall"

	"workrun/a2a"
	"workrun/workrun"
)

// A node's failure reason is saved as text, written now in the current
// language (workrun.Language) from this kind's catalogue. Its English is
// byte-identical to what the CLI and tests always read; the Chinese leaves
// only the agent's own words untranslated (docs/remote-agent.md R7).

// reasonError is a failure reason from the catalogue that still wraps its
// sentinel and its cause, so errors.Is sees both.
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
// wire and network errors a call meets; anything else keeps its text.
func why(err error) string {
	if err == nil || !workrun.IsChinese(workrun.Language()) {
		return errText(err)
	}
	var (
		h   *a2a.HTTPError
		rpc *a2a.RPCError
		te  *workrun.TextError
	)
	switch {
	case errors.As(err, &te):
		return te.Text.In("zh")
	case errors.Is(err, a2a.ErrStreamBroken):
		return texts.Text(msgWhyStreamBroken)
	case errors.Is(err, errIdle), errors.Is(err, context.DeadlineExceeded):
		return texts.Text(msgWhyNoAnswer)
	case errors.As(err, &h):
		if h.RPC != nil {
			return texts.Text(msgWhyHTTPRPC, h.StatusCode, h.RPC.Code, h.RPC.Message)
		}
		return texts.Text(msgWhyHTTP, h.StatusCode)
	case errors.As(err, &rpc):
		return texts.Text(msgWhyRPC, rpc.Code, rpc.Message)
	case errors.Is(err, a2a.ErrProtocol):
		return texts.Text(msgWhyProtocol)
	case errors.Is(err, syscall.ECONNREFUSED):
		return texts.Text(msgWhyRefused)
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return texts.Text(msgWhyReset)
	}
	return err.Error()
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// stateIn is a task state's name in the current language ("failed", "已失败").
func stateIn(s a2a.TaskState) string {
	word := stateName(s)
	names, ok := stateWords[word]
	if !ok {
		return word
	}
	if workrun.IsChinese(workrun.Language()) {
		return names[1]
	}
	return names[0]
}
