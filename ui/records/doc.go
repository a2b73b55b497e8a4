// Package records is the run records widget: past runs in sortable columns
// (workflow, status, started, duration, reason), filtered by workflow and
// status and searched by text (docs/product.md W5).
//
// It reads nothing itself. It asks for a list through OnReload with the
// filter the person set (one page of 200; the store pages and searches, so
// older runs are found too) and shows what the app layer hands back through
// SetRuns, sorted by the column chosen; a search also sends the statuses
// whose name in the window's language contains the text, since the store
// knows statuses only by their English words. A row picked is reported
// through OnOpen, its Open in editor through OnEdit. Labels come from the
// Localizer it is given; a saved reason and a duration are worded by the
// app layer's Wording, so the view holds no error translation. Every call
// is made on the UI goroutine; the view starts no goroutine and calls no
// fyne.Do (docs/ARCHITECTURE.md).
package records
