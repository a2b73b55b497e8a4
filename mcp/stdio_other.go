//go:build !unix

package mcp

import "os/exec"

// sigTerm: Windows has no signals; the program is terminated instead.
const sigTerm = 0

// ownProcessGroup: on Windows the program is started as is; if Workrun is
// killed it sees stdin close and should exit then (docs/tool-app.md).
func ownProcessGroup(*exec.Cmd) {}

func (s *Stdio) signal(int) { s.kill() }

func (s *Stdio) kill() {
	s.cmd.Process.Kill() //nolint:errcheck // an exited program is what we want
}
