package ui

import (
	"encoding/json"

	"workrun/ui/canvas"
	"workrun/ui/records"
	"workrun/workrun"
)

// The app layer hands the widget packages the window's localizer, w.loc
// (a workrun.Localizer): each package declares the Localizer interface it
// needs (docs/conventions.md §2, §9).

// recordsWording is how the run records read what the store saved: the
// window's error translation, in its language, and duration format.
func (w *Window) recordsWording() records.Wording {
	return records.Wording{Reason: func(saved string) string { return HumanError(w.loc, saved) }, Duration: formatDuration}
}

// canvasWording is how the canvas, its palette and minimap word the node
// kinds (Deps.Kinds' descriptions), statuses and problems in loc's
// language.
func canvasWording(loc workrun.Localizer) canvas.Wording {
	return canvas.Wording{
		KindLabel:  func(kind string) string { return KindLabel(loc, kind) },
		KindIcon:   KindIcon,
		KindGroups: func() []canvas.PaletteGroup { return KindGroups(loc) },
		Status:     func(s workrun.NodeStatus) string { return statusLabel(loc, string(s)) },
		Problem:    func(p workrun.Problem) string { return p.In(loc.Messages()) },
	}
}

// newNode is what a node added to the open workflow starts with
// (document.Document.NewNode): its kind's name in the window's language
// and the config the kind describes.
func (w *Window) newNode(kind string) (string, json.RawMessage) {
	return KindLabel(w.loc, kind), DefaultConfig(w.loc, kind)
}
