//go:build !unix

package mcp

import (
	"context"
	"os"
	"os/exec"
)

// sigTerm: Windows has no signals; the program is terminated instead.
const sigTerm = 0

// guardHandle: on Windows the program is started as is, with no guard; if
// Workrun is killed it sees stdin close and should exit then
// (docs/tool-app.md T3).
type guardHandle struct{}

func runStdioGuard() {}

func programCommand(opts StdioOptions) (*exec.Cmd, *guardHandle, error) {
	cmd := exec.Command(opts.Argv[0], opts.Argv[1:]...)
	cmd.Env = append(os.Environ(), opts.Env...)
	cmd.Dir = opts.Dir
	return cmd, nil, nil
}

func (*guardHandle) closeAll() {}

func (*guardHandle) started(_ context.Context, cmd *exec.Cmd) (int, error) {
	return cmd.Process.Pid, nil
}

func (s *Stdio) signal(int) { s.kill() }

func (s *Stdio) kill() {
	s.cmd.Process.Kill() //nolint:errcheck // an exited program is what we want
}
