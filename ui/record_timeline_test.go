package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"workrun/workrun"
)

// TestTimeline_ValuesInWords: an empty list in the run record's Timeline
// reads as a word ("none" / "无"), a list or object as words like the run
// panel's message arguments, never raw JSON such as "files: []".
func TestTimeline_ValuesInWords(t *testing.T) {
	for _, tt := range []struct{ lng, none, obj string }{
		{"en", "      files: none\n", "      meta: city: Oslo · tags: a, b\n"},
		{"zh-Hans", "      files: 无\n", "      meta: city：Oslo · tags：a，b\n"},
	} {
		t.Run(tt.lng, func(t *testing.T) {
			test.NewTempApp(t)
			SetupLanguage(tt.lng)
			t.Cleanup(func() { SetupLanguage("en") })
			start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)
			run := workrun.Run{ID: "r1", WorkflowName: "Demo", Workflow: SampleRemote(langNow(), "http://x"), Status: workrun.RunSucceeded, CreatedAt: start}
			nrs := []workrun.NodeRun{{RunID: "r1", NodeID: "ask", Type: "remote_agent", Status: workrun.NodeSucceeded, StartedAt: start, EndedAt: start.Add(time.Second),
				Outputs: workrun.Values{"answer": "blue", "files": []any{}, "meta": map[string]any{"city": "Oslo", "tags": []any{"a", "b"}}, "n": 3.0}}}
			tl := timeline(langNow(), run, nrs)
			for _, want := range []string{tt.none, tt.obj, "      n: 3\n", "      answer: blue\n"} {
				if !strings.Contains(tl, want) {
					t.Errorf("timeline lacks %q:\n%s", want, tl)
				}
			}
			for _, raw := range []string{"[]", "{", `"city"`} {
				if strings.Contains(tl, raw) {
					t.Errorf("timeline shows raw JSON %q:\n%s", raw, tl)
				}
			}
		})
	}
}
