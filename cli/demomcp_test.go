package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCheckMCPListsTheDemoTools: check-mcp against demo-mcp lists the tools
// with their task support and calls none.
func TestCheckMCPListsTheDemoTools(t *testing.T) {
	url, stderr := runDemoCommand(t, "demo-mcp", "--addr", "127.0.0.1:0")
	if url == "" {
		t.Fatal(stderr)
	}
	res := runMain(t, []string{"--data-dir", t.TempDir(), "check-mcp", url}, nil, Deps{Version: "test"})
	if res.Code != ExitOK {
		t.Fatalf("exit %d: %s %s", res.Code, res.Stdout, res.Stderr)
	}
	for _, want := range []string{"workrun-demo-mcp", "research", "task optional", "hang", "task required", "echo", "Tasks:", "no tool was called"} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, res.Stdout)
		}
	}
	res = runMain(t, []string{"--data-dir", t.TempDir(), "check-mcp", "--json", url}, nil, Deps{Version: "test"})
	var out struct {
		OK    bool `json:"ok"`
		Tools []struct {
			Name        string `json:"name"`
			TaskSupport string `json:"task_support"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(res.Stdout), &out); err != nil || !out.OK || len(out.Tools) != 10 {
		t.Errorf("json: %v %+v\n%s", err, out, res.Stdout)
	}
	res = runMain(t, []string{"--data-dir", t.TempDir(), "check-mcp", "http://127.0.0.1:1/mcp"}, nil, Deps{Version: "test"})
	if res.Code != ExitFailed || !strings.Contains(res.Stderr, "check-mcp") {
		t.Errorf("unreachable server: exit %d %s", res.Code, res.Stderr)
	}
	res = runMain(t, []string{"--data-dir", t.TempDir(), "check-mcp"}, nil, Deps{Version: "test"})
	if res.Code == ExitOK {
		t.Error("no URL accepted")
	}
}

// TestDemoMCPSpeaksTheReadersLanguage: demo-mcp's own words follow the
// reader's language (LANGUAGE / LC_* / LANG, as `workrun show` does).
func TestDemoMCPSpeaksTheReadersLanguage(t *testing.T) {
	for lang, want := range map[string]string{"zh_CN.UTF-8": "workrun：demo-mcp：", "en_US.UTF-8": "workrun: demo-mcp: "} {
		res := runMain(t, []string{"--data-dir", t.TempDir(), "demo-mcp", "--addr", "127.0.0.1:99999"}, map[string]string{"LANG": lang}, Deps{Version: "test"})
		if res.Code != ExitFailed || !strings.HasPrefix(res.Stderr, want) {
			t.Errorf("LANG=%s: exit %d, stderr %q, want it to start with %q", lang, res.Code, res.Stderr, want)
		}
	}
	if zh := texts.In("zh", msgDemoMCPBanner); !strings.Contains(zh, "演示 MCP 服务器") || !strings.Contains(zh, "docs/demo-mcp.md") {
		t.Errorf("Chinese banner = %q", zh)
	}
}
