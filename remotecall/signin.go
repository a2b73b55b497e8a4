package remotecall

import (
	"errors"
	"strings"

	"workrun/workrun"
)

// SignInError stops a remote call whose credential needs the person: an
// OAuth credential with no usable token (none saved, the refresh refused,
// more scopes asked for, the authorization server changed). It matches
// workrun.ErrSignInRequired. The request it stopped was not accepted by the
// server — it was never sent, or the server answered 401/403 — so a node
// that had not submitted fails with it, and one that has a task id is
// interrupted (SignInInterrupt) and resumes the same task after sign-in
// (docs/oauth.md O9).
type SignInError struct {
	// Origin is the origin to sign in to.
	Origin string
	// Reason says why, in the words of the token source; never a secret.
	Reason string
	// Err is the cause (package oauth's error).
	Err error
}

func (e *SignInError) Error() string {
	if e.Reason == "" {
		return texts.In("en", msgSignInAgain, e.Origin)
	}
	return texts.In("en", msgSignInAgainWhy, e.Origin, e.Reason)
}

// Text is the message in the reader's language.
func (e *SignInError) Text() workrun.Text {
	if e.Reason == "" {
		return texts.Msg(msgSignInAgain, e.Origin)
	}
	return texts.Msg(msgSignInAgainWhy, e.Origin, e.Reason)
}

func (e *SignInError) Is(target error) bool { return target == workrun.ErrSignInRequired }
func (e *SignInError) Unwrap() error        { return e.Err }

// NewSignInError wraps a token source's error; its text, which already
// says "sign in to ORIGIN again: …", gives the reason.
func NewSignInError(origin string, err error) *SignInError {
	reason := ""
	if err != nil {
		reason = err.Error()
		for _, p := range []string{"sign in to " + origin + " again: ", "sign in to " + origin + " again"} {
			if strings.HasPrefix(reason, p) {
				reason = strings.TrimPrefix(reason, p)
				break
			}
		}
	}
	return &SignInError{Origin: origin, Reason: reason, Err: err}
}

// SignInNeeded returns the SignInError in err's chain, or nil.
func SignInNeeded(err error) *SignInError {
	var e *SignInError
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// SignInInterrupt is the interruption of a node whose task taskID was
// accepted but can no longer be followed without signing in: nothing is
// cancelled, the task id stays in the call record, and Resume (after the
// person signed in) follows the same task (docs/oauth.md O9).
func SignInInterrupt(e *SignInError, taskID string) *workrun.InterruptError {
	return &workrun.InterruptError{Cause: workrun.InterruptedBySignIn,
		Reason: texts.Text(msgSignInResume, e.Origin, taskID, e.Reason)}
}
