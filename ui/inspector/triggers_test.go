package inspector

import (
	"testing"
	"time"

	"workrun/workrun"
)

// TestUntilText: the wait until a schedule's next fire, rounded up.
func TestUntilText(t *testing.T) {
	for d, want := range map[time.Duration]string{
		8*time.Second + time.Millisecond: "9 s", 8 * time.Second: "8 s", 0: "0 s", 59 * time.Second: "59 s",
		time.Minute: "1 min", 90 * time.Second: "2 min", 2*time.Hour + 5*time.Minute: "2 h 5 min", 49 * time.Hour: "2 d 1 h",
	} {
		if got := untilText(workrun.NewLocalizer("en"), d); got != want {
			t.Errorf("untilText(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestFireTime(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.Local)
	if got := fireTime(now.Add(-time.Hour), now); got != "11:00:00" {
		t.Errorf("today: %q", got)
	}
	if got := fireTime(now.Add(-24*time.Hour), now); got != "2026-12-06 12:00:00" {
		t.Errorf("yesterday: %q", got)
	}
}
