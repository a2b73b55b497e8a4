package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"
)

// TestCountText: English counts say "1 run" and "2 runs" (never "1 runs"),
// from the catalogue in both languages; Chinese has one form.
func TestCountText(t *testing.T) {
	test.NewTempApp(t)
	defer SetupLanguage("en")
	for _, tt := range []struct {
		lang, key, one, other string
		n                     int
		want                  string
	}{
		{"en", "rec.count", "%d run", "%d runs", 1, "1 run"},
		{"en", "rec.count", "%d run", "%d runs", 2, "2 runs"},
		{"en", "rec.count", "%d run", "%d runs", 0, "0 runs"},
		{"en", "insp.mcp_tools_found", "%d tool", "%d tools", 1, "1 tool"},
		{"en", "run.interrupted_note", "%d interrupted run can be resumed: see Run records.", "%d interrupted runs can be resumed: see Run records.", 1, "1 interrupted run can be resumed: see Run records."},
		{"en", "values.more_text", "… %d more character (Copy copies all)", "… %d more characters (Copy copies all)", 1, "… 1 more character (Copy copies all)"},
		{"en", "open.some", "%d remote task has not ended or has an open outcome. Workrun only shows it here; it neither queries nor cancels it from this list.", "", 1, "1 remote task has not ended or has an open outcome. Workrun only shows it here; it neither queries nor cancels it from this list."},
		{"zh-Hans", "rec.count", "%d run", "%d runs", 1, "1 次运行"},
		{"zh-Hans", "rec.count", "%d run", "%d runs", 3, "3 次运行"},
		{"zh-Hans", "insp.mcp_tools_found", "%d tool", "%d tools", 1, "1 个工具"},
		{"zh-Hans", "run.interrupted_note", "", "", 1, "有 1 个中断的运行可以恢复：请查看运行记录。"},
		{"zh-Hans", "values.more_text", "", "", 1, "… 还有 1 个字符（“复制”会复制全部）"},
		{"zh-Hans", "open.some", "", "", 1, "1 个远程任务尚未结束或结果未定。Workrun 在此只做展示，不会从这个列表查询或取消它。"},
	} {
		SetupLanguage(tt.lang)
		if got := countText(langNow(), tt.n, tt.key, tt.one, tt.other); got != tt.want {
			t.Errorf("%s %s(%d) = %q, want %q", tt.lang, tt.key, tt.n, got, tt.want)
		}
	}
}
