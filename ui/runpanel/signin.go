package runpanel

import (
	"strings"

	"workrun/workrun"
)

// needsSignIn: the run stopped because a node's OAuth credential needs the
// person — failed before it sent anything ("sign in to ORIGIN again"), or
// interrupted with its task kept (docs/oauth.md O9).
func needsSignIn(r workrun.Run) bool {
	return r.Interruption == workrun.InterruptedBySignIn || strings.Contains(r.Reason, "sign in to ")
}
