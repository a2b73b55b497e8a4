package main

import (
	"image"
	"testing"

	"workrun/ui/panes"
)

// openWorkflowList opens the workflow list as a person would in a window
// narrower than panes.CompactWidth, where it gives way to the canvas: Ctrl+L,
// then its heading must show. In a wider window it is open already. With
// it open the window has the wide layout's geometry (list, palette,
// canvas from x≈353), which the tests' coordinates assume.
func (s *screen) openWorkflowList(t *testing.T, winWidth int, lng string) {
	t.Helper()
	if winWidth >= panes.CompactWidth {
		return
	}
	heading := "Workflows"
	if lng == "zh" {
		heading = "工作流"
	}
	s.key(t, "ctrl+l")
	if _, ok := s.waitText(t, image.Rect(0, 30, 220, 160), heading, textWait); !ok {
		s.shot(t, "no-list")
		t.Fatalf("Ctrl+L in a %d px window did not open the workflow list (no %q; steps in %s)", winWidth, heading, s.shots)
	}
}
