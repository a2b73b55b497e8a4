//go:build unix && !linux

package mcp

import (
	"os"
	"syscall"
)

func guardExecutable() (string, error) { return os.Executable() }

// becomeSubreaper: other Unix systems have no portable subreaper; the
// guard kills the program's process group, which is what it started.
func becomeSubreaper() {}

func programAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killTree kills the program's process group (the program, pid wait, is
// reaped by the guard's cmd.Wait).
func killTree(pgid, wait int) {
	syscall.Kill(-pgid, syscall.SIGKILL) //nolint:errcheck // ESRCH: the group is gone
}
