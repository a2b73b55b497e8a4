package ui

import (
	"fyne.io/fyne/v2/lang"

	"workrun/ui/records"
)

// langLocalizer is the Localizer the app layer hands the widget packages:
// Fyne's catalogue (lang.X) with the translations of package assets.
type langLocalizer struct{}

func (langLocalizer) X(key, fallback string) string { return lang.X(key, fallback) }

// recordsWording is how the run records read what the store saved: the
// window's error translation and duration format.
var recordsWording = records.Wording{Reason: HumanError, Duration: formatDuration}
