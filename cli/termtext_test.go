package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
)

// hostile is what an agent or process might print to take over the
// terminal: a title change (OSC), a screen clear (CSI), a carriage return
// and backspaces over the line, a forged line after a newline, the 8-bit
// CSI, a right-to-left override, and a byte that is not UTF-8.
const hostile = "ok\x1b]0;pwned\x07\x1b[2J\rfake\b\b\b\b\n[other] succeeded\u009b31m\u202egnp.exe\xff"

// assertInert fails if out holds anything that acts on a terminal or a
// line that starts like a node's status line.
func assertInert(t *testing.T, out string) {
	t.Helper()
	for _, c := range []string{"\x1b", "\x07", "\r", "\b", "\u009b", "\u202e", "\xff"} {
		if strings.Contains(out, c) {
			t.Errorf("output holds control %q:\n%s", c, out)
		}
	}
	for line := range strings.Lines(out) {
		if strings.HasPrefix(strings.TrimLeft(line, " "), "[other]") {
			t.Errorf("a forged line starts a line of output: %q", line)
		}
	}
}

func TestEscapeTerm(t *testing.T) {
	got := termText(hostile, "  ")
	want := `ok\x1b]0;pwned\x07\x1b[2J\x0dfake\x08\x08\x08\x08` + "\n  | " + `[other] succeeded\u009b31m\u202egnp.exe\xff`
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("termText (-want +got):\n%s", d)
	}
	if got := termLine("a\nb\tc"); got != "a⏎b c" {
		t.Errorf("termLine = %q", got)
	}
	for _, s := range []string{"plain ascii", "中文：完成 (42%)", "tab\there", "émoji 🎉"} {
		if got := termText(s, ""); got != s {
			t.Errorf("termText(%q) = %q, want it unchanged", s, got)
		}
	}
}

// TestRunEscapesHostileText: a value an agent controls reaches `run`'s
// output through a node message, a node error and the failure reason;
// none of it acts on the terminal, and it stays visible.
func TestRunEscapesHostileText(t *testing.T) {
	ms := newMemServices()
	res := runMain(t, []string{"--data-dir", t.TempDir(), "run", example("hello.json"), "--input", "name=" + hostile}, nil, ms.deps())
	if res.Code != ExitOK {
		t.Fatalf("exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	assertInert(t, res.Stdout)
	if !strings.Contains(res.Stdout, `ok\x1b]0;pwned\x07`) {
		t.Errorf("the escaped text is not shown:\n%s", res.Stdout)
	}

	flow := writeFlow(t, `{"name":"x","state":{},
		"nodes":[{"id":"start","type":"start"},{"id":"p","type":"process","config":{"command":["sh","-c","printf '\\033]0;pwned\\007\\r\\n[other] succeeded' >&2; exit 3"]}}],
		"edges":[{"from":"start","to":"p"}]}`)
	res = runMain(t, []string{"--data-dir", t.TempDir(), "run", flow}, nil, ms.deps())
	if res.Code != ExitFailed {
		t.Fatalf("exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	assertInert(t, res.Stdout)
	if !strings.Contains(res.Stdout, `\x1b]0;pwned`) {
		t.Errorf("the escaped error is not shown:\n%s", res.Stdout)
	}

	// A workflow file's node id reaches stderr through validation.
	flow = writeFlow(t, `{"name":"x","state":{},
		"nodes":[{"id":"s","type":"start"},{"id":"x\u001b]0;pwned\u0007\r\n[other] succeeded","type":"nope"}],
		"edges":[{"from":"s","to":"x\u001b]0;pwned\u0007\r\n[other] succeeded"}]}`)
	res = runMain(t, []string{"--data-dir", t.TempDir(), "run", flow}, nil, ms.deps())
	if res.Code != ExitUsage {
		t.Fatalf("exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	assertInert(t, res.Stderr)
	if !strings.Contains(res.Stderr, `x\x1b]0;pwned`) {
		t.Errorf("the escaped node id is not shown:\n%s", res.Stderr)
	}
}

// TestShowAndRunsEscapeHostileRecords: a run saved with hostile node id,
// workflow name, reason, node error and messages (an old record, or one
// from an agent) is shown inert by `show` and `runs`.
func TestShowAndRunsEscapeHostileRecords(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	st, _ := openDataDir(t, dir)
	node := "n\x1b[2J"
	r := workrun.Run{ID: "run-h", WorkflowName: "wf" + hostile, Status: workrun.RunFailed, FailedNode: node, Reason: hostile,
		Workflow: workrun.Workflow{Name: "wf", Nodes: []workrun.NodeSpec{{ID: node, Type: "process"}}}, CreatedAt: time.Now()}
	if err := st.CreateRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	if err := st.SaveNodeRun(ctx, workrun.NodeRun{RunID: "run-h", NodeID: node, Type: "process", Status: workrun.NodeFailed, Error: hostile}); err != nil {
		t.Fatal(err)
	}
	for _, m := range []workrun.Message{
		{RunID: "run-h", NodeID: node, Text: hostile},
		{RunID: "run-h", NodeID: node, Args: []string{hostile}},
		{RunID: "run-h", NodeID: node, Key: "output.value", Args: []string{"message", hostile}},
	} {
		if _, err := st.AppendMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	res := runMain(t, []string{"--data-dir", dir, "show", "run-h"}, nil, artifactDeps())
	if res.Code != ExitOK {
		t.Fatalf("show: exit %d\n%s", res.Code, res.Stderr)
	}
	assertInert(t, res.Stdout)
	if n := strings.Count(res.Stdout, `ok\x1b]0;pwned\x07`); n < 6 {
		t.Errorf("show: the escaped text appears %d times, want it in name, reason, error and 3 messages:\n%s", n, res.Stdout)
	}
	res = runMain(t, []string{"--data-dir", dir, "runs"}, nil, artifactDeps())
	if res.Code != ExitOK {
		t.Fatalf("runs: exit %d\n%s", res.Code, res.Stderr)
	}
	assertInert(t, res.Stdout)
	if lines := strings.Count(res.Stdout, "\n"); lines != 2 {
		t.Errorf("runs printed %d lines for one run, want a header and one row:\n%s", lines, res.Stdout)
	}
	// --json: C1 and bidi controls are escaped like C0 ones, and the JSON
	// still reads back as the text stored (issue 27 item 5).
	for _, args := range [][]string{{"show", "run-h", "--json"}, {"runs", "--json"}} {
		res = runMain(t, append([]string{"--data-dir", dir}, args...), nil, artifactDeps())
		if res.Code != ExitOK {
			t.Fatalf("%v: exit %d\n%s", args, res.Code, res.Stderr)
		}
		for _, c := range []string{"\u009b", "\u202e", "\x1b"} {
			if strings.Contains(res.Stdout, c) {
				t.Errorf("%v prints control %q raw", args, c)
			}
		}
		if !strings.Contains(res.Stdout, `\u009b31m\u202egnp`) {
			t.Errorf("%v: want the C1 CSI and the override escaped as \\u009b, \\u202e:\n%.400s", args, res.Stdout)
		}
		var v any
		if err := json.Unmarshal([]byte(res.Stdout), &v); err != nil {
			t.Errorf("%v: not JSON: %v", args, err)
		} else if b, _ := json.Marshal(v); !strings.Contains(string(b), "\u009b31m") {
			t.Errorf("%v: the reason does not read back with its C1 character", args)
		}
	}
}

// TestRunAndShowRenderInReadersLanguage: node messages are rendered when
// shown — in --lang's language, else the locale's — and JSON keeps each
// message's key and arguments beside the rendering.
func TestRunAndShowRenderInReadersLanguage(t *testing.T) {
	ms := newMemServices()
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"locale en", nil, map[string]string{"LANG": "en_US.UTF-8"}, "[end] message: Hello, Ada!"},
		{"locale zh", nil, map[string]string{"LANG": "zh_CN.UTF-8"}, "[end] message：Hello, Ada!"},
		{"LANGUAGE first", nil, map[string]string{"LANGUAGE": "zh_CN:en", "LANG": "en_US.UTF-8"}, "[end] message：Hello, Ada!"},
		{"flag over locale", []string{"--lang", "en"}, map[string]string{"LANG": "zh_CN.UTF-8"}, "[end] message: Hello, Ada!"},
		{"flag zh", []string{"--lang=zh"}, nil, "[end] message：Hello, Ada!"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--data-dir", dir, "run", example("hello.json"), "--input", "name=Ada"}, tc.args...)
			res := runMain(t, args, tc.env, ms.deps())
			if res.Code != ExitOK || !strings.Contains(res.Stdout, tc.want) {
				t.Errorf("run: exit %d, stdout lacks %q:\n%s%s", res.Code, tc.want, res.Stdout, res.Stderr)
			}
			id := lastRunID(t, ms)
			res = runMain(t, append([]string{"--data-dir", dir, "show", id}, tc.args...), tc.env, ms.deps())
			_, text, _ := strings.Cut(tc.want, "] ")
			if res.Code != ExitOK || !strings.Contains(res.Stdout, " "+text+"\n") {
				t.Errorf("show: exit %d, stdout lacks %q:\n%s%s", res.Code, text, res.Stdout, res.Stderr)
			}
		})
	}
	if res := runMain(t, []string{"--data-dir", dir, "run", example("hello.json"), "--lang", "fr"}, nil, ms.deps()); res.Code != ExitUsage || !strings.Contains(res.Stderr, "want en or zh") {
		t.Errorf("--lang fr: exit %d %s", res.Code, res.Stderr)
	}
	if res := runMain(t, []string{"help"}, nil, ms.deps()); strings.Count(res.Stdout, "[--lang en|zh]") < 2 {
		t.Errorf("help does not show --lang for run and show:\n%s", res.Stdout)
	}

	// JSON: key, args and the rendering in the chosen language.
	res := runMain(t, []string{"--data-dir", dir, "run", "--json", "--lang", "zh", example("hello.json"), "--input", "name=Ada"}, nil, ms.deps())
	var found bool
	for _, o := range jsonLines(t, res.Stdout) {
		m, _ := o["message"].(map[string]any)
		if m == nil || m["node_id"] != "end" {
			continue
		}
		found = true
		if d := cmp.Diff(map[string]any{"key": "output.value", "args": []any{"message", "Hello, Ada!"}, "text": "message：Hello, Ada!"},
			map[string]any{"key": m["key"], "args": m["args"], "text": m["text"]}); d != "" {
			t.Errorf("run --json message (-want +got):\n%s", d)
		}
	}
	if !found {
		t.Errorf("run --json has no message of node end:\n%s", res.Stdout)
	}
	id := lastRunID(t, ms)
	res = runMain(t, []string{"--data-dir", dir, "show", "--json", "--lang", "en", id}, nil, ms.deps())
	var shown shownRun
	if err := json.Unmarshal([]byte(res.Stdout), &shown); err != nil {
		t.Fatalf("show --json: %v\n%s", err, res.Stdout)
	}
	end := shown.Nodes[len(shown.Nodes)-1]
	if len(end.Messages) != 1 || end.Messages[0].Key != "output.value" || end.Messages[0].Text != "message: Hello, Ada!" ||
		!cmp.Equal(end.Messages[0].Args, []string{"message", "Hello, Ada!"}) {
		t.Errorf("show --json messages of end = %+v", end.Messages)
	}
}

// TestRunPrintsProgressAtReadingSpeed: 10,000 progress updates of one
// node in 1 s of (fake) time print as about one line per progressEvery,
// each naming how many updates it stands for, the last update always
// printed, and a node's own message never overtaking its progress.
func TestRunPrintsProgressAtReadingSpeed(t *testing.T) {
	var out strings.Builder
	p := newEventPrinter(&out, false)
	p.lang = "en"
	clock := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	p.now = func() time.Time { return clock }
	progress := func(node string, i int) workrun.Event {
		return workrun.Event{Type: workrun.EventMessage, RunID: "r", NodeID: node,
			Message: &workrun.Message{RunID: "r", NodeID: node, Time: clock, Key: "output.value", Args: []string{"status", fmt.Sprint(i)}}}
	}
	const n = 10_000
	for i := range n {
		p.event(progress("ra", i))
		clock = clock.Add(100 * time.Microsecond) // 10,000 events/s
		if i%100 == 0 {
			p.tick() // followRun ticks every progressEvery/2
		}
	}
	p.event(workrun.Event{Type: workrun.EventMessage, RunID: "r", NodeID: "ra",
		Message: &workrun.Message{RunID: "r", NodeID: "ra", Seq: 7, Time: clock, Key: "output.not_set", Args: []string{"x"}}})
	p.event(progress("other", 1))
	p.final(workrun.Run{ID: "r", Status: workrun.RunSucceeded})

	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) > 10 {
		t.Errorf("%d lines for 1 s of progress, want at most about one per %v:\n%s", len(lines), progressEvery, out.String())
	}
	var counted int
	for _, l := range lines {
		if !strings.Contains(l, "[ra] status: ") {
			continue
		}
		counted++
		if _, more, ok := strings.Cut(l, "(+"); ok {
			var k int
			fmt.Sscanf(strings.ReplaceAll(more, ",", ""), "%d", &k)
			counted += k
		}
	}
	if counted != n {
		t.Errorf("printed lines stand for %d updates, want %d:\n%s", counted, n, out.String())
	}
	tail := lines[len(lines)-4:]
	if !strings.Contains(tail[0], fmt.Sprintf("[ra] status: %d", n-1)) || !strings.Contains(tail[1], "[ra] x: (not set)") ||
		!strings.HasSuffix(tail[2], "[other] status: 1") || tail[3] != "run r succeeded" {
		t.Errorf("last lines = %q, want ra's last update, then its message, other's first update, the outcome", tail)
	}
	t.Logf("%d updates printed as:\n%s", n, out.String())
}

// TestRunPrintsProblemsInReadersLanguage: the problems of an invalid
// workflow are printed in --lang's language; in English each is
// Problem.String, word for word as before.
func TestRunPrintsProblemsInReadersLanguage(t *testing.T) {
	ms := newMemServices()
	dir := t.TempDir()
	flow := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(flow, []byte(`{"name": "Bad", "state": {"t": "text"},
  "nodes": [{"id": "start", "type": "start"}, {"id": "end", "type": "output", "config": {}}, {"id": "lost", "type": "join"}],
  "edges": [{"from": "start", "to": "end"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		lang string
		want []string
	}{
		{"en", []string{"workrun: " + flow + " is not a valid workflow:\n",
			"\n  node \"end\": config: \"fields\" must list at least one State field\n",
			"\n  node \"lost\": not reachable from the start node \"start\"\n"}},
		{"zh", []string{"\n  节点 \"end\"：配置：\"fields\" 至少要列出一个状态字段\n",
			"\n  节点 \"lost\"：从开始节点 \"start\" 无法到达\n"}},
	} {
		res := runMain(t, []string{"--data-dir", dir, "run", flow, "--lang", tc.lang}, nil, ms.deps())
		if res.Code != ExitUsage {
			t.Errorf("%s: exit %d, want %d", tc.lang, res.Code, ExitUsage)
		}
		for _, w := range tc.want {
			if !strings.Contains(res.Stderr, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", tc.lang, w, res.Stderr)
			}
		}
	}
}
