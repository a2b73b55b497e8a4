package ui

import "time"

// formatDuration rounds to what a person reads: 120ms, 3.4s, 2m05s.
func formatDuration(d time.Duration) string {
	switch {
	case d > 0 && d < time.Millisecond:
		// A node that took microseconds: "0s" read as if it never ran.
		return "<1ms"
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	default:
		return d.Round(time.Second).String()
	}
}
