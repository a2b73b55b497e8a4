package ui

import (
	"context"
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2/lang"

	"workrun/workrun"
)

// TestLanguageSwitch switches the window to Chinese and back; the R11 cancel
// messages read as in docs/remote-agent.md R11.
func TestLanguageSwitch(t *testing.T) {
	w := newTestWindow(t, Deps{})
	tests := []struct {
		lang, run, canceled, unconfirmed, kind string
	}{
		{"zh-Hans", "运行", "远程任务：已取消", "取消结果未确认：请求失败或超时，不会自动重试", "远程智能体"},
		{"en", "Run", "Remote task: canceled", "Cancel result unconfirmed: the request failed or timed out; it will not be retried automatically.", "Remote Agent"},
	}
	for _, tt := range tests {
		w.SetLanguage(tt.lang)
		if got := w.runBtn.Text; got != tt.run {
			t.Errorf("%s: Run button %q, want %q", tt.lang, got, tt.run)
		}
		if got := LocalizeMessage(w.loc, "Remote task: canceled"); got != tt.canceled {
			t.Errorf("%s: %q, want %q", tt.lang, got, tt.canceled)
		}
		if got := LocalizeMessage(w.loc, "Cancel result unconfirmed: the request failed or timed out; it will not be retried automatically."); got != tt.unconfirmed {
			t.Errorf("%s: %q, want %q", tt.lang, got, tt.unconfirmed)
		}
		if got := KindLabel(w.loc, "remote_agent"); got != tt.kind {
			t.Errorf("%s: kind label %q, want %q", tt.lang, got, tt.kind)
		}
		if got := w.app.Preferences().String("lang"); got != tt.lang {
			t.Errorf("remembered language %q, want %q", got, tt.lang)
		}
	}
}

// TestTranslations_Complete: every key of the window's catalogue has its
// English and its Chinese.
func TestTranslations_Complete(t *testing.T) {
	for k, w := range windowWords {
		if w[0] == "" || w[1] == "" {
			t.Errorf("%s: %q / %q", k, w[0], w[1])
		}
	}
	if len(windowWords) < 150 {
		t.Errorf("only %d window strings", len(windowWords))
	}
}

// TestLanguageSwitchKeepsTheView: switching language re-renders the run
// shown from its catalogue keys (no store read), keeps the zoom and the
// selection, checks the current language in the Settings menu and leaves
// the status bar saying so.
func TestLanguageSwitchKeepsTheView(t *testing.T) {
	eng := &fakeEngine{StartFunc: func(context.Context, string, workrun.Workflow, workrun.Values) (string, error) { return "r1", nil }}
	w := newTestWindow(t, Deps{Engine: eng})
	t.Cleanup(func() { SetupLanguage("en") })
	wf := SampleRemote(langNow(), "http://127.0.0.1:1")
	w.OpenWorkflow("", wf)
	w.cv.SetZoom(1.5)
	w.doc.Select("ask", false)
	w.panel.Start("r1", wf)
	w.panel.Apply(Event{Type: "message", RunID: "r1", NodeID: "ask", Message: &workrun.Message{RunID: "r1", NodeID: "ask", Seq: 1, Key: "workrun.stopped_by_user"}})
	w.panel.Pick("ask")
	for _, tt := range []struct{ code, line, status, checked string }{
		{"zh-Hans", "已被用户停止", "语言：简体中文", "简体中文"},
		{"en", "stopped by the user", "Language: English", "English"},
	} {
		w.SetLanguage(tt.code)
		if got := w.panel.MessageLines("ask"); len(got) != 1 || !strings.HasSuffix(got[0], tt.line) {
			t.Errorf("%s: message lines %q, want one ending %q", tt.code, got, tt.line)
		}
		if z := w.cv.Zoom(); z != 1.5 {
			t.Errorf("%s: zoom %v after the switch, want 1.5", tt.code, z)
		}
		if sel := w.doc.Selected(); len(sel) != 1 || sel[0] != "ask" {
			t.Errorf("%s: selection %v after the switch, want [ask]", tt.code, sel)
		}
		if w.panel.RunID() != "r1" {
			t.Errorf("%s: run panel shows %q after the switch", tt.code, w.panel.RunID())
		}
		if !strings.HasSuffix(w.status.Text, tt.status) {
			t.Errorf("%s: status bar %q, want %q", tt.code, w.status.Text, tt.status)
		}
		var checked []string
		for _, m := range w.win.MainMenu().Items {
			for _, it := range m.Items {
				if it.Checked {
					checked = append(checked, it.Label)
				}
			}
		}
		if len(checked) != 1 || checked[0] != tt.checked {
			t.Errorf("%s: checked menu items %q, want [%s]", tt.code, checked, tt.checked)
		}
	}
}

// langNow is a localizer in the language the test last set with
// SetupLanguage, for the views and texts a test builds without a window.
func langNow() workrun.Localizer { return workrun.NewLocalizer(CurrentLanguage()) }

// TestTwoWindowsInTwoLanguages: the language is the window's own
// localizer, not the process's: an English and a Chinese window live side
// by side in one process and each keeps its words, whatever the process
// language (and the environment) say.
func TestTwoWindowsInTwoLanguages(t *testing.T) {
	en := newTestWindow(t, Deps{})
	zh := NewWindow(en.app, Deps{Lang: "zh-Hans", Kinds: en.deps.Kinds, CheckOrigin: en.deps.CheckOrigin})
	t.Cleanup(func() { zh.Close(); zh.win.Close() })
	t.Setenv("LANGUAGE", "en")
	for _, process := range []string{"en", "zh-Hans"} {
		SetupLanguage(process)
		if got := en.runBtn.Text; got != "Run" {
			t.Errorf("process %s: the English window's Run button says %q", process, got)
		}
		if got := zh.runBtn.Text; got != "运行" {
			t.Errorf("process %s: the Chinese window's Run button says %q", process, got)
		}
		if got := HumanError(zh.loc, "context canceled"); got != "未完成即被停止" {
			t.Errorf("process %s: the Chinese window's words for a stop: %q", process, got)
		}
		if got := HumanError(en.loc, "context canceled"); got != "stopped before it finished" {
			t.Errorf("process %s: the English window's words for a stop: %q", process, got)
		}
		// A run's statuses in the run panel and the canvas's words follow
		// the window, not the process.
		wf := workrun.Workflow{Name: "w", Nodes: []workrun.NodeSpec{{ID: "s", Type: "start"}}}
		for _, c := range []struct {
			w    *Window
			want string
		}{{en, "succeeded"}, {zh, "成功"}} {
			c.w.panel.Load(workrun.Run{ID: "r", Workflow: wf, Status: workrun.RunSucceeded},
				[]workrun.NodeRun{{RunID: "r", NodeID: "s", Type: "start", Status: workrun.NodeSucceeded}}, nil)
			if got := c.w.panel.NodeStatus("s"); !strings.HasPrefix(got, c.want) {
				t.Errorf("process %s: a %s window's node row says %q, want %q", process, c.w.loc.Language(), got, c.want)
			}
		}
	}
	SetupLanguage("en")
}

// TestFyneWordsFollowWithoutTheEnvironment: Fyne's own words (a dialog's
// Cancel) follow the language set, and setting it writes no environment
// variable (docs/conventions.md §9).
func TestFyneWordsFollowWithoutTheEnvironment(t *testing.T) {
	t.Setenv("LANGUAGE", "sv")
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "C.UTF-8")
	t.Cleanup(func() { SetupLanguage("en") })
	for _, tt := range []struct{ code, cancel string }{{"zh-Hans", "取消"}, {"en", "Cancel"}} {
		SetupLanguage(tt.code)
		if got := lang.L("Cancel"); got != tt.cancel {
			t.Errorf("%s: Fyne's Cancel reads %q, want %q", tt.code, got, tt.cancel)
		}
		for k, want := range map[string]string{"LANGUAGE": "sv", "LANG": "C.UTF-8"} {
			if got := os.Getenv(k); got != want {
				t.Errorf("%s: %s is %q, want %q untouched", tt.code, k, got, want)
			}
		}
	}
}

// TestSamplesInTheWindowsLanguage: a sample opened from Help is named in
// the window's language whatever the process's is.
func TestSamplesInTheWindowsLanguage(t *testing.T) {
	en := newTestWindow(t, Deps{})
	zh := NewWindow(en.app, Deps{Lang: "zh-Hans", Kinds: en.deps.Kinds, CheckOrigin: en.deps.CheckOrigin})
	t.Cleanup(func() { zh.Close(); zh.win.Close() })
	t.Cleanup(func() { SetupLanguage("en") })
	for _, process := range []string{"en", "zh-Hans"} {
		SetupLanguage(process)
		for _, c := range []struct {
			w          *Window
			name, node string
		}{{en, "Remote Agent demo", "Ask the agent"}, {zh, "远程智能体演示", "询问智能体"}} {
			c.w.openSample(SampleRemote)
			n, _ := c.w.doc.Node("ask")
			if got := c.w.doc.Name(); got != c.name || n.Title != c.node {
				t.Errorf("process %s: the %s window's sample is %q with the node %q, want %q and %q", process, c.w.loc.Language(), got, n.Title, c.name, c.node)
			}
		}
	}
}
