package credentials

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// runChild re-runs the calling test alone in a child process of the test
// binary, with realKeyringEnv set, and returns its combined output.
func runChild(t *testing.T) ([]byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v")
	cmd.Env = append(os.Environ(), realKeyringEnv+"=1")
	return cmd.CombinedOutput()
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
