package ui

import (
	"encoding/json"
	"testing"

	"workrun/assets"
)

// TestLanguageSwitch switches the window to Chinese and back; the R11 cancel
// messages read as in the seed (SPEC R11).
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
		if got := LocalizeMessage("Remote task: canceled"); got != tt.canceled {
			t.Errorf("%s: %q, want %q", tt.lang, got, tt.canceled)
		}
		if got := LocalizeMessage("Cancel result unconfirmed: the request failed or timed out; it will not be retried automatically."); got != tt.unconfirmed {
			t.Errorf("%s: %q, want %q", tt.lang, got, tt.unconfirmed)
		}
		if got := KindLabel("remote_agent"); got != tt.kind {
			t.Errorf("%s: kind label %q, want %q", tt.lang, got, tt.kind)
		}
		if got := w.app.Preferences().String("lang"); got != tt.lang {
			t.Errorf("remembered language %q, want %q", got, tt.lang)
		}
	}
}

// TestTranslations_Complete: every English key has a Chinese translation.
func TestTranslations_Complete(t *testing.T) {
	read := func(name string) map[string]string {
		b, err := assets.Translations.ReadFile("translations/" + name)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return m
	}
	en, zh := read("en.json"), read("zh-Hans.json")
	for k := range en {
		if zh[k] == "" {
			t.Errorf("zh-Hans lacks %q", k)
		}
	}
	if len(en) < 150 {
		t.Errorf("only %d English strings", len(en))
	}
}

func TestIsCLocale(t *testing.T) {
	for v, want := range map[string]bool{"C": true, "C.UTF-8": true, "POSIX": true, "en_US.UTF-8": false, "zh_CN.UTF-8": false} {
		if got := isCLocale(v); got != want {
			t.Errorf("isCLocale(%q) = %v", v, got)
		}
	}
}
