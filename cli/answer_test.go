package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"workrun/store"
	"workrun/workrun"
)

// askedRemote is the remote of kind "asking" in these tests: it asks the
// questions of the node's config one round after the other and keeps what
// it received per run and round — the proof of what was sent.
var askedRemote = struct {
	sync.Mutex
	got map[string]map[int][]workrun.Decision // run → round → answers received
}{got: map[string]map[int][]workrun.Decision{}}

func receivedAnswers(run string, round int) []workrun.Decision {
	askedRemote.Lock()
	defer askedRemote.Unlock()
	return append([]workrun.Decision(nil), askedRemote.got[run][round]...)
}

// askingKind is a remote step asked the questions of its config
// ({"questions": [workrun.Question…]}).
type askingKind struct{}

type askingStep struct{ questions []workrun.Question }

func (askingKind) Type() string { return "asking" }
func (askingKind) Compile(spec workrun.NodeSpec, _ workrun.Workflow) (workrun.Step, error) {
	var cfg struct {
		Questions []workrun.Question `json:"questions"`
	}
	if err := json.Unmarshal(spec.Config, &cfg); err != nil {
		return nil, err
	}
	for i := range cfg.Questions {
		cfg.Questions[i].Round = i + 1
	}
	return &askingStep{cfg.Questions}, nil
}

func (s *askingStep) Reads() []string  { return nil }
func (s *askingStep) Writes() []string { return nil }
func (s *askingStep) TakesDecisions()  {}
func (s *askingStep) RemoteCalls()     {}
func (s *askingStep) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	for _, q := range s.questions {
		if len(receivedAnswers(nc.RunID(), q.Round)) > 0 {
			continue
		}
		d, ok, err := workrun.AnswerTo(ctx, nc, q.Round)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, &workrun.InterruptError{Cause: workrun.InterruptedByHuman, Reason: "asked: " + q.Message, Question: &q}
		}
		askedRemote.Lock()
		if askedRemote.got[nc.RunID()] == nil {
			askedRemote.got[nc.RunID()] = map[int][]workrun.Decision{}
		}
		askedRemote.got[nc.RunID()][q.Round] = append(askedRemote.got[nc.RunID()][q.Round], d)
		askedRemote.Unlock()
	}
	return nil, nil
}

// sqliteDeps opens the real store in the data directory, with kind "asking".
func sqliteDeps() Deps {
	return Deps{Version: "test", Open: func(ctx context.Context, dataDir string) (*Services, error) {
		st, err := store.Open(ctx, dataDir)
		if err != nil {
			return nil, err
		}
		e := workrun.NewEngine(st, nil, append(localKinds(), askingKind{})...)
		return &Services{DataDir: dataDir, Runs: st, Workflows: st, Engine: e, RemoteCalls: st, RunArtifacts: st, Close: st.Close}, nil
	}}
}

const askingFlow = `{"name":"asked","nodes":[{"id":"start","type":"start"},
	{"id":"agent","type":"asking","config":{"questions":[
		{"kind":"text","from":"Travel agent","message":"Which city?"},
		{"kind":"form","from":"Proxy tool","message":"Where is the proxy?","schema":{"type":"object","properties":{
			"host":{"type":"string","title":"Host"},
			"port":{"type":"integer","minimum":1,"maximum":65535,"default":8080},
			"mode":{"type":"string","oneOf":[{"const":"fast","title":"Fast"},{"const":"safe","title":"Safe"}]},
			"token":{"type":"string","format":"password"}},"required":["host","port"]}},
		{"kind":"sign_in","from":"Travel agent","message":"Sign in to book","url":"https://login.example/x?y=1"},
		{"kind":"form","message":"Keep a copy?","schema":{"type":"object","properties":{"copy":{"type":"boolean"}}}}]}}],
	"edges":[{"from":"start","to":"agent"}]}`

// TestAnswer_RemoteQuestionsHeadless: a run asked four rounds (text,
// form, sign-in, a form declined) is answered with `workrun answer`;
// `run` and `show` print each question and how to answer it, in English
// and Chinese; an answer that does not fit is refused with its reasons
// (exit 2) and nothing is sent; the secret form field reaches the remote
// but not the SQLite file.
func TestAnswer_RemoteQuestionsHeadless(t *testing.T) {
	const token = "tok-5ecret-77aa"
	dir := t.TempDir()
	flow := writeFlow(t, askingFlow)
	res := runMain(t, []string{"--data-dir", dir, "run", flow}, nil, sqliteDeps())
	if res.Code != ExitInterrupted {
		t.Fatalf("run: exit %d: %s %s", res.Code, res.Stdout, res.Stderr)
	}
	for _, want := range []string{"Travel agent asks (round 1): Which city?", "Waiting for you: node agent — Travel agent asks (round 1):", "answer with: workrun answer "} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("run output lacks %q:\n%s", want, res.Stdout)
		}
	}
	id := runIDIn(t, dir)

	answer := func(env map[string]string, stdin string, args ...string) result {
		t.Helper()
		var stdout, stderr bytes.Buffer
		stdio := Stdio{Stdin: strings.NewReader(stdin), Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string { return env[k] }}
		code := Main(context.Background(), append([]string{"--data-dir", dir, "answer", id, "agent"}, args...), stdio, sqliteDeps())
		return result{Code: code, Stdout: stdout.String(), Stderr: stderr.String()}
	}
	show := func(lang string) string {
		t.Helper()
		res := runMain(t, []string{"--data-dir", dir, "show", id, "--lang", lang}, nil, sqliteDeps())
		if res.Code != ExitOK {
			t.Fatalf("show: exit %d: %s", res.Code, res.Stderr)
		}
		return res.Stdout
	}

	// Round 1: text. --values on a text question is a usage error.
	if res := answer(nil, "", "--values", `{"a":1}`); res.Code != ExitUsage {
		t.Errorf("--values on a text question: exit %d", res.Code)
	}
	if res := answer(nil, "", "Lisbon"); res.Code != ExitInterrupted || !strings.Contains(res.Stdout, "answered (round 1): Lisbon") {
		t.Fatalf("round 1: exit %d:\n%s%s", res.Code, res.Stdout, res.Stderr)
	}

	// Round 2: a form, shown with its fields, in both languages.
	en := show("en")
	for _, want := range []string{"Proxy tool asks (round 2):", "Where is the proxy?", "host (Host) — text, required",
		"port — whole number, 1…65535, required, default 8080", "mode — one of: fast (Fast), safe (Safe)", "token — text, secret: never saved",
		"--field NAME=VALUE", "--decline | --cancel-request"} {
		if !strings.Contains(en, want) {
			t.Errorf("show lacks %q:\n%s", want, en)
		}
	}
	if zh := show("zh"); !strings.Contains(zh, "等待你回答：节点 agent — Proxy tool 提问（第 2 轮）：") || !strings.Contains(zh, "整数") {
		t.Errorf("show --lang zh:\n%s", zh)
	}
	// Refused before sending, with reasons in the reader's language.
	res = answer(map[string]string{"LANG": "zh_CN.UTF-8"}, "", "--field", "port=99999", "--field", "mode=slow")
	if res.Code != ExitUsage || !strings.Contains(res.Stderr, "未发送任何内容") || !strings.Contains(res.Stderr, "请从 fast, safe 中选择") {
		t.Fatalf("bad form answer: exit %d: %s", res.Code, res.Stderr)
	}
	res = answer(nil, "", "--values", `{"port":70000}`)
	if res.Code != ExitUsage || !strings.Contains(res.Stderr, "Host: a value is required") || !strings.Contains(res.Stderr, "port: at most 65535") {
		t.Fatalf("bad --values: exit %d: %s", res.Code, res.Stderr)
	}
	if n := len(receivedAnswers(id, 2)); n != 0 {
		t.Fatalf("a refused answer was sent (%d)", n)
	}
	// The secret comes from standard input, not the command line.
	res = answer(nil, token+"\n", "--values", `{"host":"proxy.example"}`, "--field", "mode=Safe", "--field", "token=-")
	if res.Code != ExitInterrupted || !strings.Contains(res.Stdout, "answered (round 2): host: proxy.example; port: 8080; mode: safe; token: •••") {
		t.Fatalf("round 2: exit %d:\n%s%s", res.Code, res.Stdout, res.Stderr)
	}
	if strings.Contains(res.Stdout+res.Stderr, token) {
		t.Errorf("the secret is in the output")
	}
	if got := receivedAnswers(id, 2); len(got) != 1 || !strings.Contains(string(got[0].Content), token) {
		t.Fatalf("the remote got %+v", got)
	}
	// A second answer to the same round is not taken.
	if res := answer(nil, "", "--field", "host=h"); res.Code != ExitUsage {
		t.Errorf("answering round 2 again: exit %d", res.Code)
	}

	// Round 3: sign in. The link is printed, never opened; --done goes on.
	en = show("en")
	if !strings.Contains(en, "Sign in at (Workrun does not open it): https://login.example/x?y=1") || !strings.Contains(en, "--done") {
		t.Errorf("show of the sign-in:\n%s", en)
	}
	if res := answer(nil, ""); res.Code != ExitUsage || !strings.Contains(res.Stderr, "sign in") {
		t.Errorf("sign-in without --done: exit %d: %s", res.Code, res.Stderr)
	}
	if res := answer(nil, "", "--done"); res.Code != ExitInterrupted || !strings.Contains(res.Stdout, "said the sign-in is done (round 3)") {
		t.Fatalf("round 3: exit %d:\n%s%s", res.Code, res.Stdout, res.Stderr)
	}

	// Round 4: declined; the run ends.
	if res := answer(nil, "", "--decline", "--cancel-request"); res.Code != ExitUsage {
		t.Errorf("--decline with --cancel-request: exit %d", res.Code)
	}
	if res := answer(nil, "", "--decline"); res.Code != ExitOK || !strings.Contains(res.Stdout, "declined the request (round 4)") {
		t.Fatalf("round 4: exit %d:\n%s%s", res.Code, res.Stdout, res.Stderr)
	}
	if got := receivedAnswers(id, 4); len(got) != 1 || got[0].Action != workrun.AnswerDecline {
		t.Errorf("round 4 sent %+v", got)
	}

	// The secret is nowhere in the data directory's files.
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte(token)) {
			t.Errorf("the secret is in %s", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(show("en"), "token: •••") {
		t.Error("show does not keep the withheld field's place")
	}
}

// runIDIn is the one run in data directory dir.
func runIDIn(t *testing.T, dir string) string {
	t.Helper()
	st, err := store.Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.ListRuns(t.Context(), workrun.RunFilter{})
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs %v %v", runs, err)
	}
	return runs[0].ID
}
