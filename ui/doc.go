// Package ui is the Workrun desktop window (Fyne). It adds no behaviour the
// command line lacks and never touches SQLite or the network itself: every
// effect goes through the interfaces collected in Deps, which main.go wires.
// Run opens the window; every Deps field may be nil (the window then
// disables what needs it and keeps workflows in memory).
//
// Threading. Engine events arrive on one subscription channel; one goroutine
// receives them and changes widgets only inside fyne.Do (STYLE §6). Keyring
// calls and connection tests also run off the Fyne thread and report back
// through fyne.Do, so a slow D-Bus never freezes the window.
//
// Editing. The canvas edits a Document: a pure Go value holding a
// workrun.Workflow, with commands (add, move, connect, delete, copy/paste,
// duplicate, config changes) and an undo stack of snapshots. The CanvasView
// renders it (nodes with icon, title and status badge; edges with
// arrowheads) and sends it commands; dragging a node moves only that node
// and its edges until the drop, which is one undoable command (SPEC W1).
// fyne.io/x/fyne's diagramwidget was evaluated first: it has draggable
// nodes and links with arrowheads, but no zoom or fit, no undo, and keeps
// its model in its widgets; a small hand-written canvas over the Document
// keeps every edit a testable command and draws 200 nodes in one frame.
//
// Runs. The run panel shows a run's status, failure reason, every node's
// status and time-stamped messages (W5, W6). It offers Stop while running
// ("stopping…" until the engine reports the abort hooks done), Resume only
// for a run interrupted by exit, Approve/Reject and an answer box for runs
// waiting for a person, and Run again (a new run) for failed or stopped
// runs — never Continue (R12). The remote task panel shows the saved remote
// task records and file results with no query, fetch or cancel buttons (R8).
//
// Languages. English and Simplified Chinese through fyne.io/fyne/v2/lang
// with the translations embedded in package assets; a C locale means
// English, quietly. The fixed R11 node messages are shown in the chosen
// language (LocalizeMessage).
package ui
