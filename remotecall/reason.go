package remotecall

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
