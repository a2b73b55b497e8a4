//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

const sigTerm = syscall.SIGTERM

// ownProcessGroup puts the program in a process group of its own, so a stop
// reaches what it started too; on Linux a parent-death signal kills it if
// Workrun dies (stdio_linux.go).
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	parentDeathSignal(cmd.SysProcAttr)
}

// signal sends sig to the program's process group.
func (s *Stdio) signal(sig syscall.Signal) {
	syscall.Kill(-s.cmd.Process.Pid, sig) //nolint:errcheck // ESRCH: the group is already gone
}

func (s *Stdio) kill() { s.signal(syscall.SIGKILL) }
