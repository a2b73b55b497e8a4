//go:build unix

package mcp

import (
	"errors"
	"os/exec"
	"syscall"
	"testing"
)

// newSessionAttr starts a process in a session of its own when own is set.
func newSessionAttr(own bool) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: own} }

// TestStartStdio_NeedsGuardHost: in an executable that did not call
// RunStdioGuard (its main or TestMain), StartStdio starts nothing and says
// so — started again as the "guard", such a binary would do whatever it
// does (a test binary: run its tests once more). (This binary's TestMain
// calls it; the test takes that back for its length. No test here runs in
// parallel.)
func TestStartStdio_NeedsGuardHost(t *testing.T) {
	guardHosted.Store(false)
	t.Cleanup(func() { guardHosted.Store(true) })
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	s, err := StartStdio(t.Context(), StdioOptions{Argv: []string{sh, "-c", "sleep 30"}})
	if err == nil {
		s.Close(t.Context()) //nolint:errcheck // the test fails anyway
		t.Fatal("started a program with no guard host")
	}
	if !errors.Is(err, ErrNoGuardHost) {
		t.Fatalf("err = %v, want ErrNoGuardHost", err)
	}
}
