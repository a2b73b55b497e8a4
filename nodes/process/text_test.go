package process

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun/workruntest"
)

func TestMain(m *testing.M) { workruntest.MainInEnglish(m) }

// TestProcessTextsInBothLanguages: the node's messages and its exit
// failure reason follow the app's language; the failure still is ErrExit.
func TestProcessTextsInBothLanguages(t *testing.T) {
	for _, c := range []struct {
		lang   string
		logs   []string
		reason string
	}{
		{"en", []string{`Running "sh -c echo oops >&2; exit 3"`}, "command failed: exit status 3: oops"},
		{"zh_CN", []string{`正在运行 "sh -c echo oops >&2; exit 3"`}, "命令失败：退出状态 3：oops"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			workruntest.InLanguage(t, c.lang)
			st := compile(t, `{"command":["sh","-c","echo oops >&2; exit 3"]}`)
			nc := &workruntest.NodeContext{}
			_, err := st.Run(t.Context(), nc)
			if !errors.Is(err, ErrExit) || err.Error() != c.reason {
				t.Errorf("got %v, want %q", err, c.reason)
			}
			if diff := cmp.Diff(c.logs, nc.Logs()); diff != "" {
				t.Error(diff)
			}
		})
	}
}

// TestProcessFinishedInChinese: a command that succeeds says so in Chinese.
func TestProcessFinishedInChinese(t *testing.T) {
	workruntest.InLanguage(t, "zh_CN.UTF-8")
	st := compile(t, `{"command":["true"]}`)
	nc := &workruntest.NodeContext{}
	if _, err := st.Run(t.Context(), nc); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{`正在运行 "true"`, "已完成"}, nc.Logs()); diff != "" {
		t.Error(diff)
	}
}
