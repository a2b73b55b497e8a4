package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"workrun/workrun/workruntest"
)

// chineseAgent is an A2A 1.0 JSON-RPC agent whose own words are all
// Chinese, so any Latin word in `workrun show --lang zh` of its runs is
// Workrun's. The first text part picks the outcome: "完成" completes with
// a status line and an artifact, "失败" fails, "挂起" works until
// CancelTask, "断开" ends the stream before any event, "提问" asks for
// input.
func chineseAgent(t *testing.T) *httptest.Server {
	var (
		mu      sync.Mutex
		hanging = make(chan struct{})
		once    sync.Once
		n       int
	)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"name": "中文智能体", "version": "1", //nolint:errcheck
				"supportedInterfaces": []any{map[string]any{"url": "http://" + r.Host + "/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}},
				"capabilities":        map[string]any{"streaming": true}, "defaultInputModes": []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"}, "skills": []any{}})
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ID      string `json:"id"`
				Message struct {
					Parts []struct {
						Text string `json:"text"`
					} `json:"parts"`
				} `json:"message"`
			} `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		status := func(state, text string) string {
			return fmt.Sprintf(`{"state":%q,"message":{"messageId":"s-%s","role":"ROLE_AGENT","parts":[{"text":%q}]}}`, state, state, text)
		}
		if req.Method == "CancelTask" {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"id":%q,"contextId":"c","status":%s}}`, req.ID, req.Params.ID, status("TASK_STATE_CANCELED", "已按要求取消"))
			return
		}
		mu.Lock()
		n++
		task := fmt.Sprint("t", n)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		ev := func(result string) {
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}\n\n", req.ID, result)
			w.(http.Flusher).Flush()
		}
		first := func(state, text string) {
			ev(fmt.Sprintf(`{"task":{"id":%q,"contextId":"c","status":%s}}`, task, status(state, text)))
		}
		update := func(state, text string) {
			ev(fmt.Sprintf(`{"statusUpdate":{"taskId":%q,"contextId":"c","status":%s}}`, task, status(state, text)))
		}
		text := ""
		if len(req.Params.Message.Parts) > 0 {
			text = req.Params.Message.Parts[0].Text
		}
		switch {
		case strings.HasPrefix(text, "完成"):
			first("TASK_STATE_WORKING", "正在处理")
			ev(fmt.Sprintf(`{"artifactUpdate":{"taskId":%q,"contextId":"c","artifact":{"artifactId":"a1","name":"答复","parts":[{"text":"这是答复"}]},"lastChunk":true}}`, task))
			update("TASK_STATE_COMPLETED", "处理完毕")
		case strings.HasPrefix(text, "失败"):
			select { // fail once the other branch's task is out, so it is cancelled
			case <-hanging:
			case <-time.After(10 * time.Second):
			}
			time.Sleep(200 * time.Millisecond)
			first("TASK_STATE_WORKING", "正在处理")
			update("TASK_STATE_FAILED", "资料不足，无法继续")
		case strings.HasPrefix(text, "挂起"):
			first("TASK_STATE_WORKING", "长时间处理中")
			once.Do(func() { close(hanging) })
			<-r.Context().Done()
		case strings.HasPrefix(text, "提问"):
			first("TASK_STATE_WORKING", "正在处理")
			update("TASK_STATE_INPUT_REQUIRED", "请告诉我预算是多少")
		default: // "断开": no event at all
		}
	}))
	t.Cleanup(ts.Close)
	return ts
}

// TestShowInChinese: `workrun show --lang zh` of runs whose remote nodes
// completed, failed, were cancelled, lost their submission and were asked
// for input prints no English word of Workrun's own: headings, status
// words, the remote task section, node messages and errors all come from
// the catalogues. The runs are made by a process whose language is
// Chinese (failure reasons are saved in the writer's language); the
// reader's environment is English, so only --lang makes it Chinese. What
// is left after removing the data (ids, URLs, node types, media types)
// must hold no Latin letter.
func TestShowInChinese(t *testing.T) {
	t.Setenv("LANGUAGE", "zh_CN.UTF-8")
	workruntest.InLanguage(t, "zh_CN.UTF-8") // the runs are made in this process
	agent := chineseAgent(t)
	deps := artifactDeps()
	dir := t.TempDir()
	node := func(id, output string) string {
		return fmt.Sprintf(`{"id":%q,"type":"remote_agent","config":{"url":%q,"inputs":[%q],"output":%q,"output_files":"files","timeout_seconds":5}}`,
			id, agent.URL, "q_"+id, output)
	}
	flows := map[string]struct {
		wf   string
		code int
	}{
		"completed": {fmt.Sprintf(`{"name":"完成","state":{"q_ok":"text","a":"text","files":"files"},"nodes":[{"id":"start","type":"start"},%s],
			"edges":[{"from":"start","to":"ok"}]}`, node("ok", "a")), ExitOK},
		"failed": {fmt.Sprintf(`{"name":"失败","state":{"q_hang":"text","q_bad":"text","a":"text","b":"text","files":"files"},
			"nodes":[{"id":"start","type":"start"},%s,%s],"edges":[{"from":"start","to":"hang"},{"from":"start","to":"bad"}]}`,
			node("hang", "a"), node("bad", "b")), ExitFailed},
		"unknown": {fmt.Sprintf(`{"name":"断开","state":{"q_lost":"text","a":"text","files":"files"},"nodes":[{"id":"start","type":"start"},%s],
			"edges":[{"from":"start","to":"lost"}]}`, node("lost", "a")), ExitFailed},
		"asked": {fmt.Sprintf(`{"name":"提问","state":{"q_ask":"text","a":"text","files":"files"},"nodes":[{"id":"start","type":"start"},%s],
			"edges":[{"from":"start","to":"ask"}]}`, node("ask", "a")), ExitInterrupted},
	}
	inputs := map[string][]string{
		"completed": {"q_ok=完成"}, "failed": {"q_hang=挂起", "q_bad=失败"}, "unknown": {"q_lost=断开"}, "asked": {"q_ask=提问"},
	}
	names := make([]string, 0, len(flows))
	for name := range flows {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		f := flows[name]
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "wf.json")
			if err := os.WriteFile(path, []byte(f.wf), 0o600); err != nil {
				t.Fatal(err)
			}
			args := []string{"--data-dir", dir, "run", path, "--json"}
			for _, in := range inputs[name] {
				args = append(args, "--input", in)
			}
			res := runMain(t, args, map[string]string{"LANG": "zh_CN.UTF-8"}, deps)
			if res.Code != f.code {
				t.Fatalf("run: exit %d, want %d\n%s\n%s", res.Code, f.code, res.Stdout, res.Stderr)
			}
			runID := runIDOf(t, res.Stdout)
			en := runMain(t, []string{"--data-dir", dir, "show", runID}, map[string]string{"LANG": "en_US.UTF-8"}, deps)
			zh := runMain(t, []string{"--data-dir", dir, "show", runID, "--lang", "zh"}, map[string]string{"LANG": "en_US.UTF-8"}, deps)
			if zh.Code != ExitOK || en.Code != ExitOK {
				t.Fatalf("show: exit %d/%d\n%s%s", en.Code, zh.Code, en.Stderr, zh.Stderr)
			}
			if !strings.Contains(en.Stdout, "Status: ") || !strings.Contains(zh.Stdout, "状态：") {
				t.Fatalf("show output:\n%s\n---\n%s", en.Stdout, zh.Stdout)
			}
			if name != "unknown" && !strings.Contains(zh.Stdout, "远程任务：") {
				t.Errorf("no remote task section in:\n%s", zh.Stdout)
			}
			js := runMain(t, []string{"--data-dir", dir, "show", runID, "--json"}, nil, deps)
			var shown shownRun
			if err := json.Unmarshal([]byte(js.Stdout), &shown); err != nil {
				t.Fatal(err)
			}
			if left := englishLeft(zh.Stdout, shown); left != "" {
				t.Errorf("English left in `show --lang zh` (%s):\n%s\n--- full output:\n%s", name, left, zh.Stdout)
			}
		})
	}
}

// runIDOf is the run id of `workrun run --json`'s last event.
func runIDOf(t *testing.T, out string) string {
	t.Helper()
	var id string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev struct {
			RunID string `json:"run_id"`
		}
		if json.Unmarshal([]byte(l), &ev) == nil && ev.RunID != "" {
			id = ev.RunID
		}
	}
	if id == "" {
		t.Fatalf("no run id in:\n%s", out)
	}
	return id
}

var (
	latinWord = regexp.MustCompile(`[A-Za-z]{2,}`)
	urlText   = regexp.MustCompile(`https?://[^\s（）()]+`)
	// A command to type (show says how to answer a question) is not words.
	commandText = regexp.MustCompile(`workrun [a-z-]+ .*$`)
	// Names Chinese text keeps as they are.
	properNames = regexp.MustCompile(`\b(HTTP|ID|JSON|RPC|A2A|MCP|Workrun)\b`)
)

// englishLeft returns the lines of out that still hold a Latin word once
// the data of sr is taken out: ids, URLs, node types, media types and
// artifact names, which are not words to translate.
func englishLeft(out string, sr shownRun) string {
	var data []string
	data = append(data, sr.Run.ID)
	for _, n := range sr.Nodes {
		data = append(data, n.NodeID, n.Type)
	}
	for _, c := range sr.RemoteCalls {
		data = append(data, c.AgentURL, c.Origin, c.TaskID, c.MessageID, c.ContextID)
	}
	for _, a := range sr.Artifacts {
		data = append(data, a.ID, a.Name, a.MediaType)
	}
	sort.Slice(data, func(i, j int) bool { return len(data[i]) > len(data[j]) }) // longest first
	var left []string
	for _, l := range strings.Split(out, "\n") {
		s := commandText.ReplaceAllString(urlText.ReplaceAllString(l, " "), " ")
		for _, d := range data {
			if d != "" {
				s = strings.ReplaceAll(s, d, " ")
			}
		}
		if latinWord.MatchString(properNames.ReplaceAllString(s, " ")) {
			left = append(left, l)
		}
	}
	return strings.Join(left, "\n")
}
