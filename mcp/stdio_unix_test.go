//go:build unix

package mcp

import "syscall"

// newSessionAttr starts a process in a session of its own when own is set.
func newSessionAttr(own bool) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: own} }
