package workrun_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

func TestMain(m *testing.M) { workruntest.MainInEnglish(m) }

// TestDetectLanguage: LANGUAGE wins, then LC_ALL, LC_MESSAGES, LANG, as
// gettext reads them; a C locale is English.
func TestDetectLanguage(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{}, "en"},
		{map[string]string{"LANGUAGE": "zh_CN", "LANG": "en_US.UTF-8"}, "zh"},
		{map[string]string{"LANGUAGE": "en", "LC_ALL": "zh_CN.UTF-8"}, "en"},
		{map[string]string{"LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}, "zh"},
		{map[string]string{"LANG": "zh-Hans"}, "zh"},
		{map[string]string{"LANG": "C.UTF-8"}, "en"},
	} {
		if got := workrun.DetectLanguage(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("%v: DetectLanguage = %q, want %q", c.env, got, c.want)
		}
	}
}

// TestLanguageIsNotReadFromTheEnvironment: once set, the process language
// stays what SetLanguage said whatever the environment says later.
func TestLanguageIsNotReadFromTheEnvironment(t *testing.T) {
	workruntest.InLanguage(t, "zh")
	t.Setenv("LANGUAGE", "en")
	if got := workrun.Language(); got != "zh" {
		t.Errorf("Language = %q after LANGUAGE=en, want the zh it was set to", got)
	}
}

// TestLocalizersOfTwoLanguagesCoexist: two localizers made side by side in
// one process give each its own language's words, with no environment
// change between them and whatever the process language is.
func TestLocalizersOfTwoLanguagesCoexist(t *testing.T) {
	workrun.NewCatalog(map[string][2]string{"test.loc.saved": {"Saved", "已保存"}})
	en, zh := workrun.NewLocalizer("en"), workrun.NewLocalizer("zh-Hans")
	for _, process := range []string{"en", "zh"} {
		workruntest.InLanguage(t, process)
		if got := en.X("test.loc.saved", "fallback"); got != "Saved" {
			t.Errorf("process %s: English localizer: %q", process, got)
		}
		if got := zh.X("test.loc.saved", "fallback"); got != "已保存" {
			t.Errorf("process %s: Chinese localizer: %q", process, got)
		}
	}
	if got := zh.X("test.loc.unknown", "fallback"); got != "fallback" {
		t.Errorf("an unknown key gives the fallback: %q", got)
	}
	if en.Language() != "en" || zh.Language() != "zh-Hans" || en.Messages() != "en" || zh.Messages() != "zh" {
		t.Errorf("languages: %q %q %q %q", en.Language(), zh.Language(), en.Messages(), zh.Messages())
	}
	if got := (workrun.Localizer{}).X("test.loc.saved", ""); got != "Saved" {
		t.Errorf("the zero localizer is English: %q", got)
	}
}

func TestCatalogPicksTheLanguageAndKeepsTheCause(t *testing.T) {
	errSentinel := errors.New("sentinel")
	cat := workrun.Catalog[string]{"1": {"Saved %d", "已保存 %d"}, "2": {"English only", ""}}
	workruntest.InLanguage(t, "zh_CN")
	if got := cat.Text("1", 3); got != "已保存 3" {
		t.Errorf("zh: %q", got)
	}
	if got := cat.Text("2"); got != "English only" {
		t.Errorf("missing Chinese falls back to English: %q", got)
	}
	if got := workrun.JoinList([]string{"a", "b"}); got != "a、b" {
		t.Errorf("zh list: %q", got)
	}
	err := cat.Error(errSentinel, "1", 4)
	if !errors.Is(err, errSentinel) || err.Error() != "已保存 4" {
		t.Errorf("zh error: %v", err)
	}
	workruntest.InLanguage(t, "en")
	if got := cat.Text("1", 3); got != "Saved 3" {
		t.Errorf("en: %q", got)
	}
	if got := workrun.JoinList([]string{"a", "b"}); got != "a, b" {
		t.Errorf("en list: %q", got)
	}
	if got := cat.In("zh", "1", 5); got != "已保存 5" {
		t.Errorf("In zh: %q", got)
	}
}

// TestEngineFailureReasonInBothLanguages (docs/product.md W6): the reason a run
// failed, written by the engine, reads in the app's language.
func TestEngineFailureReasonInBothLanguages(t *testing.T) {
	for _, c := range []struct{ lang, want string }{
		{"en", "node panicked: boom"},
		{"zh_CN", "节点崩溃：boom"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			workruntest.InLanguage(t, c.lang)
			fk := fakeKind{"work": {run: func(context.Context, workrun.NodeContext) (workrun.Values, error) {
				panic("boom")
			}}}
			e, _ := newEngine(t, fk)
			wf := workrun.Workflow{
				Nodes: []workrun.NodeSpec{node("start", "start", ""), node("work", "fake", "")},
				Edges: edges("start>work"),
			}
			r := run(t, e, wf, nil)
			if r.Status != workrun.RunFailed || r.FailedNode != "work" || r.Reason != c.want {
				t.Errorf("run = %s at %q: %q, want failed at work: %q", r.Status, r.FailedNode, r.Reason, c.want)
			}
		})
	}
}

// TestStopReasonInBothLanguages: "stopped by the user" is the engine's word.
func TestStopReasonInBothLanguages(t *testing.T) {
	for _, c := range []struct{ lang, want string }{
		{"en", "stopped by the user"},
		{"zh_CN.UTF-8", "已被用户停止"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			workruntest.InLanguage(t, c.lang)
			running := make(chan struct{})
			fk := fakeKind{"work": {run: func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
				close(running)
				<-ctx.Done()
				return nil, ctx.Err()
			}}}
			e, _ := newEngine(t, fk)
			wf := workrun.Workflow{
				Nodes: []workrun.NodeSpec{node("start", "start", ""), node("work", "fake", "")},
				Edges: edges("start>work"),
			}
			id, err := e.Start(t.Context(), "", wf, nil)
			if err != nil {
				t.Fatal(err)
			}
			<-running
			if err := e.Stop(t.Context(), id); err != nil {
				t.Fatal(err)
			}
			r, err := e.Wait(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != workrun.RunStopped || r.Reason != c.want {
				t.Errorf("run = %s: %q, want stopped: %q", r.Status, r.Reason, c.want)
			}
		})
	}
}

// TestStoredTextRendersInTheReadersLanguage: a message is kept as its key and
// arguments and rendered when shown, so one stored line reads in either
// language; unknown keys and verbatim text are never hidden.
func TestStoredTextRendersInTheReadersLanguage(t *testing.T) {
	cat := workrun.NewCatalog(map[string][2]string{"langtest.saved": {"Saved %d bytes of %q", "已保存 %d 字节（%q）"}})
	msg := cat.Msg("langtest.saved", 12, "a.txt")
	if diff := cmp.Diff(workrun.Text{Key: "langtest.saved", Args: []string{"12", "a.txt"}}, msg); diff != "" {
		t.Fatal(diff)
	}
	for _, c := range []struct{ lang, want string }{
		{"en", `Saved 12 bytes of "a.txt"`},
		{"zh", `已保存 12 字节（"a.txt"）`},
	} {
		if got := msg.In(c.lang); got != c.want {
			t.Errorf("%s: %q, want %q", c.lang, got, c.want)
		}
		m := workrun.Message{Key: msg.Key, Args: msg.Args, Text: "ignored when a key is set"}
		if got := m.In(c.lang); got != c.want {
			t.Errorf("message %s: %q, want %q", c.lang, got, c.want)
		}
	}
	if got := (workrun.Text{Key: "langtest.unknown", Args: []string{"x"}}).In("zh"); got != "langtest.unknown x" {
		t.Errorf("unknown key: %q", got)
	}
	if got := workrun.Plain("agent's own words %d").In("zh"); got != "agent's own words %d" {
		t.Errorf("plain: %q", got)
	}
	if got := (workrun.Message{Text: "legacy line"}).In("zh"); got != "legacy line" {
		t.Errorf("legacy: %q", got)
	}
}
