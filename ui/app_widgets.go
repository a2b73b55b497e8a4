package ui

import (
	"workrun/ui/records"
)

// The app layer hands the widget packages the window's localizer, w.loc
// (a workrun.Localizer): each package declares the Localizer interface it
// needs (docs/conventions.md §2, §9).

// recordsWording is how the run records read what the store saved: the
// window's error translation, in its language, and duration format.
func (w *Window) recordsWording() records.Wording {
	return records.Wording{Reason: func(saved string) string { return HumanError(w.loc, saved) }, Duration: formatDuration}
}
