//go:build !unix

package process

import "os/exec"

// ownGroup: elsewhere only the command itself is killed on cancellation.
func ownGroup(cmd *exec.Cmd) {}
