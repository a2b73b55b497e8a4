package workrun

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestCronNext(t *testing.T) {
	utc := time.UTC
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct{ expr, after, want string }{
		{"*/10 * * * * *", "2026-01-01T00:00:05Z", "2026-01-01T00:00:10Z"},
		{"*/10 * * * * *", "2026-01-01T00:00:10Z", "2026-01-01T00:00:20Z"},
		{"* * * * *", "2026-01-01T00:00:05Z", "2026-01-01T00:01:00Z"},
		{"30 9 * * mon-fri", "2026-01-02T10:00:00Z", "2026-01-05T09:30:00Z"}, // Friday after 9:30 -> Monday
		{"0 0 1 jan,JUL *", "2026-02-01T00:00:00Z", "2026-07-01T00:00:00Z"},
		{"0 12 * * 7", "2026-01-01T00:00:00Z", "2026-01-04T12:00:00Z"},      // 7 = Sunday
		{"0 0 13 * 5", "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"},      // dom OR dow: Friday 2nd
		{"15-17/2 8 * * *", "2026-01-01T08:15:00Z", "2026-01-01T08:17:00Z"}, // range with step
		{"5/20 * * * * *", "2026-01-01T00:00:26Z", "2026-01-01T00:00:45Z"},  // start/step
		{"0 0 29 2 *", "2026-03-01T00:00:00Z", "2028-02-29T00:00:00Z"},      // leap day
		{"1,2,3 * * * * *", "2026-01-01T00:00:03Z", "2026-01-01T00:01:01Z"},
	} {
		cr, err := ParseCron(c.expr)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		got, ok := cr.Next(at(c.after), utc)
		if !ok || !got.Equal(at(c.want)) {
			t.Errorf("%s after %s: %v %v, want %s", c.expr, c.after, got, ok, c.want)
		}
	}
	if _, ok := mustCron(t, "0 0 30 2 *").Next(at("2026-01-01T00:00:00Z"), utc); ok {
		t.Error("30 February has a next time")
	}
}

func mustCron(t *testing.T, s string) Cron {
	t.Helper()
	c, err := ParseCron(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCronRefuses(t *testing.T) {
	for _, s := range []string{"", "* * * *", "* * * * * * *", "60 * * * * *", "* 60 * * *", "* 24 * * *", "* * 0 * *",
		"* * * 13 *", "* * * * 8", "5-1 * * * *", "*/0 * * * *", "*/x * * * *", "a * * * *", ",* * * * *", "* * * foo *", "1-2-3 * * * *", "-1 * * * *"} {
		if _, err := ParseCron(s); !errors.Is(err, ErrCron) {
			t.Errorf("%q: %v", s, err)
		}
	}
}

// Spring forward (America/New_York, 2026-03-08 02:00 -> 03:00): a daily
// 02:30 job fires once at 03:00 EDT; fall back (2026-11-01 02:00 -> 01:00):
// a daily 01:30 job fires once (first pass), an every-ten-minutes job
// fires in both passes of the repeated hour (docs/triggers.md T3).
func TestCronDST(t *testing.T) {
	ny := mustZone(t, "America/New_York")
	daily := mustCron(t, "30 2 * * *")
	got, _ := daily.Next(time.Date(2026, 3, 8, 0, 0, 0, 0, ny), ny)
	if want := time.Date(2026, 3, 8, 7, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("spring forward 02:30: %v, want %v (03:00 EDT)", got.UTC(), want)
	}
	got2, _ := daily.Next(got, ny)
	if want := time.Date(2026, 3, 9, 6, 30, 0, 0, time.UTC); !got2.Equal(want) {
		t.Errorf("day after: %v, want %v", got2.UTC(), want)
	}
	// Every second in the skipped hour collapses to one fire at the jump.
	secs := mustCron(t, "* * 2 * * *")
	a, _ := secs.Next(time.Date(2026, 3, 8, 6, 59, 0, 0, time.UTC), ny)
	b, _ := secs.Next(a, ny)
	if !a.Equal(time.Date(2026, 3, 8, 7, 0, 0, 0, time.UTC)) || !b.Equal(time.Date(2026, 3, 9, 6, 0, 0, 0, time.UTC)) {
		t.Errorf("hour 2 on spring-forward day: %v then %v", a, b)
	}

	fires := func(c Cron, from, to time.Time) []time.Time {
		var out []time.Time
		for at := from; ; {
			n, ok := c.Next(at, ny)
			if !ok || !n.Before(to) {
				return out
			}
			out = append(out, n)
			at = n
		}
	}
	from, to := time.Date(2026, 11, 1, 4, 0, 0, 0, time.UTC), time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)
	once := fires(mustCron(t, "30 1 * * *"), from, to)
	if len(once) != 1 || !once[0].Equal(time.Date(2026, 11, 1, 5, 30, 0, 0, time.UTC)) {
		t.Errorf("fall back 01:30: %v, want once at 05:30Z (EDT)", once)
	}
	every := fires(mustCron(t, "*/10 * * * *"), time.Date(2026, 11, 1, 5, 0, 0, 0, time.UTC).Add(-time.Second), time.Date(2026, 11, 1, 7, 0, 0, 0, time.UTC))
	if len(every) != 12 {
		t.Errorf("fall back */10 over the two passes of 01:xx: %d fires, want 12: %v", len(every), every)
	}
	for i := 1; i < len(every); i++ {
		if every[i].Sub(every[i-1]) != 10*time.Minute {
			t.Errorf("fire %d is %v after the one before", i, every[i].Sub(every[i-1]))
		}
	}
}

func TestTriggerValidation(t *testing.T) {
	for _, c := range []struct{ cfg, wantErr string }{
		{``, ""},
		{`{}`, ""},
		{`{"triggers":[{"type":"schedule","cron":"*/10 * * * * *","time_zone":"UTC","missed":"run_once","overlap":"queue"},{"type":"schedule","every_minutes":5},{"type":"webhook","auth":"bearer","wait":true}]}`, ""},
		{`{"x":1}`, "start config"},
		{`{"triggers":[{"type":"timer"}]}`, `type "timer"`},
		{`{"triggers":[{"type":"schedule"}]}`, "either cron or every_minutes"},
		{`{"triggers":[{"type":"schedule","cron":"* * *"}]}`, "5 or 6"},
		{`{"triggers":[{"type":"schedule","cron":"* * * * *","time_zone":"Mars/Olympus"}]}`, "Mars/Olympus"},
		{`{"triggers":[{"type":"schedule","every_minutes":0,"cron":""}]}`, "either cron"},
		{`{"triggers":[{"type":"schedule","every_minutes":2000}]}`, "every_minutes 2000"},
		{`{"triggers":[{"type":"schedule","every_minutes":5,"missed":"all"}]}`, `missed "all"`},
		{`{"triggers":[{"type":"schedule","every_minutes":5,"overlap":"x"}]}`, `overlap "x"`},
		{`{"triggers":[{"type":"webhook","auth":"basic"}]}`, `auth "basic"`},
		{`{"triggers":[{"type":"webhook","cron":"* * * * *"}]}`, "cron is not a setting of a webhook"},
		{`{"triggers":[{"type":"webhook"},{"type":"webhook"}]}`, "one webhook"},
	} {
		_, err := ParseStartConfig(json.RawMessage(c.cfg))
		if c.wantErr == "" {
			if err != nil {
				t.Errorf("%s: %v", c.cfg, err)
			}
			continue
		}
		var te *TextError
		if !errors.Is(err, ErrTrigger) || !errors.As(err, &te) || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("%s: %v, want %q", c.cfg, err, c.wantErr)
			continue
		}
		if zh := te.Text.In("zh"); zh == te.Text.In("en") || !strings.Contains(zh, "触发器") && !strings.Contains(zh, "开始节点") {
			t.Errorf("%s: no Chinese: %s", c.cfg, zh)
		}
	}
}

func TestNextFireOfWorkflow(t *testing.T) {
	wf := Workflow{Name: "w", Nodes: []NodeSpec{{ID: "s", Type: "start", Config: json.RawMessage(
		`{"triggers":[{"type":"schedule","cron":"0 9 * * *","time_zone":"Asia/Shanghai"},{"type":"schedule","every_minutes":5},{"type":"webhook"}]}`)}}}
	ts, err := Triggers(wf)
	if err != nil || len(ts) != 3 {
		t.Fatal(ts, err)
	}
	after := time.Date(2026, 1, 1, 0, 0, 30, 0, time.UTC) // 08:00:30 in Shanghai
	n, i, ok := NextFire(wf, after)
	if !ok || i != 1 || !n.Equal(time.Date(2026, 1, 1, 0, 5, 0, 0, time.UTC)) {
		t.Errorf("next: %v %d %v", n, i, ok)
	}
	if n, _ := ts[0].Next(after); !n.Equal(time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)) {
		t.Errorf("09:00 Shanghai: %v", n)
	}
	if _, ok := ts[2].Next(after); ok {
		t.Error("a webhook has a fire time")
	}
}

// FuzzCron: any text either is refused with ErrCron or parses to an
// expression whose next time is after the start and matches again.
func FuzzCron(f *testing.F) {
	for _, s := range []string{"*/10 * * * * *", "0 9 * * mon-fri", "5/20 1,2 3-4 * jan ?", "* * * * 7", "60 * * * *", "1-2-3", ",,,"} {
		f.Add(s)
	}
	after := time.Date(2026, 3, 8, 5, 0, 0, 0, time.UTC)
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCron(s)
		if err != nil {
			if !errors.Is(err, ErrCron) {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		if c.sec == 0 || c.min == 0 || c.hour == 0 {
			t.Fatalf("%q parsed with an empty field", s)
		}
		if n, ok := c.Next(after, ny); ok && !n.After(after) {
			t.Fatalf("%q: next %v not after %v", s, n, after)
		}
	})
}
