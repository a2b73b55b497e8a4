package main

import (
	"io/fs"
	"strings"
	"testing"

	"workrun/cli"
	"workrun/mcp/demoserver"
	"workrun/ui"
)

// TestDemoMCPAddressAgrees: the window's fixed demo MCP address is the one
// `workrun demo-mcp` serves on, and the one the shipped example names.
func TestDemoMCPAddressAgrees(t *testing.T) {
	if want := "http://" + cli.DemoMCPAddr + demoserver.Path; ui.DemoMCPURL != want {
		t.Errorf("ui.DemoMCPURL %q, want %q", ui.DemoMCPURL, want)
	}
	b, err := fs.ReadFile(templates(), "remote-mcp.json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), ui.DemoMCPURL) {
		t.Errorf("examples/remote-mcp.json does not name %s", ui.DemoMCPURL)
	}
}
