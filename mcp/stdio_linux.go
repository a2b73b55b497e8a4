package mcp

import "syscall"

// parentDeathSignal: the kernel sends SIGKILL to the program when the
// thread that started it ends, which for Workrun (no locked threads start
// programs) is when Workrun dies, even by SIGKILL.
func parentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
