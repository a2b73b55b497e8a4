//go:build unix

package process

import (
	"os/exec"
	"syscall"
)

// ownGroup runs the command in its own process group and makes cancellation
// kill the whole group, so `sh -c "…"` does not leave its children running
// after a timeout or Stop.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
