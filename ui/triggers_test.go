package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/google/go-cmp/cmp"

	"workrun/ui/inspector"
	"workrun/ui/tooltip"
	"workrun/workrun"
)

// trigFlow is a workflow whose start node has the given triggers.
func trigFlow(t *testing.T, triggers string) workrun.Workflow {
	t.Helper()
	var wf workrun.Workflow
	src := `{"name":"Tick","state":{"message":"text"},"publish":{"outputs":["message"]},
 "nodes":[{"id":"start","type":"start","config":{"triggers":` + triggers + `}},
  {"id":"say","type":"set","config":{"values":{"message":"tick"}}}],
 "edges":[{"from":"start","to":"say"}]}`
	if err := json.Unmarshal([]byte(src), &wf); err != nil {
		t.Fatal(err)
	}
	return wf
}

// startTriggersOf reads the document's start node triggers as the file has them.
func startTriggersOf(t *testing.T, w *Window) string {
	t.Helper()
	n, ok := w.doc.Node("start")
	if !ok {
		t.Fatal("no start node")
	}
	var c struct {
		Triggers json.RawMessage `json:"triggers"`
	}
	if len(n.Config) > 0 {
		if err := json.Unmarshal(n.Config, &c); err != nil {
			t.Fatal(err)
		}
	}
	return string(c.Triggers)
}

// openTriggers opens wf saved as id and selects its start node, with the
// Triggers section's clock at now and no timer (the test calls refresh).
func openTriggers(t *testing.T, d Deps, id string, wf workrun.Workflow, now func() time.Time, setup ...func(*inspector.TriggerHooks)) *Window {
	t.Helper()
	w := newTestWindow(t, d)
	w.insp.Triggers.Now = now
	w.insp.Triggers.Every = nil
	for _, f := range setup {
		f(&w.insp.Triggers)
	}
	onUI(w, func() {
		w.OpenWorkflow(id, wf)
		w.doc.Select("start", false)
	})
	if w.insp.Widget("trigger_note") == nil {
		t.Fatal("the start node shows no Triggers section")
	}
	return w
}

func trigLabel(w *Window, key string) *widget.Label { return w.insp.Widget(key).(*widget.Label) }
func trigFires(w *Window, i int) []fyne.CanvasObject {
	return w.insp.Widget(fmt.Sprintf("trigger_%d_fires", i)).(*fyne.Container).Objects
}
func trigEntry(w *Window, key string) *widget.Entry { return w.insp.Widget(key).(*widget.Entry) }
func trigSelect(w *Window, key string) *widget.Select {
	return w.insp.Widget(key).(*widget.Select)
}

// TestTriggers_EditUpdatesConfig: each field of a schedule and a webhook
// edits the start node's "triggers" as the workflow file has them, and
// each field is one undo step.
func TestTriggers_EditUpdatesConfig(t *testing.T) {
	w := openTriggers(t, Deps{Engine: checkingEngine()}, "", trigFlow(t, `[{"type":"schedule","cron":"*/10 * * * * *","time_zone":"UTC"},{"type":"webhook"}]`), time.Now)
	trigEntry(w, "trigger_0_cron").SetText("0 9 * * 1-5")
	w.insp.Widget("trigger_0_time_zone").(*widget.SelectEntry).SetText("Asia/Shanghai")
	trigSelect(w, "trigger_0_missed").SetSelected("run once")
	trigSelect(w, "trigger_0_overlap").SetSelected("queue it")
	trigSelect(w, "trigger_1_auth").SetSelected("Bearer token (serve token)")
	w.insp.Widget("trigger_1_wait").(*widget.Check).SetChecked(true)
	trigEntry(w, "trigger_1_wait_seconds").SetText("45")
	want := `[{"type":"schedule","cron":"0 9 * * 1-5","time_zone":"Asia/Shanghai","missed":"run_once","overlap":"queue"},{"type":"webhook","auth":"bearer","wait":true,"wait_seconds":45}]`
	if got := startTriggersOf(t, w); got != want {
		t.Errorf("triggers\n got %s\nwant %s", got, want)
	}
	if p := w.insp.Pending(); p != "" {
		t.Errorf("pending %q after valid edits", p)
	}
	// Undo takes back the last field (the wait seconds), then the check.
	w.doc.Undo()
	if got := startTriggersOf(t, w); !strings.Contains(got, `"wait":true}`) {
		t.Errorf("after one undo: %s", got)
	}
	w.doc.Undo()
	if got := startTriggersOf(t, w); !strings.HasSuffix(got, `{"type":"webhook","auth":"bearer"}]`) {
		t.Errorf("after two undos: %s", got)
	}

	// Every N minutes instead of cron: the time zone goes (it is no
	// setting of every_minutes), the number is the file's.
	w.doc.Select("say", false)
	w.doc.Select("start", false)
	trigSelect(w, "trigger_0_mode").SetSelected("Every N minutes")
	trigEntry(w, "trigger_0_every_minutes").SetText("15")
	if got := startTriggersOf(t, w); !strings.HasPrefix(got, `[{"type":"schedule","every_minutes":15,"missed":"run_once","overlap":"queue"}`) {
		t.Errorf("every 15 minutes: %s", got)
	}

	// Add and remove.
	w.insp.Widget("trigger_add_schedule").(*widget.Button).OnTapped()
	if got := startTriggersOf(t, w); !strings.HasSuffix(got, `{"type":"schedule","cron":"0 * * * *","time_zone":"UTC"}]`) {
		t.Errorf("added a schedule: %s", got)
	}
	if add := w.insp.Widget("trigger_add_webhook").(*widget.Button); !add.Disabled() {
		t.Error("a second webhook can be added (a workflow has one)")
	}
	w.insp.Widget("trigger_1_remove").(*tooltip.Button).OnTapped()
	if got := startTriggersOf(t, w); strings.Contains(got, "webhook") || strings.Count(got, "schedule") != 2 {
		t.Errorf("removed the webhook: %s", got)
	}
	w.doc.Undo()
	if got := startTriggersOf(t, w); !strings.Contains(got, "webhook") {
		t.Errorf("undo of the removal: %s", got)
	}
}

// TestTriggers_InvalidCronShownInPlace: a cron or time zone that cannot
// be read is marked under the section, in English and in Chinese, is kept
// as pending, and the document keeps its last good triggers.
func TestTriggers_InvalidCronShownInPlace(t *testing.T) {
	const good = `[{"type":"schedule","cron":"*/10 * * * * *","time_zone":"UTC"}]`
	w := openTriggers(t, Deps{Engine: checkingEngine()}, "", trigFlow(t, good), time.Now)
	errShown := func() string {
		if l := trigLabel(w, "trigger_error"); l.Visible() {
			return l.Text
		}
		return ""
	}
	trigEntry(w, "trigger_0_cron").SetText("*/10 * * *")
	if got := errShown(); !strings.Contains(got, "trigger 1") || !strings.Contains(got, "field") {
		t.Errorf("a 4-field cron shows %q", got)
	}
	if w.insp.Pending() == "" {
		t.Error("the bad cron is not pending")
	}
	if got := startTriggersOf(t, w); got != good {
		t.Errorf("the bad cron was applied: %s", got)
	}
	if got := trigEntry(w, "trigger_0_cron").Text; got != "*/10 * * *" {
		t.Errorf("the typed cron is gone: %q", got)
	}
	trigEntry(w, "trigger_0_cron").SetText("*/10 * * * * *")
	w.insp.Widget("trigger_0_time_zone").(*widget.SelectEntry).SetText("Mars/Olympus")
	if got := errShown(); !strings.Contains(got, `"Mars/Olympus"`) || !strings.Contains(got, "time zone") {
		t.Errorf("an unknown zone shows %q", got)
	}
	w.insp.Widget("trigger_0_time_zone").(*widget.SelectEntry).SetText("Europe/Paris")
	if got := errShown(); got != "" {
		t.Errorf("fixed, the section still shows %q", got)
	}
	if got := startTriggersOf(t, w); !strings.Contains(got, "Europe/Paris") {
		t.Errorf("the fixed zone was not applied: %s", got)
	}

	onUI(w, func() { w.SetLanguage("zh-Hans") })
	defer SetupLanguage("en")
	w.insp.Triggers.Every = nil
	w.doc.Select("say", false)
	w.doc.Select("start", false)
	trigEntry(w, "trigger_0_cron").SetText("99 * * * *")
	got := errShown()
	if !strings.Contains(got, "触发器 1") || !strings.Contains(got, "cron 表达式无法读取") {
		t.Errorf("in Chinese a bad cron shows %q", got)
	}
	if w.insp.Pending() == "" {
		t.Error("in Chinese the bad cron is not pending")
	}
}

// TestTriggers_NextFireAndFires: under a schedule, its next fire time in
// local time with the wait until it, counted on the section's clock; and
// its last fires from Deps.Fires with their runs, read again once a fire
// time has passed.
func TestTriggers_NextFireAndFires(t *testing.T) {
	now := time.Date(2026, 12, 7, 2, 0, 51, 500_000_000, time.UTC) // 8.5 s before 02:01:00
	var reads atomic.Int32
	at := func(s int) time.Time { return time.Date(2026, 12, 7, 2, 0, s, 0, time.UTC) }
	fires := func(_ context.Context, id string, wf workrun.Workflow, limit int) ([]FiredRun, error) {
		n := reads.Add(1)
		if id != "wf1" || wf.Name != "Tick" {
			t.Errorf("fires asked for %q %q", id, wf.Name)
		}
		fs := []FiredRun{{Trigger: 1, At: at(50), State: workrun.FireStarted, RunID: "r-other"}, {Trigger: 0, At: at(0), State: workrun.FireStarted, RunID: "r1"},
			{Trigger: 0, At: at(0).Add(-time.Minute), State: workrun.FireSkipped}}
		if n > 1 {
			fs = append([]FiredRun{{Trigger: 0, At: at(60), State: workrun.FireStarted, RunID: "r2"}}, fs...)
		}
		return fs, nil
	}
	opened := ""
	var tick func() bool // the section's timer, driven by the test
	w := openTriggers(t, Deps{Engine: checkingEngine(), Fires: fires}, "wf1",
		trigFlow(t, `[{"type":"schedule","cron":"0 * * * * *","time_zone":"UTC"},{"type":"schedule","every_minutes":15}]`), func() time.Time { return now },
		func(h *inspector.TriggerHooks) {
			h.OpenRun = func(id string) { opened = id }
			h.Every = func(_ time.Duration, t func() bool) { tick = t }
		})
	refresh := func() { tick() }
	waitFor(t, "the fires", func() (ok bool) {
		onUI(w, func() { ok = reads.Load() == 1 && len(trigFires(w, 0)) == 2 })
		return ok
	})
	local := func(t time.Time) string { return t.In(time.Local).Format("2006-01-02 15:04:05") }
	w.rs.mu.Lock() // the fires show through Window.do: read them as the UI thread
	if got, want := trigLabel(w, "trigger_0_next").Text, "Next: "+local(at(60))+" (in 9 s)"; got != want {
		t.Errorf("cron next %q, want %q", got, want)
	}
	if got, want := trigLabel(w, "trigger_1_next").Text, "Next: "+local(time.Date(2026, 12, 7, 2, 15, 0, 0, time.UTC))+" (in 15 min)"; got != want {
		t.Errorf("every 15 min next %q, want %q", got, want)
	}
	line := func(o fyne.CanvasObject) string {
		if l, ok := o.(*widget.Label); ok {
			return l.Text
		}
		for _, c := range o.(*fyne.Container).Objects {
			if l, ok := c.(*widget.Label); ok {
				return l.Text
			}
		}
		return ""
	}
	if got := line(trigFires(w, 0)[0]); got != at(0).In(time.Local).Format(time.TimeOnly)+" · started a run" {
		t.Errorf("first fire line %q", got)
	}
	if got := line(trigFires(w, 0)[1]); !strings.Contains(got, "skipped") {
		t.Errorf("second fire line %q", got)
	}
	if got := line(trigFires(w, 1)[0]); !strings.Contains(got, "started a run") {
		t.Errorf("the other schedule's fire line %q", got)
	}
	for _, c := range trigFires(w, 0)[0].(*fyne.Container).Objects {
		if b, ok := c.(*widget.Button); ok {
			test.Tap(b)
		}
	}
	if opened != "r1" {
		t.Errorf("Open run opened %q, want r1", opened)
	}
	w.rs.mu.Unlock()

	// The clock moves 9 s on: the minute fired; the next is a minute
	// later and the fires are read again.
	now = now.Add(9 * time.Second)
	onUI(w, refresh)
	if got, want := trigLabel(w, "trigger_0_next").Text, "Next: "+local(at(120))+" (in 1 min)"; got != want {
		t.Errorf("after the fire: next %q, want %q", got, want)
	}
	onUI(w, func() {})
	now = now.Add(time.Second)
	onUI(w, refresh)
	waitFor(t, "the fires again", func() (ok bool) {
		onUI(w, func() { ok = reads.Load() == 2 && len(trigFires(w, 0)) == 3 })
		return ok
	})
	w.rs.mu.Lock()
	defer w.rs.mu.Unlock()
	if got := line(trigFires(w, 0)[0]); got != at(60).In(time.Local).Format(time.TimeOnly)+" · started a run" {
		t.Errorf("newest fire line %q", got)
	}
	// Published and saved: no note; unpublished: the note says schedules do not fire.
	if n := trigLabel(w, "trigger_note"); n.Visible() {
		t.Errorf("note %q on a saved, published workflow", n.Text)
	}
	wf := w.doc.Workflow()
	wf.Publish = nil
	w.OpenWorkflow("wf1", wf)
	w.doc.Select("start", false)
	if n := trigLabel(w, "trigger_note"); !n.Visible() || !strings.Contains(n.Text, "Not published") {
		t.Errorf("unpublished: note %q", n.Text)
	}
}

// TestStartedByText: Run records mark the runs a trigger started.
func TestStartedByText(t *testing.T) {
	SetupLanguage("en")
	got := []string{startedByText(langNow(), workrun.Run{StartedBy: workrun.StartedBy{Kind: workrun.StartedBySchedule, Label: "trigger:schedule"}}),
		startedByText(langNow(), workrun.Run{StartedBy: workrun.StartedBy{Kind: workrun.StartedByPerson}}), startedByText(langNow(), workrun.Run{})}
	if diff := cmp.Diff([]string{"started by a schedule", "", ""}, got); diff != "" {
		t.Error(diff)
	}
	if got := calledByText(langNow(), "trigger:schedule"); got != "started by a schedule" {
		t.Errorf("the run panel's caller line for a schedule: %q", got)
	}
	if got := calledByText(langNow(), "ci-bot"); got != "called by ci-bot" {
		t.Errorf("a token's caller: %q", got)
	}
	SetupLanguage("zh-Hans")
	defer SetupLanguage("en")
	if got := startedByText(langNow(), workrun.Run{StartedBy: workrun.StartedBy{Kind: workrun.StartedBySchedule}}); got != "由定时触发启动" {
		t.Errorf("Chinese: %q", got)
	}
}
