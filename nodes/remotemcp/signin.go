package remotemcp

import (
	"context"

	"workrun/remotecall"
	"workrun/workrun"
)

// signInStop maps an error that needs the person to sign in again
// (remotecall.SignInError, an OAuth credential without a usable token) to
// how the node ends; nil when err is not one (docs/oauth.md O9). Such an
// error means the server did not accept the request (it was never sent, or
// answered 401/403). Before a task or job id is known the call is closed
// and the node fails with "sign in to ORIGIN again"; with one, the node is
// interrupted, the id stays in the record and Resume follows the same task.
func (c *call) signInStop(ctx context.Context, err error) error {
	se := remotecall.SignInNeeded(err)
	if se == nil {
		return nil
	}
	if id := c.Record().TaskID; id != "" {
		return remotecall.SignInInterrupt(se, id)
	}
	if c.Saved() {
		if uerr := c.Update(ctx, func(r *workrun.RemoteCall) { r.Ended, r.StatusText = true, se.Error() }); uerr != nil {
			return uerr
		}
	}
	return se
}
