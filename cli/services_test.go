package cli

import (
	"context"
	"strings"
	"testing"
)

// TestServicesWithoutAFeature: a command whose part of cli.Services is nil
// says so and fails, and closes what was opened; nothing is found any other
// way.
func TestServicesWithoutAFeature(t *testing.T) {
	for _, args := range [][]string{
		{"credential", "list"},
		{"credential", "delete", "x"},
		{"gc"},
	} {
		closed := 0
		deps := Deps{Open: func(context.Context, string) (*Services, error) {
			return &Services{Close: func() error { closed++; return nil }}, nil
		}}
		got := runMain(t, append([]string{"--data-dir", t.TempDir()}, args...), nil, deps)
		if got.Code != ExitFailed || !strings.Contains(got.Stderr, "this build has no") {
			t.Errorf("%v: code %d, stderr %q; want a failure saying the part is missing", args, got.Code, got.Stderr)
		}
		if closed != 1 {
			t.Errorf("%v: services closed %d times, want 1", args, closed)
		}
	}
}
