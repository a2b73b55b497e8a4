package remoteagent

import (
	"context"
	"errors"

	"workrun/a2a"
	"workrun/remotecall"
	"workrun/workrun"
)

// A node's failure reason is saved as text, written now in the current
// language (workrun.Language) from this kind's catalogue. Its English is
// byte-identical to what the CLI and tests always read; the Chinese leaves
// only the agent's own words untranslated (docs/remote-agent.md R7).

// reason is message id with args in the current language, wrapping the
// given errors (nil ones left out).
func reason(wrapped []error, id msgID, args ...any) error {
	return remotecall.Reason(texts.Text(id, args...), wrapped...)
}

// why is err as the detail of a reason in the current language
// (remotecall.Why), with this kind's words for A2A's errors and its own.
func why(err error) string { return remotecall.Why(err, wireWhy) }

// wireWhy names, in the catalogue's words, the wire errors an A2A call
// meets ("" for any other error).
func wireWhy(err error) string {
	var (
		h   *a2a.HTTPError
		rpc *a2a.RPCError
	)
	switch {
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
	}
	return ""
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
