package main

import (
	"os"
	"testing"

	"workrun/mcp"
)

// TestMain lets this test binary host the stdio guard, as main does for the
// workrun binary: a test that starts a Tool App program in this process
// (not through the built binary) needs it.
func TestMain(m *testing.M) {
	mcp.RunStdioGuard()
	os.Exit(m.Run())
}
