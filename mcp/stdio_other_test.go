//go:build !unix

package mcp

import "syscall"

func newSessionAttr(bool) *syscall.SysProcAttr { return nil }
