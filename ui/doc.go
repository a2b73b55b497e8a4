// Package ui is the Workrun desktop window (Fyne). It adds no behaviour the
// command line lacks and never touches SQLite or the network itself: every
// effect goes through the interfaces collected in Deps, which main.go wires.
//
// Threading. Engine events arrive on a channel; one goroutine per subscription
// receives them and changes widgets only inside fyne.Do (STYLE §6), so the
// window is free of data races under -race.
//
// Editing. The canvas edits a Document: a pure Go value holding a
// workrun.Workflow, with commands and an undo stack. Widgets render the
// Document and send it commands; tests drive the Document directly and
// through the widgets.
package ui
