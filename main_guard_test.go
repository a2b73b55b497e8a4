package main

import (
	"fmt"
	"os"
	"testing"

	"workrun/mcp"
)

// TestMain lets this test binary host the stdio guard, as main does for the
// workrun binary: a test that starts a Tool App program in this process
// (not through the built binary) needs it. It removes the binary the
// real-binary tests shared (buildWorkrun) when they are done.
func TestMain(m *testing.M) {
	mcp.RunStdioGuard()
	code := m.Run()
	if built.dir != "" {
		if err := os.RemoveAll(built.dir); err != nil {
			fmt.Fprintf(os.Stderr, "remove the tests' workrun binary: %v\n", err)
			code = max(code, 1)
		}
	}
	os.Exit(code)
}
