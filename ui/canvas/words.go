package canvas

import "workrun/workrun"

// msgID is a key of the canvas's own words: those no other part of the
// window says. The labels it shares with the window (the palette's) are
// the window's catalogue's, read through the Localizer by key.
type msgID string

const msgEdgeErrorLabel msgID = "ui.edge_error_label"

// The canvas's words are registered so that the Localizer reads them by
// key (Localizer.X).
var _ = workrun.NewCatalog(map[msgID][2]string{
	msgEdgeErrorLabel: {"on error", "出错时"},
})
