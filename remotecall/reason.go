package remotecall

import (
	"errors"
	"syscall"

	"workrun/workrun"
)

// Reason is a failure reason already written in the reader's words (a
// node kind's catalogue text) that still wraps its sentinels and causes,
// so errors.Is and errors.As see them all; nil ones are left out.
func Reason(msg string, wrapped ...error) error {
	e := &ReasonError{msg: msg}
	for _, w := range wrapped {
		if w != nil {
			e.wrapped = append(e.wrapped, w)
		}
	}
	return e
}

// ReasonError is a Reason; errors.As finds one so that a reason nested in
// another is shown as it was written, not reworded.
type ReasonError struct {
	msg     string
	wrapped []error
}

func (e *ReasonError) Error() string   { return e.msg }
func (e *ReasonError) Unwrap() []error { return e.wrapped }

// Why is err as the detail of a failure reason in the current language
// (workrun.Language). In English it is err's own text, unchanged. In
// Chinese: a Reason as it was written; a workrun.TextError's Chinese; else
// the node kind's words for its protocol's errors (wire, from its
// catalogue; "" when it has none for err); else this layer's words for the
// connection failures every call meets (refused, reset); else err's own
// text (a remote's own words stay as they are).
func Why(err error, wire func(error) string) string {
	if err == nil {
		return ""
	}
	if !workrun.IsChinese(workrun.Language()) {
		return err.Error()
	}
	var (
		re *ReasonError
		te *workrun.TextError
	)
	switch {
	case errors.As(err, &re):
		return re.Error() // already in the current language
	case errors.As(err, &te):
		return te.Text.In("zh")
	}
	if w := wire(err); w != "" {
		return w
	}
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return texts.Text(msgWhyRefused)
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return texts.Text(msgWhyReset)
	}
	return err.Error()
}
