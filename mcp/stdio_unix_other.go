//go:build unix && !linux

package mcp

import "syscall"

// parentDeathSignal: other Unix systems have no parent-death signal; the
// program sees stdin close when Workrun dies and should exit then.
func parentDeathSignal(*syscall.SysProcAttr) {}
