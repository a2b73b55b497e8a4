// Package canvas is the workflow editor's canvas widget (docs/product.md
// W1): View draws a document.Document — nodes as boxes with icon, title,
// status badge and first problem, edges as lines with arrowheads and
// branch labels, a minimap in the corner of a large workflow — and edits
// it only through the Document's commands, so everything it does can be
// undone. Dragging a node moves only that node and its edges until the
// drop, which is one command. Palette lists the node kinds by group under
// a filter and adds one where there is room, or where it is dropped.
//
// It knows no node kind: the app layer hands it each kind's label, icon
// and palette group, and its wording of statuses and problems (Wording),
// with the window's Localizer for its own labels, so it draws in the
// window's language and never the process's. It reports what the person
// did through callback fields (OnSelect, OnError, OnView, OnNodeMenu).
// Every call is made on the UI goroutine; it starts no goroutine and
// calls no fyne.Do (docs/ARCHITECTURE.md).
package canvas
