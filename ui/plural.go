package ui

import (
	"fmt"

	"workrun/workrun"
)

// countText is a count in the window's language: English says "1 run" and
// "2 runs", so the singular has a key of its own, key+"_one"; Chinese has
// one form, which its key+"_one" repeats. one and other are the English
// fallbacks; each has one %d.
func countText(loc workrun.Localizer, n int, key, one, other string) string {
	if n == 1 {
		return fmt.Sprintf(loc.X(key+"_one", one), n)
	}
	return fmt.Sprintf(loc.X(key, other), n)
}
