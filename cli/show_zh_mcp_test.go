package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"workrun/workrun/workruntest"

	"workrun/mcp/demoserver"
)

// demoMCPServer is the demo MCP server; with hold, each call of the broken
// tool is held back until a hang task was accepted (or 4 s passed), so a
// failing branch stops a sibling whose remote task is out.
func demoMCPServer(t *testing.T, hold bool) *httptest.Server {
	srv := demoserver.New(demoserver.Options{})
	var (
		once    sync.Once
		hanging = make(chan struct{})
	)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if hold && bytes.Contains(body, []byte(`"name":"broken"`)) {
			select {
			case <-hanging:
			case <-time.After(4 * time.Second):
			}
			time.Sleep(300 * time.Millisecond)
		}
		if bytes.Contains(body, []byte(`"name":"hang"`)) && bytes.Contains(body, []byte(`tools/call`)) {
			defer once.Do(func() { close(hanging) })
		}
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// TestShowInChineseMCP: `workrun show --lang zh` of runs whose Remote MCP
// Tool nodes got a tool error (isError), were stopped while their remote
// task ran, and found the server's port closed prints no English word of
// Workrun's own. As in TestShowInChinese the runs are made by a Chinese
// process and read by an English one with --lang zh; the demo server's
// own words (its tool error and status text) and the tool names are data.
func TestShowInChineseMCP(t *testing.T) {
	t.Setenv("LANGUAGE", "zh_CN.UTF-8")
	workruntest.InLanguage(t, "zh_CN.UTF-8") // the runs are made in this process
	url := demoMCPServer(t, false).URL + demoserver.Path
	held := demoMCPServer(t, true).URL + demoserver.Path
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + demoserver.Path
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	deps := artifactDeps()
	dir := t.TempDir()
	node := func(id, url, tool string) string {
		return fmt.Sprintf(`{"id":%q,"type":"remote_mcp","config":{"url":%q,"tool":%q,"output":"a_%s","timeout_seconds":5}}`, id, url, tool, id)
	}
	flows := map[string]string{
		"iserror": `{"name":"工具错误","state":{"a_bad":"text"},"nodes":[{"id":"start","type":"start"},` + node("bad", url, "broken") +
			`],"edges":[{"from":"start","to":"bad"}]}`,
		"stopped": `{"name":"停止","state":{"a_bad":"text","a_hang":"text"},"nodes":[{"id":"start","type":"start"},` + node("hang", held, "hang") +
			`,` + node("bad", held, "broken") + `],"edges":[{"from":"start","to":"hang"},{"from":"start","to":"bad"}]}`,
		"refused": `{"name":"拒绝","state":{"a_gone":"text"},"nodes":[{"id":"start","type":"start"},` + node("gone", closed, "echo") +
			`],"edges":[{"from":"start","to":"gone"}]}`,
	}
	// The demo server's own words, kept as they are.
	serverWords := []string{"the solver diverged at step 3", "waiting forever", "broken", "hang", "echo"}
	names := make([]string, 0, len(flows))
	for name := range flows {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "wf.json")
			if err := os.WriteFile(path, []byte(flows[name]), 0o600); err != nil {
				t.Fatal(err)
			}
			res := runMain(t, []string{"--data-dir", dir, "run", path, "--json"}, map[string]string{"LANG": "zh_CN.UTF-8"}, deps)
			if res.Code != ExitFailed {
				t.Fatalf("run: exit %d, want %d\n%s\n%s", res.Code, ExitFailed, res.Stdout, res.Stderr)
			}
			runID := runIDOf(t, res.Stdout)
			en := runMain(t, []string{"--data-dir", dir, "show", runID}, map[string]string{"LANG": "en_US.UTF-8"}, deps)
			zh := runMain(t, []string{"--data-dir", dir, "show", runID, "--lang", "zh"}, map[string]string{"LANG": "en_US.UTF-8"}, deps)
			if zh.Code != ExitOK || en.Code != ExitOK {
				t.Fatalf("show: exit %d/%d\n%s%s", en.Code, zh.Code, en.Stderr, zh.Stderr)
			}
			want := map[string]string{"iserror": "报告错误", "stopped": "报告错误", "refused": "连接被拒绝"}[name]
			if !strings.Contains(zh.Stdout, "状态：") || !strings.Contains(zh.Stdout, want) {
				t.Errorf("no %q in `show --lang zh`:\n%s", want, zh.Stdout)
			}
			if name == "stopped" && !strings.Contains(zh.Stdout, "远程任务") {
				t.Errorf("no remote task of the stopped hang node in:\n%s", zh.Stdout)
			}
			js := runMain(t, []string{"--data-dir", dir, "show", runID, "--json"}, nil, deps)
			var shown shownRun
			if err := json.Unmarshal([]byte(js.Stdout), &shown); err != nil {
				t.Fatal(err)
			}
			out := zh.Stdout
			for _, w := range serverWords {
				out = strings.ReplaceAll(out, w, " ")
			}
			if left := englishLeft(out, shown); left != "" {
				t.Errorf("English left in `show --lang zh` (%s):\n%s\n--- full output:\n%s\n--- English:\n%s", name, left, zh.Stdout, en.Stdout)
			}
		})
	}
}
