//go:build windows

package main

import (
	"os"
	"syscall"
)

// The Windows build is a GUI-subsystem program, so starting it from the
// Start menu opens no console window. The price is that Windows gives it no
// standard handles when it is typed in a terminal, and `workrun.exe version`
// would print nothing. For a command (any argument) whose standard output
// is not already redirected, attach to the console of the terminal it was
// started from and write there.
func init() {
	if len(os.Args) < 2 {
		return
	}
	if h, err := syscall.GetStdHandle(syscall.STD_OUTPUT_HANDLE); err == nil && h != 0 && h != syscall.InvalidHandle {
		return // redirected to a file or pipe: keep it
	}
	const attachParentProcess = ^uintptr(0) // ATTACH_PARENT_PROCESS, (DWORD)-1
	attach := syscall.NewLazyDLL("kernel32.dll").NewProc("AttachConsole")
	if r, _, _ := attach.Call(attachParentProcess); r == 0 {
		return // started without a terminal (Explorer, the Start menu)
	}
	if out, err := os.OpenFile("CONOUT$", os.O_WRONLY, 0); err == nil {
		os.Stdout, os.Stderr = out, out
	}
	if in, err := os.OpenFile("CONIN$", os.O_RDONLY, 0); err == nil {
		os.Stdin = in
	}
}
