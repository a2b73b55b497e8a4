package desktop

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"workrun/mcp/demoserver"
)

// TestStartDemoMCP: the window's demo MCP server answers MCP on loopback
// and stop ends it.
func TestStartDemoMCP(t *testing.T) {
	u, stop, err := startDemoMCP()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(u, "http://127.0.0.1:") || !strings.HasSuffix(u, demoserver.Path) {
		t.Errorf("url %q", u)
	}
	resp, err := http.Get(strings.TrimSuffix(u, demoserver.Path) + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "demo MCP server") {
		t.Errorf("root answered %q", body)
	}
	stop()
	if _, err := http.Get(u); err == nil {
		t.Error("the server still answers after stop")
	}
}
